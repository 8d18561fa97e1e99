"""Hatairo's arena features: the flags, motifs and topography tiles each player chose."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import State
from parlour.engine.package import Features, tally

QUESTION = "Flags and motifs: which go with winning?"

# The move kinds counted, each with the feature's prefix and the action parameter naming the choice.
CHOICES = {"complete": ("flag", "flag"), "motif": ("motif", "motif"), "topography": ("topography", "topography")}


def seat_features(state: State, actors: Sequence[int]) -> Features:
    """The flags each player completed, the motifs and topography tiles she placed."""
    features: Features = [{} for _ in range(state.game.num_players)]
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind in CHOICES:
            prefix, param = CHOICES[action.kind]
            tally(features[seat], f"{prefix}: {dict(action.params).get(param)}")
    return features
