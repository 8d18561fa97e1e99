"""Building Hatflings! positions directly for rules tests.

`position({"c3": "Y", "d4": "P+box", "e5": "Ps"}, pig="f6")` gives a dance position with seat 0
to move. A halfling is Y or P (its hat) followed by its kind letter: n normal (default), j joker,
x spent joker, c cheating, f firebug, k clumsy, g greedy, s stilts. Scenery is added with "+":
box, barrel, tree, column, puddle:0, puddle:1; a square may hold scenery alone ("tree").
"""

from __future__ import annotations

from typing import Any

import parlour
from parlour.games.hatflings.board import NAMES, parse_square
from parlour.games.hatflings.constants import DANCE
from parlour.games.hatflings.pieces import ALL_SPECIALS, JOKER, KIND_NAMES, OBJECT_CODES, PUDDLE, SOURCE_KINDS, halfling
from parlour.games.hatflings.state import HatflingsState

KIND_LETTERS = {"n": 1, "j": JOKER, "c": 3, "f": 4, "k": 5, "g": 6, "s": 7, "x": 8}
KINDS = {KIND_NAMES[kind]: kind for kind in SOURCE_KINDS}


def square(name: str) -> int:
    found = parse_square(name)
    assert found is not None, name
    return found


def specials(*names: str) -> int:
    """A special pool bitmask holding the named specials."""
    return sum(1 << KINDS[name] for name in names)


def position(
    layout: dict[str, str],
    *,
    to_move: int = 0,
    pig: str = "f6",
    pool: int = 24,
    special_pools: tuple[int, int] = (ALL_SPECIALS, ALL_SPECIALS),
    started: int = 3,
    seed: int = 0,
    **options: Any,
) -> HatflingsState:
    state = parlour.load_game("hatflings", **options).new_state(seed=seed)
    assert isinstance(state, HatflingsState)
    state.hat = bytearray(36)
    state.scenery = bytearray(36)
    puddles = 0
    for name, content in layout.items():
        s = square(name)
        for part in content.split("+"):
            if part[0] in "YP" and len(part) <= 2:
                colour = 0 if part[0] == "Y" else 1
                state.hat[s] = halfling(KIND_LETTERS[part[1:] or "n"], colour)
            elif part.startswith("puddle:"):
                state.scenery[s] = PUDDLE + int(part[7:])
                puddles += 1
            else:
                state.scenery[s] = OBJECT_CODES[part]
    state.pig = square(pig)
    state.pool = pool
    state.specials = list(special_pools)
    state.puddle_supply = state.game.puddles - puddles
    state.started = started
    state.captain = state.to_move = to_move
    state.phase = DANCE
    state.turns = 10
    state.lander = -1
    state.seen = {}
    state.end_reason = ""
    state._legal = None
    state.rebuild_masks()  # hat and scenery were written by hand
    state._start_turn([])  # the position is taken at the start of a turn (R20, R22, R25)
    return state


def labels(state: HatflingsState) -> set[str]:
    return {action.label for action in state.legal_actions()}


def at(state: HatflingsState, name: str) -> str:
    """What a square holds, in the layout notation ("" when empty)."""
    s = square(name)
    parts = []
    code = state.hat[s]
    if code:
        letter = {v: k for k, v in KIND_LETTERS.items()}[code >> 1]
        parts.append(("Y" if code & 1 == 0 else "P") + ("" if letter == "n" else letter))
    scenery = state.scenery[s]
    if scenery >= PUDDLE:
        parts.append(f"puddle:{scenery - PUDDLE}")
    elif scenery:
        parts.append({v: k for k, v in OBJECT_CODES.items()}[scenery])
    return "+".join(parts)


def kinds(events: list[Any]) -> list[str]:
    return [event.kind for event in events]


__all__ = ["NAMES", "at", "kinds", "labels", "position", "specials", "square"]
