"""Final scoring as a pure function of one player's belongings (rulebook scoring, R24-R26)."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import Score
from parlour.games.yamatai.components import Specialist


def player_score(
    coins: int,
    pp_tokens: int,
    built_pp: Sequence[int],
    specialists: Sequence[Specialist],
    culture_held: int,
    reserved_unbuilt: int,
    unused_boats: int,
    turn_position: int,
) -> Score:
    """One player's prestige points with their breakdown.

    `turn_position` is the player's earliest place in the final round's turn order (0 = first);
    the tie-break favours the earliest, so it is stored negated (a larger tie-break wins).
    """
    powers = {s.power: s.params for s in specialists}
    coin_rate = int(powers["coin_rate"]["coins_per_pp"]) if "coin_rate" in powers else 5
    breakdown: dict[str, float] = {
        "coins": coins // coin_rate,
        "prestige tokens": pp_tokens,
        "buildings": sum(built_pp),
        "specialists": sum(s.pp for s in specialists),
    }
    if "leftover_culture" in powers:
        breakdown["leftover culture"] = culture_held // int(powers["leftover_culture"]["tokens_per_pp"])
    breakdown["reserved tiles unbuilt"] = -reserved_unbuilt
    breakdown["unused boats"] = -(unused_boats // 2)
    return Score(float(sum(breakdown.values())), breakdown, (-float(turn_position),))


def winners(scores: Sequence[Score]) -> list[int]:
    """The best total; among tied players the one who played earliest in the final round (R26)."""
    best = max(s.total for s in scores)
    tied = [seat for seat, s in enumerate(scores) if s.total == best]
    return [max(tied, key=lambda seat: scores[seat].tiebreak)]
