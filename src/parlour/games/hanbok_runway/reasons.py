"""Why an action is refused: the specific rule that forbids it, in words a player understands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Action
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import (
    DISCARD,
    DISCARD_FABRIC,
    DISCARD_STYLE,
    DRAW,
    DRAW_SPLIT,
    FLIP,
    INITIAL_DRAW,
    MAKE_SET,
    OVAL_CHOICE,
    PASS,
    PEEK,
    SETS,
)

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.state import HanbokRunwayState

STEP_OF = {
    DRAW_SPLIT: (INITIAL_DRAW, DRAW),
    MAKE_SET: (SETS,),
    PASS: (SETS,),
    PEEK: (OVAL_CHOICE,),
    FLIP: (OVAL_CHOICE,),
    DISCARD_STYLE: (DISCARD,),
    DISCARD_FABRIC: (DISCARD,),
}


def _current_step(state: HanbokRunwayState) -> str:
    comps = state.game.components
    if state.phase == OVAL_CHOICE:
        colour = comps.colours[state.oval_colour]
        return (
            f"the oval must be resolved first: peek at a face-down {colour} token in the queue "
            "or flip one of the opponent's"
        )
    return {
        INITIAL_DRAW: f"it is the opening draw of {comps.initial_draw} cards",
        DRAW: f"it is the draw step: draw {comps.draw_per_turn} cards first",
        SETS: "it is the set step: make a set or pass",
        DISCARD: f"the hand limit is {comps.hand_limit}: discard a card first",
    }.get(state.phase, "the game is over")


def _draw(state: HanbokRunwayState, styles: int, fabrics: int) -> str:
    total, free_styles, free_fabrics = state._draw_target()
    if styles + fabrics != total:
        return f"draw exactly {_cards(total)} now, in any split"
    deck, free = ("style", free_styles) if styles > free_styles else ("fabric", free_fabrics)
    left = f"1 {deck} card is" if free == 1 else f"{free} {deck} cards are"
    return f"only {left} left in the {deck} deck and its discard pile"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _make_set(state: HanbokRunwayState, symbol: int, kind: int, colour: int) -> str:
    comps = state.game.components
    seat = state.to_move
    if state.sets_this_turn >= comps.max_sets_per_turn:
        return f"at most {comps.max_sets_per_turn} sets may be made in one turn"
    if len(state.set_tokens[seat]) >= comps.max_sets_per_player:
        return f"a player may make at most {comps.max_sets_per_player} sets"
    if not state.tableau_style[seat][symbol]:
        return f"you have no {SYMBOLS[symbol]} style card in front of you"
    if not state.tableau_fabric[seat][kind]:
        return f"you have no {comps.kind_labels[kind]} fabric card in front of you"
    return f"{comps.colours[colour]}'s queue is empty: no token left to earn"


def _oval(state: HanbokRunwayState, effect: int, token: int) -> str:
    comps = state.game.components
    colour, position = divmod(token, comps.tokens_per_colour)
    name = f"{comps.colours[colour]} {position + 1}"
    if colour != state.oval_colour:
        return f"the oval looks only at {comps.colours[state.oval_colour]}, the colour just earned"
    if effect == PEEK:
        if position < state.taken[colour]:
            return f"{name} has already left the queue"
        return f"{name} is face-up: only a face-down token can be peeked at"
    if state.owner[token] == state.to_move:
        return f"{name} is your own token: the oval flips only the opponent's"
    if state.owner[token] < 0:
        return f"{name} is still in the queue: the oval flips only a token the opponent has taken"
    return f"the opponent's {name} is already face-up"


def why_illegal(state: HanbokRunwayState, action: Action) -> str:
    """The rule that forbids `action` now (the action is known not to be legal)."""
    effect, first, second, third = state.game.effects[action.id]
    if state.phase not in STEP_OF[effect]:
        return f"{action.label!r} is not allowed now: {_current_step(state)}"
    if effect == DRAW_SPLIT:
        return _draw(state, first, second)
    if effect == MAKE_SET:
        return _make_set(state, first, second, third)
    if effect in (PEEK, FLIP):
        return _oval(state, effect, first)
    comps = state.game.components
    name = SYMBOLS[first] if effect == DISCARD_STYLE else comps.kind_labels[first]
    return f"you have no {name} card to discard"
