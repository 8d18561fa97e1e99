"""The engine's conformance checks (parlour.engine.conformance.check_game) over every registered
game, player count and variant: termination, legality, refusals that change nothing and name the
rule (never the generic fallback), every move told to every other seat and spectator, replay, clone
independence, determinize keeping the view."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from parlour.engine import Action, Event, Rng, load_game
from parlour.engine.actions import secret
from parlour.engine.conformance import ConformanceError, check_game, check_illegal_changes_nothing, play_random_game
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


class WhisperingNimState(NimState):
    """Nim whose moves are told to their own seat alone, or to the seats but not the spectators."""

    __slots__ = ("audience",)

    def _apply(self, action: Action) -> list[Event]:
        mover = self.mover
        told = super()._apply(action)
        return [Event(e.kind, e.text, e.data, audience=self.audience or (mover,)) for e in told]


class SecretNimState(NimState):
    """Nim whose takes are secret: the mover reads the number, the others and spectators that she took."""

    __slots__ = ()

    def _apply(self, action: Action) -> list[Event]:
        mover = self.mover
        (told,) = super()._apply(action)
        return secret(mover, told, Event("take", f"seat {mover} takes some stones", {"seat": mover}))


class WhisperingNim(Nim):
    def __init__(self, audience: tuple[int, ...] = (), state: type[NimState] = WhisperingNimState) -> None:
        super().__init__()
        self.audience, self.state = audience, state

    def new_state(self, seed: int = 0) -> NimState:
        state = self.state(self, seed, pile=10)
        if isinstance(state, WhisperingNimState):
            state.audience = self.audience
        return state


def test_a_move_that_tells_another_seat_nothing_is_flagged() -> None:
    """A public choice that emits no event (or one for its own seat only) reads to the others as
    a hidden move: the harness names the move and who was told nothing."""
    with pytest.raises(ConformanceError, match=r"seat 0's move 'take \d' shows seat 1 no event"):
        play_random_game(WhisperingNim(), 0)
    with pytest.raises(ConformanceError, match="shows a spectator no event"):
        play_random_game(WhisperingNim(audience=(0, 1)), 0)  # both seats, never a spectator


def test_a_secret_move_is_told_through_its_redacted_half() -> None:
    final, _ = play_random_game(WhisperingNim(state=SecretNimState), 0)
    assert final.is_terminal()
