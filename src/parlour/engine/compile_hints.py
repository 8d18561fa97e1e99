"""`mypyc_attr`: what the compiled build must know about a class that plain Python never asks.

In the compiled build the engine's and the games' classes are native (C) classes. Interpreted code
may subclass only one marked `allow_interpreted_subclasses=True` (every game's Game class, the
tests' toy games and positions, plugin games, bots written elsewhere), and an object is rebuilt by
pickle without its `__init__` only if its class is marked `serializable=True` (states and what they
hold travel to process pools and into saved tables). A serializable class that has an `__init__`
of its own (a position built by `cls(game, seed)`) must allow interpreted subclasses
as well: otherwise mypyc's build skips that `__init__` when Python code calls the class (mypy 2.4).
Frozen dataclasses pickle through their constructor instead (`__reduce__`): pickle cannot refill
them field by field.
mypyc reads the decorator from mypy_extensions at compile time; at run time the engine needs
nothing outside the standard library, so the decorator is then one that changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

Class = TypeVar("Class", bound=type)

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*flags: str, **settings: Any) -> Callable[[Class], Class]:
        def unchanged(cls: Class) -> Class:
            return cls

        return unchanged


__all__ = ["mypyc_attr"]
