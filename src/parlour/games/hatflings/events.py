"""The events Hatflings! reports, built once and shared.

Events are immutable, and the frequent ones (a placement, a jump, a set of hat changes, the pig's
run, a barrel's test) depend on a handful of small integers, so each distinct event is built the
first time it happens and reused after: random playouts then pay a cache lookup, not a new object.
Their data holds only strings, numbers and tuples, so sharing them is safe.
"""

from __future__ import annotations

from functools import cache

from parlour.engine.actions import Event
from parlour.games.hatflings.board import NAMES
from parlour.games.hatflings.components import COMPONENTS
from parlour.games.hatflings.pieces import KIND_NAMES

COLOURS = COMPONENTS.colours


@cache
def placed(seat: int, kind: int, square: int) -> Event:
    return Event(
        "place",
        f"{COLOURS[seat]} places a {KIND_NAMES[kind]} halfling at {NAMES[square]}",
        {"seat": seat, "halfling": KIND_NAMES[kind], "square": NAMES[square]},
    )


@cache
def jumped(seat: int, kind: int, origin: int, over: int, to: int) -> Event:
    return Event(
        "jump",
        f"{COLOURS[seat]} {KIND_NAMES[kind]} jumps from {NAMES[origin]} over {NAMES[over]} to {NAMES[to]}",
        {"seat": seat, "halfling": KIND_NAMES[kind], "origin": NAMES[origin], "over": NAMES[over], "to": NAMES[to]},
    )


@cache
def hats_changed(seat: int, squares: tuple[int, ...]) -> Event:
    names = tuple(NAMES[s] for s in squares)
    return Event(
        "flip",
        f"{names[0]} now wears a {COLOURS[seat]} hat"
        if len(names) == 1
        else f"{', '.join(names)} now wear {COLOURS[seat]} hats",
        {"seat": seat, "colour": COLOURS[seat], "squares": names},
    )


@cache
def joker_spent(square: int) -> Event:
    return Event("joker", f"the joker at {NAMES[square]} loses its first hat", {"square": NAMES[square]})


@cache
def pig_ran(origin: int, to: int) -> Event:
    return Event("pig", f"the pig runs from {NAMES[origin]} to {NAMES[to]}", {"from": NAMES[origin], "to": NAMES[to]})


@cache
def barrel_held(square: int) -> Event:
    return Event("barrel hold", f"the barrel at {NAMES[square]} holds", {"square": NAMES[square]})


@cache
def eliminated(code: int, square: int, why: str) -> Event:
    colour, kind = COLOURS[code & 1], KIND_NAMES[code >> 1]
    return Event(
        "eliminate",
        f"the {colour} {kind} halfling at {NAMES[square]} {why}",
        {"square": NAMES[square], "halfling": kind, "colour": colour},
    )


@cache
def puddle_dried(square: int) -> Event:
    return Event("puddle dries", f"the puddle at {NAMES[square]} dries up", {"square": NAMES[square]})
