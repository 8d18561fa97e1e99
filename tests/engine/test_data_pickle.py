"""A game rebuilt from a record's stored data pickles with that data, so another process can
unpickle it (a process pool, a saved checkpoint) without the folder or the record."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.engine.records import full_record, verify
from tests.engine.test_data_folder import EDITS, GAMES, Edit, edited_folder, playout

UNPICKLE = """
import json, pickle, sys
state = pickle.loads(sys.stdin.buffer.read())
print(json.dumps({"history": state.history, "totals": [s.total for s in state.scores()],
                  "hash": state.game.data.digest, "changed": state.game.data.changed}))
"""


@pytest.mark.parametrize("edit", EDITS, ids=GAMES)
def test_a_game_on_a_records_data_unpickles_in_a_fresh_process(edit: Edit, tmp_path: Path) -> None:
    folder = edited_folder(edit, tmp_path / "mine")
    played = playout(edit.game, edit.seed, data=str(folder), **edit.options)
    record = json.loads(json.dumps(full_record(played)))
    for path in folder.iterdir():  # only the record holds the data now
        path.unlink()
    replayed = verify(record)
    assert replayed.game.options["data"] == record["data"]["hash"]  # named by hash, known to this process only
    fresh = subprocess.run(
        [sys.executable, "-c", UNPICKLE], input=pickle.dumps(replayed), capture_output=True, check=False
    )
    assert fresh.returncode == 0, fresh.stderr.decode()
    seen = json.loads(fresh.stdout)
    assert seen["hash"] == record["data"]["hash"] and seen["changed"]
    assert seen["history"] == played.history
    assert seen["totals"] == [score.total for score in played.scores()]


def test_a_game_on_the_built_in_data_pickles_without_its_files() -> None:
    state = playout("hatairo", 2)
    assert b"topography.csv" not in pickle.dumps(state)  # the other process reads its own built-in data
