"""Game options from the command line: `--players 4 --beginner --variant motif` or `-o key=value`.

Each game declares its options, so the command line accepts them generically: an option named
`variant` becomes `--variant VALUE`, a boolean option `beginner` becomes the flag `--beginner`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game


def parse_game_options(game: type[Game], args: Sequence[str], pairs: Sequence[str] = ()) -> dict[str, Any]:
    """Turn extra command-line words and `key=value` pairs into the game's option dict (unchecked values)."""
    declared = {option.name: option for option in game.options_spec}
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise InvalidOption(f"option {pair!r} is not key=value")
        _set(options, key.strip().replace("-", "_"), value.strip())
    words = list(args)
    while words:
        word = words.pop(0)
        if not word.startswith("--"):
            raise InvalidOption(f"unexpected argument {word!r}")
        key, sep, value = word[2:].partition("=")
        name = key.replace("-", "_")
        negated = name.startswith("no_") and name[3:] in declared and declared[name[3:]].type is bool
        if name not in declared and not negated:
            known = ", ".join("--" + n.replace("_", "-") for n in sorted(declared))
            raise InvalidOption(f"{game.name} has no option --{key} (its options: {known})")
        if negated:
            _set(options, name[3:], False)
        elif sep:
            _set(options, name, value)
        elif declared[name].type is bool:
            _set(options, name, True)
        elif words and not words[0].startswith("--"):
            _set(options, name, words.pop(0))
        else:
            raise InvalidOption(f"option --{key} needs a value")
    return options


def _set(options: dict[str, Any], name: str, value: Any) -> None:
    """Record one option, refusing a second, different value for it (which one was meant?)."""
    if name in options and str(options[name]).lower() != str(value).lower():
        raise InvalidOption(f"option {name} is given twice, as {options[name]!r} and as {value!r}")
    options[name] = value
