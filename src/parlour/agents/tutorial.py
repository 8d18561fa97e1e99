"""The `tutorial` bot: the other seats of a guided first game.

It plays the script's move while the script is on (see parlour.engine.tutorial) and, after it, as
the gentle bot the learner plays on against. The script is public (it is the tutorial's text), so
following it reads nothing its seat may not know.
"""

from __future__ import annotations

from parlour.agents.base import Agent, check_params, make_agent, register_agent, seed_param
from parlour.engine.actions import Action
from parlour.engine.game import State
from parlour.engine.tutorial import GENTLE_BOT, scripted_move, tutorial_of


class TutorialAgent(Agent):
    def __init__(self, seed: int) -> None:
        self.gentle = make_agent(GENTLE_BOT, seed)

    def act(self, state: State) -> Action:
        step = scripted_move(tutorial_of(type(state.game)), state)
        if step is not None:
            for action in state.legal_actions():
                if action.label == step.move:
                    return action
        return self.gentle.act(state)


@register_agent("tutorial", "follows a guided first game's script, then plays as a gentle greedy bot (seed=N)")
def _make_tutorial(params: dict[str, str], seed: int) -> Agent:
    check_params("tutorial", params, {"seed"})
    return TutorialAgent(seed_param(params, seed))
