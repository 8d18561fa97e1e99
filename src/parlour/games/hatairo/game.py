"""The Hatairo game: its options, variants and fixed action space (moves.py builds the table)."""

from __future__ import annotations

from typing import Any, ClassVar

from parlour.engine import Action, Game, InvalidOption, Option
from parlour.engine.data import DATA_OPTION, game_components
from parlour.games.hatairo.components import PACKAGE, load_components
from parlour.games.hatairo.constants import MARKET_TABLE, VARIANTS
from parlour.games.hatairo.moves import (
    ActionTable,
    build_table,
)
from parlour.games.hatairo.scoring import ROWS
from parlour.games.hatairo.state import HatairoState


def neighbours(columns: int) -> tuple[tuple[int, ...], ...]:
    """R20: the up-to-8 orthogonal and diagonal neighbours of every Gallery cell."""
    around = []
    for cell in range(ROWS * columns):
        row, column = divmod(cell, columns)
        around.append(
            tuple(
                r * columns + c
                for r in range(row - 1, row + 2)
                for c in range(column - 1, column + 2)
                if (r, c) != (row, column) and 0 <= r < ROWS and 0 <= c < columns
            )
        )
    return tuple(around)


class Hatairo(Game):
    name = "hatairo"
    title = "Hatairo"
    summary = "paint flags of the world into your gallery; motifs and topography reward the arrangement"
    perfect_information = False
    max_game_length = 6_000
    # A completion is a chain of sub-decisions by one seat (flag, space, each payment): the search
    # finishes it greedily before judging a leaf and then keeps to the continuations that do well
    # (first-play urgency) rather than averaging every poor payment; a low exploration constant
    # because the heuristic's values differ by little. Measured against greedy seats (docs/bots.md).
    search_defaults: ClassVar[dict[str, Any]] = {"c": 0.05, "finish": 6, "fpu": True}
    # Events that show a seat what it could not know (engine.conformance): the set-up reveal and
    # Market refills from the Flag Supply (which may hold cards she saw during a draft); and a
    # passed hand, which tells her which of the cards she knew its last holder drafted.
    revealing_events: ClassVar[frozenset[str]] = frozenset({"reveal", "refill"})
    passing_events: ClassVar[frozenset[str]] = frozenset({"pass_hands"})
    options_spec = (
        Option("players", int, 2, "number of players (1 = solo mode)", choices=(1, 2, 3, 4), title="Players"),
        Option(
            "beginner",
            bool,
            False,
            "beginner's game: 3x3 gallery, 9 flags, 3 topography spaces",
            title="Beginner's game",
        ),
        Option(
            "variant",
            str,
            "standard",
            "motif: one mixed motif pile; drafting: draft the 3 starting flags",
            choices=VARIANTS,
            title="Variant",
        ),
        DATA_OPTION,
    )
    data_package: ClassVar[str] = PACKAGE
    """Where the built-in data files live (records and parlour data export read it)."""

    def __init__(self, **options: Any) -> None:
        # A data folder may change what flags, motifs and tiles score (components.Points); the rules
        # read these values from the game, parsed once per content.
        self.data, self.components = game_components(self.name, self.data_package, options, load_components)
        super().__init__(**options)
        if self.options["players"] == 1 and "drafting" in self.options["variant"]:
            raise InvalidOption("hatairo: the drafting variant needs 2-4 players (solo mode keeps 3 of 9 flags)")
        self.columns = 3 if self.options["beginner"] else 4
        self.solo = self.options["players"] == 1
        # Solo mode always plays the motif variant (rulebook, Solo Mode 2).
        self.single_pile = self.solo or "motif" in self.options["variant"]
        self.drafting = "drafting" in self.options["variant"]
        self.market_rows = MARKET_TABLE[self.options["players"]]
        self.neighbours = neighbours(self.columns)

    def _build_actions(self) -> tuple[Action, ...]:
        self.table: ActionTable = build_table(3 if self.options["beginner"] else 4)
        return self.table.actions

    def new_state(self, seed: int = 0) -> HatairoState:
        return HatairoState.set_up(self, seed)
