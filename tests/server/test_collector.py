"""`parlour serve` tunes its process's garbage collector (server/edge/collector.py); tests' apps do not."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

import parlour.server
from parlour.server import Settings
from parlour.server.edge import collector


@pytest.fixture
def kept_collector() -> Iterator[None]:
    """Whatever a test does to the collector is undone after it."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_tuning_freezes_what_exists_and_spaces_the_young_passes(kept_collector: None) -> None:
    older = gc.get_threshold()
    collector.tune(12_345)
    assert gc.get_threshold() == (12_345, *older[1:])
    assert gc.get_freeze_count() > 0


def test_a_threshold_of_0_leaves_the_collector_alone(kept_collector: None) -> None:
    gc.unfreeze()
    before = gc.get_threshold()
    collector.tune(0)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_serve_tunes_its_process_with_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    monkeypatch.setattr(collector, "tune", asked.append)
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: None)
    monkeypatch.setattr("parlour.server.db.store.check_database", lambda url: None)
    monkeypatch.setattr("parlour.server.edge.logs.configure", lambda *args: None)
    parlour.server.run(Settings(gc_threshold=4321))
    assert asked == [4321]


def test_an_app_built_in_a_test_process_leaves_its_collector_alone(kept_collector: None) -> None:
    before: Any = gc.get_threshold()
    parlour.server.create_app(Settings())
    assert gc.get_threshold() == before
