"""Per-seat features of a finished game that answer a designer's question about what wins.

Every game gets the kinds of move each seat made ("move: jump" → how many jumps). A game whose
views and records say more ships its own extractor in its package (`<game>/features.py`, see
`parlour.engine.package`), with the question the report puts above its table; the arena asks the
game for it and knows no game by name. Extractors read only the finished state, its history and
who made each move, so they work on any record as well as in the workers.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import Game, State
from parlour.engine.package import Features, feature_extractor
from parlour.engine.registry import game_class

GENERIC_QUESTION = "Which kinds of move go with winning?"
MOVE_PREFIX = "move: "


def question(game: str) -> str:
    """The question the report asks above the game's feature table."""
    extractor = feature_extractor(game_class(game))
    return extractor.question if extractor is not None else GENERIC_QUESTION


def move_kinds(state: State, actors: Sequence[int]) -> Features:
    """How many moves of each kind every seat made."""
    features: Features = [{} for _ in range(state.game.num_players)]
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        name = MOVE_PREFIX + actions[action_id].kind
        features[seat][name] = features[seat].get(name, 0.0) + 1.0
    return features


def seat_features(state: State, actors: Sequence[int]) -> Features:
    """The generic move counts plus what the game's own extractor adds."""
    features = move_kinds(state, actors)
    game: Game = state.game  # a plain state's game is untyped; the cache needs its class
    extractor = feature_extractor(type(game))
    if extractor is not None:
        for seat, extra in enumerate(extractor.seat_features(state, actors)):
            features[seat].update(extra)
    return features
