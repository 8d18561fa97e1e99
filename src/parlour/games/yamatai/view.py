"""What a seat may see of a Yamataï position, as a JSON-able dict.

Public: the board, the reserve, face-up fleet tiles, the building row, the specialist track and
every mat. Hidden: the order of both decks and which face-down fleet tile lies where (only the
set of tiles in each face-down batch is known). A seat also sees the deck tiles it looked at with
the preview power, for as long as they are still on top (`known_deck_top`), and which tiles it
knows to lie somewhere near the top (`deck_known_within`: the row tile an exchange sent among the
looked-at tiles, seen by everyone, and tiles it knew on top before someone else looked at them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.yamatai import board as geo
from parlour.games.yamatai.components import RESOURCES, SLOTS
from parlour.games.yamatai.constants import END_REASONS, OVER, PHASE_NAMES, PREVIEW, PREVIEW_ORDER
from parlour.games.yamatai.deck import known_to

if TYPE_CHECKING:
    from parlour.games.yamatai.state import YamataiState


def building_name(state: YamataiState, island: int) -> str | None:
    code = state.island_building[island]
    if code == geo.NO_BUILDING:
        return None
    if code == geo.TORII:
        return "torii"
    if code == geo.PALACE:
        return "palace"
    if code == geo.SACRED_GROUND:
        return "sacred ground"
    return state.game.colours[code]


def known_near_top(state: YamataiState, seat: int | None) -> list[tuple[int, int]]:
    """(tile, depth) for each deck tile `seat` knows to lie within the top `depth` but not exactly where.

    Depths count from the top of the deck with any looked-at tiles still in hand back on it. A
    spectator knows what everyone knows: which row tile an exchange sent among the looked-at tiles.
    """
    seen: set[int] = set()
    if seat is not None:
        deck = state.deck
        seen.update(deck[len(deck) - state.known_top[seat] :])
        if seat == state.to_move:
            seen.update(state.preview)
    depths = known_to(state.deck_within, seat)
    return sorted(((t, d) for t, d in depths.items() if t not in seen), key=lambda fact: (fact[1], fact[0]))


def view(state: YamataiState, seat: int | None) -> dict[str, Any]:
    game = state.game
    parts = game.components
    board = parts.board
    kinds = parts.culture_colours
    codes = [t.code for t in parts.buildings]
    n = game.num_players
    islands = []
    for i, name in enumerate(board.island_ids):
        token = state.island_token[i]
        tile = state.island_tile[i]
        islands.append(
            {
                "id": name,
                "mountain": state.mountain[i],
                "token": kinds[token] if token >= 0 else None,
                "building": building_name(state, i),
                "tile": codes[tile] if tile >= 0 else None,
            }
        )
    boats = {board.spot_ids[s]: RESOURCES[b] for s, b in enumerate(state.spot_boat) if b >= 0}
    track = []
    for p, number in enumerate(state.fleet_track):
        face_up = p < SLOTS
        track.append({"position": p + 1, "tile": number if (number and face_up) else None, "face_up": face_up})
    batches: dict[int, list[int]] = {}
    for p, number in enumerate(state.fleet_track):
        if number and p >= SLOTS:
            batches.setdefault(state.fleet_batch[p], []).append(p)
    face_down = [
        {"positions": [p + 1 for p in where], "tiles": sorted(state.fleet_track[p] for p in where)}
        for _, where in sorted(batches.items())
    ]
    mats = []
    for s in range(n):
        mats.append(
            {
                "colour": game.colours[s],
                "coins": state.coins[s],
                "pp_tokens": state.pp_tokens[s],
                "culture": {kinds[k]: state.culture[6 * s + k] for k in range(6)},
                "harbour": {RESOURCES[c]: state.harbour[5 * s + c] for c in range(5)},
                "discarded": state.discarded[s],
                "buildings_left": state.pieces[s],
                "built": [codes[t] for t in range(len(codes)) if state.built[s] >> t & 1],
                "reserved": [codes[t] for t in range(len(codes)) if state.reserved[s] >> t & 1],
                "specialists": [sp.name for sp in parts.specialists if state.specs[s] >> sp.index & 1],
            }
        )
    turn: dict[str, Any] = {
        "seat": state.to_move if state.phase != OVER else None,
        "phase": PHASE_NAMES[state.phase],
        "fleet_tile": state.tile or None,
        "power_available": state.power_ready,
        "build_minus_one_available": state.minus_one,
        "hand": {RESOURCES[c]: state.hand[c] for c in range(5)},
        "bought": {RESOURCES[c]: state.bought[c] for c in range(5)},
        "trades_left": state.trades_left,
        "placed": [board.spot_ids[s] for s in state.placed],
        "last_placed": board.spot_ids[state.head] if state.head >= 0 else None,
        "placing_closed": state.chain_closed,
        "navigator_used": state.branch_used,
        "collected_from": [board.island_ids[i] for i in state.picks],
        "harbour_room": state.keep_left,
        "pending": state.pending,
    }
    if state.phase in (PREVIEW, PREVIEW_ORDER):
        turn["preview"] = [codes[t] for t in state.preview] if seat == state.to_move else {"count": len(state.preview)}
    result: dict[str, Any] = {
        "round": state.round_no,
        "to_move": state.to_move if state.phase != OVER else None,
        "turn_order": [game.colours[s] for s in state.order],
        "turn_order_seats": list(state.order),
        "turn_index": state.turn,
        "fleet_tiles_taken": list(state.turn_fleets),
        "turn": turn,
        "islands": islands,
        "boats": boats,
        "reserve": {RESOURCES[c]: state.reserve[c] for c in range(5)},
        "sacred_ground_left": state.sacred_left,
        "fleet_track": track,
        "fleet_face_down": face_down,
        "building_row": [codes[t] if t >= 0 else None for t in state.row],
        "building_deck": len(state.deck),
        "specialist_track": [
            {"specialist": parts.specialists[sp].name if sp >= 0 else None, "coins": state.spec_coins[k]}
            for k, sp in enumerate(state.spec_track)
        ],
        "specialist_deck": len(state.spec_deck),
        "mats": mats,
        "end_reason": END_REASONS[state.end_reason] if state.end_reason else None,
    }
    if seat is not None:
        known = state.known_top[seat]
        result["known_deck_top"] = [codes[t] for t in reversed(state.deck[len(state.deck) - known :])]
    result["deck_known_within"] = [{"tile": codes[t], "within": depth} for t, depth in known_near_top(state, seat)]
    # Coins, PP, buildings, specialists, culture tokens and boats are all in view: the score as it
    # stands, for the players' panel.
    result["scores_now"] = [score.to_json() for score in state.scores()]
    if state.phase == OVER:
        result["scores"] = [score.to_json() for score in state.scores()]
        result["winners"] = state.winners()
    return result
