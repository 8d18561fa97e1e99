"""What the whole suite shares: the plugin game installed as its own distribution, the one switch
that rewrites the golden files (`pytest --regenerate-goldens`), and the markers that the fast loop
(`make test-fast`: `-m "not slow and not browser and not postgres"`) leaves out: every test under
tests/web drives chromium (`browser`), every test run against the PostgreSQL backend needs it
(`postgres`), and the modules in SLOW (or a test marked so itself) take long (`slow`)."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
PLUGIN = TESTS / "plugin_game"
PLUGIN_DISTRIBUTION = "parlour-pebbles"
# Where the plugin game is installed for the tests (ignored by git).
PLUGIN_SITE = TESTS / ".plugin-site"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regenerate-goldens",
        action="store_true",
        help="rewrite every golden file from the current code instead of comparing with it",
    )


def install_plugin() -> None:
    stamp = PLUGIN_SITE / "installed-from.txt"
    # Installed again only when its sources change (pip leaves build/ and *.egg-info beside them).
    files = (p for p in PLUGIN.rglob("*") if p.is_file())
    sources = sorted(p for p in files if "build" not in p.parts and not any(".egg-info" in part for part in p.parts))
    fingerprint = "\n".join(f"{p.relative_to(PLUGIN)} {p.stat().st_mtime_ns}" for p in sources)
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == fingerprint:
        return
    shutil.rmtree(PLUGIN_SITE, ignore_errors=True)
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run([*command, "--target", str(PLUGIN_SITE), str(PLUGIN)], check=True)
    stamp.write_text(fingerprint, encoding="utf-8")


def use_plugin_site() -> None:
    site = str(PLUGIN_SITE)
    if site not in sys.path:
        sys.path.insert(0, site)
    paths = [path for path in os.environ.get("PYTHONPATH", "").split(os.pathsep) if path]
    if site not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([site, *paths])
    importlib.invalidate_caches()


# The plugin game is a real distribution with a real entry point, as a game published on its own
# would be, but it is installed only for the tests: into a folder of its own that the test
# processes put first on their path (PYTHONPATH reaches the workers and every `parlour` the tests
# start), never into .venv, where `parlour serve` would offer it to players. It is done as this
# file is imported, before any other conftest (a folder's conftest may register games, which
# discovers the installed ones once and for all); the controller installs it before any worker
# starts (workers have PYTEST_XDIST_WORKER).
if "PYTEST_XDIST_WORKER" not in os.environ:
    install_plugin()
use_plugin_site()


@pytest.fixture(scope="session")
def regenerate_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regenerate-goldens"))


# What each of these runs is slow by nature: a server in its own process, tournaments
# in process pools and Ray, whole games through the adapters, the search bots and the terminal,
# the hidden-information sweep and the golden playthroughs. The full suite runs them all.
SLOW = (
    "server/test_attacks.py",  # its own server process, and connections held until they time out
    "arena",
    "agents/test_real_games.py",
    "agents/test_hatflings_search.py",
    "agents/test_search.py",
    "agents/test_compound_moves.py",
    "cli/test_play_screen.py",
    "engine/test_hidden_conformance.py",
    "games/test_goldens.py",
    "games/yamatai/test_hidden.py",
    "games/hatairo/test_payment.py",
    "games/hanbok_runway/test_properties.py",
    "interop/test_openspiel.py",
    "interop/test_docs.py",
    "interop/test_interop.py",
    # Every configuration's recorded behaviour replayed: about 90 CPU-seconds interpreted, so the
    # inner loop leaves it out; `make test-interpreted` runs it by name beside the fast tests.
    "test_same_behaviour.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    slow = [TESTS / part for part in SLOW]
    for item in items:
        path = Path(item.path)
        if path.is_relative_to(TESTS / "web"):
            item.add_marker(pytest.mark.browser)
        if any(path.is_relative_to(part) for part in slow):
            item.add_marker(pytest.mark.slow)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("db") == "postgresql":
            item.add_marker(pytest.mark.postgres)
