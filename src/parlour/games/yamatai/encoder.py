"""Yamataï view -> tensor: every island (mountain, culture token, building seen from the observing
seat, building tile) and water spot (boat colour, placed this turn), the reserve, fleet track,
building row and what the seat knows of the deck's top, specialist track, each mat from the
observing seat round the table (padded to four), and the turn in progress."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.engine.game import Game
from parlour.games.yamatai.components import RESOURCES, SLOTS
from parlour.games.yamatai.constants import END_REASONS, PHASE_NAMES
from parlour.interop.features import Features, Vocabulary

MAX_PLAYERS = 4
FLEET_TILES = Vocabulary(range(1, 11))
SHARED_BUILDINGS = ["torii", "palace", "sacred ground"]


def _relative(seat: int, me: int, count: int) -> int:
    return (seat - me) % count


@functools.cache
def _names(game: Game) -> tuple[Vocabulary, Vocabulary, Vocabulary, Vocabulary]:
    """The game's cultures, building codes, specialists and building owners (built once per game)."""
    parts = game.parts  # type: ignore[attr-defined]
    return (
        Vocabulary(parts.culture_colours),
        Vocabulary(tile.code for tile in parts.buildings),
        Vocabulary(specialist.name for specialist in parts.specialists),
        Vocabulary([f"seat+{offset}" for offset in range(MAX_PLAYERS)] + SHARED_BUILDINGS),
    )


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    parts = game.parts  # type: ignore[attr-defined]
    colours: Sequence[str] = game.colours  # type: ignore[attr-defined]
    count = game.num_players
    cultures, codes, specialists, owners = _names(game)

    def owner_of(building: str | None) -> str | None:
        if building in colours:
            return f"seat+{_relative(colours.index(building), me, count)}"
        return building

    features = Features()
    features.section("islands: mountain, culture token, building owner, building tile")
    for island in view["islands"]:
        features.flag(island["mountain"])
        features.one_hot(island["token"], cultures)
        features.one_hot(owner_of(island["building"]), owners)
        features.one_hot(island["tile"], codes)
    turn = view["turn"]
    placed = set(turn["placed"])
    features.section("water spots: boat colour, placed this turn, last placed")
    for spot in parts.board.spot_ids:
        features.one_hot(view["boats"].get(spot), RESOURCES)
        features.flag(spot in placed)
        features.flag(spot == turn["last_placed"])
    features.section("reserve, sacred ground, fleet track and face-down batches")
    features.counts(view["reserve"], RESOURCES, 20)
    features.number(view["sacred_ground_left"], 8)
    for slot in view["fleet_track"][:SLOTS]:
        features.one_hot(slot["tile"], FLEET_TILES)
    for batch in range(2):
        batches = view["fleet_face_down"]
        features.counts(batches[batch]["tiles"] if batch < len(batches) else [], FLEET_TILES)
    features.section("building row, deck, what is known of its top")
    for slot in range(SLOTS):
        row = view["building_row"]
        features.one_hot(row[slot] if slot < len(row) else None, codes)
    features.number(view["building_deck"], len(codes))
    known = view.get("known_deck_top", [])
    for depth in range(3):
        features.one_hot(known[depth] if depth < len(known) else None, codes)
    # a tile known only to lie within the top N tiles: 1/N (1 for the top tile itself)
    near = {fact["tile"]: 1 / fact["within"] for fact in view.get("deck_known_within", [])}
    features.counts(near, codes)
    features.section("specialist track and deck")
    for slot in range(SLOTS):
        track = view["specialist_track"]
        entry = track[slot] if slot < len(track) else {}
        features.one_hot(entry.get("specialist"), specialists)
        features.number(entry.get("coins"), 5)
    features.number(view["specialist_deck"], len(specialists))
    features.section(f"mats, me first, padded to {MAX_PLAYERS}")
    mats = view["mats"]
    for offset in range(MAX_PLAYERS):
        mat = mats[(me + offset) % count] if offset < count else {}
        features.flag(bool(mat))
        features.number(mat.get("coins"), 20)
        features.number(mat.get("pp_tokens"), 20)
        features.counts(mat.get("culture", {}), cultures, 3)
        features.counts(mat.get("harbour", {}), RESOURCES, 3)
        features.number(mat.get("discarded"), 20)
        features.number(mat.get("buildings_left"), 10)
        features.counts(mat.get("built", []), codes)
        features.counts(mat.get("reserved", []), codes)
        features.counts(mat.get("specialists", []), specialists)
    features.section("round, turn order, fleet tiles taken")
    features.number(view["round"], 12)
    features.flag(view["to_move"] == me)
    for position in range(MAX_PLAYERS):
        order = view["turn_order_seats"]
        features.one_hot(_relative(order[position], me, count) if position < len(order) else None, range(MAX_PLAYERS))
    features.number(view["turn_index"], MAX_PLAYERS)
    features.counts(view["fleet_tiles_taken"], FLEET_TILES)
    features.section("the turn in progress, end reason")
    features.one_hot(_relative(turn["seat"], me, count) if turn["seat"] is not None else None, range(MAX_PLAYERS))
    features.one_hot(turn["phase"], PHASE_NAMES)
    features.one_hot(turn["fleet_tile"], FLEET_TILES)
    features.flag(turn["power_available"])
    features.flag(turn["build_minus_one_available"])
    features.counts(turn["hand"], RESOURCES, 5)
    features.counts(turn["bought"], RESOURCES, 5)
    features.number(turn["trades_left"], 2)
    features.flag(turn["placing_closed"])
    features.flag(turn["navigator_used"])
    features.counts(turn["collected_from"], list(parts.board.island_ids))
    features.number(turn["harbour_room"], 5)
    features.number(turn["pending"], 10)
    preview = turn.get("preview")
    features.counts(preview if isinstance(preview, list) else [], codes)
    features.number(preview["count"] if isinstance(preview, dict) else len(preview or []), 3)
    features.one_hot(view["end_reason"], list(END_REASONS.values()))
    return features
