"""A tiny game with secrets, for testing that the server never leaks them.

Two players each hold one face-down card from a shuffled deck of 1-9. In turn, each may `draw`
(discard their card face up and take the top of the deck, seen only by them) or `stand`; after
two turns each, the higher card wins. A draw produces a private event for the drawer and a
redacted public one for everybody else.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State

TURNS = 4


class Peek(Game):
    name = "peek"
    title = "Peek"
    summary = "hold the higher hidden card after two turns each"
    perfect_information = False
    options_spec = (Option("players", int, 2, "number of players", choices=(2,)),)

    def _build_actions(self) -> list[Action]:
        return [Action(0, "stand", "stand"), Action(1, "draw", "draw")]

    def new_state(self, seed: int = 0) -> PeekState:
        deck = list(range(1, 10))
        Rng(seed).shuffle(deck)
        return PeekState(self, seed, deck)


class PeekState(State):
    __slots__ = ("cards", "deck", "discards", "turn")

    def __init__(self, game: Peek, seed: int, deck: list[int]) -> None:
        super().__init__(game, seed)
        self.cards = [deck.pop(), deck.pop()]
        self.deck = deck
        self.discards: list[int] = []
        self.turn = 0

    def current_player(self) -> int:
        return TERMINAL if self.turn >= TURNS else self.turn % 2

    def legal_actions(self) -> list[Action]:
        return [] if self.is_terminal() else list(self.game.actions)

    def _apply(self, action: Action) -> list[Event]:
        seat = self.current_player()
        self.turn += 1
        if action.kind == "stand":
            return [Event("stand", f"seat {seat} stands", {"seat": seat})]
        self.discards.append(self.cards[seat])
        self.cards[seat] = self.deck.pop()
        return [
            Event("draw", f"seat {seat} draws", {"seat": seat}, audience=(1 - seat,)),
            Event("draw", f"seat {seat} draws a {self.cards[seat]}", {"seat": seat, "card": self.cards[seat]}, (seat,)),
        ]

    def is_terminal(self) -> bool:
        return self.turn >= TURNS

    def winners(self) -> list[int]:
        high = max(self.cards)
        return [seat for seat in (0, 1) if self.cards[seat] == high]

    def scores(self) -> list[Score]:
        return [Score(float(card)) for card in self.cards]

    def view(self, seat: int | None) -> dict[str, Any]:
        shown = [card if self.is_terminal() or seat == owner else None for owner, card in enumerate(self.cards)]
        return {"cards": shown, "discards": list(self.discards), "deck": len(self.deck), "turn": self.turn}

    def clone(self) -> PeekState:
        twin = PeekState.__new__(PeekState)
        self._copy_base_into(twin)
        twin.cards, twin.deck, twin.discards = list(self.cards), list(self.deck), list(self.discards)
        twin.turn = self.turn
        return twin

    def determinize(self, seat: int, rng: Rng) -> PeekState:
        twin = self.clone()
        unseen = [*twin.deck, twin.cards[1 - seat]]
        rng.shuffle(unseen)
        twin.cards[1 - seat] = unseen.pop()
        twin.deck = unseen
        return twin

    def render(self, seat: int | None = None) -> str:
        return str(self.view(seat))

    def heuristic(self, seat: int) -> float:
        return (self.cards[seat] - 5) / 4
