"""A run killed with SIGKILL keeps every game it finished; --resume plays exactly the rest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from parlour.arena.runner import run
from parlour.arena.store import MANIFEST, RECORDS, RESULTS
from parlour.arena.tournament import plan

REPO = Path(__file__).resolve().parents[2]
# The command line with Nim registered, as a person's own game would be.
LAUNCHER = """
import sys
from parlour.engine.registry import register
from tests.engine.nim import Nim
register(Nim)
from parlour.cli import main
sys.argv[0] = "parlour"
main()
"""
GAMES = 600
ARGS = ["simulate", "nim", "--agents", "random,greedy", "--games", str(GAMES), "--stones", "99", "--seed", "3"]


def parlour(folder: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, *ARGS, "--workers", "2", "--out", str(folder), *extra],
        cwd=REPO,
        # This checkout's source first (an installed parlour may be another checkout's), then tests/.
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the kill takes the pool workers too
    )


def complete_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_resume_after_a_kill_loses_no_game_and_repeats_none(tmp_path: Path) -> None:
    folder = tmp_path / "killed"
    process = parlour(folder)
    deadline = time.monotonic() + 120
    while complete_lines(folder / RECORDS) < 20 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.005)
    assert process.poll() is None, "the run ended before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL
    kept = complete_lines(folder / RECORDS)
    assert 20 <= kept < GAMES
    assert (folder / MANIFEST).exists() and not (folder / RESULTS).exists()

    resumed = parlour(folder, "--resume", "--json")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    summary = json.loads(out)
    assert summary["played_now"] == GAMES - kept and summary["games"] == GAMES

    fresh = tmp_path / "fresh"
    run(plan("nim", "random,greedy", GAMES, seed=3, options={"stones": 99}), out=fresh, workers=1)
    for name in (RECORDS, RESULTS):
        assert (folder / name).read_text() == (fresh / name).read_text()
