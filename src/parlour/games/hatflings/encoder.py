"""Hatflings! view -> tensor: per square, planes for each halfling kind per hat owner, scenery,
puddle owners and the pig, relative to the observing seat; then pools, supplies and the phase."""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import TYPE_CHECKING, Any

from parlour.engine.game import Game
from parlour.engine.tensor import Features, Vocabulary
from parlour.games.hatflings.board import NAMES
from parlour.games.hatflings.constants import PHASE_NAMES
from parlour.games.hatflings.pieces import KIND_NAMES, PUDDLE, SCENERY_NAMES, SPECIAL_KINDS

if TYPE_CHECKING:
    from parlour.games.hatflings.state import HatflingsState

SQUARES = Vocabulary(NAMES)
KINDS = Vocabulary(kind for kind in KIND_NAMES if kind)
OBJECTS = Vocabulary(sorted({name for name in SCENERY_NAMES if name}))
SPECIALS = Vocabulary(SPECIAL_KINDS)
PHASES = Vocabulary(PHASE_NAMES)


# Per square: the halfling's kind for each hat owner (me first), the object, then four flags.
KIND_SLOTS = len(KINDS)
OBJECT_AT = 2 * KIND_SLOTS
FLAGS_AT = OBJECT_AT + len(OBJECTS)
SQUARE_SIZE = FLAGS_AT + 4


def _squares(features: Features, squares: Mapping[str, Any], zones: list[list[str]], me: int) -> None:
    """The board, one block per square. The view lists only the squares with something on them,
    so the blocks are filled by position rather than square by square (the same values)."""
    base = features.reserve(len(SQUARES) * SQUARE_SIZE)
    nonzero = features.nonzero
    for name, entry in squares.items():
        at = base + SQUARES.slots[name] * SQUARE_SIZE
        halfling = entry.get("halfling")
        if halfling:
            kind = KINDS.slots.get(halfling["kind"])
            owner = halfling["seat"]
            if kind is not None and owner in (me, 1 - me):
                nonzero[at + (0 if owner == me else KIND_SLOTS) + kind] = 1.0
        thing = entry.get("object")
        if thing is not None and thing in OBJECTS.slots:
            nonzero[at + OBJECT_AT + OBJECTS.slots[thing]] = 1.0
        if entry.get("owner") == me:
            nonzero[at + FLAGS_AT] = 1.0
        if entry.get("pig"):
            nonzero[at + FLAGS_AT + 1] = 1.0
    for flag, zone in ((2, zones[me]), (3, zones[1 - me])):
        for name in zone:
            if name in SQUARES.slots:
                nonzero[base + SQUARES.slots[name] * SQUARE_SIZE + FLAGS_AT + flag] = 1.0


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    features = Features()
    squares = view["squares"]
    features.section(
        f"squares: {len(SQUARES)} x (halfling kind per hat owner, me first; object; my puddle; pig; start zones)"
    )
    _squares(features, squares, view["start_zones"], me)
    features.section("general pool")
    features.number(view["general_pool"], game.options["general_pool_size"] or 1)
    features.section("per hat owner, me first: special pool, first turn done, hats, halflings in the rival start zone")
    for owner in (me, 1 - me):
        features.counts(view["special_pools"][owner], SPECIALS)
        features.flag(view["first_turn_done"][owner])
        features.number(view["hats"][owner], 36)
        features.number(view["in_rival_start_zone"][owner], 6)
    features.section("puddle supply, my turn, turns played, phase, a lander to place")
    features.number(view["puddle_supply"], 4)
    features.flag(view["to_move"] == me)
    features.number(view["turns_played"], game.options["max_turns"] or 200)
    features.one_hot(view["phase"], PHASES)
    features.flag("lander" in view)
    return features


# --- the same tensor read from the position itself ------------------------------------------------
# `encode` above is the reference: it reads the view, so it shows exactly what the view shows.
# `write` gives the same values without building the view (tests/interop/test_fast_encoders.py
# compares the two over many random positions), for adapters that want a tensor at every step.

