"""Why an action is not legal now: the specific rule that forbids it, in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine.actions import Action
from parlour.engine.game import generic_reason
from parlour.games.hatairo import payment
from parlour.games.hatairo.components import COLOURS, FLAGS, PLAYER_COLOURS, TOPOGRAPHIES
from parlour.games.hatairo.constants import FLAG_NEED, PHASE_NAMES, TURN_START
from parlour.games.hatairo.moves import (
    BONUS,
    CARD_KIND,
    COMPLETE,
    DISCARD,
    DRAFT,
    GAIN,
    KEEP_ATELIER,
    KEEP_PALETTE,
    MOTIF,
    PASS,
    PAY_PAIR,
    PAY_SINGLE,
    PAY_TRIPLE,
    PLACE,
    RESERVE,
    SPARE,
    SPARE_LOST,
    START_MOTIF,
    TOPOGRAPHY,
)

if TYPE_CHECKING:
    from parlour.games.hatairo.state import HatairoState

PHASE_KINDS = {
    "set-up: keep cards": (KEEP_PALETTE, KEEP_ATELIER),
    "set-up: topography": (TOPOGRAPHY,),
    "set-up: drafting": (DRAFT,),
    "turn start": (START_MOTIF, RESERVE, GAIN, COMPLETE, PASS),
    "action": (RESERVE, GAIN, COMPLETE, PASS),
    "motif phase": (MOTIF,),
    "choose a gallery space": (PLACE,),
    "pay pigments": (PAY_SINGLE, PAY_PAIR, PAY_TRIPLE),
    "three-for-two spare": (SPARE, SPARE_LOST),
    "choose bonus pigments": (BONUS,),
    "clean phase": (DISCARD,),
    "choose cards to spend": (CARD_KIND,),
}


def _accessible(state: HatairoState, flag: int) -> bool:
    return any(row and row[-1] == flag for row in state.market)


def _market_reason(state: HatairoState, flag: int) -> str | None:
    if _accessible(state, flag):
        return None
    if any(flag in row for row in state.market):
        return f"{FLAGS[flag].name} is not the rightmost card of its Market row; only that card can be taken (R11)"
    return f"{FLAGS[flag].name} is not in the Market"


def _turn_reason(state: HatairoState, kind: int, flag: int) -> str:
    board = state.boards[state.to_move]
    if kind == START_MOTIF:
        if state.game.solo:
            return "in solo mode the automaton runs the Motif phase; you never start it yourself (R54)"
        if state.phase != TURN_START:
            return "the Motif phase can only be started at the beginning of your turn (R6)"
        return "the Motif phase needs at least one empty Market row"
    if not any(state.market) and state.phase == TURN_START and not state.game.solo:
        return "the Market is empty, so you must start the Motif phase first (R7)"
    if kind == PASS:
        return "you may pass only when no action is possible (R12)"
    if kind == RESERVE and len(board.atelier) >= 3:
        return "your Atelier already holds 3 sketches"
    if kind in (RESERVE, GAIN):
        return _market_reason(state, flag) or f"{FLAGS[flag].name} cannot be taken now"
    if board.placed == len(board.gallery):
        return "your Gallery is full"
    if flag not in board.atelier:
        reason = _market_reason(state, flag)
        if reason:
            return f"{reason}, nor in your Atelier"
    needs = "+".join(COLOURS[c] for c in FLAGS[flag].required)
    if not payment.pays(FLAG_NEED[flag], board.palette, board.as_any, board.any_as, board.three):
        return f"your Palette cannot pay for {FLAGS[flag].name} (needs {needs})"
    return f"{FLAGS[flag].name} cannot be completed now"


def _pay_reason(state: HatairoState, kind: int, slot: int, colour: int) -> str:
    board = state.boards[state.to_move]
    due = payment.next_slot(state.remaining)
    if slot != due:
        return f"pay the requirement slots in colour order: the next one is {COLOURS[due]}"
    if kind == PAY_TRIPLE and not board.three:
        return "three-for-two needs a 3-for-2 motif in your Motif Area"
    need = 1 + kind - PAY_SINGLE
    if board.palette[colour] < need:
        return f"your Palette holds {board.palette[colour]} {COLOURS[colour]}, not {need}"
    allowed = payment.single_allowed(colour, slot, board.as_any, board.any_as)
    if kind == PAY_SINGLE and not allowed:
        return (
            f"one {COLOURS[colour]} cannot pay {COLOURS[slot]}: that needs a '{COLOURS[colour]} as any' or "
            f"'any as {COLOURS[slot]}' motif; two of a colour pay one of any colour"
        )
    if kind == PAY_PAIR and allowed:
        return (
            f"one {COLOURS[colour]} already pays {COLOURS[slot]}; a pair would only waste a pigment (offered only "
            "with 4 players while the Pigment Supply is short for your bonuses)"
        )
    return "that payment would leave the rest of the flag unpayable"


def why_illegal(state: HatairoState, action: Action) -> str:
    table = state.game.table
    kind, a, b = table.kind[action.id], table.a[action.id], table.b[action.id]
    phase = PHASE_NAMES[state.phase]
    if kind not in PHASE_KINDS.get(phase, ()):
        return f"{action.label!r} is not possible now: {PLAYER_COLOURS[state.to_move]} is in the {phase} step"
    board = state.boards[state.to_move]
    if kind in (KEEP_PALETTE, KEEP_ATELIER, DRAFT):
        return f"{FLAGS[a].name} is not among your cards to choose from"
    if kind == TOPOGRAPHY:
        column = board.tiles.index(-1)
        if b != column:
            return f"tiles are laid column by column: the next one goes under column {column + 1}"
        return f"you have no {TOPOGRAPHIES[a]} tile left to lay"
    if kind in (START_MOTIF, RESERVE, GAIN, COMPLETE, PASS):
        return _turn_reason(state, kind, a)
    if kind == MOTIF:
        if board.motifs[b] >= 0:
            return "that motif space is taken; a space holds one motif and motifs never move"
        return "that motif is not in the Motif Supply"
    if kind == PLACE:
        return "that Gallery space already holds a flag"
    if kind in (PAY_SINGLE, PAY_PAIR, PAY_TRIPLE):
        return _pay_reason(state, kind, a, b)
    if kind == SPARE_LOST:
        return (
            "the spare pigment can pay an unpaid slot; giving it up is offered only with 4 players while the "
            "Pigment Supply is short for your bonuses"
        )
    if kind == SPARE:
        return f"the spare pigment cannot usefully pay {COLOURS[a]} (none due, or one pigment would do)"
    if kind == BONUS:
        return f"no adjacent flag offers a {COLOURS[a]} bonus"
    if kind == DISCARD:
        return f"your Palette holds no {COLOURS[a]}"
    if kind == CARD_KIND:
        low, high = state._flag_card_range(board)
        colour = COLOURS[state.spending[2]]
        return f"of the {colour} pigments being spent, {low} to {high} can be palette flag cards"
    return generic_reason(action)
