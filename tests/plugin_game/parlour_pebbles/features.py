"""Pebbles' arena features: how many pebbles each player took in all."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import State
from parlour.engine.package import Features, tally

QUESTION = "Pebbles taken: does taking more win?"


def seat_features(state: State, actors: Sequence[int]) -> Features:
    features: Features = [{} for _ in range(state.game.num_players)]
    for seat, action_id in zip(actors, state.history, strict=True):
        tally(features[seat], "pebbles taken", state.game.actions[action_id].param("pebbles"))
    return features
