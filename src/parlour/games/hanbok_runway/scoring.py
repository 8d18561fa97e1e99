"""Final scoring as pure functions: modified token values (R13), colour awards (R18), the winner (R19)."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.hanbok_runway.components import BELL, TRAPEZOID, TRIANGLE, Components


def modified_value(symbol: int, value: int, components: Components) -> int:
    """A token's influence after its own set's style card (R11, R13); oval and mannequin change nothing."""
    if symbol == TRIANGLE:
        return value + components.triangle_bonus
    if symbol == BELL:
        return -value if value < 0 else value
    if symbol == TRAPEZOID:
        return value * components.trapezoid_factor
    return value


def colour_winner(influence: Sequence[int], minimum: int) -> int | None:
    """The seat that takes a colour's VP token (R18): strictly the most influence, and at least `minimum`."""
    best = max(influence)
    if best < minimum or list(influence).count(best) > 1:
        return None
    return list(influence).index(best)


def colour_stakes(additional: Sequence[int], components: Components) -> list[int]:
    """What each colour is worth: its VP token plus the additional VP tokens lying next to it."""
    return [
        trophies + pile * components.additional_vp_trophies
        for trophies, pile in zip(components.vp_trophies, additional, strict=True)
    ]


def trophies_won(
    influences: Sequence[Sequence[int]], additional: Sequence[int], components: Components
) -> list[list[int]]:
    """Per seat, per colour: the trophies that seat takes in that colour."""
    stakes = colour_stakes(additional, components)
    won = [[0] * len(components.colours) for _ in influences]
    for colour, stake in enumerate(stakes):
        seat = colour_winner([per_seat[colour] for per_seat in influences], components.min_influence_for_vp)
        if seat is not None:
            won[seat][colour] = stake
    return won


def winners(trophies: Sequence[int], sets: Sequence[int]) -> list[int]:
    """R19: most trophies; if tied, fewest sets; if still tied, a shared win."""
    ranking = [(trophies[seat], -sets[seat]) for seat in range(len(trophies))]
    best = max(ranking)
    return [seat for seat, rank in enumerate(ranking) if rank == best]
