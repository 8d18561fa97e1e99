"""Encoders that write blocks by position give the values the slot-by-slot builder calls would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import parlour
from parlour.engine import Rng
from parlour.engine.tensor import Features, Vocabulary
from parlour.games.hanbok_runway import encoder as hanbok
from parlour.games.hatflings import encoder as hatflings
from parlour.interop.encoding import as_array


def hatflings_squares(features: Features, squares: Mapping[str, Any], zones: list[list[str]], me: int) -> None:
    """The board block written square by square with the builder's calls."""
    for name in hatflings.SQUARES:
        entry = squares.get(name, {})
        halfling = entry.get("halfling")
        for owner in (me, 1 - me):
            features.one_hot(halfling["kind"] if halfling and halfling["seat"] == owner else None, hatflings.KINDS)
        features.one_hot(entry.get("object"), hatflings.OBJECTS)
        features.flag(entry.get("owner") == me)
        features.flag(bool(entry.get("pig")))
        features.flag(name in zones[me])
        features.flag(name in zones[1 - me])


def hanbok_token(features: Features, token: Mapping[str, Any] | None, me: int, colours: Vocabulary) -> None:
    """A token's block written with the builder's calls."""
    features.flag(token is not None)
    token = token or {}
    features.one_hot(token.get("colour"), colours)
    features.number(token.get("position"), 6)
    features.flag(bool(token.get("face_up")))
    known_by = token.get("known_by", [])
    features.flag(me in known_by)
    features.flag(1 - me in known_by)
    features.flag(token.get("value") is not None)
    features.number(token.get("value"), hanbok.VALUE_SCALE)


@pytest.mark.parametrize(
    ("module", "helper", "reference"),
    [(hatflings, "_squares", hatflings_squares), (hanbok, "_token", hanbok_token)],
    ids=["hatflings", "hanbok_runway"],
)
def test_blocks_written_by_position_match_the_builder_calls(
    module: Any, helper: str, reference: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parlour.load_game(module.__name__.split(".")[2])
    views = []
    for seed in range(3):
        state, rng = game.new_state(seed=seed), Rng(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            views += [(state.view(seat), seat) for seat in (None, 0, 1)]
    fast = [module.encode(view, seat, game) for view, seat in views]
    monkeypatch.setattr(module, helper, reference)
    slow = [module.encode(view, seat, game) for view, seat in views]
    for quick, careful in zip(fast, slow, strict=True):
        assert np.array_equal(as_array(quick), as_array(careful))
        assert sorted(quick.quantities) == sorted(careful.quantities) and quick.sections == careful.sections
