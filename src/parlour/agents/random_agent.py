"""The random agent: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

from parlour.agents.base import Agent, check_params, register_agent, seed_param
from parlour.engine.actions import Action
from parlour.engine.game import State
from parlour.engine.rng import Rng


class RandomAgent(Agent):
    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


@register_agent("random", "a uniformly random legal move (seed=N)")
def _make_random(params: dict[str, str], seed: int) -> Agent:
    check_params("random", params, {"seed"})
    return RandomAgent(seed_param(params, seed))
