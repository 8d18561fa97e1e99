"""parlour: four modern tabletop games, faithful to their rulebooks, for people, bots and research."""

from parlour.engine import (
    Action,
    Event,
    Game,
    IllegalAction,
    InvalidOption,
    RecordError,
    Score,
    State,
    game_classes,
    load_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOption",
    "RecordError",
    "Score",
    "State",
    "game_classes",
    "load_game",
    "replay",
]
