"""A tiny hidden-information game for testing the bots: beat the middle card to take it.

Cards 1..N, one of each. A card lies face up in the middle; every player holds a small hidden
hand. On your turn you play a card face up: if it beats the middle card you take the middle card
(scoring its value) and yours becomes the middle card; otherwise yours is discarded. Then you
draw a card at random from the face-down deck (the state's generator decides which), if any is
left. When every hand is empty the highest score wins (ties share the win).

What a seat cannot see: the rivals' hands, which cards are still in the deck rather than in a
rival's hand, and which card the generator will draw next.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State


class Skim(Game):
    name = "skim"
    title = "Skim"
    summary = "beat the middle card to take it; hands are hidden"
    perfect_information = False
    options_spec = (
        Option("players", int, 2, "number of players", choices=(2, 3)),
        Option("cards", int, 12, "cards in the game, valued 1..cards", minimum=6, maximum=30),
        Option("hand", int, 2, "cards in each hand", minimum=1, maximum=4),
    )

    def _build_actions(self) -> list[Action]:
        count = self.options["cards"]
        return [Action(value - 1, f"play {value}", "play", (("card", value),)) for value in range(1, count + 1)]

    state_class: type[SkimState]

    def new_state(self, seed: int = 0) -> SkimState:
        rng = Rng(seed)
        deck = list(range(1, self.options["cards"] + 1))
        rng.shuffle(deck)
        middle = deck.pop()
        hands = [sorted(deck.pop() for _ in range(self.options["hand"])) for _ in range(self.num_players)]
        return self.state_class(self, seed, rng, middle, hands, sorted(deck))


class SkimState(State):
    __slots__ = ("rng", "middle", "hands", "deck", "discard", "taken", "mover")

    def __init__(self, game: Skim, seed: int, rng: Rng, middle: int, hands: list[list[int]], deck: list[int]) -> None:
        super().__init__(game, seed)
        self.rng = rng
        self.middle = middle
        self.hands = hands
        self.deck = deck
        self.discard: list[int] = []
        self.taken = [0] * game.num_players
        self.mover = 0

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.mover

    def legal_actions(self) -> list[Action]:
        return [self.game.actions[card - 1] for card in self.hands[self.mover]] if not self.is_terminal() else []

    def _apply(self, action: Action) -> list[Event]:
        card = action.param("card")
        hand = self.hands[self.mover]
        hand.remove(card)
        if card > self.middle:
            self.taken[self.mover] += self.middle
            self.middle = card
        else:
            self.discard.append(card)
        if self.deck:
            hand.append(self.deck.pop(self.rng.randrange(len(self.deck))))
            hand.sort()
        event = Event("play", f"seat {self.mover} plays {card}", {"seat": self.mover, "card": card})
        # A seat whose hand ran out (the deck is empty by then) is skipped until the game ends.
        for step in range(1, self.game.num_players + 1):
            following = (self.mover + step) % self.game.num_players
            if self.hands[following]:
                self.mover = following
                break
        return [event]

    def is_terminal(self) -> bool:
        return not any(self.hands)

    def scores(self) -> list[Score]:
        return [Score(float(points)) for points in self.taken]

    def winners(self) -> list[int]:
        best = max(self.taken)
        return [seat for seat, points in enumerate(self.taken) if points == best]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "middle": self.middle,
            "taken": list(self.taken),
            "discard": list(self.discard),
            "hand_sizes": [len(hand) for hand in self.hands],
            "deck_size": len(self.deck),
            "hand": list(self.hands[seat]) if seat is not None else None,
            "to_move": self.current_player(),
        }

    def clone(self) -> SkimState:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        twin.rng = self.rng.clone()
        twin.middle, twin.mover = self.middle, self.mover
        twin.hands = [hand.copy() for hand in self.hands]
        twin.deck, twin.discard, twin.taken = self.deck.copy(), self.discard.copy(), self.taken.copy()
        return twin

    def determinize(self, seat: int, rng: Rng) -> SkimState:
        twin = self.clone()
        # Everything the seat has not seen, in a fixed order first, so the result depends only on
        # what the seat can see and on `rng`.
        unseen = sorted(card for other, hand in enumerate(self.hands) if other != seat for card in hand)
        unseen = sorted(unseen + self.deck)
        rng.shuffle(unseen)
        for other, hand in enumerate(self.hands):
            if other != seat:
                twin.hands[other] = sorted(unseen.pop() for _ in hand)
        twin.deck = sorted(unseen)
        twin.rng = Rng(rng.next64())
        return twin

    def render(self, seat: int | None = None) -> str:
        hand = f", your hand {self.hands[seat]}" if seat is not None else ""
        return f"middle {self.middle}, taken {self.taken}{hand}"

    def heuristic(self, seat: int) -> float:
        # Points already taken decide; a high card in hand is worth a little as a future threat.
        rivals = max(points for other, points in enumerate(self.taken) if other != seat)
        threat = max(self.hands[seat], default=0) / self.game.options["cards"]
        margin = self.taken[seat] - rivals + threat
        total = self.game.options["cards"] * 2
        return max(-1.0, min(1.0, margin / total))


class OpenSkimState(SkimState):
    __slots__ = ()

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**super().view(seat), "hands": [list(hand) for hand in self.hands]}

    def determinize(self, seat: int, rng: Rng) -> SkimState:
        # Only the generator's future is hidden: which card the next draw brings.
        twin = self.clone()
        twin.rng = Rng(rng.next64())
        return twin


class OpenSkim(Skim):
    """Skim with every hand face up: perfect information, but the draws are still chance."""

    name = "open_skim"
    title = "Open Skim"
    summary = "Skim with the hands face up"
    perfect_information = True
    state_class = OpenSkimState


Skim.state_class = SkimState
