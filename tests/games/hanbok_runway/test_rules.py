"""Hanbok Runway: one test per ruling of the spec (R1-R21) and per rulebook paragraph, on built positions."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.engine import IllegalAction, Rng
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import DISCARD, DRAW, INITIAL_DRAW, OVAL_CHOICE, OVER, SETS
from parlour.games.hanbok_runway.state import HanbokRunwayState
from tests.games.hanbok_runway.positions import (
    COLOURS,
    COMPONENTS,
    T,
    colour,
    empty_queue,
    fresh,
    give,
    kind,
    labels,
    place_set,
    put_first,
    token,
    turn_position,
)

# --- components (section 1) -----------------------------------------------------------------


def test_R1_six_colours() -> None:
    assert COLOURS == ("green", "red", "blue", "orange", "black", "pink")
    state = fresh()
    assert [c["colour"] for c in state.view(0)["colours"]] == list(COLOURS)


def test_R2_every_colour_has_the_designed_influences() -> None:
    for values in COMPONENTS.token_values:
        assert sorted(values) == [-3, -1, 1, 2, 3, 4]
    state = fresh(seed=5)
    for c in range(len(COLOURS)):
        assert sorted(state.value[c * T : c * T + T]) == [-3, -1, 1, 2, 3, 4]


def test_R3_queue_sides_and_taking_order() -> None:
    state = turn_position(seed=3)
    for c, name in enumerate(COLOURS):
        queue = state.view(0)["colours"][c]["queue"]
        assert [tok["face_up"] for tok in queue] == [False, False, False, True, True, False]
        assert [tok["position"] for tok in queue] == [1, 2, 3, 4, 5, 6]
        # face-up tokens are public, face-down ones known to nobody
        assert [tok["value"] is not None for tok in queue] == [False, False, False, True, True, False]
        assert [state.known[token(name, p)] for p in range(1, 7)] == [0, 0, 0, 3, 3, 0]
    give(state, 0, "triangle", "triangle", "green/red", "green/blue")
    state.apply("set triangle + green/red, earn green")
    state.apply("set triangle + green/blue, earn green")
    assert state.set_tokens[0] == [token("green", 1), token("green", 2)]
    assert [tok["position"] for tok in state.view(0)["colours"][0]["queue"]] == [3, 4, 5, 6]


def test_R4_trophies() -> None:
    trophies = dict(zip(COLOURS, COMPONENTS.vp_trophies, strict=True))
    assert trophies == {"blue": 1, "black": 1, "green": 2, "pink": 2, "red": 3, "orange": 3}
    assert COMPONENTS.additional_vp_supply == 6 and COMPONENTS.additional_vp_trophies == 1


def test_R5_style_symbols() -> None:
    assert Counter(SYMBOLS[s] for s in COMPONENTS.style_cards) == {s: 6 for s in SYMBOLS}


def test_R6_fabric_cards_are_two_of_each_colour_pair() -> None:
    counts = Counter(COMPONENTS.fabric_cards)
    assert len(COMPONENTS.fabric_kinds) == 15 and set(counts.values()) == {2}
    assert all(len(pair) == 2 for pair in COMPONENTS.fabric_kinds)
    per_colour = Counter(c for card in COMPONENTS.fabric_cards for c in COMPONENTS.fabric_kinds[card])
    assert set(per_colour.values()) == {10}


# --- setup (rulebook "Game Setup", section 3) -----------------------------------------------


def test_setup_decks_and_queues_come_from_the_seed() -> None:
    one, again, other = fresh(seed=11), fresh(seed=11), fresh(seed=12)
    assert one.style_deck == again.style_deck and one.value == again.value
    assert (one.style_deck, one.fabric_deck, one.value) != (other.style_deck, other.fabric_deck, other.value)
    assert sorted(one.style_deck) == sorted(COMPONENTS.style_cards)
    assert sorted(one.fabric_deck) == sorted(COMPONENTS.fabric_cards)


def test_setup_vp_tokens_and_additional_supply() -> None:
    view = fresh().view(None)
    assert view["additional_vp_supply"] == 6
    assert all(c["additional_vp"] == 0 for c in view["colours"])
    assert [c["vp_trophies"] for c in view["colours"]] == list(COMPONENTS.vp_trophies)


def test_setup_start_player_option_or_seed() -> None:
    assert fresh(start=1).current_player() == 1 and fresh(start=0).current_player() == 0
    drawn = {fresh(seed=s, start=-1).start for s in range(20)}
    assert drawn == {0, 1}


def test_R8_initial_draw_of_three_in_any_split_start_player_first() -> None:
    state = fresh(start=1)
    assert state.phase == INITIAL_DRAW and state.current_player() == 1
    assert labels(state) == ["draw 3 style", "draw 2 style + 1 fabric", "draw 1 style + 2 fabric", "draw 3 fabric"]
    state.apply("draw 2 style + 1 fabric")
    assert state.current_player() == 0 and state.phase == INITIAL_DRAW
    state.apply("draw 3 fabric")
    assert state.current_player() == 1 and state.phase == DRAW
    assert sum(state.tableau_style[1]) == 2 and sum(state.tableau_fabric[1]) == 1
    assert sum(state.tableau_fabric[0]) == 3 and len(state.fabric_deck) == 26


# --- drawing (rulebook "1. Draw 2 Cards", R7-R9) -----------------------------------------------


def test_R8_turn_draws_two_in_any_split() -> None:
    state = turn_position(phase=DRAW)
    assert labels(state) == ["draw 2 style", "draw 1 style + 1 fabric", "draw 2 fabric"]
    with pytest.raises(IllegalAction, match="draw exactly 2 cards"):
        state.apply("draw 3 style")
    state.apply("draw 1 style + 1 fabric")
    assert sum(state.tableau_style[0]) == 1 and sum(state.tableau_fabric[0]) == 1 and state.phase == SETS


def test_R8_split_needs_enough_cards_in_deck_and_discard() -> None:
    state = turn_position(phase=DRAW)
    state.style_deck = [0]
    state.style_discard = [0, 0, 0, 0, 0]
    state._legal = None
    assert labels(state) == ["draw 1 style + 1 fabric", "draw 2 fabric"]
    with pytest.raises(IllegalAction, match="only 1 style card is left"):
        state.apply("draw 2 style")
    state.style_deck = []
    state.style_discard = [1, 0, 0, 0, 0]  # a discard pile counts (it becomes the deck, R9)
    state._legal = None
    assert labels(state) == ["draw 1 style + 1 fabric", "draw 2 fabric"]


def test_R8_short_draw_when_no_split_reaches_the_number() -> None:
    state = turn_position(phase=DRAW)
    state.style_deck, state.fabric_deck = [2], []
    state._legal = None
    assert labels(state) == ["draw 1 style"]
    state.apply("draw 1 style")
    assert state.tableau_style[0][2] == 1 and state.phase == SETS


def test_R9_reshuffle_as_soon_as_a_deck_runs_out() -> None:
    state = turn_position(phase=DRAW)
    state.style_deck = [SYMBOLS.index("oval")]
    state.style_discard = [0, 0, 3, 0, 0]  # three bells
    state.fabric_discard = [0] * len(COMPONENTS.fabric_kinds)
    state.fabric_discard[kind("green/red")] = 2  # kept apart: never shuffled into the style deck
    state._legal = None
    events = state.apply("draw 2 style")
    assert [e.kind for e in events] == ["draw", "reshuffle"]
    assert events[0].data["style"] == ["oval", "bell"]
    assert state.style_deck == [2, 2] and state.style_discard == [0, 0, 0, 0, 0]
    assert state.fabric_discard[kind("green/red")] == 2 and len(state.fabric_deck) == 30


def test_R9_fabric_deck_is_rebuilt_from_fabric_discards_only() -> None:
    state = turn_position(phase=DRAW)
    state.fabric_deck = [kind("blue/pink")]
    state.fabric_discard = [0] * len(COMPONENTS.fabric_kinds)
    state.fabric_discard[kind("green/red")] = 2
    state.fabric_discard[kind("orange/black")] = 1
    state.style_discard = [0, 0, 2, 0, 0]  # two bells: they stay on their own pile
    state.style_deck = state.style_deck[2:]
    state._legal = None
    events = state.apply("draw 2 fabric")
    assert [e.kind for e in events] == ["draw", "reshuffle"] and events[1].data == {"deck": "fabric", "cards": 3}
    assert events[0].data["fabric"][0] == "blue/pink" and events[0].data["fabric"][1] in ("green/red", "orange/black")
    assert len(state.fabric_deck) == 2 and sum(state.fabric_discard) == 0
    assert sorted([*state.fabric_deck, kind(events[0].data["fabric"][1])]) == sorted(
        [kind("green/red"), kind("green/red"), kind("orange/black")]
    )
    assert state.style_discard == [0, 0, 2, 0, 0] and len(state.style_deck) == 28


def test_R7_drawn_cards_lie_face_up_for_both_players() -> None:
    state = turn_position(phase=DRAW)
    events = state.apply("draw 2 style")
    assert all(e.audience is None for e in events)
    drawn = events[0].data["style"]
    assert state.view(1)["players"][0]["tableau"]["style"] == dict(Counter(drawn))
    assert state.view(None)["players"][0]["cards"] == 2


# --- creating a set (rulebook "2. Create a Set", section 5) -------------------------------------


def test_rulebook_set_is_one_style_and_one_fabric_card() -> None:
    state = turn_position()
    give(state, 0, "triangle", "green/red")
    assert labels(state) == ["set triangle + green/red, earn green", "set triangle + green/red, earn red", "pass"]
    state.apply("set triangle + green/red, earn red")
    assert state._hand_size(0) == 0
    made = state.view(1)["players"][0]["sets"]
    assert made == [{"style": "triangle", "fabric": "green/red", "token": made[0]["token"]}]
    assert made[0]["token"]["colour"] == "red" and made[0]["token"]["position"] == 1


def test_rulebook_earned_face_down_token_is_checked_secretly() -> None:
    state = turn_position()
    give(state, 0, "bell", "green/red")
    t = put_first(state, "green", 4)
    state.apply("set bell + green/red, earn green")
    assert not state.face_up[t] and state.known[t] == 0b01
    mine, theirs = state.view(0)["players"][0]["sets"][0]["token"], state.view(1)["players"][0]["sets"][0]["token"]
    assert mine["value"] == 4 and theirs["value"] is None and not mine["face_up"]
    assert state.view(None)["players"][0]["sets"][0]["token"]["value"] is None


def test_rulebook_earned_face_up_token_stays_face_up() -> None:
    state = turn_position()
    for _ in range(3):
        place_set(state, 1, "triangle", "green", state.value[token("green", 1) + state.taken[0]])
    give(state, 0, "bell", "green/red")
    state.apply("set bell + green/red, earn green")
    t = token("green", 4)
    assert state.face_up[t] and state.view(1)["players"][0]["sets"][0]["token"]["value"] == state.value[t]


def test_rulebook_own_tokens_can_be_checked_at_any_time() -> None:
    state = turn_position()
    place_set(state, 1, "bell", "pink", -3)
    assert state.view(1)["players"][1]["sets"][0]["token"]["value"] == -3
    assert "(-3)" in state.render(1) and "(-3)" not in state.render(0)


def test_rulebook_up_to_two_sets_a_turn() -> None:
    state = turn_position()
    give(state, 0, "triangle", "bell", "oval", "green/red", "blue/pink", "orange/black")
    state.apply("set triangle + green/red, earn green")
    state.apply("set bell + blue/pink, earn blue")
    assert labels(state) == ["pass"]
    with pytest.raises(IllegalAction, match="at most 2 sets may be made in one turn"):
        state.apply("set oval + orange/black, earn black")


def test_R10_sets_are_optional() -> None:
    state = turn_position()
    give(state, 0, "triangle", "green/red")
    state.apply("pass")
    assert state.current_player() == 1 and state.phase == DRAW and state.tableau_style[0][1] == 1


def test_R10_a_set_needs_a_colour_with_tokens_left() -> None:
    state = turn_position()
    empty_queue(state, "green")
    give(state, 0, "triangle", "green/red")
    assert labels(state) == ["set triangle + green/red, earn red", "pass"]
    with pytest.raises(IllegalAction, match="green's queue is empty"):
        state.apply("set triangle + green/red, earn green")
    empty_queue(state, "red")
    assert labels(state) == ["pass"]


def test_R10_at_most_ten_sets_per_player() -> None:
    state = turn_position()
    for name in ("green", "red", "blue", "orange", "black", "pink", "green", "red", "blue"):
        place_set(state, 0, "triangle", name, state.value[colour(name) * T + state.taken[colour(name)]])
    give(state, 0, "oval", "bell", "green/red", "blue/pink")
    state.apply("set bell + blue/pink, earn pink")
    assert len(state.set_tokens[0]) == 10 and labels(state) == ["pass"]
    with pytest.raises(IllegalAction, match="at most 10 sets"):
        state.apply("set oval + green/red, earn green")


def test_R10_needs_both_card_types() -> None:
    state = turn_position()
    give(state, 0, "triangle", "bell")
    assert labels(state) == ["pass"]
    with pytest.raises(IllegalAction, match="no green/red fabric card"):
        state.apply("set triangle + green/red, earn green")


def test_R11_a_style_card_changes_only_its_own_token() -> None:
    state = turn_position()
    place_set(state, 0, "triangle", "green", 1)
    place_set(state, 0, "trapezoid", "green", 3)
    place_set(state, 0, "oval", "green", -1)
    assert state.influences()[0][colour("green")] == (1 + 2) + 3 * 2 - 1


# --- style effects (rulebook "2-2", R12-R14) ------------------------------------------------


def test_R12_oval_peek_is_private_and_the_token_stays() -> None:
    state = turn_position()
    give(state, 0, "oval", "green/red")
    state.apply("set oval + green/red, earn green")
    assert state.phase == OVAL_CHOICE and state.current_player() == 0
    # positions 2, 3 and 6 are face-down in the queue; the opponent owns nothing to flip
    assert labels(state) == ["peek at green 2", "peek at green 3", "peek at green 6"]
    events = state.apply("peek at green 6")
    t = token("green", 6)
    assert state.known[t] == 0b01 and not state.face_up[t] and state.owner[t] == -1
    assert state.view(0)["colours"][0]["queue"][-1]["value"] == state.value[t]
    assert state.view(1)["colours"][0]["queue"][-1]["value"] is None
    assert state.view(1)["colours"][0]["queue"][-1]["known_by"] == [0]
    private = [e for e in events if e.audience == (0,)]
    public = [e for e in events if e.audience is None]
    assert private[0].data["value"] == state.value[t] and "value" not in public[0].data
    assert state.phase == SETS


def test_R12_oval_flips_an_opponents_token_for_good() -> None:
    state = turn_position()
    theirs = place_set(state, 1, "bell", "blue", -3)
    give(state, 0, "oval", "blue/pink")
    state.apply("set oval + blue/pink, earn blue")
    assert labels(state) == ["peek at blue 3", "peek at blue 6", "flip opponent's blue 1"]
    events = state.apply("flip opponent's blue 1")
    assert state.face_up[theirs] and state.known[theirs] == 0b11
    assert events[0].audience is None and events[0].data["value"] == -3
    assert state.view(None)["players"][1]["sets"][0]["token"]["value"] == -3
    assert state.phase == SETS


def test_R12_oval_must_be_used_when_possible() -> None:
    state = turn_position()
    give(state, 0, "oval", "green/red")
    state.apply("set oval + green/red, earn red")
    with pytest.raises(IllegalAction, match="the oval must be resolved first"):
        state.apply("pass")
    with pytest.raises(IllegalAction, match="only at red"):
        state.apply("peek at green 2")
    with pytest.raises(IllegalAction, match="face-up"):
        state.apply("peek at red 4")


def test_R12_oval_flip_refusals_name_whose_token_it_is() -> None:
    state = turn_position()
    mine = place_set(state, 0, "bell", "blue", -3)
    place_set(state, 1, "bell", "blue", 4)
    give(state, 0, "oval", "blue/pink")
    state.apply("set oval + blue/pink, earn blue")
    assert state.owner[mine] == 0
    with pytest.raises(IllegalAction, match="blue 1 is your own token: the oval flips only the opponent's"):
        state.apply("flip opponent's blue 1")
    with pytest.raises(IllegalAction, match="blue 4 is still in the queue: the oval flips only"):
        state.apply("flip opponent's blue 4")
    state.apply("flip opponent's blue 2")
    with pytest.raises(IllegalAction, match="not allowed now"):
        state.apply("flip opponent's blue 2")


def test_R12_oval_does_nothing_without_a_face_down_token() -> None:
    state = turn_position()
    c = colour("pink")
    for _ in range(3):
        place_set(state, 1, "triangle", "pink", state.value[c * T + state.taken[c]])
    for t in state.set_tokens[1]:
        state.face_up[t], state.known[t] = True, 0b11  # all of the opponent's pink is public
    give(state, 0, "oval", "black/pink")
    state.apply("set oval + black/pink, earn pink")  # takes pink 4 (face-up); 5 is face-up, 6 face-down
    assert state.phase == OVAL_CHOICE and labels(state) == ["peek at pink 6"]
    state.apply("peek at pink 6")
    give(state, 0, "oval", "black/pink")
    state.sets_this_turn = 0
    state.apply("set oval + black/pink, earn pink")  # pink 5 taken; 6 face-down, already seen: still a choice
    assert labels(state) == ["peek at pink 6"]
    state.apply("peek at pink 6")
    state.sets_this_turn = 0
    give(state, 0, "oval", "orange/pink")
    events = state.apply("set oval + orange/pink, earn pink")  # pink 6: nothing face-down remains
    assert state.phase == SETS and events[-1].kind == "oval" and "finds no" in events[-1].text


def test_R13_triangle_adds_two_at_scoring_without_revealing() -> None:
    state = turn_position()
    give(state, 0, "triangle", "green/red")
    t = put_first(state, "green", -1)
    events = state.apply("set triangle + green/red, earn green")
    assert not state.face_up[t] and all("value" not in e.data for e in events if e.audience is None)
    assert state.influences()[0][0] == 1


@pytest.mark.parametrize(("value", "expected"), [(-3, 3), (-1, 1), (2, 2), (4, 4)])
def test_R13_bell_turns_a_negative_positive(value: int, expected: int) -> None:
    state = turn_position()
    place_set(state, 0, "bell", "red", value)
    assert state.influences()[0][colour("red")] == expected


@pytest.mark.parametrize(("value", "expected"), [(-3, -6), (4, 8), (1, 2)])
def test_R13_trapezoid_doubles(value: int, expected: int) -> None:
    state = turn_position()
    place_set(state, 1, "trapezoid", "blue", value)
    assert state.influences()[1][colour("blue")] == expected


def test_R14_mannequin_adds_an_additional_vp_token_without_cap() -> None:
    state = turn_position()
    for fabric in ("orange/pink", "blue/orange", "orange/black"):
        give(state, 0, "mannequin", fabric)
        state.sets_this_turn = 0
        events = state.apply(f"set mannequin + {fabric}, earn orange")
        assert events[-1].kind == "mannequin"
    assert state.additional[colour("orange")] == 3 and state.supply == 3
    view = state.view(1)
    assert view["colours"][colour("orange")]["additional_vp"] == 3 and view["additional_vp_supply"] == 3


def test_R14_mannequin_with_an_empty_supply_does_nothing() -> None:
    state = turn_position()
    state.supply = 0
    give(state, 0, "mannequin", "orange/pink")
    events = state.apply("set mannequin + orange/pink, earn pink")
    assert state.additional == [0] * 6 and "no additional VP token" in events[-1].text


def test_R14_pile_stays_after_the_queue_runs_out() -> None:
    state = turn_position()
    black = colour("black")
    for value in (4, 3, 2, 1, -1):  # seat 0 holds black's first five tokens: 9
        place_set(state, 0, "oval", "black", value)
    give(state, 0, "mannequin", "orange/black")
    state.apply("set mannequin + orange/black, earn black")  # the last black token (-3): 6 in all
    assert state.taken[black] == T and state.additional[black] == 1 and state.supply == 5
    shown = state.view(None)["colours"][black]
    assert shown["additional_vp"] == 1 and shown["queue"] == []
    _finish(state)
    # the pile goes with black's VP token although the queue is long empty: VP 1 + 1 additional
    assert state.scores()[0].breakdown["black"] == 2 and state.scores()[0].total == 2


# --- pass and hand limit (rulebook "3. Pass", R15, R20) ----------------------------------------


def test_R15_hand_limit_only_at_pass() -> None:
    state = turn_position(phase=DRAW)
    give(state, 0, "oval", "bell", "triangle", "green/red", "blue/pink")
    state.apply("draw 2 fabric")
    assert state._hand_size(0) == 7 and state.phase == SETS  # seven cards for a moment is fine
    state.apply("pass")
    assert state.phase == DISCARD and state.current_player() == 0
    assert labels(state)[0] == "discard oval" and "discard green/red" in labels(state)
    with pytest.raises(IllegalAction, match="the hand limit is 5"):
        state.apply("pass")
    state.apply("discard bell")
    assert state.phase == DISCARD
    state.apply("discard green/red")
    assert state.phase == DRAW and state.current_player() == 1 and state._hand_size(0) == 5
    assert state.style_discard[SYMBOLS.index("bell")] == 1 and state.fabric_discard[kind("green/red")] == 1
    with pytest.raises(IllegalAction, match="draw 2 cards first"):
        state.apply("discard oval")


def test_R15_no_discard_at_five_or_fewer() -> None:
    state = turn_position()
    give(state, 0, "oval", "bell", "triangle", "green/red", "blue/pink")
    state.apply("pass")
    assert state.phase == DRAW and state.current_player() == 1


def test_R20_discards_of_one_pass_are_one_batch() -> None:
    def discard_in(order: list[str]) -> list[int]:
        state = turn_position(seed=4)
        give(state, 0, "oval", "oval", "bell", "triangle", "trapezoid", "green/red", "blue/pink", "red/black")
        state.style_deck = []  # the style deck ran out with nothing discarded
        state._legal = None
        state.apply("pass")
        for card in order:
            assert state.style_deck == []  # no one-card deck is built in between
            state.apply(f"discard {card}")
        return state.style_deck

    one = discard_in(["oval", "bell", "triangle"])
    other = discard_in(["triangle", "oval", "bell"])
    assert one == other and sorted(one) == sorted(SYMBOLS.index(s) for s in ("oval", "bell", "triangle"))


def test_R20_discards_go_onto_the_piles_together_and_R9_holds_throughout() -> None:
    state = turn_position(seed=4)
    give(state, 0, "oval", "oval", "bell", "triangle", "trapezoid", "green/red", "blue/pink", "red/black")
    state.style_deck = []  # the style deck ran out with nothing discarded
    state._legal = None
    state.apply("pass")
    state.apply("discard bell")
    state.apply("discard oval")
    # the named cards are set aside, not yet on their pile: no deck is empty beside a full pile (R9)
    assert state.style_discard == [0] * len(SYMBOLS) and state.style_deck == []
    assert state._hand_size(0) == 6
    assert state.view(1)["discarding"] == {"style": {"oval": 1, "bell": 1}, "fabric": {}}
    assert "Being discarded: oval, bell | -" in state.render(1)
    events = state.apply("discard green/red")
    # the batch lands, and the R9 check runs once on the whole pile
    assert sorted(state.style_deck) == sorted(SYMBOLS.index(s) for s in ("oval", "bell"))
    assert state.style_discard == [0] * len(SYMBOLS) and state.fabric_discard[kind("green/red")] == 1
    assert state.view(1)["discarding"] == {"style": {}, "fabric": {}}
    assert [e.kind for e in events] == ["discard", "reshuffle"]
    assert state.phase == DRAW and state.current_player() == 1


# --- end of the game (R16, R17) ----------------------------------------------------------------


def _two_colours_almost_empty(state_seat: int, start: int) -> HanbokRunwayState:
    state = turn_position(start=start, seat=state_seat)
    empty_queue(state, "green", seat=1 - state_seat)
    c = colour("red")
    while state.taken[c] < T - 1:
        place_set(state, 1 - state_seat, "triangle", "red", state.value[c * T + state.taken[c]])
    give(state, state_seat, "bell", "oval", "red/blue", "orange/pink")
    return state


def test_R16_trigger_on_start_players_turn_gives_the_other_one_more_turn() -> None:
    state = _two_colours_almost_empty(state_seat=0, start=0)
    events = state.apply("set bell + red/blue, earn red")  # the second colour runs out
    assert state.triggered and events[-1].kind == "end triggered"
    state.apply("set oval + orange/pink, earn orange")  # the triggering turn goes on
    state.apply("peek at orange 2")
    state.apply("pass")
    assert state.current_player() == 1 and state.phase == DRAW
    give(state, 1, "triangle")
    state.apply("draw 1 style + 1 fabric")
    state.apply("pass")
    assert state.is_terminal() and state.phase == OVER


def test_R16_trigger_on_second_players_turn_ends_at_once() -> None:
    state = _two_colours_almost_empty(state_seat=1, start=0)
    state.apply("set bell + red/blue, earn red")
    assert not state.is_terminal()
    state.apply("pass")
    assert state.is_terminal() and state.current_player() == -1


def test_R16_tenth_set_triggers() -> None:
    state = turn_position(start=1, seat=1)
    for name in ("green", "red", "blue", "orange", "black", "pink", "green", "red", "blue"):
        place_set(state, 1, "triangle", name, state.value[colour(name) * T + state.taken[colour(name)]])
    give(state, 1, "bell", "orange/pink")
    state.apply("set bell + orange/pink, earn pink")
    assert state.triggered
    state.apply("pass")
    assert not state.is_terminal() and state.current_player() == 0  # seat 1 started: seat 0 plays once more
    state.apply("draw 2 style")
    state.apply("pass")
    assert state.is_terminal()


def test_R16_one_empty_queue_or_nine_sets_do_not_trigger() -> None:
    state = turn_position()
    for _ in range(T - 1):
        place_set(state, 1, "oval", "green", state.value[token("green", 1) + state.taken[colour("green")]])
    for name in ("red", "blue", "orange", "black", "pink", "red", "blue"):
        place_set(state, 0, "oval", name, state.value[colour(name) * T + state.taken[colour(name)]])
    give(state, 0, "bell", "bell", "green/red", "red/blue")
    state.apply("set bell + green/red, earn green")  # green's queue is the first to run out; 8 sets
    assert state.taken[colour("green")] == T and not state.triggered
    state.apply("set bell + red/blue, earn red")  # a ninth set
    assert len(state.set_tokens[0]) == 9 and not state.triggered
    state.apply("pass")
    assert state.current_player() == 1 and not state.is_terminal()


def test_R17_safety_cap_ends_a_stalled_game() -> None:
    state = fresh(start=0, safety_turn_cap=3)
    state.apply("draw 3 style")
    state.apply("draw 3 style")
    for _ in range(3):
        assert not state.is_terminal()
        state.apply("draw 2 style")
        state.apply("pass")
        while state.phase == DISCARD:
            state.apply(state.legal_actions()[0])
    # the cap triggers after turn 3 (the start player's), so seat 1 plays turn 4
    assert state.triggered and not state.is_terminal() and state.current_player() == 1
    state.apply("draw 2 style")
    state.apply("pass")
    while state.phase == DISCARD:
        state.apply(state.legal_actions()[0])
    assert state.is_terminal() and state.turns_played == 4


def test_R17_cap_zero_is_off() -> None:
    state = fresh(start=0, safety_turn_cap=0)
    rng = Rng(1)
    state.apply("draw 3 fabric")
    state.apply("draw 3 fabric")
    for _ in range(300):  # nobody makes a set: the game just goes on
        state.apply("draw 1 style + 1 fabric")
        state.apply("pass")
        while state.phase == DISCARD:
            state.apply(rng.choice(state.legal_actions()))
    assert not state.is_terminal() and state.turns_played == 300


# --- scoring (section 8, R18, R19, the rulebook's example) ------------------------------------


def _finish(state: HanbokRunwayState) -> None:
    """Let seat 1 (second player) end a triggered game with a pass."""
    state.phase, state.to_move, state.triggered = SETS, 1, True
    state._legal = None
    state.apply("pass")
    assert state.is_terminal()


def test_R18_needs_strictly_more_and_at_least_one() -> None:
    state = turn_position()
    place_set(state, 0, "triangle", "green", 1)  # 3
    place_set(state, 1, "oval", "green", 3)  # 3: a tie, nobody wins green
    place_set(state, 0, "oval", "red", -1)  # -1 beats -3 but is below 1
    place_set(state, 1, "oval", "red", -3)
    place_set(state, 1, "oval", "blue", 1)  # exactly 1 is enough
    _finish(state)
    breakdown = [score.breakdown for score in state.scores()]
    assert breakdown[0]["green"] == breakdown[1]["green"] == 0
    assert breakdown[0]["red"] == 0 and breakdown[1]["blue"] == 1


def test_R18_additional_tokens_go_with_their_vp_token() -> None:
    state = turn_position()
    state.additional[colour("pink")] = 2
    state.supply = 4
    place_set(state, 0, "oval", "pink", 2)
    _finish(state)
    assert state.scores()[0].breakdown["pink"] == 2 + 2 and state.scores()[0].total == 4


def test_R19_tie_on_trophies_goes_to_fewer_sets() -> None:
    state = turn_position()
    place_set(state, 0, "oval", "green", 2)  # green: 2 trophies
    place_set(state, 1, "oval", "pink", 2)  # pink: 2 trophies
    place_set(state, 1, "oval", "blue", -1)  # an extra set for seat 1
    _finish(state)
    assert [s.total for s in state.scores()] == [2, 2]
    assert state.winners() == [0] and state.returns() == [1.0, -1.0]


def test_R19_full_tie_is_a_shared_win() -> None:
    state = turn_position()
    place_set(state, 0, "oval", "green", 2)
    place_set(state, 1, "oval", "pink", 2)
    _finish(state)
    assert state.winners() == [0, 1] and state.returns() == [0.0, 0.0]


def test_scoring_reveals_every_token() -> None:
    """Section 8 step 1: every token is revealed, the earned ones and those left in the queues."""
    state = turn_position()
    mine = place_set(state, 0, "oval", "green", 4)
    theirs = place_set(state, 1, "oval", "red", -3)
    assert state.view(1)["players"][0]["sets"][0]["token"]["value"] is None
    assert state.view(None)["colours"][0]["queue"][0]["value"] is None
    _finish(state)
    assert state.face_up[mine] and state.face_up[theirs]
    assert state.view(None)["players"][0]["sets"][0]["token"]["value"] == 4
    assert all(state.face_up) and all(bits == 0b11 for bits in state.known)
    for viewer in (None, 0, 1):
        queue = state.view(viewer)["colours"][colour("green")]["queue"]
        assert [tok["value"] for tok in queue] == state.value[token("green", 2) : token("green", 6) + 1]
    queue_lines = [line for line in state.render(None).splitlines() if line.startswith("  green ")]
    assert queue_lines and "??" not in queue_lines[0] and "1:--" in queue_lines[0]


def test_section_9_micro_example() -> None:
    state = turn_position()
    place_set(state, 0, "triangle", "green", 4)
    place_set(state, 0, "oval", "green", 2)
    place_set(state, 1, "trapezoid", "green", 3)
    place_set(state, 1, "oval", "green", 1)
    place_set(state, 0, "oval", "red", -1)
    place_set(state, 1, "trapezoid", "red", -3)
    place_set(state, 1, "oval", "red", 2)
    influence = state.influences()
    assert (influence[0][0], influence[1][0]) == (8, 7)
    assert (influence[0][1], influence[1][1]) == (-1, -4)
    _finish(state)
    assert state.scores()[0].breakdown["green"] == 2 and state.scores()[0].breakdown["red"] == 0


def test_rulebook_end_of_game_example_a_7_b_5() -> None:
    """The rulebook's example: A wins green, blue (with 3 additional tokens) and black; B pink and orange."""
    state = turn_position(start=0)
    a, b = 0, 1
    place_set(state, a, "triangle", "green", 4)  # 6
    place_set(state, a, "oval", "green", 2)  # 8
    place_set(state, b, "trapezoid", "green", 3)  # 6
    place_set(state, b, "oval", "green", 1)  # 7
    place_set(state, a, "oval", "red", -1)  # -1: higher, but below 1
    place_set(state, b, "trapezoid", "red", -3)  # -6
    place_set(state, b, "oval", "red", 2)  # -4
    for value in (4, 3, 1):  # blue 8, and each set brought an additional VP token to blue
        place_set(state, a, "mannequin", "blue", value)
    state.additional[colour("blue")] = 3
    state.supply = 3
    place_set(state, a, "oval", "orange", -1)  # less than 1
    place_set(state, b, "oval", "orange", 2)
    place_set(state, a, "oval", "black", 3)
    place_set(state, a, "oval", "black", 2)  # 5
    place_set(state, b, "trapezoid", "pink", 4)  # 8
    _finish(state)
    influence = state.influences()
    assert influence[a] == [8, -1, 8, -1, 5, 0]
    assert influence[b] == [7, -4, 0, 2, 0, 8]
    scores = state.scores()
    assert [s.total for s in scores] == [7, 5]
    assert {k: v for k, v in scores[a].breakdown.items() if " " not in k and v} == {"green": 2, "blue": 4, "black": 1}
    assert {k: v for k, v in scores[b].breakdown.items() if " " not in k and v} == {"orange": 3, "pink": 2}
    assert state.winners() == [a]
    assert "seat 0: 7 trophies" in state.render(None)
    assert "green 8:7, red -1:-4, blue 8:0, orange -1:2, black 5:0, pink 0:8" in state.render(1)


