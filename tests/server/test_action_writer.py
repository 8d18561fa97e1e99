"""The action writer's group commit: what arrives while a batch waits goes in the same transaction,
and `commit_linger` makes a batch wait for more."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from anyio import CapacityLimiter

from parlour.server.db.store import NewAction
from parlour.server.db.writer import ActionWriter
from parlour.server.settings import MAX_LINGER, Settings


class Batches:
    """A store that records each batch it is asked to write."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []

    def append_actions(self, actions: list[NewAction]) -> None:
        self.batches.append([action.ply for action in actions])


async def two_moves_apart(linger: float, apart: float) -> list[list[int]]:
    store = Batches()
    writer = ActionWriter(store, CapacityLimiter(1), linger=linger)  # type: ignore[arg-type]
    writer.start()
    try:
        first = writer.write(NewAction("t", 0, 1, 0, False))
        await asyncio.sleep(apart)
        second = writer.write(NewAction("t", 1, 2, 1, False))
        await asyncio.wait_for(asyncio.gather(first, second), timeout=10)
    finally:
        await writer.stop()
    return store.batches


def test_without_a_linger_a_move_is_written_at_once() -> None:
    assert asyncio.run(two_moves_apart(linger=0.0, apart=0.05)) == [[0], [1]]


def test_a_linger_gathers_the_moves_that_arrive_while_it_waits() -> None:
    assert asyncio.run(two_moves_apart(linger=0.5, apart=0.05)) == [[0, 1]]


@pytest.mark.parametrize("value", [-0.001, MAX_LINGER + 0.001, "0.01", True])
def test_commit_linger_is_bounded(value: Any) -> None:
    with pytest.raises(ValueError, match=f"commit_linger must be from 0 to {MAX_LINGER} seconds"):
        Settings(commit_linger=value)
