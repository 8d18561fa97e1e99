"""A tiny game used to test the engine on its own: take 1-3 stones, taking the last one wins.

The starting pile size is drawn from the seed, so chance and determinize are exercised too.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State


class Nim(Game):
    name = "nim"
    title = "Nim"
    summary = "take 1-3 stones; whoever takes the last stone wins"
    perfect_information = True
    options_spec = (
        Option("players", int, 2, "number of players", choices=(2,)),
        Option("stones", int, 0, "starting pile (0: drawn from the seed, 10-20)", minimum=0, maximum=99),
    )

    def _build_actions(self) -> list[Action]:
        return [Action(i, f"take {i + 1}", "take", (("stones", i + 1),)) for i in range(3)]

    def new_state(self, seed: int = 0) -> NimState:
        stones = self.options["stones"] or 10 + Rng(seed).randrange(11)
        return NimState(self, seed, stones)


class NimState(State):
    __slots__ = ("pile", "mover")

    def __init__(self, game: Nim, seed: int, pile: int) -> None:
        super().__init__(game, seed)
        self.pile = pile
        self.mover = 0

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.mover

    def legal_actions(self) -> list[Action]:
        return list(self.game.actions[: min(3, self.pile)]) if self.pile else []

    def why_illegal(self, action: Action) -> str:
        return f"only {self.pile} stones are left"

    def _apply(self, action: Action) -> list[Event]:
        taken = action.param("stones")
        self.pile -= taken
        event = Event("take", f"seat {self.mover} takes {taken}", {"seat": self.mover, "stones": taken})
        if self.pile:
            self.mover = 1 - self.mover
        return [event]

    def is_terminal(self) -> bool:
        return self.pile == 0

    def winners(self) -> list[int]:
        return [self.mover]

    def scores(self) -> list[Score]:
        return [Score(1.0 if self.is_terminal() and seat == self.mover else 0.0) for seat in (0, 1)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.current_player()}

    def clone(self) -> NimState:
        twin = NimState.__new__(NimState)
        self._copy_base_into(twin)
        twin.pile, twin.mover = self.pile, self.mover
        return twin

    def determinize(self, seat: int, rng: Rng) -> NimState:
        return self.clone()

    def render(self, seat: int | None = None) -> str:
        return f"pile: {'o' * self.pile} ({self.pile})"

    def heuristic(self, seat: int) -> float:
        winning = self.pile % 4 != 0
        return 0.5 if winning == (seat == self.mover) else -0.5
