"""Hatflings!'s arena features: which special halflings each captain brought in."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import State
from parlour.engine.package import Features, tally

QUESTION = "Special halflings: which ones go with winning?"


def seat_features(state: State, actors: Sequence[int]) -> Features:
    """Which of the six special halflings each captain brought in, and whether greedy came by pushing.

    A special enters either by an ordinary placement ("place firebug at c1") or, for greedy, by
    its push from an edge square ("greedy push at a3 east").
    """
    features: Features = [{"specials brought in": 0.0} for _ in range(state.game.num_players)]
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind == "place":
            halfling = dict(action.params).get("halfling")
            if halfling and halfling != "normal":
                tally(features[seat], f"special: {halfling}")
                tally(features[seat], "specials brought in")
        elif action.kind == "greedy":
            tally(features[seat], "special: greedy")
            tally(features[seat], "special: greedy by its push")
            tally(features[seat], "specials brought in")
    return features
