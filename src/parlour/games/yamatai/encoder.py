"""Yamataï view -> tensor: every island (mountain, culture token, building seen from the observing
seat, building tile) and water spot (boat colour, placed this turn), the reserve, fleet track,
building row and what the seat knows of the deck's top, specialist track, each mat from the
observing seat round the table (padded to four), and the turn in progress."""

from __future__ import annotations

import functools
from collections.abc import Mapping, MutableSequence, Sequence
from typing import TYPE_CHECKING, Any

from parlour.engine.game import Game
from parlour.engine.tensor import Features, Vocabulary
from parlour.games.yamatai import board as geo
from parlour.games.yamatai.components import RESOURCES, SLOTS
from parlour.games.yamatai.constants import END_REASONS, OVER, PHASE_NAMES, PREVIEW, PREVIEW_ORDER
from parlour.games.yamatai.view import known_near_top

if TYPE_CHECKING:
    from parlour.games.yamatai.state import YamataiState

MAX_PLAYERS = 4
FLEET_TILES = Vocabulary(range(1, 11))
SHARED_BUILDINGS = ["torii", "palace", "sacred ground"]


def _relative(seat: int, me: int, count: int) -> int:
    return (seat - me) % count


@functools.cache
def _names(game: Game) -> tuple[Vocabulary, Vocabulary, Vocabulary, Vocabulary]:
    """The game's cultures, building codes, specialists and building owners (built once per game)."""
    parts = game.components  # type: ignore[attr-defined]
    return (
        Vocabulary(parts.culture_colours),
        Vocabulary(tile.code for tile in parts.buildings),
        Vocabulary(specialist.name for specialist in parts.specialists),
        Vocabulary([f"seat+{offset}" for offset in range(MAX_PLAYERS)] + SHARED_BUILDINGS),
    )


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    parts = game.components  # type: ignore[attr-defined]
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


# --- the same tensor read from the position itself ------------------------------------------------
# `encode` above is the reference: it reads the view, so it shows exactly what the view shows
# (of the deck, only the tiles the seat saw on top or knows to lie near it). `write` gives the
# same values without building the view (tests/interop/test_fast_encoders.py compares the two over
# many random positions), for adapters that want a tensor at every step.


class _Plan:
    """Where `encode` puts each block, and each piece's slot, for one game (built once)."""

    def __init__(self, game: Game) -> None:
        parts = game.components  # type: ignore[attr-defined]
        cultures, codes, specialists, owners = _names(game)
        board = parts.board
        self.culture_slot = tuple(cultures.slots[name] for name in parts.culture_colours)
        self.code_slot = tuple(codes.slots[tile.code] for tile in parts.buildings)
        self.specialist_slot = tuple(specialists.slots[sp.name] for sp in parts.specialists)
        self.specialist_by_bit: dict[int, list[int]] = {}
        """A specialist's bit in a mat's mask -> its slot(s) in the specialists' counts."""
        for sp in parts.specialists:
            self.specialist_by_bit.setdefault(sp.index, []).append(specialists.slots[sp.name])
        self.cultures, self.codes, self.specialists = len(cultures), len(codes), len(specialists)
        self.owners = len(owners)
        self.shared = {
            geo.TORII: owners.slots["torii"],
            geo.PALACE: owners.slots["palace"],
            geo.SACRED_GROUND: owners.slots["sacred ground"],
        }
        self.island_size = 1 + self.cultures + self.owners + self.codes
        self.islands = len(board.island_ids)
        self.spot_size = len(RESOURCES) + 2
        self.spots_at = self.islands * self.island_size
        self.reserve_at = self.spots_at + len(board.spot_ids) * self.spot_size
        self.row_at = self.reserve_at + len(RESOURCES) + 1 + (SLOTS + 2) * len(FLEET_TILES)
        self.track_at = self.row_at + (SLOTS + 3 + 1) * self.codes + 1
        self.mats_at = self.track_at + SLOTS * (self.specialists + 1) + 1
        self.mat_size = 5 + self.cultures + len(RESOURCES) + 2 * self.codes + self.specialists
        self.round_at = self.mats_at + MAX_PLAYERS * self.mat_size
        self.turn_at = self.round_at + 2 + MAX_PLAYERS * MAX_PLAYERS + 1 + len(FLEET_TILES)
        self.end_slot = {code: index for index, code in enumerate(END_REASONS)}


