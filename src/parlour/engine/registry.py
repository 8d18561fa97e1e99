"""The registry of games. A game package registers itself by exposing `GAME` (its Game class)
in its `__init__`; the registry finds every package under `parlour.games` on first use, so
the engine never imports a game by name."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from parlour.engine.errors import DataError, InvalidOption
from parlour.engine.game import Game

_GAMES: dict[str, type[Game]] = {}
_BROKEN: dict[str, str] = {}
"""Games whose package failed to load because of a damaged data file, with the reason."""


def _discover() -> dict[str, type[Game]]:
    if not _GAMES:
        import parlour.games

        for module in pkgutil.iter_modules(parlour.games.__path__):
            try:
                package = importlib.import_module(f"parlour.games.{module.name}")
            except DataError as error:
                # One game's damaged data file must not take every other game down with it.
                _BROKEN[module.name] = f"{module.name} cannot be loaded, a data file is damaged: {error}"
                continue
            game_class = getattr(package, "GAME", None)
            if game_class is not None:
                _GAMES[game_class.name] = game_class
    return _GAMES


def game_classes() -> dict[str, type[Game]]:
    """Every registered game class by name, in alphabetical order."""
    return dict(sorted(_discover().items()))


def broken_games() -> dict[str, str]:
    """The games that could not be loaded, each with the data error that stopped it."""
    _discover()
    return dict(sorted(_BROKEN.items()))


def game_class(name: str) -> type[Game]:
    games = _discover()
    key = name.strip().lower().replace("-", "_")
    if key in _BROKEN:
        raise DataError(_BROKEN[key])
    if key not in games:
        raise InvalidOption(f"no game called {name!r} (games: {', '.join(sorted(games))})")
    return games[key]


def load_game(name: str, **options: Any) -> Game:
    """The game `name` with `options`; raises InvalidOption for an unknown name or a bad option."""
    return game_class(name)(**options)


def register(game: type[Game]) -> type[Game]:
    """Add a game class by hand (tests use this for small games of their own)."""
    _discover()
    _GAMES[game.name] = game
    return game
