"""The levels and their ratings, for the browser's seat picker, quick play and ratings page."""

from __future__ import annotations

from parlour.agents.levels import LEVELS, calibrations

from .conftest import LiveServer


def test_the_levels_come_with_every_calibrated_games_ratings(server: LiveServer) -> None:
    answer = server.http.get("/api/levels")
    assert answer.status_code == 200
    body = answer.json()
    assert [level["spec"] for level in body["levels"]] == [f"level:{name}" for name in LEVELS]
    assert set(body["games"]) == set(calibrations())
    club = calibrations()["hatflings"].ratings["level:club"]
    shown = body["games"]["hatflings"]["ratings"]["level:club"]
    assert shown["rating"] == round(club.mu - 3 * club.sigma, 1) and shown["mu"] == club.mu
    assert body["games"]["hatflings"]["ratings"]["random"]["anchored"] == 0
    assert "no rated game has set bots against people" in body["scale"]
