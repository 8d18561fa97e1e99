"""One test per paragraph of the Hatflings! rulebook, in the rulebook's order."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine import IllegalAction
from parlour.games.hatflings.constants import DANCE, PIG_MOVE, PIG_SETUP, PUDDLE_CHOICE, SCENE

from .positions import at, kinds, labels, position, specials, square

SIX = ["joker", "cheating", "firebug", "clumsy", "greedy", "stilts"]


# --- About the game -------------------------------------------------------------------------


def test_rulebook_about_the_game_most_hats_on_the_floor_wins() -> None:
    state = position({"a1": "Y", "b2": "Y", "c3": "Y", "f6": "P"}, pig="d6", pool=0, special_pools=(0, 0), to_move=1)
    assert state.is_terminal()
    assert state.winners() == [0] and state.returns() == [1.0, -1.0]
    assert [score.total for score in state.scores()] == [3.0, 1.0]


# --- Preparing for the dance ------------------------------------------------------------------


def test_rulebook_preparing_colours_and_special_halflings() -> None:
    view = parlour.load_game("hatflings").new_state().view(0)
    assert view["colours"] == ["yellow", "purple"]
    assert view["special_pools"] == [SIX, SIX]


def test_rulebook_preparing_the_general_pool_is_shared() -> None:
    state = parlour.load_game("hatflings").new_state()
    state.apply("place normal at a1")
    state.apply("place normal at f6")
    assert state.pool == 22 and state.view(None)["general_pool"] == 22


def test_rulebook_preparing_the_starting_captain() -> None:
    state = parlour.load_game("hatflings", starting_captain=1).new_state()
    assert state.current_player() == 1
    assert {a.param("square") for a in state.legal_actions()} == {"a6", "b6", "c6", "d6", "e6", "f6"}


def test_rulebook_preparing_the_scene_objects_outside_the_start_zones() -> None:
    state = parlour.load_game("hatflings", scene="interactive").new_state()
    assert state.phase == SCENE and state.current_player() == 0
    squares = {a.param("square") for a in state.legal_actions()}
    assert len(squares) == 24 and not any(name.endswith(("1", "6")) for name in squares)
    assert {a.param("object") for a in state.legal_actions()} == {"tree", "column", "box", "barrel"}


def test_rulebook_preparing_the_pig_on_a_free_square_by_the_other_captain() -> None:
    state = parlour.load_game("hatflings", scene="interactive").new_state()
    for label in ("tree at c3", "box at d4", "barrel at b4"):
        state.apply(label)
    assert state.phase == PIG_SETUP and state.current_player() == 1
    squares = {a.param("square") for a in state.legal_actions()}
    assert "c3" not in squares and {"d4", "b4", "a1", "f6"} <= squares and len(squares) == 35


def test_rulebook_first_game_recommendation() -> None:
    view = parlour.load_game("hatflings").new_state().view(None)
    objects = sorted(entry["object"] for entry in view["squares"].values() if "object" in entry)
    assert objects == ["barrel", "box", "tree"] and view["pig"] == "e3"


# --- Rules ------------------------------------------------------------------------------------


def test_rulebook_turns_alternate_starting_with_the_starting_captain() -> None:
    state = parlour.load_game("hatflings").new_state()
    players = []
    for label in ("place normal at a1", "place normal at f6", "place normal at b2", "place normal at e5"):
        players.append(state.current_player())
        state.apply(label)
    assert players == [0, 1, 0, 1]


def test_rulebook_new_halflings_wear_their_team_colour() -> None:
    state = parlour.load_game("hatflings").new_state()
    state.apply("place normal at a1")
    state.apply("place joker at f6")
    assert at(state, "a1") == "Y" and at(state, "f6") == "Pj"


def test_rulebook_first_turn_in_the_start_zone() -> None:
    state = parlour.load_game("hatflings").new_state()
    assert {a.kind for a in state.legal_actions()} == {"place"}
    assert {a.param("square")[1] for a in state.legal_actions()} == {"1"}


def test_rulebook_later_turns_introduce_or_move() -> None:
    state = position({"c3": "Y", "d4": "P"}, special_pools=(0, 0))
    assert {a.kind for a in state.legal_actions()} == {"place", "jump"}


def test_rulebook_empty_free_and_surrounding_squares() -> None:
    layout = {"c3": "Y", "b4": "box", "c4": "barrel", "d4": "puddle:1", "b2": "tree", "d3": "P"}
    state = position(layout, pig="d2", special_pools=(0, 0))
    places = {a.param("square") for a in state.legal_actions() if a.kind == "place"}
    assert places == {"b3", "c2", "b4", "c4"}  # box and barrel are free; puddle, tree, pig and halflings are not


def test_rulebook_introducing_next_to_a_halfling_of_ones_team() -> None:
    state = position({"a1": "Y", "f6": "P"}, pig="c4", special_pools=(0, 0))
    assert {a.param("square") for a in state.legal_actions()} == {"a2", "b1", "b2"}
    with pytest.raises(IllegalAction, match="e5 does not surround any halfling wearing yellow"):
        state.apply("place normal at e5")


def test_rulebook_moving_jumps_in_a_straight_line_onto_a_free_square() -> None:
    state = position({"c3": "Y", "d4": "P", "e5": "box", "c4": "P", "c5": "tree", "b2": "P"})
    jumps = {a.label for a in state.legal_actions() if a.kind == "jump"}
    assert jumps == {"jump c3 over d4 to e5", "jump c3 over b2 to a1"}
    with pytest.raises(IllegalAction, match="c5 holds a tree; a jump must land on a free square"):
        state.apply("jump c3 over c4 to c5")


def test_rulebook_no_jump_over_a_halfling_on_a_box_or_barrel() -> None:
    state = position({"c3": "Y", "d4": "P+box", "c4": "P+barrel"})
    assert not any(a.kind == "jump" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="sits on a barrel and cannot be jumped over"):
        state.apply("jump c3 over c4 to c5")


def test_rulebook_landing_changes_the_hats_of_all_surrounding_rivals() -> None:
    ring = {name: "P" for name in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")}
    state = position({**ring, "a1": "Y"}, pig="f6")
    state.apply("jump a1 over b2 to c3")
    assert all(at(state, name) == "Y" for name in ring)
    assert state.hat_counts() == [9, 0]


# --- End of the dance -------------------------------------------------------------------------


def test_rulebook_end_of_the_dance_when_a_captain_cannot_introduce_or_move() -> None:
    state = position({"a1": "Y", "c3": "P", "f6": "Y"}, pig="d6", pool=1, special_pools=(0, 0), to_move=1)
    assert not state.is_terminal()
    state.apply("place normal at d3")  # the last pool halfling; yellow now has nothing to do
    assert state.is_terminal() and "yellow cannot introduce or move" in state.end_reason


def test_rulebook_draw_broken_by_halflings_in_the_rival_start_zone() -> None:
    state = position({"a6": "Y", "b6": "Y", "c1": "P", "c3": "P"}, pig="d3", pool=0, special_pools=(0, 0))
    assert state.is_terminal() and state.hat_counts() == [2, 2]
    assert state.winners() == [0]


# --- The scene ----------------------------------------------------------------------------------


def test_rulebook_trees_and_columns_block_squares_and_jumps() -> None:
    state = position({"c3": "Y", "c4": "tree", "d3": "column", "d4": "P"})
    assert not {"place normal at c4", "place normal at d3"} & labels(state)
    assert "jump c3 over c4 to c5" not in labels(state)
    with pytest.raises(IllegalAction, match="c4 holds no rival halfling to jump over"):
        state.apply("jump c3 over c4 to c5")


def test_rulebook_puddles_block_until_their_placer_next_turn() -> None:
    state = position({"c3": "Y", "c4": "puddle:1", "e6": "P"})
    assert "place normal at c4" not in labels(state)
    state.apply("place normal at b3")
    assert at(state, "c4") == ""  # purple placed it, purple's turn starts: it goes away
    assert state.puddle_supply == 4


def test_rulebook_boxes_protect_their_halfling_except_from_stilts() -> None:
    state = position({"c3": "Y", "d4": "P+box", "e5": "P+box", "f4": "Y"})
    state.apply("place normal at c4")
    assert at(state, "d4") == "P+box"
    state = position({"c3": "Y", "d4": "P+box"})
    state.apply("place stilts at c4")
    assert at(state, "d4") == "Y+box"
    state = position({"d4": "Y+box", "d5": "P"})
    state.apply("jump d4 over d5 to d6")  # a halfling on a box moves as usual
    assert at(state, "d4") == "box" and at(state, "d6") == "Y"


def test_rulebook_the_little_pig_runs_when_a_halfling_lands_next_to_it() -> None:
    state = position({"c3": "Y", "d4": "P"}, pig="f5")
    state.apply("jump c3 over d4 to e5")
    assert state.phase == PIG_MOVE and state.current_player() == 0
    assert labels(state) == {"pig to e4", "pig to e6", "pig to f4", "pig to f6"}
    assert "place normal at f5" not in labels(position({"e5": "Y"}, pig="f5"))


def test_rulebook_barrels_break_into_a_puddle_or_hold_like_a_box() -> None:
    broken = position({"c3": "Y", "c4": "barrel", "d5": "P"}, barrel_break_percent=100)
    events = broken.apply("place normal at c4")
    assert "barrel break" in kinds(events) and at(broken, "c4") == "puddle:0" and at(broken, "d5") == "P"
    held = position({"c3": "Y", "c4": "barrel", "d5": "P", "f1": "P"}, barrel_break_percent=0)
    held.apply("place normal at c4")
    assert at(held, "c4") == "Y+barrel" and at(held, "d5") == "Y"
    held.apply("place normal at f2")
    assert at(held, "c4") == "Y+barrel"  # protected like a box


def test_rulebook_eliminated_specials_go_back_to_the_box() -> None:
    state = position({"c3": "Y", "d4": "Ps", "e6": "P"}, special_pools=(specials("firebug"), specials("joker")))
    state.apply("place firebug at c4")
    assert at(state, "d4") == "" and state.specials[1] == specials("joker")
    assert "stilts" not in state.view(None)["special_pools"][1]


def test_rulebook_eliminated_normals_return_to_the_general_pool() -> None:
    state = position({"c3": "Y", "d4": "P", "b4": "Y", "e6": "P"}, pool=3)
    state.apply("place firebug at c4")
    assert state.pool == 6


def test_rulebook_eliminations_come_from_barrels_firebugs_and_greedy_pushes() -> None:
    greedy = position({"a3": "Y", "b3": "P", "c3": "P", "d3": "P", "e3": "P", "f3": "P"}, pool=0)
    events = greedy.apply("greedy push at a3 east")
    assert kinds(events).count("eliminate") == 1 and greedy.pool == 1


# --- The teams ---------------------------------------------------------------------------------


def test_rulebook_teams_have_one_special_of_each_type() -> None:
    state = parlour.load_game("hatflings").new_state()
    offered = sorted(a.param("halfling") for a in state.legal_actions() if a.param("square") == "a1")
    assert offered == sorted(["normal", *SIX])


def test_rulebook_specials_follow_the_common_rules_for_entering_moving_and_hats() -> None:
    state = position({"c3": "Y", "d4": "P"}, special_pools=(specials("stilts", "firebug"), 0))
    with pytest.raises(IllegalAction, match="e6 does not surround any halfling wearing yellow"):
        state.apply("place stilts at e6")
    state = position({"c3": "Yk", "d4": "P", "f1": "P"})
    assert "jump c3 over d4 to e5" in labels(state)  # a special jumps like anyone
    state = position({"c3": "Y", "d4": "Ps"})
    state.apply("place normal at c4")
    assert at(state, "d4") == "Ys"  # and its hat changes like anyone's


def test_rulebook_joker_wears_two_hats() -> None:
    state = position({"c3": "Y", "d4": "Pj", "f1": "P"}, pool=5)
    state.apply("place normal at c4")
    assert at(state, "d4") == "Yx"  # first change: it now wears yellow, as a normal halfling
    state = position({"c3": "P", "d4": "Yx", "f6": "Y"}, pool=5, to_move=1)
    state.apply("place normal at c4")
    assert at(state, "d4") == "P" and state.pool == 3


def test_rulebook_cheating_halflings_never_change_and_never_move() -> None:
    state = position({"c3": "Yc", "d4": "P", "b3": "P"})
    assert not any(label.startswith("jump c3") for label in labels(state))
    with pytest.raises(IllegalAction, match="cheating halfling can never be moved"):
        state.apply("jump c3 over d4 to e5")
    state = position({"c3": "Pc", "c4": "Y"})
    state.apply("place normal at d3")
    assert at(state, "c3") == "Pc"


def test_rulebook_firebug_eliminates_every_surrounding_halfling() -> None:
    state = position({"b3": "Y", "c2": "P", "d3": "Pk", "f6": "P"}, pig="a6")
    events = state.apply("place firebug at c3")
    assert kinds(events).count("eliminate") == 3 and state.hat_counts() == [1, 1]


def test_rulebook_clumsy_spills_a_puddle_around_it() -> None:
    state = position({"a1": "Y", "f6": "P", "b3": "barrel"}, pig="b1")
    state.apply("place clumsy at a2")
    # An empty square is needed: the unoccupied barrel at b3 is free but not empty.
    assert state.phase == PUDDLE_CHOICE and labels(state) == {"puddle at a3", "puddle at b2"}
    state.apply("puddle at b2")
    assert at(state, "b2") == "puddle:0" and state.phase == PIG_MOVE


def test_rulebook_clumsy_spills_only_while_a_puddle_token_is_left() -> None:
    last = {"a1": "Y", "f6": "P", "f1": "puddle:1", "f2": "puddle:1", "f3": "puddle:1"}
    state = position(last)
    state.apply("place clumsy at a2")
    assert state.phase == PUDDLE_CHOICE and state.puddle_supply == 1
    state = position({**last, "f4": "puddle:1"})
    events = state.apply("place clumsy at a2")
    assert "puddle" not in kinds(events) and state.current_player() == 1


def test_rulebook_greedy_pushes_in_from_the_edge() -> None:
    state = position({"c6": "Y", "c5": "P", "c4": "P", "d4": "Y"}, pig="a1")
    state.apply("greedy push at c6 south")
    assert [at(state, name) for name in ("c6", "c5", "c4", "c3")] == ["Yg", "Y", "P", "P"]
    assert at(state, "d5") == "" and state.phase == DANCE and state.current_player() == 1
    assert square("c6") in state.game.zones[1]
