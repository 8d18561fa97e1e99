"""What the whole suite shares: the plugin game installed as its own distribution, the one switch
that rewrites the golden files (`pytest --regenerate-goldens`), and the markers that the fast loop
(`make test-fast`: `-m "not slow and not browser and not postgres"`) leaves out: every test under
tests/web drives chromium (`browser`), every test run against the PostgreSQL backend needs it
(`postgres`), and the modules in SLOW (or a test marked so itself) take long (`slow`)."""

from __future__ import annotations

import importlib
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
PLUGIN = TESTS / "plugin_game"
PLUGIN_DISTRIBUTION = "parlour-pebbles"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regenerate-goldens",
        action="store_true",
        help="rewrite every golden file from the current code instead of comparing with it",
    )


def pytest_configure(config: pytest.Config) -> None:
    # The plugin game is a real distribution with a real entry point, as a game published on its
    # own would be. `make install` installs it; a bare pytest run installs it here, once, before
    # any worker starts (workers have `workerinput`).
    if not hasattr(config, "workerinput") and not plugin_installed():
        install_plugin()


def plugin_installed() -> bool:
    try:
        importlib.metadata.distribution(PLUGIN_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def install_plugin() -> None:
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", str(PLUGIN)]
    subprocess.run(command, check=True)
    importlib.invalidate_caches()


@pytest.fixture(scope="session")
def regenerate_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regenerate-goldens"))


# What each of these runs is slow by nature: live servers over HTTP and websockets, tournaments
# in process pools and Ray, whole games through the adapters, the search bots and the terminal,
# the hidden-information sweep and the golden playthroughs. The full suite runs them all.
SLOW = (
    "server",
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
