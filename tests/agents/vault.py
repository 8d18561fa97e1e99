"""A tiny compound-move game for testing how a search judges the first part of a move.

Seat 0 either walks away (a shared win: nobody loses) or opens the vault, which takes a second
decision by the same seat: which of six dials to turn. Dial 3 opens it (seat 0 wins alone); any
other dial sets off the alarm (seat 1 wins). Nothing is hidden and nothing is left to chance, so
opening is worth a sure win to a seat that finishes its own move well, and a likely loss to one
that judges the opening by the average of every dial.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State

DIALS = 6
RIGHT_DIAL = 3
WALK, OPEN = DIALS, DIALS + 1


class Vault(Game):
    name = "vault"
    title = "Vault"
    summary = "walk away, or open the vault by turning the one right dial"
    perfect_information = True
    options_spec = (Option("players", int, 2, "number of players", choices=(2,)),)

    def _build_actions(self) -> list[Action]:
        dials = [Action(dial, f"dial {dial}", "dial", (("dial", dial),)) for dial in range(DIALS)]
        return [*dials, Action(WALK, "walk away", "walk", ()), Action(OPEN, "open the vault", "open", ())]

    def new_state(self, seed: int = 0) -> VaultState:
        return VaultState(self, seed)


class VaultState(State):
    __slots__ = ("stage", "result")

    def __init__(self, game: Vault, seed: int) -> None:
        super().__init__(game, seed)
        self.stage = "door"  # "door", then "dials" after opening, then "over"
        self.result: list[int] = []

    def current_player(self) -> int:
        return TERMINAL if self.stage == "over" else 0

    def legal_actions(self) -> list[Action]:
        if self.stage == "door":
            return [self.game.actions[WALK], self.game.actions[OPEN]]
        if self.stage == "dials":
            return list(self.game.actions[:DIALS])
        return []

    def _apply(self, action: Action) -> list[Event]:
        if action.id == OPEN:
            self.stage = "dials"
        else:
            self.stage = "over"
            self.result = [0, 1] if action.id == WALK else [0] if action.id == RIGHT_DIAL else [1]
        return [Event(action.kind, action.label, {})]

    def is_terminal(self) -> bool:
        return self.stage == "over"

    def winners(self) -> list[int]:
        return list(self.result)

    def scores(self) -> list[Score]:
        return [Score(1.0 if seat in self.result else 0.0) for seat in (0, 1)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"stage": self.stage, "result": list(self.result)}

    def clone(self) -> VaultState:
        twin = VaultState.__new__(VaultState)
        self._copy_base_into(twin)
        twin.stage, twin.result = self.stage, list(self.result)
        return twin

    def determinize(self, seat: int, rng: Rng) -> VaultState:
        return self.clone()

    def render(self, seat: int | None = None) -> str:
        return f"vault: {self.stage}"

    def heuristic(self, seat: int) -> float:
        return 0.0  # nothing is decided before the end
