"""What the whole suite shares: the plugin game installed as its own distribution, and the one
switch that rewrites the golden files (`pytest --regenerate-goldens`)."""

from __future__ import annotations

import importlib
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "plugin_game"
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
