"""Every registered game at every player count and in every variant, for the harness tests.

A variant is any non-default value of an option that lists its choices or is a switch (bool), one
option at a time; combinations a game refuses (say, a solo draft) are left out. A game installed
as its own distribution is found through the registry like the built-in ones, so a new game gets
every check for free.
"""

from __future__ import annotations

from typing import Any

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.options import Option
from parlour.engine.registry import installed_games

Configuration = tuple[str, dict[str, Any]]


def _variants(option: Option) -> list[Any]:
    if option.type is bool:
        return [not option.default]
    return [value for value in option.choices or () if value != option.default]


def _accepted(game: type[Game], options: dict[str, Any]) -> bool:
    try:
        game(**options)
    except InvalidOption:
        return False
    return True


def configurations_of(game: type[Game]) -> list[dict[str, Any]]:
    found = []
    for players in game.player_counts():
        found.append({"players": players})
        for option in game.options_spec:
            if option.name != "players":
                found += [{"players": players, option.name: value} for value in _variants(option)]
    return [options for options in found if _accepted(game, options)]


def every_configuration() -> list[Configuration]:
    return [(name, options) for name, game in installed_games().items() for options in configurations_of(game)]


def label(configuration: Configuration) -> str:
    name, options = configuration
    return "-".join([name, *(f"{key}={value}" for key, value in options.items())])
