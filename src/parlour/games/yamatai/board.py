"""Pure board questions: building requirements, groups, prestige neighbours and Collect matchings.

These take plain lists (the state's own arrays) so the rules and the tests can call them directly.
"""

from __future__ import annotations

from collections.abc import Sequence

NO_BUILDING = -1
TORII, PALACE, SACRED_GROUND = 4, 5, 6
"""Island building codes: 0..3 is a Standard Building of that seat, then the neutral pieces."""


def missing_boats(needs: Sequence[int], have: Sequence[int], substitutions: Sequence[tuple[int, int]] = ()) -> int:
    """How many required boats are still missing after the best use of the colour substitutions.

    Each substitution (from, to) relabels at most one adjacent boat of colour `from` as `to`, and a
    boat is relabelled at most once, so a substituted boat never feeds another substitution (R32,
    R46): every substitution must find an original boat of its `from` colour.
    """
    best = 0
    for c in range(5):
        if needs[c] > have[c]:
            best += needs[c] - have[c]
    if best == 0 or not substitutions:
        return best
    usable = [(f, t) for f, t in substitutions if have[f] > 0]
    for mask in range(1, 1 << len(usable)):
        counts = list(have)
        for k, (f, t) in enumerate(usable):
            if mask >> k & 1:
                counts[f] -= 1
                counts[t] += 1
        short = sum(needs[c] - counts[c] for c in range(5) if needs[c] > counts[c])
        if short < best:
            best = short
    return best


def group_size(buildings: Sequence[int], borders: Sequence[Sequence[int]], island: int, seat: int) -> int:
    """Size of `seat`'s group of Standard Buildings through shared borders that contains `island` (R13)."""
    seen = {island}
    todo = [island]
    while todo:
        for other in borders[todo.pop()]:
            if other not in seen and buildings[other] == seat:
                seen.add(other)
                todo.append(other)
    return len(seen)


def prestige_neighbours(buildings: Sequence[int], borders: Sequence[Sequence[int]], island: int) -> int:
    """Bordering islands holding a Torii, a Palace or Sacred Ground (R14, R20)."""
    return sum(1 for other in borders[island] if buildings[other] >= TORII)


def max_matching(picks: Sequence[int], boats: Sequence[int], spot_islands: Sequence[Sequence[int]]) -> int:
    """Largest number of picked islands that distinct placed boats can each account for (R8)."""
    owner: dict[int, int] = {}  # boat spot -> island it takes

    def augment(island: int, visited: set[int]) -> bool:
        for spot in boats:
            if spot in visited or island not in spot_islands[spot]:
                continue
            visited.add(spot)
            if spot not in owner or augment(owner[spot], visited):
                owner[spot] = island
                return True
        return False

    return sum(1 for island in picks if augment(island, set()))
