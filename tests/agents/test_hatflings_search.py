"""MCTS on Hatflings! endgames solved exactly: it finds the forced win and avoids the forced loss.

Each position has no specials, one or two pool halflings and no barrel (so no chance), and is
solved by exhaustive search inside the test; the greedy bot gets every one of them wrong, so they
need real lookahead.
"""

from __future__ import annotations

import pytest

from parlour.agents import make_agent
from parlour.agents.greedy import GreedyAgent

from .hatflings_positions import endgame, move_values

DEPTH = 6

FORCED_WINS = [
    # layout, pool, pig, the only winning move
    (
        {"a2": "Y", "c5": "Y", "e4": "Y", "c2": "Y", "e1": "P", "b1": "P", "d2": "P", "e6": "column"},
        2,
        "b5",
        "jump c2 over d2 to e2",
    ),
    ({"a4": "Y", "f3": "Y", "d5": "P", "a1": "P", "b4": "P", "a5": "P", "c4": "box"}, 2, "d3", "jump a4 over b4 to c4"),
    ({"f1": "Y", "d3": "Y", "c1": "P", "f5": "P", "b1": "tree"}, 2, "f2", "place normal at d2"),
]

FORCED_LOSSES = [
    # layout, pool, pig, the moves that do not lose
    (
        {"d4": "Y", "c6": "Y", "a1": "P", "e2": "P", "c4": "P", "f2": "P", "e1": "column"},
        2,
        "a4",
        {"jump d4 over c4 to b4"},
    ),
    ({"d3": "Y", "c3": "Y", "f2": "P", "c1": "P", "b1": "box"}, 2, "f3", {"place normal at b2"}),
    (
        {"b5": "Y", "b4": "Y", "a2": "Y", "a1": "Y", "c1": "P", "d6": "P"},
        2,
        "e6",
        {"place normal at b1", "place normal at b2"},
    ),
]


@pytest.mark.parametrize(("layout", "pool", "pig", "winning"), FORCED_WINS)
def test_mcts_finds_the_forced_win(layout: dict[str, str], pool: int, pig: str, winning: str) -> None:
    state = endgame(layout, pool=pool, pig=pig)
    values = move_values(state, DEPTH)
    assert [label for label, value in values.items() if value == 1.0] == [winning]
    assert GreedyAgent(seed=1).act(state).label != winning
    for seed in range(2):
        assert make_agent("mcts:iterations=1000", seed).act(state).label == winning


@pytest.mark.parametrize(("layout", "pool", "pig", "safe"), FORCED_LOSSES)
def test_mcts_avoids_the_forced_loss(layout: dict[str, str], pool: int, pig: str, safe: set[str]) -> None:
    state = endgame(layout, pool=pool, pig=pig)
    values = move_values(state, DEPTH)
    assert {label for label, value in values.items() if value is not None and value > -1.0} == safe
    assert all(value is not None for value in values.values())
    assert GreedyAgent(seed=1).act(state).label not in safe
    for seed in range(2):
        assert make_agent("mcts:iterations=1000", seed).act(state).label in safe
