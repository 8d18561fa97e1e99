"""The registry of games, so the engine never imports a game by name.

Every game, the four parlour ships as much as one published as its own distribution, is found the
same way: each entry point of the `parlour.games` group names a Game subclass
(`nim = "parlour_nim:Nim"`) or a module exposing `GAME`. parlour's own pyproject.toml declares its
four games there, so installing a game's package is all it takes for `parlour games`, the server,
the browser and the adapters to offer it.

A game that fails to load is reported by `broken_games()` and refused by name with the reason; it
never takes the other games down with it.
"""

from __future__ import annotations

import importlib.metadata
import threading
from typing import Any

from parlour.engine.errors import DataError, InvalidOption
from parlour.engine.game import Game

ENTRY_POINT_GROUP = "parlour.games"
OWN_DISTRIBUTION = "parlour"

_GAMES: dict[str, type[Game]] = {}
_INSTALLED: dict[str, type[Game]] = {}
"""The games found by discovery (built in or installed), without those `register` added by hand."""
_BROKEN: dict[str, str] = {}
"""Games whose package failed to load (a damaged data file, a broken plugin), with the reason."""


_DISCOVERY = threading.Lock()
"""Held while the registry fills itself: server threads asking at once must never see it half full."""


def _discover() -> dict[str, type[Game]]:
    if _GAMES:
        return _GAMES
    with _DISCOVERY:
        if not _GAMES:
            found: dict[str, type[Game]] = {}
            _discover_entry_points(found)
            _INSTALLED.clear()
            _INSTALLED.update(found)
            _GAMES.update(found)  # published whole, after every game is in
    return _GAMES


STALE_INSTALL = (
    "parlour's installed metadata declares none of its games (an install older than its entry points?): "
    "install parlour again, e.g. `pip install -e .` in a source checkout"
)


def _discover_entry_points(found: dict[str, type[Game]]) -> None:
    entries = sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=_parlour_first)
    if not any(_distribution(entry) == OWN_DISTRIBUTION for entry in entries):
        _BROKEN[OWN_DISTRIBUTION] = STALE_INSTALL  # said plainly, rather than "no game called hatflings"
    for entry in entries:
        where = f"{entry.name} (entry point {entry.value!r} of {_distribution(entry)})"
        try:
            game = _game_of(entry.load())
        except DataError as error:
            # One game's damaged data file must not take every other game down with it.
            _BROKEN.setdefault(entry.name, f"{entry.name} cannot be loaded, a data file is damaged: {error}")
            continue
        except Exception as error:  # a package's fault of any kind stays its own
            _BROKEN.setdefault(entry.name, f"{where} cannot be loaded: {type(error).__name__}: {error}")
            continue
        if game is None:
            _BROKEN.setdefault(entry.name, f"{where} names neither a Game subclass nor a module with GAME")
        elif game.name in found and found[game.name] is not game:
            _BROKEN[f"{entry.name} (duplicate)"] = f"{where} is refused: the name {game.name!r} is taken"
        else:
            found[game.name] = game


def _parlour_first(entry: importlib.metadata.EntryPoint) -> bool:
    """parlour's own games are found before any other distribution's: a package that names a game
    the same is the one refused, whatever the order of the path."""
    return _distribution(entry) != OWN_DISTRIBUTION


def _distribution(entry: importlib.metadata.EntryPoint) -> str:
    return entry.dist.name if entry.dist is not None else "an unnamed distribution"


def _game_of(loaded: Any) -> type[Game] | None:
    candidate = getattr(loaded, "GAME", loaded)
    return candidate if isinstance(candidate, type) and issubclass(candidate, Game) else None


def game_classes() -> dict[str, type[Game]]:
    """Every registered game class by name, in alphabetical order."""
    return dict(sorted(_discover().items()))


def installed_games() -> dict[str, type[Game]]:
    """The built-in games and those installed as distributions, by name: never a game that a
    program (a test) added with `register`."""
    _discover()
    return dict(sorted(_INSTALLED.items()))


def broken_games() -> dict[str, str]:
    """The games that could not be loaded, each with the reason that stopped it."""
    _discover()
    return dict(sorted(_BROKEN.items()))


def game_class(name: str) -> type[Game]:
    games = _discover()
    key = name.strip().lower().replace("-", "_")
    if key in _BROKEN and key not in games:
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
