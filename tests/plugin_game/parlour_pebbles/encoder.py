"""Pebbles' observation tensor: the heap, whose turn it is from the seat's side, the variant."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.engine.game import Game
from parlour.engine.tensor import Features

LARGEST_HEAP = 15


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    features = Features()
    features.section("heap")
    features.number(view["heap"], LARGEST_HEAP)
    features.section("to move")
    features.flag(view["to_move"] == seat)
    features.section("variant")
    features.flag(bool(view["misere"]))
    return features
