"""What happens at the tables, told to whoever listens: a small in-process event bus.

The authority publishes (a table opened, seats changed, a move committed, a game finished), the
cluster publishes what other processes tell it, and the features subscribe: the timers set a
turn's deadline when its move commits, the ratings apply a result when its game finishes. Nobody
looks for changes by polling the tables.

A handler runs at once, inside `publish`, and must be quick: work that waits (the database) is
started with `Bus.later`, which keeps the task alive and logs its failure. A handler that fails
is logged and never stops the others, nor the move that published the event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from parlour.server.edge.logs import log

if TYPE_CHECKING:
    from parlour.server.authority.table import LiveTable, Move
    from parlour.server.cluster.fanout import Notice


@dataclass(frozen=True)
class TableOpened:
    table: LiveTable


@dataclass(frozen=True)
class SeatsChanged:
    """A seat was taken, freed, handed to a bot or changed elsewhere (another process)."""

    table: LiveTable


@dataclass(frozen=True)
class MoveCommitted:
    """A move is the table's now: committed here, or by another process and applied here."""

    table: LiveTable
    move: Move


@dataclass(frozen=True)
class GameFinished:
    """The table is over: its game ended, or the table ended before it (conceded, expired)."""

    table: LiveTable


@dataclass(frozen=True)
class NoticeHeard:
    """Another process's notice (server/cluster/fanout.py): a move, seats, held steps or chat."""

    notice: Notice


@dataclass(frozen=True)
class LeaseGained:
    """This process runs the table's bots and clock from now on (server/cluster/leases.py)."""

    table_id: str


@dataclass(frozen=True)
class Resynced:
    """The cluster listens again after a drop: whatever was missed meanwhile must be read afresh."""


Event = TableOpened | SeatsChanged | MoveCommitted | GameFinished | NoticeHeard | LeaseGained | Resynced
E = TypeVar("E")


class Bus:
    def __init__(self) -> None:
        self.handlers: dict[type[Any], list[Callable[[Any], None]]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, kind: type[E], handler: Callable[[E], None]) -> None:
        self.handlers.setdefault(kind, []).append(handler)

    def publish(self, event: Event) -> None:
        for handler in self.handlers.get(type(event), ()):
            try:
                handler(event)
            except Exception:
                log.exception("event handler failed", extra={"event": "server_fault", "kind": type(event).__name__})

    def later(self, work: Coroutine[Any, Any, None], what: str) -> None:
        """Run `work` on the event loop, after the handler that starts it has returned."""
        task = asyncio.get_running_loop().create_task(self._guarded(work, what))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @staticmethod
    async def _guarded(work: Coroutine[Any, Any, None], what: str) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(f"{what} failed", extra={"event": "server_fault"})

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