@functools.lru_cache(maxsize=64)
def _plan(game: Game) -> _Plan:
    return _Plan(game)


def _write_mat(state: YamataiState, seat: int, plan: _Plan, at: int, out: MutableSequence[float]) -> None:
    out[at] = 1.0
    for slot, value, scale in ((1, state.coins[seat], 20), (2, state.pp_tokens[seat], 20)):
        if value:
            out[at + slot] = value / scale
    at += 3
    for kind in range(6):
        if state.culture[6 * seat + kind]:
            out[at + plan.culture_slot[kind]] += state.culture[6 * seat + kind] / 3
    at += plan.cultures
    for colour in range(5):
        if state.harbour[5 * seat + colour]:
            out[at + colour] = state.harbour[5 * seat + colour] / 3
    at += len(RESOURCES)
    if state.discarded[seat]:
        out[at] = state.discarded[seat] / 20
    if state.pieces[seat]:
        out[at + 1] = state.pieces[seat] / 10
    at += 2
    # built, reserved and recruited are bit masks: visit the set bits only (a mat holds few)
    for tiles in (state.built[seat], state.reserved[seat]):
        while tiles:
            lowest = tiles & -tiles
            out[at + plan.code_slot[lowest.bit_length() - 1]] += 1.0
            tiles ^= lowest
        at += plan.codes
    specs, by_bit = state.specs[seat], plan.specialist_by_bit
    while specs:
        lowest = specs & -specs
        for slot in by_bit.get(lowest.bit_length() - 1, ()):
            out[at + slot] += 1.0
        specs ^= lowest


