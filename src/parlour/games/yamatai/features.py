"""Yamataï's arena features: the specialists recruited, the buildings built by type, the fleet tiles taken."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.game import State
from parlour.engine.package import Features, tally

QUESTION = "Specialists, buildings and fleet tiles: which do winners choose?"


def seat_features(state: State, actors: Sequence[int]) -> Features:
    """The specialists each player recruited and the buildings she built, by building type."""
    features: Features = [{} for _ in range(state.game.num_players)]
    parts = getattr(state.game, "components", None)
    kinds = {tile.code: tile.kind for tile in getattr(parts, "buildings", ())}
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind == "recruit":
            tally(features[seat], f"specialist: {dict(action.params).get('specialist')}")
        elif action.kind == "build":
            tile = dict(action.params).get("tile")
            tally(features[seat], f"building: {kinds.get(tile, tile)}")
            tally(features[seat], f"building tile: {tile}")
        elif action.kind == "fleet":
            tally(features[seat], f"fleet tile: {dict(action.params).get('tile')}")
    return features
