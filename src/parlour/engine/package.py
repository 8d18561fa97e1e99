"""What a game's package carries beside its rules, found by convention in the package itself.

A game is one folder (or one pip package): next to its Game class it may ship

- `rules.md`: its rules page in parlour's own words with the specification's numbered rulings,
  shown by `parlour rules`;
- `how_to_play.md`: the rules told to players, without rule numbers or data files, shown at the
  table (the server's `/api/games/<name>/rules`; a game without one shows `rules.md` there);
- `board.js`: its browser board module, served at `/games/<name>/board.js` (the client draws a
  generic board for a game without one);
- `features.py`: its arena feature extractor, a module with `QUESTION` (the designer's question the
  arena report asks above the table) and `seat_features(state, actors)`.

All of them are package data or modules of the game's own package, so they work the same from a
source checkout, an installed wheel and a game published as its own distribution.
"""

from __future__ import annotations

import functools
import importlib
import importlib.resources
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parlour.engine.game import Game, State

RULES_FILE = "rules.md"
HOW_TO_PLAY_FILE = "how_to_play.md"
BOARD_FILE = "board.js"
FEATURES_MODULE = "features"

Features = list[dict[str, float]]
Extractor = Callable[[State, Sequence[int]], Features]


@dataclass(frozen=True)
class FeatureExtractor:
    """A game's own arena features: the question they answer and the function computing them."""

    question: str
    seat_features: Extractor


def game_package(game: type[Game]) -> str:
    """The import name of the package the game class belongs to (`parlour.games.hatflings`)."""
    module = sys.modules[game.__module__]
    package = module.__package__ or game.__module__
    # A class defined in a package's __init__ has the package itself as its module.
    return game.__module__ if hasattr(module, "__path__") else package


def _package_text(game: type[Game], filename: str) -> str | None:
    resource = importlib.resources.files(game_package(game)).joinpath(filename)
    return resource.read_text(encoding="utf-8") if resource.is_file() else None


def rules_page(game: type[Game]) -> str | None:
    """The game's rules page (Markdown), or None when its package ships none."""
    return _package_text(game, RULES_FILE)


def how_to_play_page(game: type[Game]) -> str | None:
    """The rules for players (Markdown): `how_to_play.md`, else the rules page, else None."""
    return _package_text(game, HOW_TO_PLAY_FILE) or rules_page(game)


def board_module(game: type[Game]) -> str | None:
    """The game's browser board module (JavaScript), or None when the generic board draws it."""
    return _package_text(game, BOARD_FILE)


@functools.cache
def feature_extractor(game: type[Game]) -> FeatureExtractor | None:
    """The game's arena feature extractor from its `features` module, or None when it has none."""
    name = f"{game_package(game)}.{FEATURES_MODULE}"
    if importlib.util.find_spec(name) is None:
        return None
    module = importlib.import_module(name)
    return FeatureExtractor(module.QUESTION, module.seat_features)


def tally(features: dict[str, float], name: str, amount: float = 1.0) -> None:
    """Add `amount` to one seat's feature `name` (the extractors' one way of counting)."""
    features[name] = features.get(name, 0.0) + amount
