"""Every weights file a game ships: it loads for its game, fits the tensor layout the game's encoder
builds today, judges positions within range (and a known one as it did when trained), agrees with
its card, and a search judged by it plays a whole legal game."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from parlour.agents import make_agent
from parlour.agents.learned import evaluator as learned
from parlour.agents.learned.weights import fit_of
from parlour.engine import Rng
from parlour.engine.game import Game, State
from parlour.engine.registry import game_classes
from parlour.interop.encoding import state_tensor

from .test_real_games import midgame


def shipped_games() -> list[tuple[str, int]]:
    """(game, players) for every weights file in a game's folder."""
    found = []
    for name, cls in sorted(game_classes().items()):
        for players in cls.player_counts():
            if learned.shipped_path(cls(players=players)) is not None:
                found.append((name, players))
    return found


SHIPPED = shipped_games()


def test_the_games_that_ship_weights() -> None:
    # Adding or removing a weights file is a change to the bots: name it here.
    assert SHIPPED == [("hatflings", 2)]


def loaded(name: str, players: int) -> tuple[Game, learned.LearnedEvaluator]:
    game = game_classes()[name](players=players)
    evaluator = learned.shipped(game)
    assert evaluator is not None
    return game, evaluator


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_the_weights_fit_the_game_and_its_card(name: str, players: int) -> None:
    game, evaluator = loaded(name, players)
    weights = evaluator.net.weights
    assert weights.fit == fit_of(game)  # game, players, tensor length, action count, layout digest
    assert weights.policy is not None  # the search's PUCT priors come from it
    path = learned.shipped_path(game)
    assert path is not None and path.stat().st_size < 4 * 2**20
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["weights"] == path.name and card["bytes"] == path.stat().st_size
    assert card["fits"] == {
        "game": name,
        "players": players,
        "tensor_size": weights.fit.tensor_size,
        "num_actions": weights.fit.num_actions,
        "layout": weights.fit.layout,
    }
    assert card["training"]["hidden"] == weights.hidden
    # What the card claims of the held-out positions: the value learned something.
    assert card["validation"]["value_mse"] < card["value_mse_of_saying_zero"]


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_the_weights_judge_positions_within_range(name: str, players: int) -> None:
    _, evaluator = loaded(name, players)
    judged = []
    for seed in range(3):
        state = midgame(name, players, seed, 6 + 9 * seed)
        legal = state.legal_actions()
        values, priors = evaluator.judge(state, legal)
        assert len(values) == players and all(np.isfinite(values)) and all(-1 <= v <= 1 for v in values)
        assert set(priors) == {action.id for action in legal}
        assert sum(priors.values()) == pytest.approx(1.0)
        judged.append(values)
    assert len({tuple(values) for values in judged}) > 1  # trained weights tell positions apart


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_a_search_judged_by_the_weights_plays_a_legal_game(name: str, players: int) -> None:
    game, _ = loaded(name, players)
    state = game.new_state(seed=5)
    searcher = make_agent("mcts:eval=learned,puct=1,iterations=6", seed=1)
    rng = Rng(5)
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        # Seat 0 searches with the weights; the others move at random, to keep the game short.
        action = searcher.act(state) if seat == 0 else rng.choice(legal)
        assert action in legal
        state.apply(action)
        moves += 1
    assert moves > 0 and len(state.returns()) == players


def _position_after(game: Game, seed: int, moves: int) -> State:
    state = game.new_state(seed=seed)
    chooser = Rng(5)
    for _ in range(moves):
        state.apply(chooser.choice(state.legal_actions()))
    return state


def test_the_hatflings_evaluator_judges_as_trained() -> None:
    game = game_classes()["hatflings"](players=2)
    state = _position_after(game, seed=3, moves=12)
    tensors = [hashlib.sha256(state_tensor(state, seat).tobytes()).hexdigest()[:16] for seat in (0, 1)]
    assert tensors == ["6751664ec929f9e3", "876035469a4fbe25"]  # the tensor's bytes, as trained
    assert fit_of(game).layout == "1d68c7403d100b03"
    evaluator = learned.shipped(game)
    assert evaluator is not None
    assert evaluator.values(state) == pytest.approx([-0.34495, 0.37943], abs=1e-4)
