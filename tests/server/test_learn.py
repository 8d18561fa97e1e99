"""Learn to play, below the browser: each game's script fits its rules, the tutorial bot follows it
and then plays on, the lobby serves it, and `parlour learn` coaches in the terminal."""

from __future__ import annotations

import dataclasses

import pytest

from parlour.agents import make_agent
from parlour.engine.errors import InvalidOption
from parlour.engine.registry import game_class
from parlour.engine.tutorial import LEARNER, replay, tutorial_of
from parlour.learn import LearnSession, tutorial_table

from .conftest import LiveServer

GAMES = ["hanbok_runway", "hatairo", "hatflings", "yamatai"]


@pytest.mark.parametrize("game", GAMES)
def test_each_script_fits_the_rules_and_the_bot_follows_it(game: str) -> None:
    cls = game_class(game)
    tutorial = tutorial_of(cls)
    assert not replay(tutorial, cls).is_terminal()
    assert tutorial.seats() == ["human"] + ["tutorial"] * (tutorial.players - 1)
    assert all(step.say and (step.seat != LEARNER or step.why) for step in tutorial.steps)
    state = cls(**tutorial.game_options()).new_state(tutorial.seed)
    bot = make_agent("tutorial", 5)
    for step in tutorial.steps:
        if step.seat == LEARNER:
            state.apply(step.move)
        else:
            assert bot.act(state).label == step.move
            state.apply(step.move)
    # Past the script the bot plays on as the gentle bot: some legal move.
    while state.current_player() == LEARNER:
        state.apply(state.legal_actions()[0])
    assert state.is_legal(bot.act(state))


def test_a_step_that_does_not_fit_is_named() -> None:
    cls = game_class("hatflings")
    tutorial = tutorial_of(cls)
    broken = dataclasses.replace(tutorial.steps[2], move="place normal at f6")
    steps = (*tutorial.steps[:2], broken, *tutorial.steps[3:])
    with pytest.raises(InvalidOption, match="step 3: 'place normal at f6' is not legal"):
        replay(dataclasses.replace(tutorial, steps=steps), cls)
    with pytest.raises(InvalidOption, match="step 2: seat 0 is not to move"):
        replay(dataclasses.replace(tutorial, steps=(tutorial.steps[0], tutorial.steps[2])), cls)


def test_the_lobby_serves_each_tutorial(server: LiveServer) -> None:
    answer = server.http.get("/api/games/hatairo/tutorial")
    assert answer.status_code == 200
    body = answer.json()
    assert body["seats"] == ["human", "tutorial"] and body["options"] == {"players": 2}
    assert body["steps"][0] == tutorial_of(game_class("hatairo")).steps[0].to_json()
    missing = server.http.get("/api/games/nim/tutorial")
    assert missing.status_code == 404 and "no guided first game" in missing.json()["error"]["message"]
    unknown = server.http.get("/api/games/chess/tutorial")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"
    games = {game["name"]: game for game in server.http.get("/api/games").json()}
    assert games["hatairo"]["tutorial"] is True and games["nim"]["tutorial"] is False


def test_the_terminal_lesson_refuses_other_moves_and_ends_in_a_real_game() -> None:
    cls = game_class("hatflings")
    tutorial, table = tutorial_table(cls)
    mine = [step.move for step in tutorial.steps if step.seat == LEARNER]
    entries = iter(["place normal at a1", *mine, "quit"])
    said: list[str] = []
    session = LearnSession(tutorial, table, ask=lambda _prompt: next(entries), say=said.append)
    assert session.run() == 0
    text = "\n".join(said)
    assert "Lesson, step 1: Bring a normal halfling onto c1" in text
    assert "Not in this lesson" in text  # a1 is legal in the game, not in the lesson
    assert text.index("Not in this lesson") < text.index("Lesson, step 2")
    assert "Purple landed on e4" in text  # the bot's scripted move is explained
    assert "Lesson over." in text
    assert table.state.history[: len(tutorial.steps)] == [
        cls(**tutorial.game_options()).action(step.move).id for step in tutorial.steps
    ]
