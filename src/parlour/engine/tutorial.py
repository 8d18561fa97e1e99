"""Guided first games: a built position and a scripted few turns, each step saying what to do and why.

Every game keeps its tutorial in its own package, as `tutorial.py` exposing `TUTORIAL` (a
`Tutorial`), so that all four have the same shape. A tutorial is a fixed deal (`seed`, `players`,
`options`) and the moves of its first plies in order (`steps`): the learner sits at seat 0, the
others are played by the `tutorial` bot, which follows the script and then plays on as a gentle bot.
The web client and `parlour learn` both read the same steps and check the learner's moves against
them; `replay` checks the script itself against the rules.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game, State

LEARNER = 0
"""The seat the learner takes: the script's seat 0."""

GENTLE_BOT = "greedy:samples=1"
"""The bot the learner plays on against once the script is over (and which fills in for it)."""


@dataclass(frozen=True)
class Step:
    """One scripted move: `move` is the action's label, played by `seat`.

    For the learner's steps `say` tells what to do and `why` why it is a good idea; `wrong` is said
    when the learner picks something else (a default says so generally). For the other seats' steps
    `say` tells what they did and what it means for the learner."""

    seat: int
    move: str
    say: str
    why: str = ""
    wrong: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.move, "say": self.say, "why": self.why, "wrong": self.wrong}


@dataclass(frozen=True)
class Tutorial:
    """A game's guided first game: the deal, a welcome, the scripted steps and a closing word; and
    for the lobby's card of the game, a line on what it is like (`feel`) and how long a game takes
    (`minutes`, a range)."""

    seed: int
    players: int
    welcome: str
    steps: tuple[Step, ...]
    goodbye: str
    feel: str
    minutes: tuple[int, int]
    options: dict[str, Any] = field(default_factory=dict)

    def game_options(self) -> dict[str, Any]:
        return {"players": self.players, **self.options}

    def seats(self) -> list[str]:
        """The table's seats: the learner, then the scripted bots."""
        return ["human"] + ["tutorial"] * (self.players - 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "players": self.players,
            "options": self.game_options(),
            "seats": self.seats(),
            "welcome": self.welcome,
            "steps": [step.to_json() for step in self.steps],
            "goodbye": self.goodbye,
            "feel": self.feel,
            "minutes": list(self.minutes),
        }


def tutorial_of(cls: type[Game]) -> Tutorial:
    """The tutorial kept beside a game's rules (its package's `tutorial` module)."""
    package = cls.__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.tutorial")
    except ModuleNotFoundError:
        raise InvalidOption(f"{cls.title} has no guided first game yet") from None
    tutorial = getattr(module, "TUTORIAL", None)
    if not isinstance(tutorial, Tutorial):
        raise InvalidOption(f"{cls.title}'s tutorial module exposes no TUTORIAL")
    return tutorial


def scripted_move(tutorial: Tutorial, state: State) -> Step | None:
    """The script's step for this position (by the number of moves played), if it is still on."""
    ply = len(state.history)
    if ply >= len(tutorial.steps):
        return None
    step = tutorial.steps[ply]
    return step if step.seat == state.current_player() else None


def replay(tutorial: Tutorial, cls: type[Game]) -> State:
    """Play the whole script from its deal; raises InvalidOption naming the first step that does
    not fit (another seat to move, or a move that is not legal there). The position after it."""
    state = cls(**tutorial.game_options()).new_state(tutorial.seed)
    for number, step in enumerate(tutorial.steps, 1):
        if state.is_terminal() or state.current_player() != step.seat:
            raise InvalidOption(f"{cls.name} tutorial step {number}: seat {step.seat} is not to move")
        legal = {action.label: action for action in state.legal_actions()}
        if step.move not in legal:
            raise InvalidOption(f"{cls.name} tutorial step {number}: {step.move!r} is not legal there")
        state.apply_legal(legal[step.move])
    if state.is_terminal():
        raise InvalidOption(f"{cls.name} tutorial: the script must leave a game to play on")
    return state
