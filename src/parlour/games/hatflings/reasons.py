"""Why an action is not legal: the specific rule that forbids it, in a captain's words.

Only called when an action has already been refused, so clarity matters here, not speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine.actions import Action
from parlour.engine.game import generic_reason
from parlour.games.hatflings.board import NAMES, NEIGHBOURS
from parlour.games.hatflings.constants import (
    A_GREEDY,
    A_JUMP,
    A_PIG,
    A_PIG_SETUP,
    A_PLACE,
    A_PUDDLE,
    A_SCENE,
    DANCE,
    OVER,
    PIG_MOVE,
    PIG_SETUP,
    PUDDLE_CHOICE,
    SCENE,
)
from parlour.games.hatflings.pieces import BARREL, CHEATING, GREEDY, KIND_NAMES, NORMAL, SCENERY_NAMES

if TYPE_CHECKING:
    from parlour.games.hatflings.state import HatflingsState

_PHASE_FAMILIES = {
    SCENE: (A_SCENE,),
    PIG_SETUP: (A_PIG_SETUP,),
    DANCE: (A_PLACE, A_GREEDY, A_JUMP),
    PUDDLE_CHOICE: (A_PUDDLE,),
    PIG_MOVE: (A_PIG,),
}


def why_illegal(state: HatflingsState, action: Action) -> str:
    family, a, b, c = state.game.moves[action.id]
    if state.phase == OVER:
        return f"the dance is over: {state.end_reason}"
    if family not in _PHASE_FAMILIES[state.phase]:
        return _wrong_phase(state, family)
    if family == A_SCENE:
        reason = _scene_object(state, a, b)
    elif family == A_PIG_SETUP:
        reason = _blocked(state, a, "the pig needs a free square (R6)")
    elif family == A_PLACE:
        reason = _place(state, a, b)
    elif family == A_GREEDY:
        reason = _greedy(state, a)
    elif family == A_JUMP:
        reason = _jump(state, a, b, c)
    elif family == A_PUDDLE:
        reason = f"{NAMES[a]} is not an empty square around the clumsy halfling at {NAMES[state.lander]}"
    else:
        reason = f"{NAMES[a]} is not an empty square around the pig at {NAMES[state.pig]} (R18)"
    return reason or generic_reason(action)


def _colour(state: HatflingsState) -> str:
    return state.game.colours[state.captain]


_NOT_NOW = {
    A_SCENE: "the scene is already set up",
    A_PIG_SETUP: "the scene is already set up",
    A_PUDDLE: "a puddle is only spilled right after a clumsy halfling is introduced (7.4)",
    A_PIG: "the pig only runs when a halfling lands next to it (R18)",
}
"""Why a scene or follow-up decision cannot be made while the captain to move has a turn to play."""


def _wrong_phase(state: HatflingsState, family: int) -> str:
    phase = state.phase
    if phase == SCENE:
        return f"the scene is being set up: seat {state.to_move} places an object, e.g. 'tree at c3' (R4)"
    if phase == PIG_SETUP:
        return f"seat {state.to_move} must now place the pig, e.g. 'pig at e3' (R4)"
    if phase == PUDDLE_CHOICE:
        around = NAMES[state.lander]
        return f"{_colour(state)} must first put the clumsy halfling's puddle on an empty square around {around}"
    if phase == PIG_MOVE:
        return f"{_colour(state)} must first move the pig to an empty square around {NAMES[state.pig]} (R18)"
    return f"{_NOT_NOW[family]}; it is {_colour(state)}'s turn to place, push in or jump a halfling"


def _occupant(state: HatflingsState, s: int) -> str:
    """What keeps a halfling off square s, or "" if it is free."""
    if state.hat[s]:
        return f"{NAMES[s]} already holds a halfling"
    if s == state.pig:
        return f"{NAMES[s]} holds the pig"
    if state.scenery[s] > BARREL:
        return f"{NAMES[s]} holds a {SCENERY_NAMES[state.scenery[s]]}"
    return ""


def _blocked(state: HatflingsState, s: int, rule: str) -> str:
    occupant = _occupant(state, s)
    return f"{occupant}; {rule}" if occupant else ""


def _scene_object(state: HatflingsState, code: int, s: int) -> str:
    if not state.objects_left[code]:
        return f"no {SCENERY_NAMES[code]} is left in the supply"
    zones = state.game.zone_masks
    if (zones[0] | zones[1]) >> s & 1:
        return f"{NAMES[s]} is in a start zone; scene objects go outside both start zones"
    if state.scenery[s]:
        return f"{NAMES[s]} already holds a {SCENERY_NAMES[state.scenery[s]]}"
    return ""


def _first_turn(state: HatflingsState) -> bool:
    return not state.started >> state.captain & 1


def _place(state: HatflingsState, kind: int, s: int) -> str:
    c = state.captain
    if kind == NORMAL and not state.pool:
        return "the general pool is empty"
    if kind != NORMAL and not state.specials[c] >> kind & 1:
        return f"your {KIND_NAMES[kind]} halfling is no longer in your special pool"
    if _first_turn(state):
        zone = state.game.zones[c]
        if s not in zone:
            squares = ", ".join(NAMES[z] for z in zone)
            return f"on your first turn you place a halfling in your start zone ({squares}) (R7)"
        return _blocked(state, s, "a halfling needs a free square")
    blocked = _blocked(state, s, "a halfling needs a free square")
    if blocked:
        return blocked
    if not any(state.hat[n] and state.hat[n] & 1 == c for n in NEIGHBOURS[s]):
        return f"{NAMES[s]} does not surround any halfling wearing {_colour(state)}"
    return ""


def _greedy(state: HatflingsState, s: int) -> str:
    c = state.captain
    if _first_turn(state):
        return "a greedy halfling cannot push in on a first turn; place it in your start zone instead (R7)"
    if not state.specials[c] >> GREEDY & 1:
        return "your greedy halfling is no longer in your special pool"
    if not state.hat[s] or state.hat[s] & 1 != c:
        return f"greedy entry needs a halfling wearing {_colour(state)} on {NAMES[s]}"
    if state.scenery[s]:
        under = SCENERY_NAMES[state.scenery[s]]
        return f"the halfling on {NAMES[s]} stands on a {under}; greedy entry needs one on the floor (R11a)"
    return ""


def _jump(state: HatflingsState, origin: int, over: int, to: int) -> str:
    c = state.captain
    hat = state.hat
    if _first_turn(state):
        return "on your first turn you must place a halfling in your start zone (R7)"
    if not hat[origin] or hat[origin] & 1 != c:
        return f"{NAMES[origin]} holds no halfling wearing {_colour(state)}"
    if hat[origin] >> 1 == CHEATING:
        return "a cheating halfling can never be moved by its captain"
    if not hat[over] or hat[over] & 1 == c:
        return f"{NAMES[over]} holds no rival halfling to jump over"
    if state.scenery[over]:
        return f"the halfling on {NAMES[over]} sits on a {SCENERY_NAMES[state.scenery[over]]} and cannot be jumped over"
    return _blocked(state, to, "a jump must land on a free square")
