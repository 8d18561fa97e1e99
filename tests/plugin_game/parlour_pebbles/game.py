"""Pebbles' rules: one heap, take one to three, the last pebble decides."""

from __future__ import annotations

from typing import Any

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State

MOST = 3
"""The most pebbles one move takes."""


class Pebbles(Game):
    name = "pebbles"
    title = "Pebbles"
    summary = "take 1-3 pebbles; the last pebble wins (or loses, misère)"
    perfect_information = True
    max_game_length = 15
    options_spec = (
        Option("players", int, 2, "number of players", choices=(2, 3)),
        Option("misere", bool, False, "whoever takes the last pebble loses"),
    )

    def _build_actions(self) -> list[Action]:
        return [Action(i, f"take {i + 1}", "take", (("pebbles", i + 1),)) for i in range(MOST)]

    def new_state(self, seed: int = 0) -> PebblesState:
        return PebblesState(self, seed, 8 + Rng(seed).randrange(8))


class PebblesState(State):
    __slots__ = ("heap", "to_move", "last_taker")

    def __init__(self, game: Pebbles, seed: int, heap: int) -> None:
        super().__init__(game, seed)
        self.heap = heap
        self.to_move = 0
        self.last_taker = TERMINAL

    def current_player(self) -> int:
        return TERMINAL if self.heap == 0 else self.to_move

    def _legal_now(self) -> list[Action]:
        return list(self.game.actions[: min(MOST, self.heap)])

    def why_illegal(self, action: Action) -> str:
        return f"{action.label!r} takes more than the {self.heap} pebbles left in the heap"

    def _apply(self, action: Action) -> list[Event]:
        taken = action.param("pebbles")
        self.heap -= taken
        self.last_taker = self.to_move
        event = Event("take", f"seat {self.to_move} takes {taken}", {"seat": self.to_move, "pebbles": taken})
        self.to_move = (self.to_move + 1) % self.game.num_players
        return [event]

    def is_terminal(self) -> bool:
        return self.heap == 0

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        if self.game.options["misere"]:
            return [seat for seat in range(self.game.num_players) if seat != self.last_taker]
        return [self.last_taker]

    def scores(self) -> list[Score]:
        won = self.winners()
        return [Score(1.0 if seat in won else 0.0) for seat in range(self.game.num_players)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"heap": self.heap, "to_move": self.current_player(), "misere": self.game.options["misere"]}

    def clone(self) -> PebblesState:
        twin = PebblesState.__new__(PebblesState)
        self._copy_base_into(twin)
        twin.heap, twin.to_move, twin.last_taker = self.heap, self.to_move, self.last_taker
        return twin

    def render(self, seat: int | None = None) -> str:
        return f"heap: {'o' * self.heap} ({self.heap}), seat {self.current_player()} to move"

    def heuristic(self, seat: int) -> float:
        if self.is_terminal():
            return 1.0 if seat in self.winners() else -1.0
        return 0.0
