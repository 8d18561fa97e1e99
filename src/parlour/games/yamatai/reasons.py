"""Why an action is refused: the specific rule, in words a player understands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine.actions import Action
from parlour.engine.game import generic_reason
from parlour.games.yamatai import board as geo
from parlour.games.yamatai import constants as ph
from parlour.games.yamatai.actions import N_ISLANDS, N_SPOTS, Ids
from parlour.games.yamatai.components import GOLD, RESOURCES

if TYPE_CHECKING:
    from parlour.games.yamatai.state import YamataiState


def _phase_of(action_id: int) -> tuple[int, ...]:
    spans = (
        (Ids.BUY, (ph.FLEET,)),
        (Ids.PLACE, (ph.TRADE,)),
        (Ids.COLLECT, (ph.PLACE,)),
        (Ids.STOP_COLLECTING, (ph.CHOOSE, ph.COLLECT)),
        (Ids.BUILD, (ph.COLLECT,)),
        (Ids.KEEP, (ph.CHOOSE,)),
        (Ids.RECRUIT, (ph.HARBOUR,)),
        (Ids.PAY_SAME, (ph.RECRUIT,)),
        (Ids.END_TURN, (ph.PAY,)),
        (Ids.USE_POWER, (ph.END,)),
        (Ids.SWAP_TOKEN_FROM, tuple(range(ph.FLEET, ph.OVER))),
        (Ids.SWAP_TOKEN_TO, (ph.SWAP_TOKEN_FROM,)),
        (Ids.SACRED, (ph.SWAP_TOKEN_TO,)),
        (Ids.MOVE_FROM, (ph.SACRED,)),
        (Ids.MOVE_TO, (ph.MOVE_FROM,)),
        (Ids.RESERVE, (ph.MOVE_TO,)),
        (Ids.SWAP_BOAT_FROM, (ph.RESERVE,)),
        (Ids.SWAP_BOAT_TO, (ph.SWAP_BOAT_FROM,)),
        (Ids.REMOVE, (ph.SWAP_BOAT_TO,)),
        (Ids.PREVIEW_SWAP, (ph.REMOVE,)),
        (Ids.PREVIEW_RETURN, (ph.PREVIEW,)),
        (Ids.TOTAL, (ph.PREVIEW_ORDER,)),
    )
    for end, phases in spans:
        if action_id < end:
            return phases
    return ()


def why_illegal(state: YamataiState, action: Action) -> str:
    label = action.label
    if state.phase == ph.OVER:
        return f"the game is over; {label!r} cannot be played"
    step = ph.PHASE_NAMES[state.phase]
    who = f"seat {state.to_move} ({state.game.colours[state.to_move]})"
    a = action.id
    if state.phase not in _phase_of(a):
        return f"{label!r} is not possible now: {who} is at the {step!r} step (the turn's steps go in order, R35)"
    specific = _specific(state, a)
    return f"{label!r} is not allowed: {specific}" if specific else generic_reason(action)


def _specific(state: YamataiState, a: int) -> str:
    parts = state.game.components
    board = parts.board
    seat = state.to_move
    if a < Ids.BUY:
        return f"fleet tile {a - Ids.FLEET + 1} is not face up on the fleet track"
    if a < Ids.END_TRADE:
        selling = a >= Ids.SELL
        c = a - (Ids.SELL if selling else Ids.BUY)
        buy, sell = state.price_table
        if not (sell if selling else buy)[c]:
            return "gold is never bought or sold (unless you have the Gold Dealer)" if c == GOLD else "not tradeable"
        if state.trades_left <= 0:
            return "you have made all the transactions allowed this turn"
        if selling:
            if state.bought[c]:
                colour = RESOURCES[c]
                return f"a {colour} boat bought this turn cannot be sold again this turn, nor another {colour} (R45)"
            return f"you hold no {RESOURCES[c]} boat this turn"
        if not state.reserve[c]:
            return f"the reserve has no {RESOURCES[c]} boat left"
        return f"a {RESOURCES[c]} boat costs {buy[c]} coins and you have {state.coins[seat]}"
    if a < Ids.STOP_PLACING:
        c, s = divmod(a - Ids.PLACE, N_SPOTS)
        if state.chain_closed:
            return "your boats for this turn are placed (the chain cannot go on, R42)"
        if not state.hand[c]:
            return f"you have no {RESOURCES[c]} boat left to place"
        if state.spot_boat[s] >= 0:
            return f"{board.spot_ids[s]} already holds a boat"
        if state.head < 0:
            if state.has_power(seat, "free_first_boat"):
                return "the first boat goes on a free entry spot or next to a boat of any colour (Pilot)"
            return "the first boat goes on a free entry spot or next to a boat of its own colour"
        before = f"each boat goes next to the boat placed just before it ({board.spot_ids[state.head]})"
        if state.has_power(seat, "branch_once") and not state.branch_used:
            return f"{before} or, once a turn, next to another boat you placed this turn (Navigator)"
        return f"{before} (R6)"
    if a < Ids.STOP_COLLECTING:
        i = a - Ids.COLLECT
        if state.island_token[i] < 0:
            return f"{board.island_ids[i]} holds no culture token"
        if all(i not in board.spot_islands[s] for s in state.placed):
            return f"{board.island_ids[i]} is not next to a boat you placed this turn"
        return "each boat you placed takes at most one token (R8)"
    if a < Ids.SKIP_IIIB:
        t, i = divmod(a - Ids.BUILD, N_ISLANDS)
        tile = parts.buildings[t]
        if t not in state.row and not state.reserved[seat] >> t & 1:
            return f"{tile.code} is neither in the building row nor reserved by you (R16)"
        if tile.standard and not state.pieces[seat]:
            return "you have no Standard Building left (R11)"
        if state.island_building[i] != geo.NO_BUILDING or state.island_token[i] >= 0:
            return f"{board.island_ids[i]} is not empty (R10)"
        if all(i not in board.spot_islands[s] for s in state.placed):
            return f"no boat you placed this turn touches {board.island_ids[i]}"
        return f"the boats around {board.island_ids[i]} do not meet {tile.code}'s requirement (R10)"
    if a == Ids.SKIP_IIIB:
        return "collecting or building is compulsory when one of them is possible (R9)"
    if a < Ids.RECRUIT:
        c = a - Ids.KEEP
        return f"you have no {RESOURCES[c]} boat left" if not state.hand[c] else "your harbour is full"
    if a < Ids.NO_RECRUIT:
        if a - Ids.RECRUIT not in state.spec_track:
            return f"the {parts.specialists[a - Ids.RECRUIT].name} is not on the specialist track"
        return "a recruit costs two identical or three different culture tokens (R18)"
    if Ids.PAY_SAME <= a < Ids.END_TURN:
        if a >= Ids.PAY_TWO:
            return "two different tokens pay only with the Envoy, and you must hold them"
        return "you do not hold those culture tokens"
    if a == Ids.USE_POWER:
        if not state.tile:
            return "no fleet tile has been taken yet this turn"
        if not state.power_ready:
            return "this turn's fleet power is used or cannot be used on its own (R1, R41)"
        return "the fleet power has no legal target now, or cannot interrupt this step (R41)"
    if Ids.SWAP_TOKEN_FROM <= a < Ids.PREVIEW_SWAP:
        return "that is not a legal target of the power (R28, R29, R44)"
    if Ids.PREVIEW_SWAP <= a < Ids.PREVIEW_KEEP:
        return "the exchange takes one looked-at tile and one tile face up in the row (R43)"
    if a >= Ids.PREVIEW_RETURN:
        return f"{parts.buildings[a - Ids.PREVIEW_RETURN].code} is not one of the tiles you are putting back"
    return ""
