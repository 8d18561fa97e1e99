"""The review of a finished table: offered for finished tables only, computed once within its bound,
with progress, and cut to what each viewer may know."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from parlour.agents import review as reviewing
from parlour.server import Settings

from .conftest import LiveServer, play_to_end, wait_until


def reviewed(server: LiveServer, table_id: str, token: str | None = None, timeout: float = 120) -> dict[str, Any]:
    """Ask for the review until it is done; every answer before is a 202 with its progress."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline = time.monotonic() + timeout
    while True:
        answer = server.http.get(f"/api/tables/{table_id}/review", headers=headers)
        body = answer.json()
        if answer.status_code == 200:
            return dict(body)
        assert answer.status_code == 202, answer.text
        assert body["status"] == "running" and 0 <= body["done"] <= body["total"]
        assert time.monotonic() < deadline, "the review did not finish in time"
        time.sleep(0.1)


def finished_table(server: LiveServer, game: str, seed: int) -> tuple[str, dict[str, Any]]:
    """A table of a person (playing seeded random moves) against greedy, played to its end."""
    table = server.create(game, ["human", "greedy"], seed=seed)
    seat = server.join(table["id"], "Ann")
    player = server.connect(table["id"], seat["token"])
    refused = server.http.get(f"/api/tables/{table['id']}/review")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_finished"
    play_to_end(player, seed=seed)
    player.close()
    wait_until(lambda: server.table(table["id"])["status"] == "finished")
    return table["id"], seat


def test_a_hidden_information_game_is_reviewed_once_and_each_viewer_reads_only_what_it_saw(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(rate=10_000.0, burst=10_000, review_iterations=20, review_seconds=30.0)
    table_id, ann = finished_table(server, "hanbok_runway", 4)
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    plies = len(record["actions"])
    mine = reviewed(server, table_id, ann["token"])
    assert mine["status"] == "done" and mine["total"] == plies
    review = mine["review"]
    assert review["viewer"] == ann["seat"] and review["scale"] == "winning chance"
    assert len(review["chances"]) == plies + 1
    assert all(value is not None and 0 <= value <= 1 for row in review["chances"] for value in row)
    assert (
        review["chances"][-1] == [1.0 if seat in record["winners"] else 0.0 for seat in range(2)]
        or len(record["winners"]) > 1
    )
    # Ann sees her own costly moves with what the bot prefers; greedy's judged moves read the
    # token values greedy alone knew, so Ann gets only their number.
    assert all(mistake["seat"] == ann["seat"] for mistake in review["mistakes"])
    assert review["mistakes"], "a seat playing random moves makes costly ones"
    first = review["mistakes"][0]
    assert first["preferred"] in first["words"] and f"move {first['step']}" in first["words"]
    # Nobody else (a spectator, the other seat's viewer) learns what Ann alone knew.
    spectator = reviewed(server, table_id)["review"]
    assert spectator["viewer"] is None and spectator["mistakes"] == []
    assert spectator["hidden_mistakes"] == len(review["mistakes"]) + review["hidden_mistakes"]
    assert all(value is None for row in spectator["chances"][:-1] for value in row)
    assert spectator["chances"][-1] == review["chances"][-1]  # the result, which everybody sees
    shown = json.dumps(spectator)
    assert not any(mistake["preferred"] in shown for mistake in review["mistakes"])
    # Computed once: the three answers above came from one computation.
    assert server.app.state.reviews.computed == 1
    bad = server.http.get(f"/api/tables/{table_id}/review", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"


def test_an_open_game_shows_everybody_every_chance_and_every_costly_move(serve: Callable[..., LiveServer]) -> None:
    server = serve(rate=10_000.0, burst=10_000, review_iterations=30, review_top=20)
    table_id, ann = finished_table(server, "hatflings", 2)
    spectator = reviewed(server, table_id)["review"]
    mine = reviewed(server, table_id, ann["token"])["review"]
    assert all(value is not None for row in spectator["chances"] for value in row)
    assert spectator["mistakes"] == mine["mistakes"] and spectator["hidden_mistakes"] == 0
    assert {mistake["seat"] for mistake in spectator["mistakes"]} <= {0, 1} and spectator["mistakes"]


def test_reviews_beyond_the_queue_are_refused_until_one_ends(serve: Callable[..., LiveServer]) -> None:
    # One review at a time and none waiting; a long bound keeps the first one running.
    server = serve(rate=10_000.0, burst=10_000, review_iterations=100_000, review_seconds=3.0, review_queue=0)
    first, _ = finished_table(server, "hatflings", 2)
    second, _ = finished_table(server, "hatflings", 3)
    assert server.http.get(f"/api/tables/{first}/review").status_code == 202
    busy = server.http.get(f"/api/tables/{second}/review")
    assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
    assert reviewed(server, first)["review"]["decisions"] > 0  # the bound shortened each search
    assert reviewed(server, second)["status"] == "done"


def test_a_review_that_fails_says_so_and_is_not_started_again(
    serve: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve(rate=10_000.0, burst=10_000)
    table_id, _ = finished_table(server, "hatflings", 2)
    calls: list[int] = []

    def broken(*_args: object, **_kwargs: object) -> None:
        calls.append(1)
        raise RuntimeError("no review today")

    monkeypatch.setattr(reviewing, "review", broken)
    assert server.http.get(f"/api/tables/{table_id}/review").status_code == 202
    wait_until(lambda: server.http.get(f"/api/tables/{table_id}/review").status_code == 500)
    answer = server.http.get(f"/api/tables/{table_id}/review")
    assert answer.json()["error"] == {
        "code": "review_failed",
        "message": "this game could not be reviewed: RuntimeError",
    }
    assert calls == [1]


@pytest.mark.parametrize(
    ("name", "value"),
    [("review_seconds", 0.0), ("review_threads", 0), ("review_iterations", 0), ("review_cache", 0), ("review_top", 0)],
)
def test_review_bounds_are_checked(name: str, value: float) -> None:
    with pytest.raises(ValueError, match=name):
        Settings(**{name: value})  # type: ignore[arg-type]
