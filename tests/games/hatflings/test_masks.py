"""The floor masks the state keeps up to date move by move agree with masks derived from scratch.

`own`, `floor` and `walls` are changed by each move rather than recomputed; a missed update would
make the move generator list wrong moves. After every step of random games, a copy whose masks are
rebuilt from `hat` and `scenery` must hold the same masks, and a position written by hand (as the
test helpers do) must get the masks a played one has.
"""

from __future__ import annotations

import parlour
from parlour.engine import Rng
from parlour.games.hatflings.constants import DANCE
from parlour.games.hatflings.masks import FLOOR, OWN, WALLS, mask
from parlour.games.hatflings.pieces import BARREL, PUDDLE
from parlour.games.hatflings.state import HatflingsState

from .positions import position

SCENES = ("default", "interactive", "barrel:b3,barrel:e4,box:c4,box:d3,tree:a4,column:f3,pig:d3")


def masks(state: HatflingsState) -> tuple[list[int], int, int]:
    return state.own, state.floor, state.walls


def rebuilt(state: HatflingsState) -> tuple[list[int], int, int]:
    twin = state.clone()
    twin.rebuild_masks()
    return masks(twin)


def test_rebuild_reads_the_square_lists() -> None:
    state = position({"a1": "Y", "b2": "P+box", "c3": "Yc", "d4": "tree", "e5": "puddle:1", "f6": "barrel"}, pig="a6")
    own, floor, walls = masks(state)
    assert own == [1 << 0 | 1 << 14, 1 << 7]
    assert walls == 1 << 21 | 1 << 28
    assert floor == ((1 << 36) - 1) & ~(1 << 7 | 1 << 21 | 1 << 28 | 1 << 35)
    assert own == [mask(OWN[0], state.hat), mask(OWN[1], state.hat)]
    assert (floor, walls) == (mask(FLOOR, state.scenery), mask(WALLS, state.scenery))


def test_a_position_rewritten_square_by_square_gets_the_masks_of_a_fresh_one() -> None:
    before = {"a1": "Y", "b2": "P", "c4": "tree", "d4": "barrel"}
    after = {"a1": "P", "c3": "Y", "e5": "box"}
    edited = position(before, pig="f6", pool=3, special_pools=(0, 0))
    fresh = position(after, pig="f6", pool=3, special_pools=(0, 0))
    for square in range(36):  # a hand edit of the declared squares, as a test helper makes it
        edited.hat[square], edited.scenery[square] = fresh.hat[square], fresh.scenery[square]
    edited.rebuild_masks()  # the old position's masks must not survive
    assert masks(edited) == masks(fresh)


def test_incremental_masks_match_a_rebuild_after_every_step() -> None:
    seen_kinds: set[str] = set()
    steps = 0
    for scene in SCENES:
        for barrels in (30, 100):
            game = parlour.load_game("hatflings", scene=scene, barrel_break_percent=barrels)
            for seed in range(12):
                state = game.new_state(seed=seed)
                assert isinstance(state, HatflingsState)
                rng = Rng(seed)
                while not state.is_terminal():
                    events = state.apply(rng.choice(state.legal_actions()))
                    seen_kinds.update(event.kind for event in events)
                    assert masks(state) == rebuilt(state), f"{scene} seed {seed} after {state.history}"
                    steps += 1
    # The run must have gone through every kind of change the masks follow.
    assert {"place", "jump", "flip", "joker", "eliminate", "push", "puddle", "barrel break", "puddle dries"} <= (
        seen_kinds
    )
    assert steps > 1000


def test_a_position_reached_by_play_and_the_same_one_written_by_hand_agree() -> None:
    game = parlour.load_game("hatflings", barrel_break_percent=100)
    state = game.new_state(seed=3)
    assert isinstance(state, HatflingsState)
    rng = Rng(3)
    compared = 0
    while not state.is_terminal():
        if state.phase == DANCE and any(code >= PUDDLE or code == BARREL for code in state.scenery):
            written = game.new_state(seed=3)
            assert isinstance(written, HatflingsState)
            written.hat, written.scenery = bytearray(state.hat), bytearray(state.scenery)
            written.rebuild_masks()
            assert masks(written) == masks(state)
            compared += 1
        state.apply(rng.choice(state.legal_actions()))
    assert compared
