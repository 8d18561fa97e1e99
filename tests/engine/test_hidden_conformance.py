"""Hidden information, for every game, player count and variant (parlour.engine.conformance):

(a) a seat's view, text and every adapter observation are the same in positions it cannot tell
    apart (OpenSpiel's information-state string is the sequence of those views, which the
    replayed siblings keep equal at every step); (b) `determinize` gives the same world from any
    of them, now and along a continuation, and the hint recommends the same move; (c) a
    determinization agrees with what the seat knows, checked by playing on in the drawn world.
    The positions below reproduce leaks these checks caught, each one in its game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine import Rng, State
from parlour.engine.conformance import (
    ConformanceError,
    Observer,
    check_hidden_at,
    check_hidden_information,
    determinized_futures_agree,
    swapped_sibling,
)
from parlour.engine.registry import installed_games

# Every game at every player count, and every variant that hides something differently.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("hatairo", {"players": 1}),
    ("hatairo", {"players": 2}),
    ("hatairo", {"players": 3, "beginner": True}),
    ("hatairo", {"players": 4, "variant": "motif"}),
    ("hatairo", {"players": 2, "variant": "drafting"}),
    ("hatairo", {"players": 3, "variant": "drafting"}),
    ("hatairo", {"players": 4, "variant": "motif+drafting"}),
    ("hatflings", {}),
    ("hatflings", {"scene": "interactive", "num_objects": 5}),
    ("hanbok_runway", {}),
    ("yamatai", {"players": 2}),
    ("yamatai", {"players": 3}),
    ("yamatai", {"players": 4}),
]
# Any other registered game (one installed as its own distribution, say) at its default options.
CONFIGS += [(name, {}) for name in installed_games() if name not in {name for name, _ in CONFIGS}]


def _adapter_observers() -> list[Observer]:
    """What the research adapters show a seat: OpenSpiel's observation string and tensor (computed
    from the view), and PettingZoo's / Gymnasium's observation with its action mask."""
    pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from parlour.interop.encoding import observation_tensor
    from parlour.interop.spaces import observe

    def openspiel_string(state: State, seat: int) -> str:
        return json.dumps(state.view(seat), sort_keys=True)  # as parlour.interop.openspiel shows it

    def tensor(state: State, seat: int) -> bytes:
        return bytes(observation_tensor(state.game, state.view(seat), seat).tobytes())

    def env_observation(state: State, seat: int) -> bytes:
        seen = observe(state, seat)
        return bytes(seen["observation"].tobytes()) + bytes(seen["action_mask"].tobytes())

    return [openspiel_string, tensor, env_observation]


def _hint_move(state: State) -> int:
    from parlour.agents.hint import hint

    return hint(state, iterations=24, seed=5)[0].id


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
@settings(max_examples=1, deadline=None, phases=[Phase.explicit, Phase.generate])  # one fresh seed, no shrinking
@given(seed=st.integers(0, 2**32))
def test_no_seat_can_tell_hidden_worlds_apart(name: str, options: dict[str, Any], seed: int) -> None:
    game = parlour.load_game(name, **options)
    spread = 1 if game.num_players == 4 else 2  # four seats to check at each position already
    check_hidden_information(game, seed, positions=spread, observers=_adapter_observers())


@pytest.mark.parametrize("name", ["hatairo", "hanbok_runway", "yamatai"])
def test_the_hint_ignores_what_the_seat_cannot_see(name: str) -> None:
    """The server's /hint searches from a position; two positions its seat cannot tell apart must
    get the same recommendation (same search seed and budget)."""
    check_hidden_information(parlour.load_game(name), 3, positions=1, early=(3,), advice=_hint_move)


# --- the leaks these checks found --------------------------------------------------------------


def _hatairo_setup(where: str) -> State:
    """2 players, seed 13: Red keeps three cards in her palette (or atelier) and lays three tiles."""
    state = parlour.load_game("hatairo", players=2).new_state(13)
    for label in (
        f"keep India in {where}",
        f"keep Cameroon in {where}",
        f"keep Puerto Rico in {where}",
        "topography Coastal under column 1",
        "topography Coastal under column 2",
        "topography Island under column 3",
    ):
        state.apply(label)
    return state


def test_hatairo_set_up_choices_do_not_show_in_the_text() -> None:
    """R5: until everyone has chosen, Yellow's text (and a spectator's) must not count the
    pigments Red kept: the running score did ("pigments 3" for the palette, 0 for the atelier)."""
    palette, atelier = _hatairo_setup("palette"), _hatairo_setup("atelier")
    for seat in (1, None):
        assert palette.render(seat) == atelier.render(seat)
        assert not any(line.startswith("Red") and "VP" in line for line in palette.render(seat).splitlines())
    assert "pigments 3" in palette.render(0) and "pigments 0" in atelier.render(0)
    check_hidden_at(palette, 1, Rng(1))


def test_hatairo_set_up_takes_every_player_the_same_number_of_decisions() -> None:
    """How many moves Red makes must not depend on her hidden tiles: laying Island and Landlocked
    first left only Coastal tiles, which were laid by themselves, so Yellow's turn came sooner."""
    counts = set()
    for first, second in (("Island", "Landlocked"), ("Coastal", "Coastal"), ("Coastal", "Island")):
        state = parlour.load_game("hatairo", players=2).new_state(13)
        for label in ("keep India in palette", "keep Cameroon in palette", "keep Puerto Rico in palette"):
            state.apply(label)
        state.apply(f"topography {first} under column 1")
        state.apply(f"topography {second} under column 2")
        moves = 5
        while state.current_player() == 0:
            state.apply(state.legal_actions()[0])
            moves += 1
        counts.add(moves)
    assert counts == {6}


