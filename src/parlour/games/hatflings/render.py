"""What a captain sees, drawn as text for a terminal (view.py gives the same as JSON).

Hatflings! hides nothing but the barrel's future tosses, so every seat and every spectator gets
the whole floor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.hatflings.board import FILES, HEIGHT, WIDTH
from parlour.games.hatflings.constants import PHASE_NAMES, PIG_SETUP
from parlour.games.hatflings.pieces import PUDDLE, SCENERY_NAMES
from parlour.games.hatflings.view import pool_names

if TYPE_CHECKING:
    from parlour.games.hatflings.state import HatflingsState

KIND_LETTERS = ("", "n", "j", "c", "f", "k", "g", "s", "x")
SCENERY_LETTERS = ("", "B", "R", "T", "C", "~", "~")
LEGEND = (
    "halflings: Y/P = yellow/purple hat, then n normal, j joker, x spent joker, c cheating, f firebug, "
    "k clumsy, g greedy, s stilts\n"
    "scenery: T tree, C column, B box, R barrel, ~y/~p puddle of yellow/purple, @ pig; "
    "a halfling on a box or barrel shows both (YnB)"
)


def _cell(state: HatflingsState, s: int) -> str:
    code, scenery = state.hat[s], state.scenery[s]
    text = ""
    if code:
        text = state.game.colours[code & 1][0].upper() + KIND_LETTERS[code >> 1]
    if scenery >= PUDDLE:
        text += "~" + state.game.colours[scenery - PUDDLE][0].lower()
    elif scenery:
        text += SCENERY_LETTERS[scenery]
    if s == state.pig:
        text += "@"
    return text or "."


def render(state: HatflingsState) -> str:
    game = state.game
    header = ("    " + "".join(f"{f:<5}" for f in FILES)).rstrip()
    lines = [header]
    for y in range(HEIGHT - 1, -1, -1):
        cells = "".join(f"{_cell(state, y * WIDTH + x):<5}" for x in range(WIDTH))
        lines.append(f"{y + 1}   {cells}".rstrip())
    lines.append(header)
    counts = state.hat_counts()
    lines.append(
        f"hats: {game.colours[0]} {counts[0]}, {game.colours[1]} {counts[1]}   general pool: {state.pool}   "
        f"puddles in supply: {state.puddle_supply}   turns played: {state.turns}"
    )
    for seat in (0, 1):
        specials = ", ".join(pool_names(state.specials[seat])) or "none"
        lines.append(f"seat {seat} ({game.colours[seat]}) specials left: {specials}")
    if state.end_reason:
        winners = state.winners()
        outcome = "a draw" if len(winners) == 2 else f"{game.colours[winners[0]]} wins"
        lines.append(f"the dance is over: {state.end_reason}; {outcome}")
    else:
        lines.append(f"{PHASE_NAMES[state.phase]}: seat {state.to_move} ({game.colours[state.to_move]}) to decide")
        if state.phase < PIG_SETUP:
            supply = ", ".join(f"{SCENERY_NAMES[c]} {n}" for c, n in enumerate(state.objects_left) if c and n)
            lines.append(f"objects still to place: {state.scene_left}; in supply: {supply}")
        if state.phase > PIG_SETUP and state.repeats > 1:
            lines.append(
                f"this position has come up {state.repeats} times; "
                f"the dance ends when it comes up {game.repetition_limit} times (R25)"
            )
    lines.append(LEGEND)
    return "\n".join(lines)
