"""The Yamataï game: its options and fixed action space (actions.py builds it)."""

from __future__ import annotations

from typing import Any, ClassVar

from parlour.engine import Action, Game, Option
from parlour.engine.data import DATA_OPTION, game_components
from parlour.games.yamatai.actions import build_actions
from parlour.games.yamatai.components import (
    PACKAGE,
    PLAYERS_BY_COUNT,
    RESOURCES,
    Components,
    load_components,
)
from parlour.games.yamatai.state import YamataiState


class Yamatai(Game):
    name = "yamatai"
    title = "Yamataï"
    summary = "draft fleets, chain boats through the archipelago, build the capital and recruit specialists"
    perfect_information = False
    max_game_length = 8_000
    revealing_events: ClassVar[frozenset[str]] = frozenset({"preview", "round", "game_over"})
    """Steps that may show a seat building tiles or specialists drawn from a deck it could not know
    in order (a preview, the refills at the end of a round), even tiles it has seen before."""
    options_spec = (
        Option("players", int, 4, "number of players", choices=(2, 3, 4), title="Players"),
        Option(
            "max_rounds",
            int,
            30,
            "safeguard: the game ends after this many rounds (0: no limit)",
            minimum=0,
            maximum=99,
            title="Round limit",
        ),
        DATA_OPTION,
    )
    data_package: ClassVar[str] = PACKAGE
    """Where the built-in data files live (records and parlour data export read it)."""
    components: Components

    def __init__(self, **options: Any) -> None:
        # Each game reads its own data set (built-in or a designer's folder), parsed once per content.
        self.data, self.components = game_components(self.name, self.data_package, options, load_components)
        super().__init__(**options)
        self.colours = PLAYERS_BY_COUNT[self.num_players]
        self.power_keys = tuple(tile.power for tile in self.components.fleet)
        self.subs_by_spec = {
            s.index: (RESOURCES.index(s.params["from"]), RESOURCES.index(s.params["to"]))
            for s in self.components.specialists
            if s.power == "substitute_colour"
        }
        self.spec_of = {s.power: s.index for s in self.components.specialists if s.power != "substitute_colour"}
        self.spec_bit = {power: 1 << index for power, index in self.spec_of.items()}
        self.tile_needs = tuple(t.needs for t in self.components.buildings)
        self.tile_total = tuple(sum(t.needs) for t in self.components.buildings)
        self.price_cache: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def _build_actions(self) -> list[Action]:
        return build_actions(self.components)

    def new_state(self, seed: int = 0) -> YamataiState:
        return YamataiState.set_up(self, seed)
