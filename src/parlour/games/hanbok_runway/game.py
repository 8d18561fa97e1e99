"""Hanbok Runway: the game with its options, and its fixed action space, built once per game from the
component data.

| family  | label                                   | count (designed data)   |
| ------- | --------------------------------------- | ----------------------- |
| draw    | `draw 2 style + 1 fabric`               | every split of 0-3      |
| set     | `set triangle + green/red, earn green`  | symbols x fabric colours |
| pass    | `pass`                                  | 1                       |
| peek    | `peek at green 2`                       | one per token           |
| flip    | `flip opponent's green 2`               | one per token           |
| discard | `discard bell`, `discard green/red`     | symbols + fabric kinds  |

Copies of a card are interchangeable, so actions name a symbol or a colour pair, never a card.
Tokens are named by colour and the queue position they started in (1-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from parlour.engine import Action, Game, Option
from parlour.engine.data import DATA_OPTION, game_components
from parlour.games.hanbok_runway.components import PACKAGE, SYMBOLS, Components, load_components
from parlour.games.hanbok_runway.constants import (
    DISCARD_FABRIC,
    DISCARD_STYLE,
    DRAW_SPLIT,
    FLIP,
    MAKE_SET,
    PASS,
    PEEK,
    Effect,
)
from parlour.games.hanbok_runway.state import HanbokRunwayState

Row = tuple[str, str, tuple[tuple[str, Any], ...], tuple[int, int, int, int]]


COMPONENTS = load_components()
"""The built-in components (the option defaults below come from them)."""


class HanbokRunway(Game):
    name = "hanbok_runway"
    title = "Hanbok Runway"
    summary = "designers pair style and fabric cards into hanbok sets to win influence in six colours"
    perfect_information = False
    max_game_length = 4_000
    # Searches judge each drawn world as it was drawn, and finish the rest of a seat's turn (an
    # oval's target, a second set) greedily before judging it: see docs/bots.md, Hanbok Runway.
    search_defaults: ClassVar[dict[str, Any]] = {"reveal": True, "finish": 2, "fpu": True}
    # Events that show a seat what it could not know (engine.conformance): a draw from a deck of
    # repeated card kinds, and a token's value seen or turned up.
    revealing_events: ClassVar[frozenset[str]] = frozenset({"draw", "earn", "peek", "flip"})
    options_spec = (
        Option("players", int, 2, "number of players", choices=(2,), title="Players"),
        Option(
            "start_player",
            int,
            -1,
            "-1: drawn at random; 0: the first player; 1: the second",
            choices=(-1, 0, 1),
            title="Who starts",
        ),
        Option(
            "safety_turn_cap",
            int,
            COMPONENTS.safety_turn_cap,
            "turns after which the game ends as if triggered (an engine guard, R17; 0: off)",
            minimum=0,
            maximum=100_000,
            title="Turn limit",
        ),
        DATA_OPTION,
    )
    data_package: ClassVar[str] = PACKAGE
    """Where the built-in data files live (records and parlour data export read it)."""

    def __init__(self, **options: Any) -> None:
        # Each game reads its own data set (built-in or a designer's folder), parsed once per content.
        self.data, self.components = game_components(self.name, self.data_package, options, load_components)
        if "safety_turn_cap" not in options:  # a data folder's config.toml sets the default turn limit
            options = {**options, "safety_turn_cap": self.components.safety_turn_cap}
        super().__init__(**options)

    def _build_actions(self) -> list[Action]:
        self.moves = build_moves(self.components)
        # the hot paths of HanbokRunwayState read these directly
        self.effects = self.moves.effects
        self.kind_range = range(len(self.components.fabric_kinds))
        self.symbol_range = range(len(SYMBOLS))
        return self.moves.actions

    def new_state(self, seed: int = 0) -> HanbokRunwayState:
        return HanbokRunwayState.set_up(self, seed)


@dataclass(frozen=True)
class MoveTables:
    """The actions, what each does, and ready-made rows for the hot paths of `legal_actions`."""

    actions: list[Action]
    effects: list[Effect]
    draw_ids: list[list[int]]  # [styles][fabrics] -> action id
    draw_menus: dict[int, list[Action]]  # every split of n cards, when both decks can give n
    set_actions: list[list[Action]]  # [symbol][offer] -> action
    kind_offers: list[list[tuple[int, int]]]  # [fabric kind] -> (offer index, colour) per colour it shows
    pass_id: int
    peek_base: int
    flip_base: int
    discard_style_base: int
    discard_fabric_base: int


def _draw_label(styles: int, fabrics: int) -> str:
    parts = [f"{n} {deck}" for n, deck in ((styles, "style"), (fabrics, "fabric")) if n]
    return "draw " + (" + ".join(parts) if parts else "nothing")


def _draw_rows(comps: Components, rows: list[Row]) -> list[list[int]]:
    biggest = max(comps.initial_draw, comps.draw_per_turn)
    ids = [[-1] * (biggest + 1) for _ in range(biggest + 1)]
    for total in range(biggest + 1):
        for styles in range(total, -1, -1):
            fabrics = total - styles
            ids[styles][fabrics] = len(rows)
            params = (("style", styles), ("fabric", fabrics))
            rows.append((_draw_label(styles, fabrics), "draw", params, (DRAW_SPLIT, styles, fabrics, 0)))
    return ids


def _offers(comps: Components) -> list[tuple[int, int]]:
    """Every (fabric kind, colour) a fabric card can earn: the second half of a set action."""
    return [(kind, colour) for kind, pair in enumerate(comps.fabric_kinds) for colour in pair]


def _set_rows(comps: Components, rows: list[Row]) -> None:
    for symbol, symbol_name in enumerate(SYMBOLS):
        for kind, colour in _offers(comps):
            fabric, earned = comps.kind_labels[kind], comps.colours[colour]
            params = (("style", symbol_name), ("fabric", fabric), ("colour", earned))
            rows.append(
                (f"set {symbol_name} + {fabric}, earn {earned}", "set", params, (MAKE_SET, symbol, kind, colour))
            )


def _token_rows(comps: Components, rows: list[Row], family: str, effect: int) -> None:
    for token in range(len(comps.colours) * comps.tokens_per_colour):
        colour, position = divmod(token, comps.tokens_per_colour)
        name = f"{comps.colours[colour]} {position + 1}"
        label = f"peek at {name}" if family == "peek" else f"flip opponent's {name}"
        params = (("colour", comps.colours[colour]), ("position", position + 1))
        rows.append((label, family, params, (effect, token, 0, 0)))


def build_moves(comps: Components) -> MoveTables:
    rows: list[Row] = []
    draw_ids = _draw_rows(comps, rows)
    set_base = len(rows)
    _set_rows(comps, rows)
    pass_id = len(rows)
    rows.append(("pass", "pass", (), (PASS, 0, 0, 0)))
    peek_base = len(rows)
    _token_rows(comps, rows, "peek", PEEK)
    flip_base = len(rows)
    _token_rows(comps, rows, "flip", FLIP)
    discard_style_base = len(rows)
    for symbol, name in enumerate(SYMBOLS):
        rows.append((f"discard {name}", "discard", (("style", name),), (DISCARD_STYLE, symbol, 0, 0)))
    discard_fabric_base = len(rows)
    for kind, name in enumerate(comps.kind_labels):
        rows.append((f"discard {name}", "discard", (("fabric", name),), (DISCARD_FABRIC, kind, 0, 0)))

    actions = [Action(i, label, family, params) for i, (label, family, params, _) in enumerate(rows)]
    offers = _offers(comps)
    index = {offer: n for n, offer in enumerate(offers)}
    width = len(offers)
    return MoveTables(
        actions=actions,
        effects=[Effect(*effect) for *_, effect in rows],
        draw_ids=draw_ids,
        draw_menus={
            total: [actions[draw_ids[s][total - s]] for s in range(total, -1, -1)] for total in range(len(draw_ids))
        },
        set_actions=[
            actions[set_base + symbol * width : set_base + (symbol + 1) * width] for symbol in range(len(SYMBOLS))
        ],
        kind_offers=[
            [(index[kind, colour], colour) for colour in pair] for kind, pair in enumerate(comps.fabric_kinds)
        ],
        pass_id=pass_id,
        peek_base=peek_base,
        flip_base=flip_base,
        discard_style_base=discard_style_base,
        discard_fabric_base=discard_fabric_base,
    )
