"""A fifth game shipped as its own distribution (tests/plugin_game, installed for the tests only by
tests/conftest.py, into a folder of its own on the test processes' path) works end to end with no edit to parlour:
discovery through the `parlour.games` entry point, the command line in a fresh process, the
arena and the research adapters. Its server tables are in tests/server/test_plugin_game.py."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from parlour.engine.registry import ENTRY_POINT_GROUP, game_class, game_classes

PARLOUR = [sys.executable, "-c", "from parlour.cli import main; main()"]


def parlour(*args: str) -> subprocess.CompletedProcess[str]:
    """The `parlour` command in a fresh interpreter, so nothing a test registered by hand helps."""
    return subprocess.run([*PARLOUR, *args], capture_output=True, text=True, timeout=120, check=False)


def test_the_game_is_found_through_its_entry_point_only() -> None:
    entry = next(e for e in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if e.name == "pebbles")
    assert entry.dist is not None and entry.dist.name == "parlour-pebbles"
    pebbles = game_class("pebbles")
    assert pebbles is entry.load() and pebbles.__module__ == "parlour_pebbles.game"
    assert "pebbles" in game_classes()
    assert not Path(sys.modules["parlour_pebbles"].__file__ or "").is_relative_to(Path(__file__).parents[2] / "src")


def test_players_are_not_offered_the_test_game() -> None:
    # The set-up that `make serve` runs knows nothing of the tests' folder: there, no Pebbles.
    plain = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    listed = subprocess.run([*PARLOUR, "games"], capture_output=True, text=True, timeout=120, check=False, env=plain)
    assert listed.returncode == 0, listed.stderr
    assert "hatflings" in listed.stdout and "pebbles" not in listed.stdout


def test_parlour_games_lists_it_and_shows_its_rules_from_its_own_package() -> None:
    listed = parlour("games")
    assert listed.returncode == 0, listed.stderr
    assert "pebbles" in listed.stdout and "misere" in listed.stdout
    rules = parlour("rules", "pebbles")
    assert rules.returncode == 0, rules.stderr
    assert "Misère variant" in rules.stdout


def test_the_command_line_plays_and_simulates_it(tmp_path: Path) -> None:
    record = tmp_path / "pebbles.json"
    played = parlour(
        "play", "pebbles", "--seats", "random,greedy,random", "-p", "3", "--seed", "7", "--record", str(record)
    )
    assert played.returncode == 0, played.stderr
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["game"] == "pebbles" and saved["options"]["players"] == 3 and saved["actions"]
    replayed = parlour("replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    simulated = parlour(
        "simulate",
        "pebbles",
        "--agents",
        "random,mcts:iterations=20",
        "--games",
        "4",
        "--workers",
        "1",
        "--json",
        "-o",
        "misere=true",
    )
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["games"] == 4


def test_the_arena_asks_the_game_for_its_own_features() -> None:
    from parlour.arena.extras import question
    from parlour.arena.match import play
    from parlour.arena.tournament import plan

    record = play(plan("pebbles", "random,random", 1, seed=5), 0)
    seats = record["arena"]["features"]
    assert sum(seat["move: take"] for seat in seats) == len(record["actions"])
    heap = game_class("pebbles")().new_state(seed=record["seed"]).heap
    assert sum(seat["pebbles taken"] for seat in seats) == heap  # from parlour_pebbles/features.py
    assert question("pebbles") == "Pebbles taken: does taking more win?"


@pytest.fixture
def quiet() -> None:
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=UserWarning)


@pytest.mark.usefixtures("quiet")
def test_openspiel_plays_it() -> None:
    import pyspiel

    from parlour.interop.openspiel import load

    game = load("pebbles", players=3)
    assert isinstance(game, pyspiel.Game) and game.max_game_length() == 15
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    assert sorted(state.returns()) == [-1.0, -1.0, 1.0]
    assert len(state.observation_tensor(0)) == 3


@pytest.mark.usefixtures("quiet")
def test_pettingzoo_and_gymnasium_play_it() -> None:
    import gymnasium

    from parlour.interop.gymnasium import env_id
    from parlour.interop.pettingzoo import env

    aec = env("pebbles", players=2)
    aec.reset(seed=3)
    final: dict[str, float] = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            final[agent] = reward
        aec.step(None if terminated or truncated else int(observation["action_mask"].nonzero()[0][0]))
    assert sorted(final.values()) == [-1.0, 1.0]
    single = gymnasium.make(env_id("pebbles"), opponents="random", misere=True)
    observation, info = single.reset(seed=1)
    finished = False
    while not finished:
        mask = info["action_mask"] if "action_mask" in info else observation["action_mask"]
        observation, _, terminated, truncated, info = single.step(int(mask.nonzero()[0][0]))
        finished = terminated or truncated
    assert finished
