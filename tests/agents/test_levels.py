"""Named levels: each is a bot spec with a bounded time per move, usable wherever a spec is."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import parlour
from parlour.agents import AgentSpecError, make_agent, parse_spec, split_specs
from parlour.agents.levels import LEVELS, MAX_SECONDS, LevelAgent, calibrations, level_rating, level_spec, level_words
from parlour.cli import app
from parlour.engine.registry import game_classes
from parlour.play import TerminalSession, seat_table

from ..cli.scripted import typed


def test_every_level_thinks_within_the_servers_bound() -> None:
    for level, (_, seconds) in LEVELS.items():
        assert seconds <= MAX_SECONDS
        for game in game_classes():
            agent = make_agent(level_spec(level, game))
            budget = agent.budget()
            # A level's spec is bounded by its time, or by a small fixed number of iterations.
            assert (budget.seconds is not None and budget.seconds <= seconds) or (
                budget.iterations is not None and budget.iterations <= 100
            ), (level, game, agent.spec)


def test_a_level_is_named_like_any_other_spec() -> None:
    assert parse_spec("level:club") == ("level", {"level": "club"})
    assert parse_spec("level:club,seed=4") == ("level", {"level": "club", "seed": "4"})
    assert split_specs("human,level:club,greedy") == ["human", "level:club", "greedy"]
    agent = make_agent("level:club", 3)
    assert isinstance(agent, LevelAgent) and agent.level == "club"
    assert agent.budget().seconds == LEVELS["club"][1]


def test_unknown_levels_are_refused_by_name() -> None:
    with pytest.raises(AgentSpecError, match="no level called 'grandmaster' \\(levels: novice, casual"):
        make_agent("level:grandmaster")
    with pytest.raises(AgentSpecError, match="needs a level's name"):
        make_agent("level")


def test_a_level_plays_the_game_it_is_given() -> None:
    game = parlour.load_game("hatflings")
    state = game.new_state(seed=2)
    agent = make_agent("level:novice", 1)
    action = agent.act(state)
    assert action in state.legal_actions()
    assert make_agent("level:novice", 1).act(game.new_state(seed=2)) == action  # seeded


def test_play_takes_a_level_as_a_seat() -> None:
    result = CliRunner().invoke(app, ["play", "nim", "--seats", "human,level:wizard"])
    assert result.exit_code == 2 and "no level called 'wizard'" in result.output
    said: list[str] = []
    table = seat_table(parlour.load_game("nim", stones=3), ["human", "level:casual"], seed=1)
    session = TerminalSession(table, ask=typed(["1", "1", "1", "1"]), say=said.append)
    session.run()
    assert any(line.startswith("Level (Player 2): takes") for line in said)


def test_every_calibrated_game_rates_every_level_and_both_anchors() -> None:
    found = calibrations()
    assert {"hatflings"} <= set(found)
    for game, calibration in found.items():
        assert game in game_classes() and calibration.players == 2 and calibration.games > 0
        assert set(calibration.ratings) == {"random", "greedy", *(f"level:{name}" for name in LEVELS)}
        assert calibration.anchored("random") == 0 and calibration.anchored("greedy") == pytest.approx(1000)
        rating = calibration.ratings["level:club"]
        assert level_rating("club", game) == rating and rating.ordinal == rating.mu - 3 * rating.sigma


def test_play_says_each_level_and_its_rating_when_the_game_starts() -> None:
    club = calibrations()["hatflings"].ratings["level:club"].ordinal
    result = CliRunner().invoke(
        app, ["play", "hatflings", "--seats", "human,level:club", "--seed", "3"], input="quit\n"
    )
    shown = " ".join(result.output.split())
    assert f"is a bot of level Club (rating {club:.1f} in hatflings: openskill mu - 3 sigma" in shown
    assert (
        level_words("greedy", "hatflings") is None and level_words("level:club", "nim") == "Club (not rated in nim yet)"
    )
    assert "this table has 3 players" in (level_words("level:master", "hatflings", players=3) or "")
