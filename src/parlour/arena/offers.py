"""Which components each seat was offered, and when: the availability a component's statistics match on.

A component (a flag, a specialist, a building tile…) is *offered* to a seat at a decision when one
of the seat's legal moves there would take it; what a move takes is what the game's own feature
extractor counts for that move alone (`parlour.arena.extras`), so the arena knows no game by name.
For every decision at which a seat was offered a component, the record keeps its context, fixed
before the seat chose: how far into the game it came (which third of the game's moves) and the
seat's standing then (behind, level or ahead: its total score against the best other seat's, as
last seen once a round; level before the first look), and whether the seat took the component
there. `parlour.arena.components` compares takers and passers within those contexts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.arena.extras import MOVE_PREFIX
from parlour.engine.game import Game, State
from parlour.engine.package import feature_extractor

_TAKES: dict[int, tuple[Game, State, dict[int, tuple[str, ...]]]] = {}
MAX_KEPT_GAMES = 8
"""Games whose moves' components a worker keeps worked out (one per setup, like `match.game_for`)."""


def is_component(feature: str) -> bool:
    """A component is a game feature named `kind: name`; the generic move kinds are not components."""
    return ": " in feature and not feature.startswith(MOVE_PREFIX)


def takes(state: State, action_id: int) -> tuple[str, ...]:
    """The components move `action_id` would take, as the game's extractor counts that move alone."""
    return _taker(state)(action_id)


def _taker(state: State) -> Callable[[int], tuple[str, ...]]:
    """The game's move → components lookup, worked out once per move id and kept per game."""
    game: Game = state.game
    extractor = feature_extractor(type(game))
    if extractor is None:
        return lambda action_id: ()
    entry = _TAKES.get(id(game))
    if entry is None or entry[0] is not game:
        if len(_TAKES) >= MAX_KEPT_GAMES:
            del _TAKES[next(iter(_TAKES))]
        entry = _TAKES[id(game)] = (game, state.clone(), {})
    _, probe, known = entry

    def lookup(action_id: int) -> tuple[str, ...]:
        found = known.get(action_id)
        if found is None:
            # A one-move history on a clone: extractors read only the game, the moves and who made them.
            probe.history = [action_id]
            counted = extractor.seat_features(probe, [0])[0]
            found = known[action_id] = tuple(sorted(n for n, v in counted.items() if v > 0 and is_component(n)))
        return found

    return lookup


PHASES = 3
"""A game is cut into this many equal parts of its moves: the moment a decision is matched on."""


def standing_sign(standing: float) -> int:
    """-1 behind, 0 level, 1 ahead."""
    return (standing > 0) - (standing < 0)


class Offers:
    """Every decision at which a seat was offered a component, and whether it took it there.

    Kept per seat and component as cells of the decision's context, "part sign" (the part of the
    game, 0 to PHASES - 1; behind -1, level 0 or ahead 1): {cell: 1 if the seat took it at a decision
    in that cell, else 0}. A seat offered a component ten times while behind early on is one cell, so
    a seat that passes often does not weigh more than one that passes once.
    """

    def __init__(self, players: int) -> None:
        self.seen: list[dict[str, list[tuple[int, int, bool]]]] = [{} for _ in range(players)]

    def decided(self, state: State, seat: int, legal: Sequence[int], chosen: int, standing: float) -> None:
        """Note the components the seat's legal moves (ids) would take here, and which `chosen` took.

        Called before the chosen move is applied (the move number is the decision's)."""
        move, sign = len(state.history), standing_sign(standing)
        lookup = _taker(state)
        taken = lookup(chosen)
        offered: set[str] = set()
        for found in map(lookup, set(legal)):
            if found:
                offered.update(found)
        seen = self.seen[seat]
        for name in offered:
            seen.setdefault(name, []).append((move, sign, name in taken))

    def to_json(self, length: int) -> list[dict[str, dict[str, int]]]:
        """Each seat's cells per component, once the game's length (its number of moves) is known."""
        found: list[dict[str, dict[str, int]]] = []
        for seat in self.seen:
            cells: dict[str, dict[str, int]] = {}
            for name in sorted(seat):
                own = cells[name] = {}
                for move, sign, took in seat[name]:
                    cell = f"{min(PHASES - 1, PHASES * move // max(1, length))} {sign}"
                    own[cell] = max(own.get(cell, 0), int(took))
            found.append(cells)
        return found
