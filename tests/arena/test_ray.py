"""The Ray backend plays the same games as the local one, on a local Ray started here."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from parlour.arena.runner import run
from parlour.arena.store import RECORDS, RESULTS
from parlour.arena.tournament import plan

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Ray's workers import the test game from this checkout, as a cluster's would from its image.
    python_path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    ray.init(
        address="local",  # a Ray of its own, even if another one runs on this machine
        _node_ip_address="127.0.0.1",  # and on loopback only
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": python_path}},
    )
    yield
    ray.shutdown()


def test_ray_gives_the_same_results_as_the_local_pool(tmp_path: Path, local_ray: None) -> None:
    tournament = plan("nim", "random,greedy", 40, seed=11)
    on_ray = run(tournament, out=tmp_path / "ray", backend="ray")
    local = run(tournament, out=tmp_path / "local", workers=2)
    assert on_ray.played == local.played == 40
    for name in (RECORDS, RESULTS):
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "local" / name).read_text()
    assert on_ray.summary.to_json() == local.summary.to_json()
    assert ray.is_initialized(), "a Ray the caller started is left running"


def test_ray_resumes_a_local_run(tmp_path: Path, local_ray: None) -> None:
    whole = run(plan("nim", "random,random", 20, seed=2), workers=1)
    run(plan("nim", "random,random", 8, seed=2), out=tmp_path, workers=1)
    resumed = run(plan("nim", "random,random", 20, seed=2), out=tmp_path, resume=True, backend="ray", workers=2)
    assert resumed.played == 12 and resumed.records == whole.records


def test_a_tuning_study_on_ray_plays_the_same_trials_as_one_in_process(tmp_path: Path, local_ray: None) -> None:
    from parlour.arena.tune import Budget, Running, tune
    from parlour.arena.tune_command import Request, setup_of

    space = tmp_path / "space.toml"
    space.write_text('[[parameter]]\noption = "stones"\nlow = 10\nhigh = 40\n', encoding="utf-8")
    setup = setup_of(Request("nim", space, ["length=8..10"], tmp_path, agents="random,random", games=10, seed=5))
    on_ray = tune(setup, tmp_path / "ray", Budget(trials=3), Running(workers=2, backend="ray"), resume=False)
    here = tune(setup, tmp_path / "here", Budget(trials=3), Running(workers=1), resume=False)
    assert on_ray.games_played == here.games_played > 0
    assert [(t.values, t.value, t.measures) for t in on_ray.trials] == [
        (t.values, t.value, t.measures) for t in here.trials
    ]
    assert ray.is_initialized(), "a Ray the caller started is left running"
