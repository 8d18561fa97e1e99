"""`parlour serve` with a profiler switched on and off by signals (not a test).

`benchmarks/server_load.py --profile FILE` starts the server through this script instead of
`python -m parlour.cli`: SIGUSR1 starts cProfile on the event loop's thread when the measured
window opens, SIGUSR2 stops it and writes its statistics to the file named in PARLOUR_PROFILE_OUT
(read them with `python -m pstats FILE`). Setting up the clients' tables is left out that way.

Times are the event loop thread's CPU time. cProfile sees only the thread it was started on: the
database's worker threads are not in the profile (server_load.py reports their share of the CPU
from /proc instead).
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time
from types import FrameType

from parlour.cli import main

# The thread's own CPU time, not the wall clock: on a busy machine the wall clock would charge
# whatever function happened to be running with the time the process waited for a core.
profiler = cProfile.Profile(time.thread_time)


def start(_signal: int, _frame: FrameType | None) -> None:
    profiler.enable()


def stop(_signal: int, _frame: FrameType | None) -> None:
    profiler.disable()
    profiler.dump_stats(os.environ["PARLOUR_PROFILE_OUT"])


if __name__ == "__main__":
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv[0] = "parlour"
    main()
