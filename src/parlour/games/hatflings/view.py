"""What a captain sees, as a JSON-able view of a position.

Hatflings! hides nothing but the barrel's future tosses, so every seat and every spectator gets
the whole floor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.hatflings.board import HEIGHT, NAMES, WIDTH
from parlour.games.hatflings.constants import OVER, PHASE_NAMES, PIG_SETUP
from parlour.games.hatflings.pieces import EMPTY, KIND_NAMES, PUDDLE, SCENERY_NAMES, SOURCE_KINDS

if TYPE_CHECKING:
    from parlour.games.hatflings.state import HatflingsState


def _square_view(state: HatflingsState, s: int) -> dict[str, Any] | None:
    entry: dict[str, Any] = {}
    code, scenery = state.hat[s], state.scenery[s]
    if code:
        entry["halfling"] = {"kind": KIND_NAMES[code >> 1], "seat": code & 1, "colour": state.game.colours[code & 1]}
    if scenery != EMPTY:
        entry["object"] = SCENERY_NAMES[scenery]
        if scenery >= PUDDLE:
            entry["owner"] = scenery - PUDDLE
    if s == state.pig:
        entry["pig"] = True
    return entry or None


def pool_names(mask: int) -> list[str]:
    return [KIND_NAMES[kind] for kind in SOURCE_KINDS if mask >> kind & 1]


def view(state: HatflingsState, seat: int | None) -> dict[str, Any]:
    """What `seat` sees: everything, the same for every seat and a spectator (nothing is hidden)."""
    game = state.game
    squares = {}
    for s in range(WIDTH * HEIGHT):
        entry = _square_view(state, s)
        if entry is not None:
            squares[NAMES[s]] = entry
    result: dict[str, Any] = {
        "phase": PHASE_NAMES[state.phase],
        "to_move": state.current_player(),
        "captain": state.captain,
        "turns_played": state.turns,
        "colours": list(game.colours),
        "squares": squares,
        "pig": NAMES[state.pig] if state.pig >= 0 else None,
        "general_pool": state.pool,
        "special_pools": [pool_names(state.specials[0]), pool_names(state.specials[1])],
        "puddle_supply": state.puddle_supply,
        "first_turn_done": [bool(state.started & 1), bool(state.started & 2)],
        "start_zones": [[NAMES[s] for s in zone] for zone in game.zones],
        "hats": state.hat_counts(),
        "in_rival_start_zone": state.rival_zone_counts(),
    }
    if state.phase <= PIG_SETUP:
        result["objects_to_place"] = state.scene_left
        result["objects_in_supply"] = {SCENERY_NAMES[c]: n for c, n in enumerate(state.objects_left) if c}
    elif game.repetition_limit and state.phase != OVER:
        # The loop guard (R25) is part of what decides the game, so everyone sees how close it is.
        result["position_seen"] = state.repeats
    if state.lander >= 0:
        result["lander"] = NAMES[state.lander]
    if state.end_reason:
        result["end"] = state.end_reason
        result["winners"] = state.winners()
    return result
