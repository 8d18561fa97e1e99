"""Named levels: `level:novice` ... `level:master`, each a bot spec with a bounded time per move.

A level is the same name in every game; what it plays may differ by game (`GAME_SPECS`), where a
game's measurements showed another setting stronger at the same time (a learned evaluator where
one is shipped and proved itself). Every level thinks at most `MAX_SECONDS` a move, a time a
server can afford. Each level's rating, calibrated on openskill from round robins among the levels
with random and greedy as anchors (`benchmarks/levels_calibration.py`), is read from one data file,
`level_ratings.json` beside this module (`level_ratings`); docs/bots.md shows the same tables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from parlour.agents.base import (
    Agent,
    AgentSpecError,
    Budget,
    Thought,
    check_params,
    make_agent,
    parse_spec,
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


RATINGS_FILE = "level_ratings.json"
"""The calibrated ratings, per game, written by benchmarks/levels_calibration.py."""


@dataclass(frozen=True)
class LevelRating:
    """An entrant's openskill rating from the calibration's round robins (two-player games)."""

    name: str  # "level:club", or an anchor: "random", "greedy"
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating, mu - 3 sigma: the number the server shows for people too."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Calibration:
    """A game's calibration: how it was measured and every entrant's rating."""

    game: str
    players: int
    games_per_pair: int
    games: int
    ratings: dict[str, LevelRating]

    def anchored(self, name: str) -> float:
        """An entrant's mu on the scale where random is 0 and greedy 1000."""
        low, high = self.ratings["random"].mu, self.ratings["greedy"].mu
        return 1000 * (self.ratings[name].mu - low) / (high - low)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games_per_pair": self.games_per_pair,
            "games": self.games,
            "ratings": {
                name: {
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "rating": round(rating.ordinal, 1),
                    "anchored": round(self.anchored(name)),
                }
                for name, rating in self.ratings.items()
            },
        }


@cache
def calibrations() -> dict[str, Calibration]:
    """Every calibrated game's ratings, from `level_ratings.json` (read once)."""
    text = resources.files("parlour.agents").joinpath(RATINGS_FILE).read_text(encoding="utf-8")
    found = {}
    for game, entry in json.loads(text)["games"].items():
        ratings = {
            name: LevelRating(name, float(value["mu"]), float(value["sigma"]))
            for name, value in entry["ratings"].items()
        }
        found[game] = Calibration(
            game, int(entry["players"]), int(entry["games_per_pair"]), int(entry["games"]), ratings
        )
    return found


def level_rating(level: str, game: str) -> LevelRating | None:
    """A level's calibrated rating in a game (`level` with or without `level:`); None if not calibrated."""
    calibration = calibrations().get(game)
    name = level if level.startswith("level:") else f"level:{level}"
    return calibration.ratings.get(name) if calibration is not None else None


def level_words(spec: str, game: str, players: int = 2) -> str | None:
    """A level seat in words with its rating, for a person choosing or meeting it; None unless `spec`
    names a known level: "Club (rating 17.4 in hatflings: openskill mu - 3 sigma from two-player games
    among bots)"."""
    try:
        kind, params = parse_spec(spec)
    except AgentSpecError:
        return None
    level = params.get("level", "").lower()
    if kind.lower() != "level" or level not in LEVELS:
        return None
    calibration = calibrations().get(game)
    if calibration is None:
        return f"{level.capitalize()} (not rated in {game} yet)"
    rating = calibration.ratings[f"level:{level}"].ordinal
    among = f"{'two' if calibration.players == 2 else calibration.players}-player games among bots"
    other = "" if players == calibration.players else f"; this table has {players} players"
    return f"{level.capitalize()} (rating {rating:.1f} in {game}: openskill mu - 3 sigma from {among}{other})"


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
