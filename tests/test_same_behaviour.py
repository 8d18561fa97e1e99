"""The compiled and the interpreted build play every game alike, move for move.

benchmarks/behaviour_digest.py hashes, for every game, player count and variant, what random games
from fixed seeds do at every step (legal lists, refusals, events with their audience, every seat's
view, text and heuristic, scores, determinizations) and the greedy and MCTS bots' moves from fixed
seeds. Its recorded digest (benchmarks/results/behaviour_digest.json) must come out of whichever
build runs: `make test` runs this file on the compiled build with the full suite and on the
interpreted source with the fast tests, so both match the record and so each other. A change of
behaviour on purpose is recorded again with the script's `--write` (its docstring says how).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from parlour import native

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "benchmarks" / "results" / "behaviour_digest.json"


def _digest_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("behaviour_digest", ROOT / "benchmarks" / "behaviour_digest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DIGEST = _digest_module()
STORED: dict[str, Any] = json.loads(RECORD.read_text())


def test_the_record_covers_every_configuration_the_script_plays() -> None:
    names = [DIGEST.config_name(name, options) for name, options in DIGEST.CONFIGS]
    assert sorted(names) == sorted(STORED["configurations"])


@pytest.mark.parametrize(("name", "options"), DIGEST.CONFIGS, ids=[DIGEST.config_name(*c) for c in DIGEST.CONFIGS])
def test_the_build_plays_as_recorded(name: str, options: dict[str, Any]) -> None:
    settings = STORED["settings"]
    played = {
        **DIGEST.random_games(name, options, settings["games"]),
        **DIGEST.bot_moves(name, options, settings["bot_moves"]),
    }
    recorded = STORED["configurations"][DIGEST.config_name(name, options)]
    differ = sorted(part for part in recorded if played.get(part) != recorded[part])
    assert not differ, f"the {native.build_name()} build differs from the record in {differ}"
    assert set(played) == set(recorded)
