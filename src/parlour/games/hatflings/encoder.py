"""Hatflings! view -> tensor: per square, planes for each halfling kind per hat owner, scenery,
puddle owners and the pig, relative to the observing seat; then pools, supplies and the phase."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.engine.game import Game
from parlour.games.hatflings.board import NAMES
from parlour.games.hatflings.pieces import KIND_NAMES, PHASE_NAMES, SCENERY_NAMES, SPECIAL_KINDS
from parlour.interop.features import Features, Vocabulary

SQUARES = Vocabulary(NAMES)
KINDS = Vocabulary(kind for kind in KIND_NAMES if kind)
OBJECTS = Vocabulary(sorted({name for name in SCENERY_NAMES if name}))
SPECIALS = Vocabulary(SPECIAL_KINDS)
PHASES = Vocabulary(PHASE_NAMES)


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    features = Features()
    squares = view["squares"]
    features.section(
        f"squares: {len(SQUARES)} x (halfling kind per hat owner, me first; object; my puddle; pig; start zones)"
    )
    for name in SQUARES:
        entry = squares.get(name, {})
        halfling = entry.get("halfling")
        for owner in (me, 1 - me):
            features.one_hot(halfling["kind"] if halfling and halfling["seat"] == owner else None, KINDS)
        features.one_hot(entry.get("object"), OBJECTS)
        features.flag(entry.get("owner") == me)
        features.flag(bool(entry.get("pig")))
        features.flag(name in view["start_zones"][me])
        features.flag(name in view["start_zones"][1 - me])
    features.section("general pool")
    features.number(view["general_pool"], game.options["general_pool_size"] or 1)
    features.section("per hat owner, me first: special pool, first turn done, hats, halflings in the rival start zone")
    for owner in (me, 1 - me):
        features.counts(view["special_pools"][owner], SPECIALS)
        features.flag(view["first_turn_done"][owner])
        features.number(view["hats"][owner], 36)
        features.number(view["in_rival_start_zone"][owner], 6)
    features.section("puddle supply, my turn, turns played, phase, a lander to place")
    features.number(view["puddle_supply"], 4)
    features.flag(view["to_move"] == me)
    features.number(view["turns_played"], game.options["max_turns"] or 200)
    features.one_hot(view["phase"], PHASES)
    features.flag("lander" in view)
    return features
