"""The engine protocol: what every game provides, and what is the same for all of them.

A game package subclasses `Game` (the rules with fixed options: player count, action space,
component data) and `State` (one position). Subclasses implement the methods marked abstract;
`State.apply` here checks legality before the game's own `_apply` runs, so a refused action never
changes anything.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from parlour.engine.actions import Action, Event
from parlour.engine.errors import IllegalAction
from parlour.engine.options import Option, validate_options
from parlour.engine.rng import Rng

TERMINAL = -1
"""What `current_player()` returns once the game is over."""


@dataclass(frozen=True)
class Score:
    """One seat's final score: the total that decides the game and how it was made up."""

    total: float
    breakdown: dict[str, float] = field(default_factory=dict)
    tiebreak: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": dict(self.breakdown), "tiebreak": list(self.tiebreak)}


class Game(abc.ABC):
    """A game with its options fixed. Cheap to keep, shared by all its states."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    options_spec: ClassVar[tuple[Option, ...]]
    perfect_information: ClassVar[bool]
    max_game_length: ClassVar[int] = 10_000
    """An upper bound on the number of decisions in one game, for adapters that must declare one
    (OpenSpiel's `max_game_length`); a game sets its own, with room above the longest game seen."""
    search_defaults: ClassVar[dict[str, Any]] = {}
    """Settings the search bots use for this game unless a spec says otherwise (for MCTS: `c`,
    `rollout`, `cutoff`, `prior`, `finish`, `fpu`, `reveal`); each game documents why its own differ
    from the bots' general defaults."""

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = validate_options(self.name, self.options_spec, options)
        self.actions: Sequence[Action] = self._build_actions()
        self._by_label = {action.label.lower(): action for action in self.actions}

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # A game never changes after construction, so every copy of a state can share it.
        return self

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        for option in cls.options_spec:
            if option.name == "players":
                return tuple(option.choices or ())
        raise TypeError(f"{cls.name} declares no players option")

    def action(self, ref: int | str | dict[str, Any] | Action) -> Action:
        """The action an id, a label or a JSON form names. Raises IllegalAction if none does."""
        if isinstance(ref, Action):
            ref = ref.id
        if isinstance(ref, dict):
            ref = ref.get("id", ref.get("label"))  # type: ignore[assignment]
        if isinstance(ref, bool):
            raise IllegalAction(f"{ref!r} is not an action")
        if isinstance(ref, int):
            if 0 <= ref < len(self.actions):
                return self.actions[ref]
            raise IllegalAction(f"{self.name} has no action {ref} (ids are 0..{len(self.actions) - 1})")
        if isinstance(ref, str):
            found = self._by_label.get(" ".join(ref.split()).lower())
            if found is None:
                raise IllegalAction(f"{self.name} has no action called {ref!r}")
            return found
        raise IllegalAction(f"{ref!r} is not an action")

    @abc.abstractmethod
    def _build_actions(self) -> Sequence[Action]:
        """Every action of the game, each at the index of its id."""

    @abc.abstractmethod
    def new_state(self, seed: int = 0) -> State:
        """The starting position; all randomness of the game flows from `seed`."""


class State(abc.ABC):
    """One position of a game. Mutated in place by `apply`; `clone` gives an independent copy."""

    __slots__ = ("game", "seed", "history")

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.history: list[int] = []

    # --- what every game implements -------------------------------------------------------

    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or TERMINAL."""

    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """The complete list of legal actions; never empty unless the state is terminal."""

    @abc.abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Resolve an action already known to be legal."""

    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def scores(self) -> list[Score]:
        """Each seat's score with its breakdown (also meaningful mid-game)."""

    @abc.abstractmethod
    def winners(self) -> list[int]:
        """The seats that share the win of a finished game (all tied seats on a draw)."""

    @abc.abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-able observation of everything `seat` may see (None: a spectator)."""

    @abc.abstractmethod
    def clone(self) -> State: ...

    @abc.abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A copy consistent with `view(seat)` whose hidden parts and future chance are re-drawn."""

    def reveal(self) -> None:  # noqa: B027 - a hook: most games have nothing to reveal
        """Let every seat know every value this copy keeps hidden; only for a determinization.

        A determinization's hidden values were re-drawn from what the searching seat sees, so
        nothing real is revealed: the search may then judge that world as if it were open
        (perfect-information Monte Carlo), and the heuristic reads the drawn values instead of
        their expectation. Games whose heuristic reads nothing hidden leave this as it is.
        """

    @abc.abstractmethod
    def render(self, seat: int | None = None) -> str:
        """The position as text for a terminal, showing only what `seat` may see."""

    @abc.abstractmethod
    def heuristic(self, seat: int) -> float:
        """The game's own estimate of `seat`'s outlook, in [-1, 1] like `returns()`."""

    # --- shared behaviour ------------------------------------------------------------------

    def apply(self, action: Action | int | str) -> list[Event]:
        """Apply a legal action and return what happened. Raises IllegalAction, changing nothing."""
        if not isinstance(action, Action):
            action = self.game.action(action)
        if self.is_terminal():
            raise IllegalAction(f"the game is over; {action.label!r} cannot be played")
        if action not in self.legal_actions():
            raise IllegalAction(self.why_illegal(action))
        events = self._apply(action)
        self.history.append(action.id)
        return events

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply an action the caller took from this very state's `legal_actions()`.

        Search calls this on its hot path: the action is known to be legal, so checking it again
        would only rebuild the legal list a second time. Anything else must use `apply`.
        """
        events = self._apply(action)
        self.history.append(action.id)
        return events

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # Libraries that copy states generically (copy.deepcopy) get the game's own cheap clone.
        return self.clone()

    def why_illegal(self, action: Action) -> str:
        """Why `action` is not legal now. Games override this with the rule that forbids it."""
        return f"{action.label!r} is not a legal move now"

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def returns(self) -> list[float]:
        """Payoffs of a finished game: +1 sole winner, 0 each for a shared win, -1 the others."""
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        winners = self.winners()
        won = 1.0 if len(winners) == 1 else 0.0
        return [won if seat in winners else -1.0 for seat in range(self.game.num_players)]

    def record(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self.seed,
            "actions": list(self.history),
        }

    def _copy_base_into(self, other: State) -> None:
        """Copy the protocol's own fields; games call this from `clone`."""
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
