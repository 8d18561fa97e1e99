"""What a position hides from a seat, declared part by part, so the engine's `State.determinize` can
re-draw it the same way for every game.

A game's state class lists its hidden parts in `hidden`, in the order they are re-drawn (the order
fixes which draws of the search's generator each part takes, so it is part of the game's
behaviour). `determinize(seat, rng)` clones the position and lets each part re-draw itself in the
clone:

- `Generator()`: the generator's future (every game with chance has it);
- `Deck("style_deck", ...)`: lists whose order is hidden but whose contents are known (sorted, then
  shuffled, so the copy depends only on what the seat sees);
- `Piles("piles")`: a list of such decks;
- `Rule("_redraw_fleet")`: a re-draw only the game knows how to keep consistent with what the seat
  was told (a hand it passed, a tile it saw put back), a method of the state `(seat, rng) -> None`;
- `Forget("_values")`: caches worked out from hidden values, dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.engine.rng import Rng

if TYPE_CHECKING:
    from parlour.engine.game import State


class Generator:
    """The position's generator (field `field`): its future is unknown to every seat."""

    def __init__(self, field: str = "rng") -> None:
        self.field = field

    def redraw(self, twin: State[Any], seat: int, rng: Rng) -> None:
        setattr(twin, self.field, rng.spawn())


def _shuffle(cards: list[Any], rng: Rng, sparingly: bool) -> None:
    cards.sort()  # a fixed order first: the copy must not depend on the real order
    if sparingly:
        rng.shuffle_sparingly(cards)
    else:
        rng.shuffle(cards)


class Deck:
    """Lists (each a field) whose contents every seat can tell but whose order none can."""

    def __init__(self, *fields: str, sparingly: bool = False) -> None:
        self.fields = fields
        self.sparingly = sparingly

    def redraw(self, twin: State[Any], seat: int, rng: Rng) -> None:
        for field in self.fields:
            _shuffle(getattr(twin, field), rng, self.sparingly)


class Piles:
    """A field holding several decks (a list of lists), each shuffled on its own."""

    def __init__(self, field: str, sparingly: bool = False) -> None:
        self.field = field
        self.sparingly = sparingly

    def redraw(self, twin: State[Any], seat: int, rng: Rng) -> None:
        for pile in getattr(twin, self.field):
            _shuffle(pile, rng, self.sparingly)


class Rule:
    """The game's own re-draw: the state's method `method(seat, rng)`, run on the copy."""

    def __init__(self, method: str) -> None:
        self.method = method

    def redraw(self, twin: State[Any], seat: int, rng: Rng) -> None:
        getattr(twin, self.method)(seat, rng)


class Forget:
    """Fields caching what was worked out from the real hidden values: set to None in the copy."""

    def __init__(self, *fields: str) -> None:
        self.fields = fields

    def redraw(self, twin: State[Any], seat: int, rng: Rng) -> None:
        for field in self.fields:
            setattr(twin, field, None)


Hidden = Generator | Deck | Piles | Rule | Forget
"""One hidden part of a position: the five kinds above, each with `redraw(twin, seat, rng)`, which
re-draws that part in the copy `twin` (a game's own re-draw is a `Rule`)."""
