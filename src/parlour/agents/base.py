"""The agent interface and the spec strings that name agents."""

from __future__ import annotations

import abc
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlour.engine.actions import Action
from parlour.engine.compile_hints import mypyc_attr
from parlour.engine.errors import InvalidOption
from parlour.engine.game import State


class AgentSpecError(InvalidOption):
    """An agent spec string that names no agent or gives it a bad parameter."""


@dataclass(frozen=True)
class Budget:
    """What working out one move may cost: seconds of thought and iterations (a search's
    simulations, greedy's samples). None: no limit of that kind."""

    seconds: float | None = None
    iterations: int | None = None

    def beyond(self, cap: Budget) -> str | None:
        """Why this budget asks for more than `cap` allows, or None if it stays within it."""
        if cap.seconds is not None and self.seconds is not None and self.seconds > cap.seconds:
            return f"may think {self.seconds:g} s a move; this server allows at most {cap.seconds:g} s"
        if cap.iterations is not None and self.iterations is not None and self.iterations > cap.iterations:
            return f"asks for {self.iterations:,} iterations a move; this server allows at most {cap.iterations:,}"
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class Thought(abc.ABC):
    """A move being worked out a slice at a time, so that a long search can make way for others."""

    @abc.abstractmethod
    def advance(self, seconds: float) -> Action | None:
        """Think for about `seconds` more (at least one step); the action once decided, else None."""

    @abc.abstractmethod
    def conclude(self) -> Action:
        """Decide now, with what has been worked out so far (the time allowed is over)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Agent(abc.ABC):
    """Picks an action for `state.current_player()`. Must never read what that seat cannot see."""

    spec: str = ""

    @abc.abstractmethod
    def act(self, state: State) -> Action: ...

    def budget(self) -> Budget:
        """What this agent asks to spend on a move; agents of small, fixed work ask for no budget."""
        return Budget()

    def think(self, state: State) -> Thought:
        """Start working out a move in slices; an agent that cannot be interrupted decides in one go."""
        return _InOneGo(self, state)


class _InOneGo(Thought):
    def __init__(self, agent: Agent, state: State) -> None:
        self.agent = agent
        self.state = state

    def advance(self, seconds: float) -> Action:
        return self.agent.act(self.state)

    def conclude(self) -> Action:
        return self.agent.act(self.state)


AgentFactory = Callable[[dict[str, str], int], Agent]
_KINDS: dict[str, tuple[AgentFactory, str]] = {}


def register_agent(kind: str, help_text: str) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: make `factory(params, seed)` the maker of agents of this kind."""

    def wrap(factory: AgentFactory) -> AgentFactory:
        _KINDS[kind] = (factory, help_text)
        return factory

    return wrap


def agent_kinds() -> dict[str, str]:
    _load_builtin_kinds()
    return {kind: help_text for kind, (_, help_text) in sorted(_KINDS.items())}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`"mcts:iterations=1000,c=1.4"` -> `("mcts", {"iterations": "1000", "c": "1.4"})`."""
    kind, colon, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if colon and not rest.strip():
        raise AgentSpecError(f"agent spec {spec!r}: no parameters after ':' (give key=value, or leave out the ':')")
    if rest:
        parts = rest.split(",")
        if kind.strip().lower() == "level" and "=" not in parts[0]:
            params["level"] = parts.pop(0).strip()  # `level:club` names the level
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise AgentSpecError(f"agent spec {spec!r}: {part!r} is not key=value")
            if key.strip() in params:
                raise AgentSpecError(f"agent spec {spec!r}: {key.strip()} is given twice")
            params[key.strip()] = value.strip()
    return kind.strip().lower(), params


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, one per seat, keeping each spec's own parameters.

    `"mcts:iterations=500,c=0.7,random"` -> `["mcts:iterations=500,c=0.7", "random"]`: a part that
    is `key=value` without a kind continues the spec before it.
    """
    specs: list[str] = []
    for part in text.split(","):
        if specs and "=" in part and ":" not in part and ":" in specs[-1]:
            specs[-1] += "," + part.strip()
        else:
            specs.append(part.strip())
    return specs


def make_agent(spec: str, seed: int = 0) -> Agent:
    """The agent a spec string names, seeded. Raises AgentSpecError naming what is wrong."""
    _load_builtin_kinds()
    kind, params = parse_spec(spec)
    if kind not in _KINDS:
        raise AgentSpecError(f"no agent called {kind!r} (agents: {', '.join(sorted(_KINDS))})")
    agent = _KINDS[kind][0](params, seed)
    agent.spec = spec.strip()
    return agent


def number_param(
    params: dict[str, str], name: str, default: float | None, kind: type = float, minimum: float = 0
) -> Any:
    """A numeric agent parameter, with an AgentSpecError for anything else."""
    if name not in params:
        return default
    what = "a whole number" if kind is int else "a number"
    try:
        value = kind(params[name])
    except ValueError:
        raise AgentSpecError(f"agent parameter {name} must be {what}, got {params[name]!r}") from None
    if not math.isfinite(value):
        raise AgentSpecError(f"agent parameter {name} must be {what}, got {params[name]!r}")
    if value < minimum:
        raise AgentSpecError(f"agent parameter {name} must be at least {minimum}, got {value}")
    return value


def choice_param(params: dict[str, str], name: str, default: str, choices: tuple[str, ...]) -> str:
    """A parameter that takes one of a few words, with an AgentSpecError naming them otherwise."""
    value = params.get(name, default).lower()
    if value not in choices:
        raise AgentSpecError(f"agent parameter {name} must be one of {', '.join(choices)}, got {params[name]!r}")
    return value


def seed_param(params: dict[str, str], seed: int) -> int:
    """`seed=N` in a spec overrides the seed the agent is made with."""
    return int(number_param(params, "seed", seed, int))


def check_params(kind: str, params: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(params) - allowed)
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise AgentSpecError(f"agent {kind} has no parameter {unknown[0]!r} (its parameters: {known})")


def _load_builtin_kinds() -> None:
    # Importing the modules registers their kinds; done lazily to keep imports one-way.
    from parlour.agents import greedy, levels, mcts, random_agent, tutorial  # noqa: F401