def write(state: YamataiState, seat: int | None, out: MutableSequence[float]) -> None:
    """`encode(state.view(seat), seat, game)` written into `out` (all zeros, of the tensor's
    length), read from the position directly."""
    game = state.game
    plan = _plan(game)
    me = 0 if seat is None else seat
    count = game.num_players
    codes = plan.code_slot
    owner_at = 1 + plan.cultures
    tile_at = owner_at + plan.owners
    cultures, shared, at = plan.culture_slot, plan.shared, 0
    for mountain, token, building, tile in zip(
        state.mountain, state.island_token, state.island_building, state.island_tile, strict=True
    ):
        if mountain:
            out[at] = 1.0
        if token >= 0:
            out[at + 1 + cultures[token]] = 1.0
        if building != geo.NO_BUILDING:
            common = shared.get(building)
            out[at + owner_at + (common if common is not None else (building - me) % count)] = 1.0
        if tile >= 0:
            out[at + tile_at + codes[tile]] = 1.0
        at += plan.island_size
    spots, spot_size = plan.spots_at, plan.spot_size
    for spot, boat in enumerate(state.spot_boat):
        if boat >= 0:
            out[spots + spot * spot_size + boat] = 1.0
    for spot in state.placed:
        out[spots + spot * spot_size + len(RESOURCES)] = 1.0
    if state.head >= 0:
        out[spots + state.head * spot_size + len(RESOURCES) + 1] = 1.0
    at = plan.reserve_at
    for colour, boats in enumerate(state.reserve):
        if boats:
            out[at + colour] = boats / 20
    at += len(RESOURCES)
    if state.sacred_left:
        out[at] = state.sacred_left / 8
    at += 1
    for position in range(SLOTS):
        number = state.fleet_track[position]
        if number in FLEET_TILES.slots:
            out[at + position * len(FLEET_TILES) + FLEET_TILES.slots[number]] = 1.0
    at += SLOTS * len(FLEET_TILES)
    batches: dict[int, list[int]] = {}
    for position in range(SLOTS, len(state.fleet_track)):
        number = state.fleet_track[position]
        if number:
            batches.setdefault(state.fleet_batch[position], []).append(number)
    for index, (_, numbers) in enumerate(sorted(batches.items())[:2]):
        for number in numbers:
            if number in FLEET_TILES.slots:
                out[at + index * len(FLEET_TILES) + FLEET_TILES.slots[number]] += 1.0
    at = plan.row_at
    for slot, tile in enumerate(state.row[:SLOTS]):
        if tile >= 0:
            out[at + slot * plan.codes + codes[tile]] = 1.0
    at += SLOTS * plan.codes
    deck = state.deck
    if deck:
        out[at] = len(deck) / plan.codes
    at += 1
    if seat is not None:
        known = state.known_top[seat]
        for depth in range(min(known, 3)):
            out[at + depth * plan.codes + codes[deck[len(deck) - 1 - depth]]] = 1.0
    at += 3 * plan.codes
    for tile, within in known_near_top(state, seat):
        out[at + codes[tile]] = 1 / within
    at = plan.track_at
    for slot in range(min(SLOTS, len(state.spec_track))):
        specialist = state.spec_track[slot]
        if specialist >= 0:
            out[at + plan.specialist_slot[specialist]] = 1.0
        if state.spec_coins[slot]:
            out[at + plan.specialists] = state.spec_coins[slot] / 5
        at += plan.specialists + 1
    if state.spec_deck:
        out[at] = len(state.spec_deck) / plan.specialists
    for offset in range(min(count, MAX_PLAYERS)):
        _write_mat(state, (me + offset) % count, plan, plan.mats_at + offset * plan.mat_size, out)
    at = plan.round_at
    if state.round_no:
        out[at] = state.round_no / 12
    over = state.phase == OVER
    if not over and state.to_move == me:
        out[at + 1] = 1.0
    at += 2
    for position, player in enumerate(state.order[:MAX_PLAYERS]):
        relative = _relative(player, me, count)
        if relative < MAX_PLAYERS:
            out[at + position * MAX_PLAYERS + relative] = 1.0
    at += MAX_PLAYERS * MAX_PLAYERS
    if state.turn:
        out[at] = state.turn / MAX_PLAYERS
    at += 1
    for number in state.turn_fleets:
        if number in FLEET_TILES.slots:
            out[at + FLEET_TILES.slots[number]] += 1.0
    at = plan.turn_at
    if not over:
        out[at + _relative(state.to_move, me, count)] = 1.0
    at += MAX_PLAYERS
    out[at + state.phase] = 1.0
    at += len(PHASE_NAMES)
    if state.tile in FLEET_TILES.slots:
        out[at + FLEET_TILES.slots[state.tile]] = 1.0
    at += len(FLEET_TILES)
    if state.power_ready:
        out[at] = 1.0
    if state.minus_one:
        out[at + 1] = 1.0
    at += 2
    for amounts in (state.hand, state.bought):
        for colour in range(5):
            if amounts[colour]:
                out[at + colour] = amounts[colour] / 5
        at += len(RESOURCES)
    if state.trades_left:
        out[at] = state.trades_left / 2
    if state.chain_closed:
        out[at + 1] = 1.0
    if state.branch_used:
        out[at + 2] = 1.0
    at += 3
    for island in state.picks:
        out[at + island] += 1.0
    at += plan.islands
    if state.keep_left:
        out[at] = state.keep_left / 5
    if state.pending:
        out[at + 1] = state.pending / 10
    at += 2
    previewing = state.phase in (PREVIEW, PREVIEW_ORDER)
    if previewing and seat == state.to_move:
        for tile in state.preview:
            out[at + codes[tile]] += 1.0
    at += plan.codes
    if previewing and state.preview:
        out[at] = len(state.preview) / 3
    at += 1
    if state.end_reason:
        out[at + plan.end_slot[state.end_reason]] = 1.0
