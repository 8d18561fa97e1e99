"""How the local and Ray backends hand out games: chunks sized by time, games passed on as lines."""

from __future__ import annotations

import json

from parlour.arena.backends import AHEAD_PER_WORKER, CHUNK_SECONDS, Chunks
from parlour.arena.match import Played, play
from parlour.arena.tournament import plan


def test_the_first_chunk_holds_one_game_and_later_ones_about_a_quarter_second() -> None:
    chunks = Chunks(range(10_000), workers=2)
    assert chunks.take() == [0]
    chunks.timed(games=4, seconds=0.004)  # a millisecond a game
    assert len(chunks.take()) == round(CHUNK_SECONDS / 0.001)


def test_slow_games_go_out_one_at_a_time() -> None:
    chunks = Chunks(range(100), workers=2)
    chunks.timed(games=1, seconds=30.0)
    assert [len(chunks.take()) for _ in range(3)] == [1, 1, 1]


def test_a_chunk_is_never_more_than_a_fair_share_of_what_is_left() -> None:
    chunks = Chunks(range(40), workers=2)
    chunks.timed(games=100, seconds=0.001)  # so fast that time alone would hand out everything
    sizes = []
    while chunk := chunks.take():
        sizes.append(len(chunk))
    assert sum(sizes) == 40
    assert sizes[0] == 40 // (AHEAD_PER_WORKER * 2)
    assert sizes[-3:] == [1, 1, 1]  # the last games are spread over the workers


def test_every_game_is_handed_out_once_in_order() -> None:
    chunks = Chunks([5, 3, 9, 1, 7], workers=1)
    chunks.timed(games=1, seconds=0.0001)
    handed: list[int] = []
    while chunk := chunks.take():
        handed.extend(chunk)
    assert handed == [5, 3, 9, 1, 7]


def test_a_played_game_is_the_same_as_its_record_or_as_its_line() -> None:
    tournament = plan("hatflings", "random,random", 4, seed=3)
    record = play(tournament, 2)
    from_record = Played(2, record=record)
    from_line = Played(2, line=from_record.line)
    assert "\n" not in from_record.line
    assert json.loads(from_record.line) == record
    assert from_line.record == record
    assert from_line.line == from_record.line


def test_a_games_digest_is_its_record_without_the_moves() -> None:
    tournament = plan("hatflings", "random,random", 4, seed=3)
    record = play(tournament, 1)
    digest = Played(1, line=Played(1, record=record).line).digest
    assert digest == {key: record[key] for key in ("game", "options", "seed", "winners", "arena")}


def test_the_pool_and_this_process_give_the_same_games_and_statistics() -> None:
    from parlour.arena.runner import run

    tournament = plan("hatflings", "random,greedy", 12, seed=5)
    alone, pooled = run(tournament, workers=1), run(tournament, workers=2)
    assert pooled.records == alone.records
    assert pooled.summary == alone.summary
