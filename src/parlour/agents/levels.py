"""Named levels: `level:novice` ... `level:master`, each a bot spec with a bounded time per move.

A level is the same name in every game; what it plays may differ by game (`GAME_SPECS`), where a
game's measurements showed another setting stronger at the same time (a learned evaluator where
one is shipped and proved itself). Every level thinks at most `MAX_SECONDS` a move, a time a
server can afford. Each level's rating, calibrated on openskill from round robins among the levels
with random and greedy as anchors, is in docs/bots.md (`benchmarks/levels_calibration.py`).
"""

from __future__ import annotations

from parlour.agents.base import (
    Agent,
    AgentSpecError,
    Budget,
    Thought,
    check_params,
    make_agent,
    register_agent,
    seed_param,
)
from parlour.engine.actions import Action
from parlour.engine.game import Game, State

MAX_SECONDS = 2.0
"""The most a level may think per move."""

LEVELS: dict[str, tuple[str, float]] = {
    "novice": ("mcts:iterations=10", 0.1),
    "casual": ("greedy", 0.1),
    "club": ("mcts:seconds=0.1", 0.1),
    "expert": ("mcts:seconds=0.4", 0.4),
    "master": ("mcts:seconds=1", 1.0),
}
"""Each level, weakest first: its spec in every game (unless `GAME_SPECS` says otherwise) and the
longest it thinks per move (what the server's budget check reads)."""

GAME_SPECS: dict[str, dict[str, str]] = {}
"""Per game, the levels whose spec differs there (same time per move)."""


def level_spec(level: str, game: str) -> str:
    """The bot spec a level plays in a game."""
    if level not in LEVELS:
        raise AgentSpecError(f"no level called {level!r} (levels: {', '.join(LEVELS)})")
    return GAME_SPECS.get(game, {}).get(level, LEVELS[level][0])


class LevelAgent(Agent):
    """Plays as its level's spec for whichever game it is given (made on the first move)."""

    def __init__(self, level: str, seed: int = 0) -> None:
        level_spec(level, "")  # an unknown level is refused when the agent is made
        self.level = level
        self.seed = seed
        self._agents: dict[int, Agent] = {}

    def playing(self, game: Game) -> Agent:
        key = id(game)
        if key not in self._agents:
            self._agents[key] = make_agent(level_spec(self.level, game.name), self.seed)
        return self._agents[key]

    def act(self, state: State) -> Action:
        return self.playing(state.game).act(state)

    def think(self, state: State) -> Thought:
        return self.playing(state.game).think(state)

    def budget(self) -> Budget:
        return Budget(seconds=LEVELS[self.level][1])


@register_agent("level", f"a named level of play: level:{'|'.join(LEVELS)} (at most {MAX_SECONDS:g} s a move)")
def _make_level(params: dict[str, str], seed: int) -> Agent:
    check_params("level", params, {"level", "seed"})
    if "level" not in params:
        raise AgentSpecError(f"agent level needs a level's name: level:{'|'.join(LEVELS)}")
    return LevelAgent(params["level"].lower(), seed_param(params, seed))
