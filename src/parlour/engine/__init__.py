"""The game-agnostic engine: protocol types, options, randomness, records and the registry."""

from parlour.engine.actions import Action, Event, secret
from parlour.engine.errors import DataError, IllegalAction, InvalidOption, ParlourError, RecordError
from parlour.engine.game import TERMINAL, Game, Score, State
from parlour.engine.options import Option
from parlour.engine.records import replay
from parlour.engine.registry import game_classes, load_game
from parlour.engine.rng import Rng

__all__ = [
    "TERMINAL",
    "Action",
    "DataError",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOption",
    "Option",
    "ParlourError",
    "RecordError",
    "Rng",
    "Score",
    "State",
    "game_classes",
    "load_game",
    "replay",
    "secret",
]