def _drafted(players: int, seed: int, picks: int) -> State:
    state = parlour.load_game("hatairo", players=players, variant="drafting").new_state(seed)
    rng = Rng(seed)
    for _ in range(picks):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_hatairo_draft_two_players_her_neighbour_holds_what_she_passed() -> None:
    """R50, 2 players, seed 5: after one round Yellow holds exactly the 8 cards Red passed her."""
    state = parlour.load_game("hatairo", players=2, variant="drafting").new_state(5)
    state.apply("draft East Timor")
    state.apply("draft Brazil")
    passed = state.boards[0].passed[0]
    for k in range(20):
        assert state.determinize(0, Rng(k)).boards[1].hand == passed
    check_hidden_at(state, 0, Rng(0))


def test_hatairo_draft_three_players_passed_cards_stay_on_their_way_round() -> None:
    """3 players: the cards Red passed are with Yellow (her hand and then one pick), never with Blue."""
    state = _drafted(3, 5, 3)
    passed = set(state.boards[0].passed[0])
    for k in range(20):
        twin = state.determinize(0, Rng(k))
        assert set(twin.boards[1].hand) == passed and not passed & set(twin.boards[2].hand)
    check_hidden_at(state, 0, Rng(0))


# Moves played, per player, to reach a stage of the draft (seats pick in turn, three rounds).
STAGES = {
    "first pick": (0, 1),
    "one round": (1, 0),
    "mid round two": (1, 1),
    "last round": (2, 1),
    "draft done": (3, 0),
    "keeping": (3, 1),
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("stage", list(STAGES))
def test_hatairo_draft_knowledge_holds_at_every_stage(players: int, stage: str) -> None:
    """During and after the draft (until the reveal) every seat's re-deal keeps where the cards she
    passed must be, and the cards of hands she never saw are the only ones re-drawn freely."""
    rounds, extra = STAGES[stage]
    state = _drafted(players, 11 + players, rounds * players + extra)
    for seat in range(players):
        check_hidden_at(state, seat, Rng(seat))
        for k in range(4):
            twin = state.determinize(seat, Rng(k))
            assert twin.view(seat) == state.view(seat)
            assert _every_card(twin) == _every_card(state)


def _every_card(state: Any) -> list[int]:
    held = [
        card for board in state.boards for card in {*board.hand, *board.picks, *board.atelier, *board.palette_flags}
    ]
    return sorted(state.flag_supply + held)


def _yamatai_after_a_preview() -> State:
    """2 players, seed 0: the fleet power looks at the deck's top; B11 goes to the row, B21 back."""
    state = parlour.load_game("yamatai", players=2).new_state(0)
    for label in ("take fleet tile 3", "use the fleet power", "put B11 in the row instead of B21"):
        state.apply(label)
    while any(action.label.startswith("put ") for action in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seat", [0, 1])
def test_yamatai_a_preview_is_remembered_after_it_ends(seat: int) -> None:
    """R43: everyone saw B21 go back among the looked-at tiles; the previewer knows their order."""
    check_hidden_at(_yamatai_after_a_preview(), seat, Rng(2), future=400)


def test_yamatai_determinize_does_not_read_the_hidden_order() -> None:
    """Two worlds that differ only in the order of the unseen tiles give the same determinization."""
    state = _yamatai_after_a_preview()
    for seat in (0, 1):
        other = state.determinize(seat, Rng(9))
        assert determinized_futures_agree(state, other, seat, Rng(4))


def test_a_swapped_sibling_differs_only_in_what_the_seat_cannot_see() -> None:
    """The determinize-free sibling of the Hatairo set-up: Red's kept cards may go elsewhere."""
    state = _hatairo_setup("palette")
    found = [swapped_sibling(state, 1, Rng(k)) for k in range(6)]
    worlds = [world for world in found if world is not None]
    assert worlds and all(world.view(1) == state.view(1) for world in worlds)
    assert any(world.boards[0].palette_flags != state.boards[0].palette_flags for world in worlds)


def test_the_checks_catch_a_leaking_render() -> None:
    """A render that prints another seat's hidden card fails (a), so the checks can fail."""
    state = _hatairo_setup("palette")
    leaky: Callable[[State, int], str] = lambda world, seat: str(world.boards[0].palette_flags)  # noqa: E731
    with pytest.raises(ConformanceError, match="observer 0 differs"):
        check_hidden_at(state, 1, Rng(3), observers=[leaky])
