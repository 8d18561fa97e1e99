"""The arena's tests play Nim (tests/engine/nim.py), a game small enough to run hundreds of times."""

from __future__ import annotations

from typing import Any

from parlour.engine.registry import register
from tests.engine.nim import Nim

register(Nim)


def game_record(index: int, agents: list[str], totals: list[float], winners: list[int], ranks: list[int], **extra: Any):
    """A hand-made finished game in the journal's format, for statistics tests."""
    return {
        "game": "nim",
        "options": {"players": len(agents), "stones": 0},
        "seed": index,
        "actions": [],
        "winners": winners,
        "arena": {
            "index": index,
            "agents": agents,
            "scores": [
                {"total": total, "breakdown": extra.get("breakdowns", [{}] * len(agents))[seat], "tiebreak": []}
                for seat, total in enumerate(totals)
            ],
            "ranks": ranks,
            "length": extra.get("length", 10),
            "features": extra.get("features", [{} for _ in agents]),
        },
    }
