"""Per-seat features of a finished game that answer a designer's question about what wins.

Every game gets the kinds of move each seat made ("move: jump" → how many jumps). A game whose
views and records say more gets its own extractor, registered here by game name, with the
question the report puts above its table. Extractors read only the finished state, its history
and who made each move, so they work on any record as well as in the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from parlour.engine.game import State

Features = list[dict[str, float]]
Extractor = Callable[[State, Sequence[int]], Features]

GENERIC_QUESTION = "Which kinds of move go with winning?"
MOVE_PREFIX = "move: "
_EXTRACTORS: dict[str, tuple[str, Extractor]] = {}


def register_extractor(game: str, question: str) -> Callable[[Extractor], Extractor]:
    def wrap(extractor: Extractor) -> Extractor:
        _EXTRACTORS[game] = (question, extractor)
        return extractor

    return wrap


def question(game: str) -> str:
    return _EXTRACTORS[game][0] if game in _EXTRACTORS else GENERIC_QUESTION


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
    if state.game.name in _EXTRACTORS:
        for seat, extra in enumerate(_EXTRACTORS[state.game.name][1](state, actors)):
            features[seat].update(extra)
    return features


def _count(features: dict[str, float], name: str, amount: float = 1.0) -> None:
    features[name] = features.get(name, 0.0) + amount


def _param(params: Sequence[tuple[str, Any]], name: str) -> Any:
    return next((value for key, value in params if key == name), None)


@register_extractor("hatflings", "Special halflings: which ones go with winning?")
def hatflings_specials(state: State, actors: Sequence[int]) -> Features:
    """Which of the six special halflings each captain brought in, and whether greedy came by pushing.

    A special enters either by an ordinary placement ("place firebug at c1") or, for greedy, by
    its push from an edge square ("greedy push at a3 east").
    """
    features: Features = [{"specials brought in": 0.0} for _ in range(state.game.num_players)]
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind == "place":
            halfling = _param(action.params, "halfling")
            if halfling and halfling != "normal":
                _count(features[seat], f"special: {halfling}")
                _count(features[seat], "specials brought in")
        elif action.kind == "greedy":
            _count(features[seat], "special: greedy")
            _count(features[seat], "special: greedy by its push")
            _count(features[seat], "specials brought in")
    return features


@register_extractor("hatairo", "Flags and motifs: which go with winning?")
def hatairo_gallery(state: State, actors: Sequence[int]) -> Features:
    """The flags each player completed, the motifs and topography tiles she placed."""
    features: Features = [{} for _ in range(state.game.num_players)]
    chosen = {"complete": ("flag", "flag"), "motif": ("motif", "motif"), "topography": ("topography", "topography")}
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind in chosen:
            prefix, param = chosen[action.kind]
            _count(features[seat], f"{prefix}: {_param(action.params, param)}")
    return features


@register_extractor("yamatai", "Specialists and buildings: which do winners choose?")
def yamatai_choices(state: State, actors: Sequence[int]) -> Features:
    """The specialists each player recruited and the buildings she built, by building type."""
    features: Features = [{} for _ in range(state.game.num_players)]
    parts = getattr(state.game, "parts", None)
    kinds = {tile.code: tile.kind for tile in getattr(parts, "buildings", ())}
    actions = state.game.actions
    for seat, action_id in zip(actors, state.history, strict=True):
        action = actions[action_id]
        if action.kind == "recruit":
            _count(features[seat], f"specialist: {_param(action.params, 'specialist')}")
        elif action.kind == "build":
            tile = _param(action.params, "tile")
            _count(features[seat], f"building: {kinds.get(tile, tile)}")
            _count(features[seat], f"building tile: {tile}")
    return features
