"""The named bot levels and their calibrated ratings (docs/server.md, "Bot levels"), for the lobby's
seat picker, quick play and the ratings page.

The ratings come from `parlour.agents.levels` (its data file, written by the calibration benchmark):
openskill's mu and sigma from two-player round robins among bots, and the ordinal mu - 3 sigma the
server also shows for people. The two pools never met in a rated game, so the numbers share openskill's
scale and starting point but not a common population; `scale` says so in words.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from parlour.agents.levels import LEVELS, calibrations

router = APIRouter()

SCALE = (
    "A level's rating is openskill's mu - 3 sigma, as for people, from games among bots (random, greedy and "
    "the levels, two players); no rated game has set bots against people, so compare the two as a rough guide."
)


@router.get("/api/levels", tags=["client"])
async def levels() -> dict[str, Any]:
    """The levels, weakest first, with the longest each thinks a move, and each calibrated game's
    ratings of the levels and the anchors (random, greedy)."""
    named = [{"name": name, "spec": f"level:{name}", "seconds": seconds} for name, (_, seconds) in LEVELS.items()]
    return {
        "levels": named,
        "games": {game: calibration.to_json() for game, calibration in calibrations().items()},
        "scale": SCALE,
    }
