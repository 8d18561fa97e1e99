"""The engine's conformance checks (parlour.engine.conformance.check_game) over every registered
game, player count and variant: termination, legality, refusals that change nothing and name the
rule (never the generic fallback), replay, clone independence, determinize keeping the view."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from parlour.engine import Action, Rng, load_game
from parlour.engine.conformance import ConformanceError, check_game, check_illegal_changes_nothing
from parlour.engine.game import generic_reason

from ..engine.nim import Nim, NimState
from .configurations import Configuration, every_configuration, label

CONFIGURATIONS = every_configuration()


def _params() -> list[object]:
    """Each game's first configuration (fewest players, default options) is in the fast loop;
    the others, up to a minute each at four players, only in the full suite."""
    firsts = {name: options for name, options in reversed(CONFIGURATIONS)}
    return [
        pytest.param(c, id=label(c), marks=() if firsts[c[0]] is c[1] else pytest.mark.slow) for c in CONFIGURATIONS
    ]


@pytest.mark.parametrize("configuration", _params())
@settings(max_examples=1, deadline=None, phases=[Phase.generate])  # one fresh seed per run, no shrinking
@given(seed=st.integers(0, 2**32))
def test_every_game_keeps_the_protocol(configuration: Configuration, seed: int) -> None:
    name, options = configuration
    final = check_game(load_game(name, **options), seed)
    assert final.is_terminal()


def test_the_harness_covers_every_game_count_and_variant() -> None:
    names = {name for name, _ in CONFIGURATIONS}
    assert {"hanbok_runway", "hatairo", "hatflings", "yamatai", "pebbles"} <= names
    assert ("hatairo", {"players": 4, "variant": "motif+drafting"}) in CONFIGURATIONS
    assert ("hatairo", {"players": 1, "variant": "drafting"}) not in CONFIGURATIONS  # refused: no solo draft
    assert ("pebbles", {"players": 3, "misere": True}) in CONFIGURATIONS


class ForgetfulNimState(NimState):
    """Nim whose words about legality were forgotten: every refusal is the generic one."""

    __slots__ = ()

    def why_illegal(self, action: Action) -> str:
        return generic_reason(action)


def test_a_refusal_that_falls_back_to_the_generic_reason_is_flagged() -> None:
    """A game whose words about legality miss a case its generator refuses fails the harness."""
    game = Nim()
    with pytest.raises(ConformanceError, match="'take 3' falls back to the generic reason"):
        check_illegal_changes_nothing(ForgetfulNimState(game, 0, pile=2), Rng(0))
    check_illegal_changes_nothing(NimState(game, 0, pile=2), Rng(0))  # its own reason names the pile
