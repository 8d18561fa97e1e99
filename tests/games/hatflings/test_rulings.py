"""One test per ruling R1-R27 of the Hatflings! spec, each on a position built for it."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine import IllegalAction, InvalidOption, Rng
from parlour.games.hatflings.constants import OVER, PIG_MOVE, PIG_SETUP, PUDDLE_CHOICE, SCENE
from parlour.games.hatflings.pieces import ALL_SPECIALS

from .positions import at, kinds, labels, position, specials, square


def test_R1_start_zones_are_the_home_ranks() -> None:
    state = parlour.load_game("hatflings").new_state(seed=1)
    first = {a.param("square") for a in state.legal_actions()}
    assert first == {"a1", "b1", "c1", "d1", "e1", "f1"}
    state.apply("place normal at c1")
    assert {a.param("square") for a in state.legal_actions()} == {"a6", "b6", "c6", "d6", "e6", "f6"}
    moved = parlour.load_game("hatflings", start_zone_0="a1,b1", start_zone_1="e6,f6").new_state()
    assert {a.param("square") for a in moved.legal_actions()} == {"a1", "b1"}


def test_R2_general_pool_size_is_24_and_an_option() -> None:
    assert parlour.load_game("hatflings").new_state().pool == 24
    assert parlour.load_game("hatflings", general_pool_size=5).new_state().pool == 5
    with pytest.raises(InvalidOption, match="general_pool_size must be between 0 and 200"):
        parlour.load_game("hatflings", general_pool_size=-1)
    empty = position({"c3": "Y"}, pool=0)
    assert not any(label.startswith("place normal") for label in labels(empty))


def test_R3_a_special_keeps_its_kind_when_its_hat_changes() -> None:
    state = position({"c3": "Yf", "c4": "P"}, to_move=1)
    state.apply("place normal at d4")
    assert at(state, "c3") == "Pf"
    assert state.view(None)["squares"]["c3"]["halfling"] == {"kind": "firebug", "seat": 1, "colour": "purple"}


def test_R4_interactive_scene_alternates_objects_then_the_pig() -> None:
    state = parlour.load_game("hatflings", scene="interactive", num_objects=3).new_state()
    movers = []
    for label in ("tree at c3", "box at d4", "barrel at b4"):
        assert state.phase == SCENE
        movers.append(state.current_player())
        state.apply(label)
    assert movers == [0, 1, 0]
    assert state.phase == PIG_SETUP and state.current_player() == 1
    with pytest.raises(IllegalAction, match="c3 holds a tree"):
        state.apply("pig at c3")
    state.apply("pig at d4")
    assert state.current_player() == 0 and state.pig == square("d4")


def test_R4_interactive_scene_refuses_start_zones_and_taken_squares() -> None:
    state = parlour.load_game("hatflings", scene="interactive").new_state()
    with pytest.raises(IllegalAction, match="c1 is in a start zone"):
        state.apply("tree at c1")
    state.apply("tree at c3")
    with pytest.raises(IllegalAction, match="c3 already holds a tree"):
        state.apply("box at c3")
    state.apply("tree at c4")
    with pytest.raises(IllegalAction, match="no tree is left in the supply"):
        state.apply("tree at c5")


@pytest.mark.parametrize(
    ("scene", "problem"),
    [
        ("tree:c3,box:d4,barrel:b4,pig:g9", "'g9' is not a square"),
        ("tree:c1,box:d4,barrel:b4,pig:e3", "tree on c1 is inside a start zone"),
        ("tree:c3,box:c3,barrel:b4,pig:e3", "two objects on c3"),
        ("barrel:c3,barrel:d4,barrel:b4,pig:e3", "uses 3 barrels but the game has only 2"),
        ("tree:c3,box:d4,pig:e3", "needs at least 3 objects, got 2"),
        ("tree:c3,box:d4,barrel:b4", "needs exactly one pig"),
        ("tree:c3,box:d4,barrel:b4,pig:c3", "cannot stand on the tree at c3"),
        ("tree:c3,box:d4,lamp:b4,pig:e3", "objects are tree, column, box, barrel"),
        ("tree c3,box:d4,barrel:b4,pig:e3", "is not object:square"),
    ],
)
def test_R4_fixed_scene_is_validated(scene: str, problem: str) -> None:
    with pytest.raises(InvalidOption, match=problem):
        parlour.load_game("hatflings", scene=scene)


def test_R4_num_objects_belongs_to_an_interactive_scene() -> None:
    with pytest.raises(InvalidOption, match="num_objects=5 only applies to scene='interactive'"):
        parlour.load_game("hatflings", num_objects=5)
    with pytest.raises(InvalidOption, match="num_objects=4 only applies to scene='interactive'"):
        parlour.load_game("hatflings", scene="tree:c3,box:d4,barrel:b4,pig:e3", num_objects=4)
    state = parlour.load_game("hatflings", num_objects=3).new_state()  # the default value is no contradiction
    assert parlour.replay(state.record()).view(None) == state.view(None)


def test_R4_num_objects_is_at_least_three() -> None:
    with pytest.raises(InvalidOption, match="num_objects must be between 3 and 8"):
        parlour.load_game("hatflings", scene="interactive", num_objects=2)
    zones = {"start_zone_0": "a1,b1,c1,d1,e1,f1,a2,b2,c2,d2,e2,f2,a3,b3,c3,d3,e3,f3"}
    zones["start_zone_1"] = "a4,b4,c4,d4,e4,f4,a5,b5,c5,d5,e5,f5,a6,b6,c6,d6"
    with pytest.raises(InvalidOption, match="3 scene objects do not fit on the 2 squares outside the start zones"):
        parlour.load_game("hatflings", scene="interactive", **zones)


def test_R5_default_scene_is_tree_box_barrel_and_pig() -> None:
    squares = parlour.load_game("hatflings").new_state().view(None)["squares"]
    expected = {"c3": {"object": "tree"}, "d4": {"object": "box"}, "b4": {"object": "barrel"}, "e3": {"pig": True}}
    assert squares == expected


def test_R6_pig_may_start_in_a_start_zone_and_blocks_that_square() -> None:
    state = parlour.load_game("hatflings", scene="tree:c3,box:d4,barrel:b4,pig:e1").new_state()
    assert {a.param("square") for a in state.legal_actions()} == {"a1", "b1", "c1", "d1", "f1"}
    with pytest.raises(IllegalAction, match="e1 holds the pig; a halfling needs a free square"):
        state.apply("place normal at e1")


def test_R6_pig_may_start_on_a_box_which_it_leaves_behind() -> None:
    state = parlour.load_game("hatflings", scene="tree:c3,box:d4,barrel:b4,pig:d4").new_state()
    assert state.pig == square("d4") and at(state, "d4") == "box"
    state = position({"c4": "Y", "d4": "box"}, pig="d4")
    assert "place normal at d4" not in labels(state)  # a pig square is never free
    state.apply("place normal at d5")
    assert state.phase == PIG_MOVE
    state.apply("pig to e4")
    assert at(state, "d4") == "box" and state.pig == square("e4")


def test_R7_first_turn_is_a_start_placement_with_landing_effects() -> None:
    state = parlour.load_game("hatflings", scene="tree:c3,box:d4,barrel:b4,pig:e2").new_state()
    kinds_offered = {a.param("halfling") for a in state.legal_actions()}
    assert kinds_offered == {"normal", "joker", "cheating", "firebug", "clumsy", "greedy", "stilts"}
    assert not any(a.kind in ("jump", "greedy") for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="first turn you place a halfling in your start zone"):
        state.apply("place normal at c2")
    state.apply("place greedy at e1")  # greedy enters as an ordinary placement; e1 is next to the pig
    assert state.phase == PIG_MOVE and state.current_player() == 0


def test_R8_jump_over_one_adjacent_rival_in_any_direction() -> None:
    state = position({"c3": "Y", "d4": "P", "b3": "P", "c2": "P", "d2": "Y", "e5": "P"})
    jumps = {label for label in labels(state) if label.startswith("jump")}
    assert jumps == {"jump c3 over b3 to a3", "jump c3 over c2 to c1", "jump d2 over c2 to b2"}
    state.apply("jump c3 over b3 to a3")
    assert at(state, "c3") == "" and at(state, "a3") == "Y"
    assert at(state, "b3") == "Y"  # the jumped rival is next to the landing square: its hat changes
    assert state.current_player() == 1  # no chained jump


def test_R9_effects_run_barrel_then_ability_then_hats_then_pig() -> None:
    held = position({"b3": "Y", "c5": "P", "a4": "P", "b4": "barrel"}, pig="b5", barrel_break_percent=0)
    events = held.apply("place firebug at b4")
    assert kinds(events)[:3] == ["place", "barrel hold", "eliminate"]
    assert at(held, "c5") == "" and at(held, "a4") == "" and at(held, "b3") == ""
    assert held.phase == PIG_MOVE  # the pig comes last
    broken = position({"b3": "Y", "c5": "P", "b4": "barrel"}, pig="b5", barrel_break_percent=100)
    events = broken.apply("place firebug at b4")
    assert kinds(events)[:2] == ["place", "barrel break"] and at(broken, "c5") == "P"
    # Hats change before the pig runs: the pig's captain already sees the turned rival.
    plain = position({"c3": "Y", "d4": "P"}, pig="d5")
    events = plain.apply("place normal at c4")
    assert plain.phase == PIG_MOVE and at(plain, "d4") == "Y" and kinds(events) == ["place", "flip"]


def test_R10_greedy_may_enter_normally_and_is_used_up_either_way() -> None:
    state = position({"a3": "Y", "b4": "P", "e6": "P"})
    assert "greedy push at a3 east" in labels(state) and "place greedy at b3" in labels(state)
    state.apply("place greedy at b3")
    state.apply("place normal at e5")
    assert not any(label.startswith(("greedy push", "place greedy")) for label in labels(state))
    pushed = position({"a3": "Y", "b4": "P", "e6": "P"})
    pushed.apply("greedy push at a3 east")
    pushed.apply("place normal at e5")
    assert not any(label.startswith(("greedy push", "place greedy")) for label in labels(pushed))
    assert "greedy" not in pushed.view(None)["special_pools"][0]


def test_R11_push_moves_only_the_contiguous_train() -> None:
    state = position({"a3": "Y", "b3": "P", "c3": "Y", "e3": "P"})
    events = state.apply("greedy push at a3 east")
    assert [at(state, f) for f in ("a3", "b3", "c3", "d3", "e3")] == ["Yg", "Y", "P", "Y", "P"]
    assert "eliminate" not in kinds(events)


def test_R11_front_halfling_falls_off_or_collides() -> None:
    state = position({"a3": "Y", "b3": "P", "c3": "P", "d3": "P", "e3": "Y", "f3": "Pc"}, pool=10)
    events = state.apply("greedy push at a3 east")
    assert "falls off the floor" in " ".join(e.text for e in events)
    assert at(state, "f3") == "Y" and state.pool == 10  # the cheating halfling went to the box
    state = position({"a3": "Y", "b3": "P", "c3": "Y+box"}, pool=10)
    state.apply("greedy push at a3 east")
    assert at(state, "b3") == "Y" and at(state, "c3") == "Y+box" and state.pool == 11


def test_R11_entry_needs_a_floor_standing_friendly_halfling() -> None:
    state = position({"a3": "Y+box", "a4": "P", "f2": "Y"})
    assert "greedy push at a3 east" not in labels(state)
    with pytest.raises(IllegalAction, match="stands on a box; greedy entry needs one on the floor"):
        state.apply("greedy push at a3 east")
    with pytest.raises(IllegalAction, match="greedy entry needs a halfling wearing yellow on a4"):
        state.apply("greedy push at a4 east")


def test_R11_pushed_halflings_change_no_hats_and_do_not_move_the_pig() -> None:
    state = position({"a3": "Y", "b3": "Y", "c4": "P", "c2": "P"}, pig="d4")
    state.apply("greedy push at a3 east")
    assert at(state, "c3") == "Y" and at(state, "c4") == "P" and at(state, "c2") == "P"
    assert state.pig == square("d4") and state.current_player() == 1


def test_R11_pig_and_puddles_count_as_scenery_for_collisions() -> None:
    state = position({"a3": "Y", "b3": "P"}, pig="c3", pool=3)
    state.apply("greedy push at a3 east")
    assert (at(state, "a3"), at(state, "b3"), at(state, "c3"), state.pool) == ("Yg", "Y", "", 4)
    state = position({"a3": "Y", "b3": "P", "c3": "puddle:0"}, pool=3)
    state.apply("greedy push at a3 east")
    assert (at(state, "a3"), at(state, "b3"), at(state, "c3"), state.pool) == ("Yg", "Y", "puddle:0", 4)


def test_R11_an_unoccupied_barrel_or_box_stops_the_train_too() -> None:
    for obstacle in ("barrel", "box"):
        state = position({"a3": "Y", "b3": "P", "c3": obstacle}, pool=3, barrel_break_percent=0)
        events = state.apply("greedy push at a3 east")
        assert (at(state, "b3"), at(state, "c3"), state.pool) == ("Y", obstacle, 4)
        assert "barrel hold" not in kinds(events)  # a pushed halfling never climbs on anything


def test_R11_the_greedy_halfling_itself_is_a_lander_and_moves_the_pig() -> None:
    state = position({"a3": "Y", "a4": "P"}, pig="b2")
    state.apply("greedy push at a3 east")
    assert at(state, "a4") == "Y" and state.phase == PIG_MOVE and state.current_player() == 0


def test_R11_corner_entry_lets_the_captain_choose_the_direction() -> None:
    state = position({"a1": "Y", "b1": "P", "a2": "P"})
    assert {"greedy push at a1 east", "greedy push at a1 north"} <= labels(state)
    state.apply("greedy push at a1 north")
    assert at(state, "a2") == "Y" and at(state, "a3") == "P" and at(state, "b1") == "Y"


def test_R12_barrel_hold_still_flips() -> None:
    state = position({"b3": "Y", "c4": "P", "a5": "P", "b4": "barrel", "e6": "P"}, barrel_break_percent=0)
    events = state.apply("place normal at b4")
    assert kinds(events) == ["place", "barrel hold", "flip"]
    assert at(state, "b4") == "Y+barrel" and at(state, "c4") == "Y" and at(state, "a5") == "Y"


def test_R12_barrel_break_ends_the_turn() -> None:
    state = position({"b3": "Y", "c4": "P", "b4": "barrel"}, pool=10, barrel_break_percent=100)
    events = state.apply("place normal at b4")
    assert kinds(events) == ["place", "barrel break"]
    assert at(state, "b4") == "puddle:0" and at(state, "c4") == "P" and state.pool == 10
    assert state.current_player() == 1


def test_R12_barrel_break_under_a_jump_empties_the_origin_too() -> None:
    state = position({"b2": "Y", "b3": "P", "b4": "barrel", "c5": "P"}, pool=10, barrel_break_percent=100)
    events = state.apply("jump b2 over b3 to b4")
    assert kinds(events) == ["jump", "barrel break"]
    assert (at(state, "b2"), at(state, "b3"), at(state, "b4")) == ("", "P", "puddle:0")
    assert state.pool == 11 and state.current_player() == 1  # the jumper went back to the pool


def test_R12_barrel_test_is_drawn_from_the_state_generator() -> None:
    outcomes = []
    for seed in range(40):
        state = position({"b3": "Y", "b4": "barrel"}, seed=seed)
        outcome = kinds(state.apply("place normal at b4"))[1]
        twin = position({"b3": "Y", "b4": "barrel"}, seed=seed)
        assert kinds(twin.apply("place normal at b4"))[1] == outcome  # same seed, same toss
        outcomes.append(outcome)
    assert 10 < outcomes.count("barrel break") < 30 and set(outcomes) == {"barrel hold", "barrel break"}


def test_R13_every_boarding_of_a_held_barrel_is_tested_again() -> None:
    state = position({"b4": "Y+barrel", "a4": "P", "b3": "P", "f1": "P"}, barrel_break_percent=0)
    draws = state.rng.state
    state.apply("jump b4 over b3 to b2")
    assert at(state, "b4") == "barrel" and state.rng.state == draws  # leaving a barrel draws nothing
    events = state.apply("place normal at b4")  # purple climbs the barrel that held before
    assert kinds(events)[:2] == ["place", "barrel hold"] and state.rng.state != draws


def test_R14_firebug_blast_spares_nobody_and_only_on_introduction() -> None:
    state = position({"c3": "Y", "d4": "P+box", "b4": "Pc", "c5": "Y", "d5": "Pf"}, pool=10)
    events = state.apply("place firebug at c4")
    assert [at(state, s) for s in ("c3", "d4", "b4", "c5", "d5")] == ["", "box", "", "", ""]
    assert state.pool == 13 and kinds(events).count("eliminate") == 5
    state = position({"c3": "Yf", "d4": "P", "e6": "P", "f5": "P"})
    state.apply("jump c3 over d4 to e5")
    assert at(state, "e6") == "Y" and at(state, "f5") == "Y"  # a jumping firebug just changes hats


def test_R15_hat_changes_do_not_cascade_or_reach_beyond_neighbours() -> None:
    state = position({"b2": "Y", "c3": "P", "d4": "P", "e5": "P", "c5": "P"})
    state.apply("place normal at b3")
    assert at(state, "c3") == "Y" and at(state, "d4") == "P" and at(state, "e5") == "P" and at(state, "c5") == "P"


def test_R16_stilts_reach_halflings_on_boxes_for_whoever_controls_them() -> None:
    state = position({"c3": "Y", "d4": "P+box", "b4": "P+barrel"})
    state.apply("place stilts at c4")
    assert at(state, "d4") == "Y+box" and at(state, "b4") == "Y+barrel"
    # Yellow's stilts, turned purple, jump for purple and turn a yellow halfling on a box.
    state = position({"c2": "Ps", "c3": "Y", "d5": "Y+box", "f1": "Y"}, to_move=1)
    state.apply("jump c2 over c3 to c4")
    assert at(state, "d5") == "P+box" and at(state, "c3") == "P"


def test_R16_stilts_cannot_jump_a_halfling_on_a_box_nor_turn_cheats() -> None:
    state = position({"c3": "Ys", "d4": "P+box", "b3": "Pc"})
    assert not any(label.startswith("jump c3 over d4") for label in labels(state))
    state.apply("jump c3 over b3 to a3")
    assert at(state, "b3") == "Pc"


def test_R17_joker_first_change_spends_it_and_second_replaces_it() -> None:
    state = position({"c3": "Y", "d4": "Pj"}, pool=5)
    events = state.apply("place normal at c4")
    assert at(state, "d4") == "Yx" and "joker" in kinds(events)
    state = position({"c3": "Y", "d4": "Px"}, pool=5)
    events = state.apply("place normal at c4")
    assert at(state, "d4") == "Y" and state.pool == 3 and "eliminate" in kinds(events)
    state = position({"c3": "Y", "d4": "Px"}, pool=1)
    state.apply("place normal at c4")
    assert at(state, "d4") == "" and state.pool == 0


def test_R17_joker_on_a_box_is_as_safe_as_anyone() -> None:
    state = position({"c3": "Y", "d4": "Pj+box", "b4": "Px+barrel"})
    state.apply("place normal at c4")
    assert at(state, "d4") == "Pj+box" and at(state, "b4") == "Px+barrel"
    stilts = position({"c3": "Y", "d4": "Pj+box", "b4": "Px+barrel"}, pool=5)
    stilts.apply("place stilts at c4")
    assert at(stilts, "d4") == "Yx+box" and at(stilts, "b4") == "Y+barrel" and stilts.pool == 4


def test_R17_spent_joker_moves_and_counts_like_a_normal_halfling() -> None:
    state = position({"c3": "Yx", "d4": "P"})
    assert "jump c3 over d4 to e5" in labels(state)
    assert state.hat_counts() == [1, 1]


def test_R18_pig_must_move_to_an_empty_square_around_it() -> None:
    state = position({"c3": "Y", "e5": "tree", "e4": "P", "c6": "box"}, pig="d5")
    state.apply("place normal at c4")
    assert state.phase == PIG_MOVE and state.current_player() == 0
    # Free is not enough: the unoccupied box at c6 is free but not empty.
    assert labels(state) == {"pig to c5", "pig to d6", "pig to e6", "pig to d4"}
    state.apply("pig to d6")
    assert state.pig == square("d6") and state.current_player() == 1


def test_R18_boxed_in_pig_stays() -> None:
    layout = {"c3": "Y", "a5": "P", "a6": "P", "b6": "P", "c5": "tree", "c6": "column", "a4": "P", "c4": "box"}
    state = position(layout, pig="b5")
    state.apply("place normal at b4")
    assert state.pig == square("b5") and state.current_player() == 1


def test_R19_eliminated_normals_return_to_the_pool_specials_to_the_box() -> None:
    state = position({"c3": "Y", "d4": "P", "b4": "Pk"}, pool=7, special_pools=(ALL_SPECIALS, specials("joker")))
    state.apply("place firebug at c4")
    assert state.pool == 7 + 1 + 1  # d4 and c3 went back; the clumsy went to the box
    assert state.specials[1] == specials("joker")
    spent = position({"c3": "Y", "d4": "Px"}, pool=7)
    spent.apply("place firebug at c4")
    assert at(spent, "d4") == "" and spent.pool == 8  # c3 went back; the spent joker is still a special


def test_R20_puddles_dry_at_their_owner_next_turn() -> None:
    state = position({"c3": "Y", "e5": "P"})
    state.apply("place clumsy at c4")
    assert state.phase == PUDDLE_CHOICE
    state.apply("puddle at d5")
    assert at(state, "d5") == "puddle:0" and state.current_player() == 1 and state.puddle_supply == 3
    with pytest.raises(IllegalAction, match="d5 holds a puddle; a halfling needs a free square"):
        state.apply("place normal at d5")
    events = state.apply("place normal at f4")  # purple's turn ends, yellow's starts: its puddle dries
    assert "puddle dries" in kinds(events) and at(state, "d5") == "" and state.puddle_supply == 4


def test_R20_puddle_dries_before_the_end_of_the_dance_is_checked() -> None:
    # Yellow's only way to act is the square its own puddle blocks: a2 (b1 holds a cheating rival with a
    # tree behind it, b2 a rival on a box). The puddle dries as yellow's turn starts, so the dance goes on.
    layout = {"a1": "Y", "a2": "puddle:0", "b1": "Pc", "c1": "tree", "b2": "P+box", "f6": "P"}
    state = position(layout, to_move=1, pig="d4", pool=1, special_pools=(0, specials("stilts")))
    state.apply("place stilts at f5")
    assert not state.is_terminal() and at(state, "a2") == ""
    assert labels(state) == {"place normal at a2"}


def test_R21_a_turned_special_serves_its_new_captain() -> None:
    state = position({"c3": "Pg", "d3": "Y", "b3": "Y"}, to_move=0)
    state.apply("place normal at c4")
    assert at(state, "c3") == "Yg" and state.hat_counts()[0] == 4
    state = position({"c3": "Yk", "c4": "P"})
    state.apply("jump c3 over c4 to c5")
    assert state.phase != PUDDLE_CHOICE  # abilities fire only on introduction
    state = position({"c3": "Pc", "d4": "Y"}, to_move=1)
    assert not any(label.startswith("jump c3") for label in labels(state))


def test_R22_game_ends_when_the_captain_to_move_cannot_act() -> None:
    state = position({"a1": "Y", "f6": "P"}, pig="d4", pool=0, special_pools=(ALL_SPECIALS, 0), to_move=0)
    state.apply("place joker at b2")
    assert state.is_terminal() and "purple cannot introduce or move" in state.end_reason
    assert state.winners() == [0]


def test_R23_tie_break_by_halflings_in_the_rival_start_zone() -> None:
    state = position({"b6": "Y", "c3": "P"})
    assert state.winners() == [0]
    assert state.scores()[0].tiebreak == (1.0,)
    level = position({"b6": "Y", "c1": "P"})
    assert level.winners() == [0, 1]


def test_R24_there_is_no_pass_and_overridden_zones_keep_two_squares() -> None:
    game = parlour.load_game("hatflings")
    assert not any("pass" in action.label for action in game.actions)
    with pytest.raises(InvalidOption, match="start_zone_0 needs at least 2 squares"):
        parlour.load_game("hatflings", start_zone_0="a1")
    with pytest.raises(InvalidOption, match="start zones overlap on a1"):
        parlour.load_game("hatflings", start_zone_0="a1,b1", start_zone_1="a1,f6")


def test_R25_repetition_ends_the_game() -> None:
    state = position({"a3": "Y", "a4": "Pc", "f3": "P", "f4": "Yc"}, pig="c1")
    moves = ["jump a3 over a4 to a5", "jump f3 over f4 to f5", "jump a5 over a4 to a3", "jump f5 over f4 to f3"]
    for label in moves * 2:
        assert not state.is_terminal()
        state.apply(label)
    assert state.is_terminal() and "occurred 3 times" in state.end_reason


def test_R25_a_position_is_everything_that_matters_for_future_play() -> None:
    layout = {"a3": "Y", "a4": "Pc", "c3": "puddle:0"}
    base = position(layout)._position_key()
    assert position(layout)._position_key() == base
    differing = [
        position({**layout, "c3": "puddle:1"}),
        position({**layout, "a4": "P"}),
        position({**layout, "a3": "Y+box"}),
        position(layout, pig="e6"),
        position(layout, pool=23),
        position(layout, special_pools=(ALL_SPECIALS, specials("joker"))),
        position(layout, started=1),
        position(layout, to_move=1),
    ]
    keys = [state._position_key() for state in differing]
    assert base not in keys and len(set(keys)) == len(keys)


def test_R25_turn_cap_ends_the_game() -> None:
    state = parlour.load_game("hatflings", max_turns=3).new_state(seed=2)
    rng = Rng(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.turns == 3 and "3 turns have been played" in state.end_reason
    with pytest.raises(InvalidOption, match="repetition_limit must be 0 \\(off\\) or at least 2"):
        parlour.load_game("hatflings", repetition_limit=1)


def test_R26_stacked_decisions_come_in_order_from_the_same_captain() -> None:
    state = position({"c3": "Y", "e5": "P", "b5": "P"}, pig="d5")
    state.apply("place clumsy at c4")
    assert state.phase == PUDDLE_CHOICE and state.current_player() == 0
    assert at(state, "b5") == "P"  # the puddle (L3) comes before the hat changes (L4)
    events = state.apply("puddle at d4")
    assert kinds(events) == ["puddle", "flip"] and at(state, "b5") == "Y"
    assert state.phase == PIG_MOVE and state.current_player() == 0
    assert "pig to d4" not in labels(state)  # the puddle placed just before is not empty
    state.apply("pig to e6")
    assert state.current_player() == 1 and state.phase not in (OVER,)


def test_R27_setup_and_in_turn_decisions_belong_to_the_right_captain() -> None:
    state = parlour.load_game("hatflings", scene="interactive", starting_captain=1).new_state()
    assert state.current_player() == 1
    state.apply("tree at c3")
    assert state.current_player() == 0
    state.apply("box at d4")
    state.apply("barrel at b4")
    assert state.phase == PIG_SETUP and state.current_player() == 0  # the other captain places the pig
    state.apply("pig at e3")
    assert state.current_player() == 1
