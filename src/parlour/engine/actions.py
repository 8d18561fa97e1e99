"""Actions and events: the small immutable values that cross the engine protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One move in a game's fixed action space.

    `id` is the action's index in `game.actions` (0 .. game.num_actions-1), `label` the words a
    person types or reads ("place general at c4"), `kind` its family and `params` the JSON-able
    details. Games build every action once, so two equal actions are the same object.
    """

    id: int
    label: str
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled through the constructor: the compiled build cannot refill a frozen dataclass field by field.
        return (Action, (self.id, self.label, self.kind, self.params))

    def param(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "label": self.label, **dict(self.params)}

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened while an action resolved (a flip, a draw, an elimination).

    Who may see it: with `audience` None and `excluded` empty, every seat and spectator; with
    `audience` set, those seats alone (never a spectator); with `excluded` set, everyone but those
    seats, spectators included. A game that reveals a secret to one seat emits the full event for
    that seat and its redacted counterpart for everyone else (`secret` builds the pair), so that
    each viewer reads the move once.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    audience: tuple[int, ...] | None = None
    excluded: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.audience is not None and self.excluded:
            raise ValueError(f"event {self.kind!r} names both its audience and the seats excluded from it")

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled through the constructor: the compiled build cannot refill a frozen dataclass field by field.
        return (Event, (self.kind, self.text, self.data, self.audience, self.excluded))

    def visible_to(self, seat: int | None) -> bool:
        if self.audience is not None:
            return seat is not None and seat in self.audience
        return seat is None or seat not in self.excluded

    @property
    def public(self) -> bool:
        """Whether every seat and spectator sees it."""
        return self.audience is None and not self.excluded

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **self.data}


def secret(seat: int, private: Event, public: Event) -> list[Event]:
    """`private` for `seat` alone and its redacted counterpart `public` for everyone else."""
    # Built directly rather than with dataclasses.replace, whose field-by-field introspection costs
    # more than the rest of a typical move's events together (in both builds).
    return [
        Event(private.kind, private.text, private.data, (seat,), ()),
        Event(public.kind, public.text, public.data, None, (seat,)),
    ]
