"""The pieces the hub's limits are built from: rate buckets per client, fair turns at the bot
threads, and a bounded cache of Games. docs/server.md ("Limits on tables, bots and memory") says
what each limit is and which setting changes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.requests import HTTPConnection

from parlour.engine.game import Game
from parlour.engine.options import validate_options


class Bucket:
    """A token bucket: `rate` a second on average, at most `burst` at once. A rate of 0 is no limit."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def refill(self) -> float:
        moment = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        return self.tokens

    @property
    def full(self) -> bool:
        return self.refill() >= self.burst


class Buckets:
    """One bucket per key (a client address, a seat); full buckets are forgotten by `prune`, so
    the memory they take follows the clients active lately, not every client ever seen."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: dict[str, Bucket] = {}

    @property
    def unlimited(self) -> bool:
        return self.rate <= 0

    def take(self, *keys: str) -> bool:
        """Spend one token from each key's bucket if every one of them has a token; else spend none."""
        if self.unlimited:
            return True
        buckets = [self.buckets.setdefault(key, Bucket(self.rate, self.burst, self.clock)) for key in keys]
        if any(bucket.refill() < 1 for bucket in buckets):
            return False
        for bucket in buckets:
            bucket.tokens -= 1
        return True

    def prune(self) -> None:
        self.buckets = {key: bucket for key, bucket in self.buckets.items() if not bucket.full}

    def pace(self) -> str:
        """The limit in words, for refusals."""
        return f"at most {self.burst} at once, then one every {1 / self.rate:g} s"


class TurnQueue:
    """`slots` turns at the bot threads, handed out strictly in the order they were asked for.

    A table whose bot needs more time than one turn asks again and so goes behind every table
    already waiting: each waiting table gets the threads in turn, and none can starve the others.
    """

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.waiting: deque[asyncio.Future[None]] = deque()

    async def _take(self) -> None:
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give()  # the turn came just as the waiter was cancelled: pass it on
            else:
                self.waiting.remove(turn)
            raise

    def _give(self) -> None:
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        await self._take()
        try:
            yield
        finally:
            self._give()


class GameCache:
    """Games by their settled options, the least recently used dropped beyond `size`.

    Building a Game (its action space) takes up to a few hundred milliseconds and a megabyte, and
    one Game serves every table with the same options. Used from worker threads too (rebuilding a
    table off the event loop), hence the lock.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.games: OrderedDict[tuple[str, str], Game] = OrderedDict()
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.games)

    def get(self, cls: type[Game], options: dict[str, Any]) -> Game:
        """The game with these options (raises InvalidOption for bad ones)."""
        settled = validate_options(cls.name, cls.options_spec, options)
        key = (cls.name, json.dumps(settled, sort_keys=True, default=str))
        with self.lock:
            game = self.games.get(key)
            if game is not None:
                self.games.move_to_end(key)
                return game
        game = cls(**options)  # outside the lock: other tables need not wait for this one
        with self.lock:
            game = self.games.setdefault(key, game)
            self.games.move_to_end(key)
            while len(self.games) > max(self.size, 0):
                self.games.popitem(last=False)
        return game


def client_address(connection: HTTPConnection) -> str:
    """The address a request comes from, as the limits per client count it: the peer's IP, or the
    `X-Forwarded-For` address uvicorn takes from a trusted proxy (FORWARDED_ALLOW_IPS, loopback by
    default); behind any other proxy every client shares the proxy's address."""
    return connection.client.host if connection.client is not None else "unknown"


class SocketSlots:
    """The websockets this process has open, counted per client address and in all.

    A slot is taken before the websocket is accepted and given back when its handler ends, however
    it ends (closed, dropped, failed). Counts live in this process only: several processes each
    allow their own.
    """

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client, self.total = per_client, total
        self.open: dict[str, int] = {}
        self.count = 0

    def refusal(self, address: str) -> str | None:
        """Why a new websocket from `address` is refused now, or None if it may open."""
        if self.count >= self.total:
            return f"this server process has {self.count} websockets open, the most it allows"
        if self.open.get(address, 0) >= self.per_client:
            return f"this address has {self.per_client} websockets open; this server allows at most {self.per_client}"
        return None

    def take(self, address: str) -> None:
        self.open[address] = self.open.get(address, 0) + 1
        self.count += 1

    def give(self, address: str) -> None:
        left = self.open[address] - 1
        if left:
            self.open[address] = left
        else:
            del self.open[address]  # forgotten: memory follows the addresses connected now
        self.count -= 1
