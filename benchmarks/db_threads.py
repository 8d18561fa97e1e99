"""What a trip to a database thread costs the server (not a test): an empty call handed from the
event loop to a thread and answered, through anyio's worker threads (what every database call
used before) and through the database's own threads (server/db/threads.py), in turn.

    python benchmarks/db_threads.py [--calls 5000] [--rounds 2]

Prints the CPU per call of the event loop's thread and of the whole process (the thread's side
included), on uvloop where it is installed, as the server runs.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

import anyio
import anyio.to_thread

from parlour.server.db.threads import Threads


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def nothing() -> int:
    return 1


async def timed(name: str, calls: int, call: Callable[[], Awaitable[object]]) -> None:
    loop_start, process_start = time.thread_time(), time.process_time()
    for _ in range(calls):
        await call()
    loop_us = (time.thread_time() - loop_start) / calls * 1e6
    process_us = (time.process_time() - process_start) / calls * 1e6
    print(f"{name:<22} event loop {loop_us:6.1f} µs a call, process {process_us:6.1f} µs a call")


async def main(calls: int, rounds: int) -> None:
    limiter = anyio.CapacityLimiter(1)
    threads = Threads(1, "bench")
    for _ in range(rounds):
        await timed("anyio.to_thread", calls, lambda: anyio.to_thread.run_sync(nothing, limiter=limiter))
        await timed("database threads", calls, lambda: threads.run(nothing))
    await threads.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=positive, default=5000)
    parser.add_argument("--rounds", type=positive, default=2)
    args = parser.parse_args()
    try:
        import uvloop
    except ImportError:
        asyncio.run(main(args.calls, args.rounds))
    else:
        uvloop.run(main(args.calls, args.rounds))