# --- who sees what (R21, section 2) ------------------------------------------------------------


def test_R21_actions_are_public_values_private() -> None:
    state = turn_position()
    give(state, 0, "oval", "green/red")
    t = put_first(state, "green", 3)
    events = state.apply("set oval + green/red, earn green")
    earn_private = [e for e in events if e.kind == "earn" and e.audience == (0,)]
    earn_public = [e for e in events if e.kind == "earn" and e.audience is None]
    assert earn_private[0].data["value"] == 3
    assert "value" not in earn_public[0].data and earn_public[0].data["position"] == 1
    assert all(not e.visible_to(1) for e in earn_private)
    state.apply("peek at green 2")
    # which token was peeked is public; its value is not
    assert state.view(1)["colours"][0]["queue"][0]["known_by"] == [0]
    assert state.view(1)["players"][0]["sets"][0]["token"]["known_by"] == [0] and state.known[t] == 1


def test_R21_a_peeked_token_stays_known_after_the_opponent_takes_it() -> None:
    state = turn_position()
    give(state, 0, "oval", "green/red")
    state.apply("set oval + green/red, earn green")
    state.apply("peek at green 2")
    state.apply("pass")
    state.apply("draw 2 style")
    give(state, 1, "bell", "green/blue")
    state.apply("set bell + green/blue, earn green")
    t = token("green", 2)
    assert state.owner[t] == 1 and state.known[t] == 0b11 and not state.face_up[t]
    assert state.view(0)["players"][1]["sets"][0]["token"]["value"] == state.value[t]
    assert state.view(None)["players"][1]["sets"][0]["token"]["value"] is None


def test_illegal_actions_change_nothing_and_say_why() -> None:
    state = turn_position()
    give(state, 0, "oval", "green/red")
    before = (list(state.tableau_style[0]), list(state.taken), state.phase)
    for label, reason in [
        ("set triangle + green/red, earn green", "no triangle style card"),
        ("discard oval", "set step"),
        ("flip opponent's green 1", "not allowed now"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(label)
    assert (state.tableau_style[0], state.taken, state.phase) == before
    with pytest.raises(IllegalAction, match="no action called"):
        state.apply("set nothing")
