"""Hanbok Runway's arena features: the style cards each designer made sets with, and the colours earned."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import State
from parlour.engine.package import Features, tally

QUESTION = "Style cards: which go with winning?"


def seat_features(state: State, actors: Sequence[int]) -> Features:
    """Each set a designer made counts its style card and the colour of the token it earned."""
    features: Features = [{} for _ in range(state.game.num_players)]
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind == "set":
            params = dict(action.params)
            tally(features[seat], f"style card: {params.get('style')}")
            tally(features[seat], f"token colour: {params.get('colour')}")
    return features
