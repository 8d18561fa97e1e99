"""A determinization notes the re-draws of the Flag Supply and the motif piles and does them only when
their order is first read, with exactly the orders and later draws of re-drawing them at once."""

from __future__ import annotations

import pytest

from parlour.engine import Rng
from parlour.games.hatairo.constants import TURN_START
from parlour.games.hatairo.state import HatairoState

from .positions import new, started


def _played(players: int, seed: int, moves: int) -> HatairoState:
    """The position after `moves` random moves past the set-up (far fewer than a game takes)."""
    state = started(players, seed)
    rng = Rng(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _redrawn_at_once(state: HatairoState, rng: Rng) -> tuple[list[int], list[list[int]], int]:
    """The supply, the piles and the copy's generator state as re-drawing them straight away gives:
    the supply re-dealt, then each pile put in order and shuffled, then the generator's future."""
    supply = rng.redeal(state.flag_supply)
    piles = [sorted(pile) for pile in state.piles]
    for pile in piles:
        rng.shuffle(pile)
    return supply, piles, rng.spawn().state


@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 1, 0), (2, 3, 40), (3, 2, 25), (4, 5, 60)])
def test_a_world_read_late_has_the_orders_of_a_redraw_at_once(players: int, seed: int, moves: int) -> None:
    state = _played(players, seed, moves)
    for seat in range(players):
        world = state.determinize(seat, Rng(seed * 10 + seat))
        assert world._supply_shuffle is not None and world._piles_shuffle is not None  # noted, not done
        twin = world.clone()  # shares the notes: doing them in one copy leaves the other's alone
        supply, piles, future = _redrawn_at_once(state, Rng(seed * 10 + seat))
        assert world.rng.state == future
        assert world.flag_supply == supply and world.piles == piles
        assert world._supply_shuffle is None and world._piles_shuffle is None
        assert twin.piles == piles and twin.flag_supply == supply


def test_a_world_read_before_the_reveal_keeps_the_supply_contents() -> None:
    state = new(3)
    state.apply(state.legal_actions()[0])
    world = state.determinize(1, Rng(4))
    assert world._supply_shuffle is not None
    assert world.view(1) == state.view(1)
    assert sorted(world.flag_supply) == sorted(world._flag_supply) and len(world.flag_supply) == len(state.flag_supply)


def test_turns_that_deal_nothing_leave_the_redraws_undone() -> None:
    """A turn's end asks whether the game is stuck (R61), which needs only whether the supply and the
    piles are empty: that question must not pay for the re-draws."""
    state = _played(2, 3, 40)
    world = state.determinize(0, Rng(8))
    start = world.turns[:]
    while world.turns == start:
        world.apply_legal(next(a for a in world.legal_actions() if "motif" not in a.label))
    assert world.phase == TURN_START
    assert world._supply_shuffle is not None and world._piles_shuffle is not None


def test_a_world_of_a_world_redraws_from_the_contents_alone() -> None:
    state = _played(3, 2, 25)
    world = state.determinize(0, Rng(1))
    again = world.determinize(0, Rng(2))
    assert again.flag_supply == _redrawn_at_once(state, Rng(2))[0]
