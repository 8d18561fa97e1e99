"""Games installed as distributions: found through the `parlour.games` entry points, and a broken
one is reported and refused by name without taking the other games down."""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import registry
from parlour.engine.errors import DataError, InvalidOption

ENTRY_POINTS = """[parlour.games]
crashing = crashing_game:Crashing
notagame = notagame_module
hatflings = notagame_module:Impostor
"""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A distribution on the path with three bad entry points, as pip would have installed it."""
    info = tmp_path / "bad_games-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bad-games\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (tmp_path / "crashing_game.py").write_text("raise RuntimeError('the board file is missing')\n")
    (tmp_path / "notagame_module.py").write_text(
        "from parlour.games.hatflings import Hatflings\n\nclass Impostor(Hatflings):\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_INSTALLED", {})
    monkeypatch.setattr(registry, "_BROKEN", {})
    yield
    for name in ("crashing_game", "notagame_module"):
        sys.modules.pop(name, None)


@pytest.mark.usefixtures("installed")
def test_bad_entry_points_are_reported_and_the_games_still_load() -> None:
    games = registry.game_classes()
    assert {"hanbok_runway", "hatairo", "hatflings", "yamatai", "pebbles"} <= set(games)
    assert games["hatflings"].__module__.startswith("parlour.games.hatflings")  # the built-in keeps its name
    broken = registry.broken_games()
    assert "RuntimeError: the board file is missing" in broken["crashing"]
    assert "of bad-games" in broken["crashing"]
    assert "names neither a Game subclass nor a module with GAME" in broken["notagame"]
    assert "the name 'hatflings' is taken" in broken["hatflings (duplicate)"]
    with pytest.raises(DataError, match=r"crashing .* cannot be loaded"):
        registry.game_class("crashing")


@pytest.mark.usefixtures("installed")
def test_installed_games_leave_out_the_games_registered_by_hand() -> None:
    from tests.engine.nim import Nim

    registry.register(Nim)
    assert "nim" in registry.game_classes() and "nim" not in registry.installed_games()
    assert "pebbles" in registry.installed_games()


@pytest.fixture
def empty_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registry that has not looked for its games yet."""
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_INSTALLED", {})
    monkeypatch.setattr(registry, "_BROKEN", {})


@pytest.mark.usefixtures("empty_registry")
def test_threads_asking_while_the_registry_fills_itself_all_find_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    entry_points = importlib.metadata.entry_points

    def slowly(**selection: str) -> Any:
        time.sleep(0.2)  # every game, parlour's own too, is found through the entry points
        return entry_points(**selection)

    monkeypatch.setattr(importlib.metadata, "entry_points", slowly)
    seen: list[str] = []

    def ask() -> None:
        try:
            seen.append(registry.game_class("pebbles").name)
        except Exception as error:  # the failure under test: a half-filled registry
            seen.append(repr(error))

    first = threading.Thread(target=ask)
    first.start()
    time.sleep(0.1)  # the first is filling the registry; the others ask meanwhile
    others = [threading.Thread(target=ask) for _ in range(7)]
    for thread in others:
        thread.start()
    for thread in [first, *others]:
        thread.join()
    assert seen == ["pebbles"] * 8


def test_the_built_in_games_are_found_through_the_entry_points_alone() -> None:
    """parlour's own games are declared like any plugin's: one entry point each in pyproject.toml,
    one per game package, and the registry knows no list of its own."""
    import tomllib

    import parlour.games

    root = Path(__file__).resolve().parents[2]
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["entry-points"]["parlour.games"]
    packages = {path.parent.name for path in Path(parlour.games.__path__[0]).glob("*/__init__.py")}
    assert set(declared) == packages
    found = {
        entry.name: entry.value
        for entry in importlib.metadata.entry_points(group=registry.ENTRY_POINT_GROUP)
        if entry.dist is not None and entry.dist.name == registry.OWN_DISTRIBUTION
    }
    assert found == declared, "the installed metadata is stale: reinstall parlour (pip install -e .)"
    for name, value in declared.items():
        assert registry.game_class(name) is importlib.metadata.EntryPoint(name, value, "parlour.games").load()
    source = Path(registry.__file__).read_text()
    assert "pkgutil" not in source and not any(f'"{name}"' in source for name in packages)


@pytest.mark.usefixtures("empty_registry")
def test_an_install_without_parlours_entry_points_says_to_install_again(monkeypatch: pytest.MonkeyPatch) -> None:
    entry_points = importlib.metadata.entry_points

    def without_parlours(**selection: str) -> Any:
        found = entry_points(**selection)
        return [entry for entry in found if entry.dist is None or entry.dist.name != registry.OWN_DISTRIBUTION]

    monkeypatch.setattr(importlib.metadata, "entry_points", without_parlours)
    assert "hatflings" not in registry.game_classes()
    assert registry.broken_games()["parlour"] == registry.STALE_INSTALL
    with pytest.raises(InvalidOption, match="no game called 'hatflings'"):
        registry.game_class("hatflings")
