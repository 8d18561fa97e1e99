"""A tournament: which game with which options, which agents, how many games, from which seed.

Everything about one game of a tournament follows from the tournament and the game's index:
who sits where (the games go through every seating order in turn, so every agent plays every seat
equally often and sits after every other agent equally often), the game's seed and each agent's
seed. That is what makes the results the same whatever the number of workers, and
what lets a stopped run resume without repeating or losing a game.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.agents import make_agent, split_specs
from parlour.engine.errors import InvalidOption, ParlourError
from parlour.engine.game import Game
from parlour.engine.registry import game_class, game_classes, load_game, register
from parlour.engine.rng import Rng

FORMAT = "parlour-tournament/2"
"""/2: the games go through every seating order (/1 rotated the seats, keeping who sits after whom)."""


class ArenaError(ParlourError, ValueError):
    """A tournament that cannot be run as asked (bad agents, games, options or output folder)."""


def derive_seed(seed: int, *path: int) -> int:
    """A seed for one part of a tournament (a game, a seat's agent) from the tournament seed.

    Kept below 2**53 so records stay exact wherever JSON numbers are read as doubles.
    """
    value = seed
    for part in path:
        value = Rng(value ^ (part * 0x9E3779B97F4A7C15)).next64()
    return Rng(value).next64() >> 11


def agent_names(specs: Sequence[str]) -> list[str]:
    """Display names of the agents: their specs, numbered when the same spec appears twice."""
    names: list[str] = []
    for spec in specs:
        repeats = sum(1 for other in specs[: len(names)] if other == spec)
        names.append(spec if repeats == 0 and specs.count(spec) == 1 else f"{spec} #{repeats + 1}")
    return names


@dataclass(frozen=True)
class Tournament:
    """What a tournament plays. `options` holds every game option (defaults filled in)."""

    game: str
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    # "module:Class" of a game registered by hand rather than found under parlour.games, so
    # that worker processes (which may not share this process's registry) can register it too.
    game_source: str = ""

    @property
    def players(self) -> int:
        return len(self.agents)

    @property
    def names(self) -> list[str]:
        return agent_names(self.agents)

    def seating(self, index: int) -> list[int]:
        """Which agent (index into `agents`) sits at each seat in game `index`."""
        orders = seating_orders(self.players)
        return list(orders[index % len(orders)])

    def game_seed(self, index: int) -> int:
        return derive_seed(self.seed, index, 0)

    def agent_seed(self, index: int, seat: int) -> int:
        return derive_seed(self.seed, index, 1 + seat)

    def identity(self) -> dict[str, Any]:
        """What must match for a folder's games to belong to this tournament (the count may grow)."""
        return {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "agents": list(self.agents),
            "seed": self.seed,
        }

    def manifest(self) -> dict[str, Any]:
        return {**self.identity(), "games": self.games, "names": self.names}

    def load(self) -> Game:
        register_source(self.game_source)
        return load_game(self.game, **self.options)


MAX_PERMUTED_SEATS = 4
"""Up to this many seats the games go through every seating order (4! = 24); beyond it, through a
balanced Latin square, since 5! = 120 orders would leave most of a tournament's seats unbalanced."""


def seating_orders(players: int) -> list[tuple[int, ...]]:
    """The seating orders a tournament goes through, game after game.

    A cyclic rotation gives every agent every seat but keeps who sits after whom, so in a game
    where the seat after a strong player suffers, one of two identical agents always suffers.
    Every permutation (up to `MAX_PERMUTED_SEATS` seats) removes that; beyond, a Williams design
    gives every agent every seat and every other agent as its neighbour after it equally often.
    """
    if players <= MAX_PERMUTED_SEATS:
        return list(itertools.permutations(range(players)))
    return williams(players)


def williams(players: int) -> list[tuple[int, ...]]:
    """A Williams balanced Latin square: n orders for an even n, 2n (with the mirrors) for an odd n."""
    # The first row is 0, 1, n-1, 2, n-2, …; each further row adds one (mod n) to every entry.
    first = [0]
    low, high = 1, players - 1
    while len(first) < players:
        first.append(low)
        low += 1
        if len(first) < players:
            first.append(high)
            high -= 1
    rows = [tuple((agent + shift) % players for agent in first) for shift in range(players)]
    if players % 2:
        rows += [tuple(reversed(row)) for row in rows]
    return rows


def register_source(source: str) -> None:
    """Register the game class `module:Class` unless the registry knows its name already."""
    if not source:
        return
    module, _, name = source.partition(":")
    cls = getattr(importlib.import_module(module), name)
    if cls.name not in game_classes():
        register(cls)


def source_of(cls: type[Game]) -> str:
    return "" if cls.__module__.startswith("parlour.games.") else f"{cls.__module__}:{cls.__qualname__}"


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """`["variant=beginner", "stones=12"]` -> a dict; the game's own options check the values."""
    options: dict[str, str] = {}
    for pair in pairs:
        for part in pair.split(","):
            key, sep, value = part.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ArenaError(f"option {part!r} is not name=value")
            options[key.strip()] = value.strip()
    return options


MAX_GAMES = 10_000_000


def plan(
    game: str,
    agents: Sequence[str] | str,
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Tournament:
    """Check everything about a tournament before any game is played; raise ArenaError if wrong.

    The game must exist and accept the options, there must be one agent per seat, and every
    agent spec must name an agent with valid parameters.
    """
    specs = split_specs(agents) if isinstance(agents, str) else [s.strip() for s in agents]
    if not specs or any(not spec for spec in specs):
        raise ArenaError(f"--agents needs a comma-separated list of agents, one per seat, got {','.join(specs)!r}")
    if games < 1:
        raise ArenaError(f"--games must be at least 1, got {games}")
    if games > MAX_GAMES:  # the runner lists the games to play: a billion would exhaust the memory first
        raise ArenaError(f"--games must be at most {MAX_GAMES:,}, got {games:,}")
    if seed < 0:
        raise ArenaError(f"--seed must be zero or more, got {seed}")
    given = dict(options or {})
    if "players" in given:
        raise ArenaError("give the player count with --players (or one agent per seat), not as a game option")
    try:
        cls = game_class(game)
    except InvalidOption as error:
        raise ArenaError(str(error)) from None
    counts = cls.player_counts()
    if players is not None and players != len(specs):
        raise ArenaError(
            f"{players} players need {players} agents, one per seat; --agents gives {len(specs)}: {','.join(specs)}"
        )
    if len(specs) not in counts:
        allowed = ", ".join(str(c) for c in counts)
        raise ArenaError(
            f"{cls.name} is played by {allowed} players, but --agents gives {len(specs)}: {','.join(specs)}"
        )
    try:
        loaded = cls(players=len(specs), **given)
        for seat, spec in enumerate(specs):
            make_agent(spec, seat)
    except InvalidOption as error:
        raise ArenaError(str(error)) from None
    return Tournament(
        game=cls.name,
        agents=tuple(specs),
        games=games,
        seed=seed,
        options=dict(loaded.options),
        game_source=source_of(cls),
    )
