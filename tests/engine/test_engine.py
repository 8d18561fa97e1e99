"""The engine protocol on its own, with a tiny game built for the purpose."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine import IllegalAction, InvalidOption, RecordError, Rng
from parlour.engine.conformance import check_game
from parlour.engine.records import full_record, verify
from parlour.engine.registry import register

from .nim import Nim

register(Nim)


def test_unknown_game_is_named() -> None:
    with pytest.raises(InvalidOption, match="no game called 'chess'"):
        parlour.load_game("chess")


def test_unknown_option_and_bad_values_are_named() -> None:
    with pytest.raises(InvalidOption, match="nim has no option 'colour'"):
        parlour.load_game("nim", colour="red")
    with pytest.raises(InvalidOption, match="nim takes 2 players, got 6"):
        parlour.load_game("nim", players=6)
    with pytest.raises(InvalidOption, match="between 0 and 99"):
        parlour.load_game("nim", stones=120)
    with pytest.raises(InvalidOption, match="takes int"):
        parlour.load_game("nim", stones="many")


def test_options_from_text_are_typed() -> None:
    assert parlour.load_game("nim", stones="5").options["stones"] == 5


def test_actions_by_id_label_and_json() -> None:
    game = parlour.load_game("nim")
    take2 = game.actions[1]
    assert game.action(1) is take2
    assert game.action("Take  2") is take2
    assert game.action(take2.to_json()) is take2
    assert json.loads(json.dumps(take2.to_json())) == {"id": 1, "kind": "take", "label": "take 2", "stones": 2}
    with pytest.raises(IllegalAction, match="no action 7"):
        game.action(7)
    with pytest.raises(IllegalAction, match="no action called 'take 9'"):
        game.action("take 9")


def test_illegal_action_gives_the_reason_and_changes_nothing() -> None:
    state = parlour.load_game("nim", stones=2).new_state(seed=1)
    with pytest.raises(IllegalAction, match="only 2 stones are left"):
        state.apply("take 3")
    assert state.pile == 2 and state.history == []


def test_apply_returns_events_and_game_ends() -> None:
    state = parlour.load_game("nim", stones=3).new_state()
    events = state.apply("take 3")
    assert [e.kind for e in events] == ["take"]
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(0)


def test_same_seed_same_game() -> None:
    game = parlour.load_game("nim")
    assert [game.new_state(seed=s).pile for s in range(20)] == [game.new_state(seed=s).pile for s in range(20)]
    assert len({game.new_state(seed=s).pile for s in range(50)}) > 3


def test_rng_is_deterministic_and_clones_cheaply() -> None:
    a = Rng(42)
    b = a.clone()
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    items = list(range(10))
    Rng(3).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    assert all(0 <= Rng(s).randrange(6) < 6 for s in range(100))


def test_rng_skip_is_the_same_as_drawing() -> None:
    for draws in (0, 1, 7, 1000):
        drawn, skipped = Rng(11), Rng(11)
        for _ in range(draws):
            drawn.next64()
        skipped.skip(draws)
        assert skipped.next64() == drawn.next64()
    shuffled, skipped = Rng(5), Rng(5)
    shuffled.shuffle(list(range(12)))
    skipped.skip(11)  # a shuffle of n items takes n - 1 draws
    assert skipped.state == shuffled.state


_MASK = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """SplitMix64 written out from its definition: the next state and the draw."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def test_rng_gives_the_splitmix64_sequence_in_either_build() -> None:
    # The compiled build computes on signed machine integers; these pin its bits to the definition,
    # with states and draws on both sides of 2**63 and bounds past the machine-integer path.
    assert Rng(0).state == 0x9E3779B97F4A7C15 and Rng(1).state == (0xD1B54A32D192ED03 + 0x9E3779B97F4A7C15) & _MASK
    assert Rng(0).next64() == 0x6E789E6AA1B965F4  # pinned: the first draw games have always made
    bounds = (1, 2, 3, 6, 52, 1000003, (1 << 62) - 1, 1 << 62, (1 << 63) + 5, 1 << 64, (1 << 70) + 1)
    for seed in (*range(40), -1, 1 << 63, (1 << 64) - 1, 1 << 80):
        rng, state = Rng(seed), Rng(seed).state
        for n in bounds:
            state, z = splitmix64(state)
            assert rng.randrange(n) == z % n and rng.state == state
            state, z = splitmix64(state)
            assert rng.next64() == z and rng.state == state
            state, z = splitmix64(state)
            assert rng.random() == (z >> 11) * (1.0 / 9007199254740992.0)
            state, z = splitmix64(state)
            assert rng.choice(range(n % 97 + 1)) == z % (n % 97 + 1)
        items, expected = list(range(60)), list(range(60))
        for i in range(59, 0, -1):
            state, z = splitmix64(state)
            j = z % (i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        rng.shuffle(items)
        assert items == expected and rng.state == state
        rng.skip(1 << 65)
        assert rng.state == (state + (1 << 65) * 0x9E3779B97F4A7C15) & _MASK
        twin = Rng(splitmix64(rng.state)[1])
        assert rng.clone().state == rng.state and rng.spawn().state == twin.state


def test_record_verify_detects_tampering() -> None:
    state = parlour.load_game("nim", stones=5).new_state(seed=4)
    for action in ("take 1", "take 3", "take 1"):
        state.apply(action)
    record = full_record(state)
    assert verify(record).history == state.history
    tampered = dict(record, labels=["take 1", "take 2", "take 1"])
    with pytest.raises(RecordError, match="step 1"):
        verify(tampered)
    with pytest.raises(RecordError, match="step 2"):
        verify(dict(record, actions=[0, 2, 2], labels=None))
    with pytest.raises(RecordError, match="winners differ"):
        verify(dict(record, winners=[1]))
    with pytest.raises(RecordError, match="no 'seed' field"):
        verify({"game": "nim", "options": {}, "actions": []})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_nim_passes_conformance(seed: int) -> None:
    check_game(parlour.load_game("nim"), seed)
