"""Paying for a flag (rules §4): whether a Palette can pay a requirement, and the payment units
a player may choose for the next unpaid slot.

A payment is made slot by slot. The slot paid next is always the first requirement colour (in
colour order) still unpaid; for it the player picks one unit:

* single: one pigment of colour Y pays it, if Y is the slot's colour (direct), or she owns the
  "Y as any" tile, or she owns the "any as <slot colour>" tile;
* pair: two pigments of one colour Y pay it (base rule), offered only when one Y would not do;
* three-for-two: three pigments of one colour Y pay it and leave one spare output that she then
  gives to another unpaid slot; offered only with a 3-for-2 tile and when single Y would not do
  for either slot (otherwise the same pigments form a pair plus a single).

Units that only waste pigments (a pair where a single would do, a three-for-two covering one slot,
R17) are never offered: they are never better. Every unit offered leaves a payable rest, so a
payment once started always finishes. Palettes are tuples of 8 counts in COLOURS order; the owned
type-II tiles are three small values: `as_any` and `any_as` as bit masks of colours, `three` a bool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

NCOL: Final = 8
SINGLE: Final = 0
PAIR: Final = 1
TRIPLE: Final = 2
LOST: Final = NCOL  # the spare output of a three-for-two given up (R17)


def single_allowed(paid_with: int, slot: int, as_any: int, any_as: int) -> bool:
    """May one pigment of colour `paid_with` pay a slot of colour `slot`?"""
    return paid_with == slot or (as_any >> paid_with) & 1 == 1 or (any_as >> slot) & 1 == 1


def _min_cost_with_triples(left: list[int], slots: int) -> int:
    """Fewest pigments covering `slots` any-colour slots from same-colour groups of pairs and triples.

    From e pigments of one colour, s slots cost ceil(3s/2) pigments (triples, plus one pair when s
    is odd), so one colour yields at most floor(2e/3) slots. A tiny knapsack over the colours.
    Returns a number above every palette if the slots cannot be covered.
    """
    impossible = 1 << 20
    best = [0] + [impossible] * slots
    for count in left:
        most = min(slots, (2 * count) // 3)
        if most == 0:
            continue
        new = best[:]
        for covered in range(slots + 1):
            base = best[covered]
            if base >= impossible:
                continue
            for taken in range(1, min(most, slots - covered) + 1):
                cost = base + (3 * taken + 1) // 2
                if cost < new[covered + taken]:
                    new[covered + taken] = cost
        best = new
    return best[slots]


def can_pay(required: Sequence[int], palette: Sequence[int], as_any: int, any_as: int, three: bool) -> bool:
    """Can `palette` pay the requirement `required` (both 8 colour counts) with these tiles?"""
    if len(required) != NCOL or len(palette) != NCOL:
        raise ValueError(f"a requirement and a palette have {NCOL} colour counts")
    return pays(list(required), list(palette), as_any, any_as, three)


def pays(required: list[int], palette: list[int], as_any: int, any_as: int, three: bool) -> bool:
    """`can_pay` for lists of 8 counts, as the rules hold them (typed lists: the compiled build
    reads them without generic sequence calls). Neither list is changed.

    Why this is exact: a slot whose colour has an "any as" tile is best paid by a single pigment of
    any colour, so those slots only need enough pigments left over at the end. Every other slot is
    best paid directly while its colour lasts (an exchange argument: swapping a direct pigment into
    a pair or a three-for-two never frees anything). The slots still unpaid then need "any colour"
    outputs: pigments of a colour with a "Y as any" tile at one pigment each, then pairs (two each)
    or, with a 3-for-2 tile, triples (three for two slots), cheapest first.
    """
    # The base rule alone: direct pigments, then pairs of leftovers for what is still unpaid.
    # Tiles only add ways to pay, so when this suffices the tiles need not be looked at.
    unpaid = 0
    pairs = 0
    for colour in range(NCOL):
        need = required[colour]
        have = palette[colour]
        if have >= need:
            pairs += (have - need) >> 1
        else:
            unpaid += need - have
    if pairs >= unpaid:
        return True
    if not (as_any or any_as or three):
        return False
    unpaid = 0
    for_any_slots = 0
    left = [0] * NCOL
    for colour in range(NCOL):
        need = required[colour]
        have = palette[colour]
        if (any_as >> colour) & 1:
            for_any_slots += need
            left[colour] = have
        elif have >= need:
            left[colour] = have - need
        else:
            unpaid += need - have
    total = sum(left)
    if unpaid == 0:
        return total >= for_any_slots
    wild = 0
    if as_any:
        for colour in range(NCOL):
            if (as_any >> colour) & 1:
                wild += left[colour]
                left[colour] = 0
    if wild >= unpaid:
        return total - unpaid >= for_any_slots
    unpaid -= wild
    total -= wild
    if not three:
        pairs = 0
        for count in left:
            pairs += count >> 1
        return pairs >= unpaid and total - 2 * unpaid >= for_any_slots
    return total - _min_cost_with_triples(left, unpaid) >= for_any_slots


def next_slot(remaining: Sequence[int]) -> int:
    """The colour of the slot paid next (the first colour still required), or -1 when all are paid."""
    for colour in range(NCOL):
        if remaining[colour]:
            return colour
    return -1


def unit_options(
    remaining: Sequence[int],
    palette: Sequence[int],
    as_any: int,
    any_as: int,
    three: bool,
    waste: bool = False,
) -> list[tuple[int, int, int]]:
    """Units for the next slot that leave a payable rest: (unit kind, slot colour, pigment colour).

    With `waste` every unit the rules allow is offered, needless ones included (see `spare_options`).
    """
    slot = next_slot(remaining)
    rest: list[int] = list(remaining)
    rest[slot] -= 1
    pal: list[int] = list(palette)
    options: list[tuple[int, int, int]] = []
    for colour in range(NCOL):
        have = pal[colour]
        if not have:
            continue
        if single_allowed(colour, slot, as_any, any_as):
            pal[colour] = have - 1
            if pays(rest, pal, as_any, any_as, three):
                options.append((SINGLE, slot, colour))
            pal[colour] = have
            if not waste:
                continue
        if have >= 2:
            pal[colour] = have - 2
            if pays(rest, pal, as_any, any_as, three):
                options.append((PAIR, slot, colour))
            pal[colour] = have
        if three and have >= 3:
            pal[colour] = have - 3
            if spare_options(rest, pal, colour, as_any, any_as, three, waste):
                options.append((TRIPLE, slot, colour))
            pal[colour] = have
    return options


def spare_options(
    remaining: Sequence[int],
    palette: Sequence[int],
    paid_with: int,
    as_any: int,
    any_as: int,
    three: bool,
    waste: bool = False,
) -> list[int]:
    """Slot colours the spare output of a three-for-two of `paid_with` may pay, leaving a payable rest.

    With `waste`, any slot will do, and LOST (the spare is given up, R17) is offered when the rest
    stays payable without it.
    """
    rest: list[int] = list(remaining)
    pal: list[int] = palette if isinstance(palette, list) else list(palette)
    targets: list[int] = []
    for slot in range(NCOL):
        if not rest[slot] or (not waste and single_allowed(paid_with, slot, as_any, any_as)):
            continue
        rest[slot] -= 1
        if pays(rest, pal, as_any, any_as, three):
            targets.append(slot)
        rest[slot] += 1
    if waste and pays(rest, pal, as_any, any_as, three):
        targets.append(LOST)
    return targets
