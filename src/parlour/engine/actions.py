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

    `audience` is None when every seat and spectator may see the event, otherwise the seats that
    may. A game that reveals a secret to one seat emits the full event for that seat and a
    redacted one for everybody else.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **self.data}