BOARD_SIZE = len(SQUARES) * SQUARE_SIZE
OWNER_SIZE = len(SPECIALS) + 3
TAIL_AT = BOARD_SIZE + 1 + 2 * OWNER_SIZE
HALFLING_AT = tuple(
    tuple(
        -1
        if not code or KIND_NAMES[code >> 1] not in KINDS.slots
        # the halfling of `code` seen from `me`: my hats' planes first, then the other's
        else (0 if code & 1 == me else KIND_SLOTS) + KINDS.slots[KIND_NAMES[code >> 1]]
        for code in range(2 * len(KIND_NAMES))
    )
    for me in (0, 1)
)
"""Per observing seat, a halfling's code -> its slot within the square's block (-1: none)."""
OBJECT_SLOT = tuple(OBJECTS.slots.get(name, -1) for name in SCENERY_NAMES)
"""A scenery code -> its slot in a square's object one-hot (-1: none)."""
SPECIAL_BITS = tuple((1 << KIND_NAMES.index(name), slot) for slot, name in enumerate(SPECIALS))


def write(state: HatflingsState, seat: int | None, out: MutableSequence[float]) -> None:
    """`encode(state.view(seat), seat, game)` written into `out` (all zeros, of the tensor's
    length), read from the position directly."""
    game = state.game
    me = 0 if seat is None else seat
    hat = state.hat
    hats = [0, 0]  # halflings wearing each colour's hat (the view's "hats")
    offsets, at = HALFLING_AT[me], 0
    for square in range(len(hat)):  # by index: mypyc cannot loop over a bytearray directly
        code = hat[square]
        if code:
            hats[code & 1] += 1
            slot = offsets[code]
            if slot >= 0:
                out[at + slot] = 1.0
        at += SQUARE_SIZE
    scenery = state.scenery
    for square in range(len(scenery)):
        thing = scenery[square]
        if thing:
            at = square * SQUARE_SIZE
            slot = OBJECT_SLOT[thing]
            if slot >= 0:
                out[at + OBJECT_AT + slot] = 1.0
            if thing - PUDDLE == me:
                out[at + FLAGS_AT] = 1.0
    if state.pig >= 0:
        out[state.pig * SQUARE_SIZE + FLAGS_AT + 1] = 1.0
    rival = [0, 0]  # halflings of each colour in the other colour's start zone (R23)
    zones = game.zones  # type: ignore[attr-defined]
    for flag, owner in ((0, me), (1, 1 - me)):
        for square in zones[owner]:
            out[square * SQUARE_SIZE + FLAGS_AT + 2 + flag] = 1.0
            code = hat[square]
            if code and code & 1 != owner:
                rival[code & 1] += 1
    if state.pool:
        out[BOARD_SIZE] = state.pool / (game.options["general_pool_size"] or 1)
    for index, owner in enumerate((me, 1 - me)):
        at = BOARD_SIZE + 1 + index * OWNER_SIZE
        specials = state.specials[owner]
        for bit, slot in SPECIAL_BITS:
            if specials & bit:
                out[at + slot] = 1.0
        at += len(SPECIALS)
        if state.started >> owner & 1:
            out[at] = 1.0
        if hats[owner]:
            out[at + 1] = hats[owner] / 36
        if rival[owner]:
            out[at + 2] = rival[owner] / 6
    if state.puddle_supply:
        out[TAIL_AT] = state.puddle_supply / 4
    if state.current_player() == me:
        out[TAIL_AT + 1] = 1.0
    if state.turns:
        out[TAIL_AT + 2] = state.turns / (game.options["max_turns"] or 200)
    out[TAIL_AT + 3 + state.phase] = 1.0
    if state.lander >= 0:
        out[TAIL_AT + 3 + len(PHASES)] = 1.0
