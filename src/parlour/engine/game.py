"""The engine protocol: what every game provides, and what is the same for all of them.

A game package subclasses `Game` (the rules with fixed options: player count, action space,
component data) and `State` (one position). Subclasses implement the methods marked abstract;
The engine owns the plumbing that is the same for every game: `State` caches the legal list the
game's generator (`_legal_now`) returns, checks an action's legality by its id before the game's
own `_apply` runs (so a refused action never changes anything) and drops the cache whenever a move
is applied; `Game` pickles as its options.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from parlour.engine import data
from parlour.engine.actions import Action, Event
from parlour.engine.compile_hints import mypyc_attr
from parlour.engine.errors import IllegalAction
from parlour.engine.hidden import Hidden
from parlour.engine.options import Option, validate_options
from parlour.engine.rng import Rng

TERMINAL = -1
"""What `current_player()` returns once the game is over."""


def generic_reason(action: Action) -> str:
    """The refusal that names no rule: a game's reasons fall back to it only where they found none.

    The conformance checks flag every refusal that reaches it, since it means the legal-move
    generator and the game's words about legality disagree."""
    return f"{action.label!r} is not a legal move now"


@dataclass(frozen=True)
class Score:
    """One seat's final score: the total that decides the game and how it was made up."""

    total: float
    breakdown: dict[str, float] = field(default_factory=dict)
    tiebreak: tuple[float, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled through the constructor: the compiled build cannot refill a frozen dataclass field by field.
        return (Score, (self.total, self.breakdown, self.tiebreak))

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": dict(self.breakdown), "tiebreak": list(self.tiebreak)}


@mypyc_attr(allow_interpreted_subclasses=True)
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

    revealing_events: ClassVar[frozenset[str]] = frozenset()
    """The kinds of event that may show a seat something it could not know without the generator
    drawing, such as a card drawn from a deck shuffled at the start (its name may be one the seat
    has seen before). The hidden-information checks and the server's undo read them."""
    passing_events: ClassVar[frozenset[str]] = frozenset()
    """The kinds of event that move cards a seat has seen without showing new ones (a hand passed
    on by someone who took a card from it): a determinization may differ in which it shows."""

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = validate_options(self.name, self.options_spec, options)
        self.actions: Sequence[Action] = self._build_actions()
        self._by_label = {action.label.lower(): action for action in self.actions}

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # A game never changes after construction, so every copy of a state can share it.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is fully given by its class and options; pickling those instead of the prebuilt
        # actions and tables keeps pickled states small (process pools, conformance checks), and
        # every state unpickled in one process shares one game.
        return (_unpickled_game, (type(self), tuple(sorted(self.options.items())), self._stored_data()))

    def _stored_data(self) -> tuple[str, dict[str, str]] | None:
        """A data set named by hash alone (a record's), which another process does not know: its
        package and files travel with the pickle. A folder or the built-in data is read again there."""
        held = getattr(self, "data", None)
        value = self.options.get(data.DATA_OPTION.name)
        if not isinstance(held, data.DataSet) or not isinstance(value, str) or not value.startswith(data.STORED_PREFIX):
            return None
        return None if held.built_in else (held.package, dict(held.files))

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


def _unpickled_game(
    cls: type[Game], options: tuple[tuple[str, Any], ...], stored: tuple[str, dict[str, str]] | None
) -> Game:
    """A pickled game: a data set that travelled with it is made known by its hash first (its
    options name it so), then the game is the one every state unpickled with these options shares."""
    if stored is not None:
        package, files = stored
        data.remember(data.from_files(package, files, data.RECORD_ORIGIN))
    return _game_from_options(cls, options)


@functools.lru_cache(maxsize=64)
def _game_from_options(cls: type[Game], options: tuple[tuple[str, Any], ...]) -> Game:
    """The game of this class with these options, shared by every state unpickled with them."""
    return cls(**dict(options))


GameT = TypeVar("GameT", bound=Game)
"""The game a state belongs to: a game's state class names its own (`State["Hatflings"]`), so its
code reads the game's own attributes with their types. (The compiled build cannot let a subclass
narrow an attribute's declared type, which is what a plain `game: Hatflings` line would do.)"""


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class State(abc.ABC, Generic[GameT]):
    """One position of a game. Mutated in place by `apply`; `clone` gives an independent copy.

    `_legal` caches the legal list of this position (None: not worked out yet). The engine fills it
    from the game's `_legal_now` and drops it before every `_apply`; a game's `_apply` may fill it
    again for the position it leaves (with `_cache_legal`) when it has worked the list out anyway.
    """

    __slots__ = ("game", "seed", "history", "_legal")

    game: GameT
    clone_shares: ClassVar[frozenset[str]] = frozenset({"game", "_legal"})
    """Fields a clone may share with its original, because nothing changes them in place (the
    game; the legal list, replaced whole); a game adds its caches that are replaced whole."""
    hidden: ClassVar[tuple[Hidden, ...]] = ()
    """What a position hides from a seat, part by part (`parlour.engine.hidden`), in the order
    `determinize` re-draws them: the generator's future, decks whose order is hidden, the game's
    own re-draws. Empty for a game with neither hidden information nor chance."""

    def __init__(self, game: GameT, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.history: list[int] = []
        self._legal: list[Action] | None = None

    def __getstate__(self) -> dict[str, Any]:
        # Pickled attribute by attribute (process pools, saved tables). The compiled build lists a
        # native class's attributes on the class (`__mypyc_attrs__`), but its own pickling leaves
        # out what an interpreted subclass adds (a plugin game's or a test's state); whatever is
        # not native, and every attribute in the interpreted build, `object.__getstate__` finds.
        state: dict[str, Any] = {}
        for name in getattr(type(self), "__mypyc_attrs__", ()):
            if name != "__dict__" and hasattr(self, name):
                state[name] = getattr(self, name)
        found = object.__getstate__(self)
        for part in found if isinstance(found, tuple) else (found,):
            if isinstance(part, dict):
                state.update(part)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # --- what every game implements -------------------------------------------------------

    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or TERMINAL."""

    def legal_actions(self) -> list[Action]:
        """The complete list of legal actions; never empty unless the state is terminal.

        Worked out once per position; callers must not change the list.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_now()
        return legal

    def _legal_now(self) -> list[Action]:
        """The game's legal-move generator: the legal actions of this position, worked out afresh."""
        raise NotImplementedError(f"{type(self).__name__} generates no legal moves")

    def _cache_legal(self, ids: Iterable[int]) -> None:
        """Keep the legal list of the position `_apply` leaves, given by ids, as worked out there."""
        self._legal = list(map(self.game.actions.__getitem__, ids))

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

    def determinize(self, seat: int, rng: Rng) -> State[GameT]:
        """A copy consistent with `view(seat)` whose hidden parts and future chance are re-drawn:
        the game's `hidden` parts, each re-drawn in the copy in the order the game lists them."""
        twin = self.clone()
        for part in type(self).hidden:
            part.redraw(twin, seat, rng)
        return twin

    def reveal(self) -> None:  # a hook: most games have nothing to reveal
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

    def apply(self, action: Action | int | str | dict[str, Any]) -> list[Event]:
        """Apply a legal action and return what happened. Raises IllegalAction, changing nothing."""
        if not isinstance(action, Action):
            action = self.game.action(action)
        if self.is_terminal():
            raise IllegalAction(f"the game is over; {action.label!r} cannot be played")
        wanted = action.id
        for candidate in self.legal_actions():  # by id: cheaper than Action.__eq__ per candidate
            if candidate.id == wanted:
                return self.apply_legal(candidate)  # the game's own prebuilt action
        raise IllegalAction(self.why_illegal(action))

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply an action the caller took from this very state's `legal_actions()`.

        Search calls this on its hot path: the action is known to be legal, so checking it again
        would only rebuild the legal list a second time. Anything else must use `apply`.
        """
        self._legal = None
        events = self._apply(action)
        self.history.append(action.id)
        return events

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # Libraries that copy states generically (copy.deepcopy) get the game's own cheap clone.
        return self.clone()

    def why_illegal(self, action: Action) -> str:
        """Why `action` is not legal now. Games override this with the rule that forbids it."""
        return generic_reason(action)

    def is_legal(self, action: Action) -> bool:
        wanted = action.id
        return any(candidate.id == wanted for candidate in self.legal_actions())

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

    def _copy_base_into(self, other: State[GameT]) -> None:
        """Copy the protocol's own fields; games call this from `clone`."""
        other.game = self.game
        other.seed = self.seed
        other.history = self.history.copy()
        other._legal = self._legal  # never changed in place, so the copy may share it
