"""Hand-built positions of the small test games."""

from __future__ import annotations

import parlour
from parlour.engine import Rng

from .skim import SkimState


def skim_position(
    hands: list[list[int]], middle: int, deck: list[int], generator: int = 0, game: str = "skim"
) -> SkimState:
    """A Skim position with seat 0 to move; every card not placed is in the discard."""
    rules = parlour.load_game(game, players=len(hands))
    state = rules.new_state(0)
    assert isinstance(state, SkimState)
    state.hands = [sorted(hand) for hand in hands]
    state.middle = middle
    state.deck = sorted(deck)
    placed = {middle, *deck, *(card for hand in hands for card in hand)}
    state.discard = [card for card in range(1, rules.options["cards"] + 1) if card not in placed]
    state.rng = Rng(generator)
    return state
