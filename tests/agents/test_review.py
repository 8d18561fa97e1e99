"""The review of a finished game: prospects per seat, costly moves, hidden information, time, cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
from parlour.agents import make_agent
from parlour.agents.review import (
    Settings,
    _judge,
    cached_review,
    prospects,
    prospects_seen_by,
    public_seats,
    render,
    review,
)
from parlour.cli import app
from parlour.engine import Rng
from parlour.engine.errors import RecordError
from parlour.engine.records import full_record

from .test_real_games import midgame


def finished_record(name: str = "hatflings", seed: int = 3) -> dict[str, object]:
    game = parlour.load_game(name)
    state = game.new_state(seed=seed)
    agents = [make_agent("greedy", 1), make_agent("random", 2)]
    while not state.is_terminal():
        state.apply(agents[state.current_player()].act(state))
    return full_record(state)


def test_a_review_follows_every_move_and_names_the_costly_ones() -> None:
    record = finished_record()
    found = review(record, Settings(iterations=60, max_seconds=60, top=3))
    moves = len(record["actions"])  # type: ignore[arg-type]
    assert len(found.prospects) == moves + 1 and found.complete
    final = parlour.replay(record).returns()
    assert found.prospects[-1] == final
    assert found.chances()[-1] == [(1 + value) / 2 for value in final]
    assert 0 < len(found.mistakes) <= 3
    assert [m.cost for m in found.mistakes] == sorted((m.cost for m in found.mistakes), reverse=True)
    worst = found.mistakes[0]
    assert worst.cost > 0 and worst.played != worst.preferred
    assert f"move {worst.step}, Player {worst.seat + 1} played" in worst.words(2)


def test_an_unfinished_game_is_not_reviewed() -> None:
    state = parlour.load_game("hatflings").new_state(seed=1)
    state.apply(state.legal_actions()[0])
    with pytest.raises(RecordError, match="not finished"):
        review(full_record(state), Settings(iterations=10))


def test_the_time_bound_stops_the_searches_and_says_so() -> None:
    record = finished_record()
    ticks = iter(range(1000))  # a clock that moves one second each time it is read
    found = review(record, Settings(iterations=20, max_seconds=4), clock=lambda: float(next(ticks)))
    assert not found.complete and found.decisions == 3  # read at 1, 2, 3 (searched), then 4 (over)
    assert len(found.prospects) == len(record["actions"]) + 1  # type: ignore[arg-type]
    assert "The time bound ran out: only the first 3 decisions were searched." in render(found)


def test_a_review_is_kept_and_found_again(tmp_path: Path) -> None:
    record = finished_record()
    settings = Settings(iterations=30, max_seconds=60)
    first, cached = cached_review(record, settings, tmp_path)
    assert not cached and len(list(tmp_path.iterdir())) == 1
    again, cached = cached_review(record, settings, tmp_path)
    assert cached and again == first
    _, cached = cached_review(record, Settings(iterations=31, max_seconds=60), tmp_path)
    assert not cached  # other settings, another review


def test_hidden_information_judged_only_with_what_the_seat_knew() -> None:
    state = midgame("hanbok_runway", 2, 2, 20)
    seat = state.current_player()
    twin = state.determinize(seat, Rng(7))
    assert twin.value != state.value  # type: ignore[attr-defined]
    assert prospects(twin, 5)[seat] == prospects(state, 5)[seat]
    played = state.legal_actions()[-1].id
    settings = Settings(iterations=80)
    assert _judge(twin, played, 21, settings, 60.0) == _judge(state, played, 21, settings, 60.0)


def test_each_viewer_judges_the_others_from_its_own_view_only() -> None:
    state = midgame("hanbok_runway", 2, 2, 20)
    viewer = 1 - state.current_player()
    twin = state.determinize(viewer, Rng(9))  # the same position to the viewer, other hidden values
    assert twin.value != state.value  # type: ignore[attr-defined]
    assert prospects_seen_by(twin, viewer, 4) == prospects_seen_by(state, viewer, 4)
    assert public_seats(state) == [False, False]  # each seat knows token values a spectator does not


def test_a_review_says_what_each_audience_may_read() -> None:
    hidden = review(finished_record("hanbok_runway", 5), Settings(iterations=15, max_seconds=60, top=4))
    plies = len(hidden.prospects)
    assert [len(rows) for rows in hidden.seen_by] == [plies, plies]
    for viewer, rows in enumerate(hidden.seen_by):
        assert [row[viewer] for row in rows] == [row[viewer] for row in hidden.prospects]
    assert not any(hidden.public[0]) and not any(mistake.public for mistake in hidden.mistakes)
    assert all(hidden.public[-1])  # the result: everybody sees it
    open_game = review(finished_record(), Settings(iterations=15, max_seconds=60, top=4))
    assert all(all(row) for row in open_game.public)  # Hatflings! hides nothing
    assert open_game.mistakes and all(mistake.public for mistake in open_game.mistakes)


def test_the_command_prints_the_review_and_refuses_bad_records(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    runner = CliRunner()
    result = runner.invoke(app, ["review", str(path), "--iterations", "20", "--no-cache", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output.splitlines()[-1])
    assert shown["format"] == "parlour-review/2" and shown["cached"] is False
    result = runner.invoke(app, ["review", str(path), "--iterations", "20", "--no-cache"])
    assert result.exit_code == 0 and "Player 1:" in result.output and "winning chance" in result.output
    costly = [line for line in result.output.splitlines() if "(costly: move" in line]
    assert costly and all(line.lstrip().startswith("^") for line in costly)
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    result = runner.invoke(app, ["review", str(broken)])
    assert result.exit_code == 1 and "error:" in result.output
