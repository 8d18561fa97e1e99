"""What the seats know about the building deck's hidden order, and re-drawing a deck from it.

The deck's contents are public (every other tile lies face up somewhere), its order is hidden. Only
the preview power (R43) tells anyone about it, and what it tells lasts until the tiles are drawn:

- the previewer knows the exact order of the tiles it put back on top (`known_top`), until
  someone else looks at them;
- everyone saw which row tile joined the looked-at tiles in an exchange: it lies among them, in
  the top `look` tiles;
- a seat that knew the top tiles exactly and then saw someone else look at them (and not put one
  of them in the row) still knows that those tiles are among the looked-at ones.

Each such fact is a `Within`: (holder, tile, depth), "`tile` lies within the top `depth` tiles",
known to `holder` (a seat, or `EVERYONE`). Depths count from the top of the deck as it will be
once the tiles still in a previewer's hand are back on it: those always go back on top. A draw
from the top removes the fact about the drawn tile and brings every other tile one place up; a
preview gathers every tile somebody knows into the looked-at ones, so every depth becomes at
least the number of tiles looked at. No shuffle happens after set-up, so nothing else ends a fact.
"""

from __future__ import annotations

from collections.abc import Iterable

from parlour.engine import Rng
from parlour.engine.rng import shuffle_draws

EVERYONE = -1
Within = tuple[int, int, int]
"""(holder, tile, depth): `holder` (a seat or EVERYONE) knows `tile` is within the top `depth`."""
Facts = tuple[Within, ...]
Redraw = tuple[Rng, int, tuple[tuple[int, int], ...]]
"""A re-draw not done yet: the generator as it stood, how many items from the bottom it re-draws,
and (depth from the top of that part, tile) for the tiles known to lie near its top."""


# --- keeping the facts up to date --------------------------------------------------------------


def after_draw(facts: Facts, tile: int) -> Facts:
    """The top tile is drawn face up: the fact about it is spent, the others move one place up."""
    return tuple((holder, t, depth - 1) for holder, t, depth in facts if t != tile)


def after_look(facts: Facts, previewer: int, looked_at: Iterable[int], exact_tops: list[list[int]]) -> Facts:
    """`previewer` takes the top tiles in hand (`looked_at`), to put them back in an order of its own.

    `exact_tops[seat]` are the tiles `seat` knew in order on top just before: from now on it knows
    only that they are among the looked-at tiles. The previewer sees every tile in its hand, so
    what it knew about them is spent.
    """
    hand = set(looked_at)
    look = len(hand)
    kept = [(holder, t, max(depth, look)) for holder, t, depth in facts if not (holder == previewer and t in hand)]
    for seat, tops in enumerate(exact_tops):
        if seat != previewer:
            kept.extend((seat, t, look) for t in tops)
    return tuple(kept)


def after_exchange(facts: Facts, to_row: int, to_hand: int, look: int) -> Facts:
    """A looked-at tile goes face up into the row; the row tile it replaces joins the looked-at tiles."""
    return (*((holder, t, depth) for holder, t, depth in facts if t != to_row), (EVERYONE, to_hand, look))


def known_to(facts: Facts, seat: int | None) -> dict[int, int]:
    """Tile -> the least depth `seat` (None: a spectator, who knows what everyone knows) knows it within."""
    depths: dict[int, int] = {}
    for holder, t, depth in facts:
        if holder in (EVERYONE, seat):
            depths[t] = min(depth, depths.get(t, depth))
    return depths


def kept_for(facts: Facts, seat: int) -> Facts:
    """The facts a world re-drawn for `seat` keeps: the public ones and the seat's own.

    What another seat privately remembers names tiles `seat` cannot know, so it is dropped.
    """
    return tuple(fact for fact in facts if fact[0] in (EVERYONE, seat))


# --- re-drawing --------------------------------------------------------------------------------


def redraw_later(rng: Rng, count: int, near_top: dict[int, int]) -> Redraw | None:
    """Note a re-draw of the bottom `count` items and move `rng` on past the draws it takes.

    `near_top` maps each tile known to lie within the top `depth` of those items to that depth.
    """
    if count < 2:
        return None  # one order only, and nothing drawn
    within = tuple(sorted((depth, t) for t, depth in near_top.items())) if near_top else ()
    # The loose tiles' shuffle, then one draw per known tile to place it (`redraw_now`).
    later = rng.defer(shuffle_draws(count - len(within)) + len(within))
    return (later, count, within)


def redraw_now(items: list[int], pending: Redraw) -> None:
    """Do a noted re-draw in place, uniformly among the orders that keep every known tile in its part.

    The items are put in a canonical order first, so the result depends only on which items they
    are and on the generator, never on the hidden order they lay in. The known tiles are placed
    from the most tightly known, each on a free place drawn at random among the top `depth`: every
    order that keeps the facts is as likely as any other.
    """
    rng, count, within = pending
    rng = rng.clone()  # the noted generator is shared by clones: leave it as it was
    unknown = sorted(items[:count])
    if not within:
        rng.shuffle(unknown)
        items[:count] = unknown
        return
    known = {t for _, t in within}
    if not known.issubset(unknown):
        raise ValueError(f"building tiles {sorted(known - set(unknown))} are known near the top but not re-drawn")
    loose = [t for t in unknown if t not in known]
    rng.shuffle(loose)
    top_down = [-1] * count  # index 0 is the top of the part re-drawn
    for depth, t in within:
        free = [place for place in range(min(depth, count)) if top_down[place] < 0]
        if not free:
            raise ValueError(f"no place for building tile {t} within the top {depth}: the facts contradict")
        top_down[free[rng.randrange(len(free))]] = t
    rest = iter(loose)
    items[:count] = [t if t >= 0 else next(rest) for t in reversed(top_down)]
