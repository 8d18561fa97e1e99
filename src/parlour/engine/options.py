"""Declared game options and their validation.

Every game lists its options as `Option` values; `load_game(name, **options)` checks what it is
given against them, so a wrong name, type or value is refused before any state exists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import InvalidOption


@dataclass(frozen=True)
class Option:
    name: str
    type: type  # int, bool or str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    # What a person reads beside the field (the lobby); the name stays what the command line takes.
    title: str = ""
    # A setting of the machine that runs the game (a folder path): a server never takes it from a
    # client and does not offer it in its lobby.
    host_only: bool = False

    @property
    def heading(self) -> str:
        return self.title or self.name.replace("_", " ").capitalize()

    def describe(self) -> str:
        if self.choices is not None:
            allowed = "|".join(str(c) for c in self.choices)
        elif self.type is bool:
            allowed = "true|false"
        elif self.minimum is not None or self.maximum is not None:
            low = "" if self.minimum is None else self.minimum
            high = "" if self.maximum is None else self.maximum
            allowed = f"{low}..{high}"
        else:
            allowed = self.type.__name__
        default = "none" if self.default == "" else self.default  # an empty text default reads as nothing
        return f"{self.name}={allowed} (default {default}): {self.help}"

    def parse(self, game: str, value: Any) -> Any:
        """Check one value (also accepting the text a command line gives) and return it typed."""
        value = self._coerce(game, value)
        if self.choices is not None and value not in self.choices:
            if self.name == "players":
                raise InvalidOption(f"{game} takes {_span(self.choices)} players, got {value}")
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOption(f"{game} option {self.name} must be one of {allowed}, got {value!r}")
        too_low = self.minimum is not None and value < self.minimum
        too_high = self.maximum is not None and value > self.maximum
        if too_low or too_high:
            raise InvalidOption(
                f"{game} option {self.name} must be between {self.minimum} and {self.maximum}, got {value}"
            )
        return value

    def _coerce(self, game: str, value: Any) -> Any:
        wrong = InvalidOption(f"{game} option {self.name} takes {self.type.__name__}, got {value!r}")
        if self.type is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on", "false", "no", "0", "off"):
                return value.lower() in ("true", "yes", "1", "on")
            raise wrong
        if self.type is int:
            if isinstance(value, bool):
                raise wrong
            if isinstance(value, int):
                return value
            # Plain decimal digits only: int() would also take "1_000", " 7 " and non-ASCII digits.
            if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,18}", value):  # longer: no option's range
                return int(value)
            raise wrong
        if not isinstance(value, self.type):
            raise wrong
        return value


def _span(choices: Sequence[Any]) -> str:
    ordered = sorted(choices)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return " or ".join(str(c) for c in ordered)


def validate_options(game: str, declared: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return the full option dict (defaults filled in, host-only options only when set) or raise
    InvalidOption naming the problem."""
    by_name = {option.name: option for option in declared}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise InvalidOption(f"{game} has no option {name!r} (its options: {known})")
    settled = {
        option.name: option.parse(game, given[option.name]) if option.name in given else option.default
        for option in declared
    }
    # A host-only option at its default (the built-in data) is left out, so that a game's options,
    # and the records and digests made of them, read as they did before the option existed.
    return {
        name: value
        for name, value in settled.items()
        if not (by_name[name].host_only and value == by_name[name].default)
    }
