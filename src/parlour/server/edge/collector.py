"""Python's cyclic garbage collector, tuned for a server process that runs for days.

The collector makes a pass over the young objects after every 700 allocations (net of frees) and,
every so often, a full pass over every object the process holds: the imported libraries, every
table in memory and its history. A move allocates hundreds of short-lived objects (its view, its
messages, its events), so under load those full passes took about a tenth of the server's CPU
(docs/performance.md, "The cost of a move"). Once the server has started, what it has imported
and built so far is frozen (left out of every later pass: it lives as long as the process), and
the young generation is collected every `threshold` allocations instead of 700.

Only `parlour serve` tunes its processes (server/__init__.py, server/workers.py): an application
built in a test process leaves that process's collector as it is.
"""

from __future__ import annotations

import gc


def tune(threshold: int) -> None:
    """Freeze what exists now and collect the young generation every `threshold` allocations;
    0 leaves the collector as Python sets it."""
    if threshold <= 0:
        return
    gc.collect()  # nothing already unreachable is frozen
    gc.freeze()
    gc.set_threshold(threshold, *gc.get_threshold()[1:])
