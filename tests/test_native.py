"""The build that runs: compiled (mypyc) or interpreted, and which modules the compiled build compiles.

`make test` runs the full suite on the compiled build and the fast tests on the interpreted source,
telling each run which build it must find (PARLOUR_EXPECT_COMPILED: 1 compiled, 0 interpreted).
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from parlour import native

ROOT = Path(__file__).resolve().parents[1]


def _expected_from_where_parlour_lies() -> str:
    """Without PARLOUR_EXPECT_COMPILED (a plain `.venv/bin/pytest`): the checkout's sources never
    carry an extension, so parlour imported from src/ must be interpreted, and imported from
    build/compiled it must be what that build recorded in build/compiled.expect."""
    package = Path(native.__file__).resolve().parent
    if package.is_relative_to(ROOT / "src"):
        return "0"
    if package.is_relative_to(ROOT / "build" / "compiled"):
        return (ROOT / "build" / "compiled.expect").read_text().strip()
    raise AssertionError(f"parlour was imported from {package}: set PARLOUR_EXPECT_COMPILED to 0 or 1")


def test_the_suite_runs_on_the_build_it_expects() -> None:
    expected = os.environ.get("PARLOUR_EXPECT_COMPILED") or _expected_from_where_parlour_lies()
    assert expected in {"0", "1"}, f"PARLOUR_EXPECT_COMPILED must be 0 or 1, got {expected!r}"
    assert native.build_name() == ("compiled" if expected == "1" else "interpreted")


def test_a_build_is_wholly_compiled_or_wholly_interpreted() -> None:
    # A compiled build missing one extension would run that module slowly and unnoticed; an
    # interpreted checkout with an extension beside a source file would run stale code.
    names = native.compiled_module_names()
    compiled = {name for name in names if native.is_extension(name)}
    assert compiled == (set(names) if native.compiled() else set())


def test_the_compiled_list_takes_the_patterns_minus_what_stays_interpreted(tmp_path: Path) -> None:
    package = tmp_path / "parlour"
    for relative in [
        "__init__.py",
        "cli.py",
        "engine/__init__.py",
        "engine/game.py",
        "engine/registry.py",
        "games/kites/__init__.py",
        "games/kites/turn.py",
        "games/kites/game.py",
        "games/kites/components.py",
        "games/kites/data/kites.csv",
        "agents/mcts.py",
        "agents/random_agent.py",
    ]:
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text("")
    assert native.compiled_module_names(package) == [
        "parlour.agents.mcts",
        "parlour.engine.game",
        "parlour.games.kites.game",
        "parlour.games.kites.turn",
    ]


def test_the_hot_modules_are_on_the_list() -> None:
    names = native.compiled_module_names()
    for hot in ["parlour.engine.game", "parlour.engine.hidden", "parlour.engine.rng", "parlour.agents.mcts"]:
        assert hot in names
    for game in ["hatflings", "hanbok_runway", "hatairo", "yamatai"]:
        assert f"parlour.games.{game}.position" in names
        assert f"parlour.games.{game}.game" in names  # its class attributes are ClassVar, read off the class
        assert f"parlour.games.{game}.components" not in names  # LEFT_INTERPRETED, with its reason


@pytest.mark.slow
def test_without_a_compiler_the_build_is_pure_python_with_a_notice(tmp_path: Path) -> None:
    env = {**os.environ, "CC": str(tmp_path / "no-such-compiler"), "PARLOUR_COMPILE": "auto"}
    built = tmp_path / "lib"
    command = [sys.executable, "setup.py", "build", "--build-base", str(tmp_path / "b"), "--build-lib", str(built)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    notices = [line for line in result.stderr.splitlines() if line.startswith("parlour: ")]
    assert len(notices) == 1 and "no C compiler found" in notices[0]
    assert (built / "parlour" / "engine" / "game.py").is_file()
    assert not [path for path in built.rglob("*") if path.name.endswith(tuple(EXTENSION_SUFFIXES))]


def test_a_required_compiled_build_without_a_compiler_stops(tmp_path: Path) -> None:
    env = {**os.environ, "CC": str(tmp_path / "no-such-compiler"), "PARLOUR_COMPILE": "1"}
    command = [sys.executable, "setup.py", "build", "--build-base", str(tmp_path / "b"), "--build-lib", str(tmp_path)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "no C compiler was found" in result.stderr
    assert not (tmp_path / "parlour").exists()


def test_an_unknown_compile_mode_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "PARLOUR_COMPILE": "sometimes"}
    command = [sys.executable, "setup.py", "build", "--build-base", str(tmp_path / "b"), "--build-lib", str(tmp_path)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "PARLOUR_COMPILE must be one of auto, 0, 1, got 'sometimes'" in result.stderr
    assert not (tmp_path / "parlour").exists()
