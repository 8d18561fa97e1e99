"""One test per ruling of the spec (R1-R47), each on a position built for it."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalAction
from parlour.games.yamatai import board as geo
from parlour.games.yamatai import constants as r
from parlour.games.yamatai.state import YamataiState

from .positions import (
    bare,
    colour,
    fresh,
    island,
    labels,
    play,
    put_boats,
    put_tokens,
    seat_first,
    spot,
    tile,
    turn,
)


def build_ready(state: YamataiState, code: str = "B02") -> YamataiState:
    """Seat 0 can build `code` (bamboo + wood) on I01 by placing a bamboo boat at S007."""
    put_boats(state, S022="wood")
    state.row[0] = tile(code)
    return turn(state, hand={"bamboo": 1})


def test_R1_fleet_power_is_used_once_and_lost_at_the_end_of_the_turn() -> None:
    state = turn(bare(), fleet=1, hand={"bamboo": 1}, phase=r.TRADE)
    play(state, "use the fleet power")
    assert state.coins[0] == 12 and "use the fleet power" not in labels(state)
    state = turn(bare(), fleet=1, hand={}, phase=r.RECRUIT)
    assert labels(state) == ["end the turn", "use the fleet power"]
    play(state, "end the turn")
    assert state.coins[0] == 10 and state.to_move != 0 and state.phase == r.FLEET and not state.power_ready


def test_R2_money_and_prestige_tokens_are_unlimited() -> None:
    state = turn(bare(), fleet=10, hand={}, phase=r.RECRUIT)
    state.pp_tokens[0] = 30  # more than the 24 printed tokens
    state.coins[0] = 500
    play(state, "use the fleet power")
    assert state.pp_tokens[0] == 31 and state.scores()[0].breakdown["coins"] == 100


def test_R3_an_exhausted_colour_gives_nothing() -> None:
    state = fresh(4, seed=0)
    number = next(n for n in state.fleet_track[:5] if state.game.components.fleet[n - 1].boats[colour("bamboo")])
    state.reserve[colour("bamboo")] = 0
    state._legal = None
    play(state, f"take fleet tile {number}")
    assert state.hand[colour("bamboo")] == 0 and state.coins[state.to_move] == 10


def test_R4_any_boat_held_this_turn_may_be_sold() -> None:
    state = bare()
    state.harbour[colour("clay")] = 1
    state.fleet_track[0] = 4  # wood + clay
    seat_first(state, 0)
    state._start_turn(0)
    state._advance()
    play(state, "take fleet tile 4")
    assert state.hand == [0, 1, 0, 2, 0]
    assert {"sell a wood boat", "sell a clay boat"} <= set(labels(state))


def test_R5_the_harbour_boat_is_one_of_this_turns_boats() -> None:
    state = bare()
    state.harbour[colour("gold")] = 1
    state.fleet_track[0] = 1
    seat_first(state, 0)
    state._start_turn(0)
    state._advance()
    play(state, "take fleet tile 1", "end trading")
    assert "place gold boat at S007" in labels(state)
    play(state, "stop placing boats", "keep a gold boat in the harbour")
    assert state.harbour[:5] == [0, 0, 0, 0, 1] and state.discarded[0] == 1


def test_R6_the_chain_never_branches() -> None:
    state = turn(bare(), hand={"bamboo": 3})
    play(state, "place bamboo boat at S007", "place bamboo boat at S014")
    with pytest.raises(IllegalAction, match="next to the boat placed just before it"):
        state.apply("place bamboo boat at S001")  # next to S007, not to S014


def test_R7_adjacency_comes_from_the_board_graph() -> None:
    state = bare()
    put_tokens(state, I01="orange", I07="green", I08="blue")
    turn(state, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "place bamboo boat at S014")
    collect = {a.label for a in state.legal_actions() if a.kind == "collect"}
    assert collect == {"collect the token on I01", "collect the token on I07"}  # S014 touches I01 and I07 only


def test_R8_collect_one_token_per_boat_and_fewer_is_allowed() -> None:
    state = bare()
    put_tokens(state, I01="orange", I02="green")
    turn(state, hand={"bamboo": 1, "wood": 1})
    play(state, "place bamboo boat at S007")  # touches I01 only
    play(state, "place wood boat at S001", "collect the token on I01")  # S001 touches I01 only as well
    assert state.culture[:6] == [1, 0, 0, 0, 0, 0] and state.phase not in (r.CHOOSE, r.COLLECT)
    state = bare()
    put_tokens(state, I01="orange", I02="green", I07="blue")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    play(state, "collect the token on I01")
    assert state.phase != r.COLLECT  # one boat, one token
    state = bare()
    put_tokens(state, I01="orange", I07="blue")
    turn(state, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "place bamboo boat at S014", "collect the token on I07")
    assert labels(state) == ["collect the token on I01", "stop collecting"]
    play(state, "stop collecting")
    assert state.island_token[island("I01")] >= 0


def test_R9_collect_or_build_is_compulsory_when_possible() -> None:
    state = bare()
    put_tokens(state, I01="orange")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert "neither collect nor build" not in labels(state)
    with pytest.raises(IllegalAction, match="compulsory"):
        state.apply("neither collect nor build")
    state = turn(bare(), hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert state.phase in (r.RECRUIT, r.END, r.FLEET)  # nothing possible: the step is skipped


def test_R10_building_conditions() -> None:
    state = bare()
    put_tokens(state, I01="orange")
    build_ready(state)
    play(state, "place bamboo boat at S007")
    assert "build B02 on I01" not in labels(state)  # a token still lies there
    state = bare()
    put_boats(state, S022="stone")
    state.row[0] = tile("B02")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert not any(a.kind == "build" for a in state.legal_actions())  # stone is not wood
    state = build_ready(bare())
    put_boats(state, S001="gold", S008="clay")  # extra boats around are fine
    state._legal = None
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.spot_boat[spot("S001")] == colour("gold") and state.reserve[colour("wood")] == 18


def test_R10_a_boat_placed_this_turn_must_touch_the_island() -> None:
    state = bare()
    put_boats(state, S001="bamboo", S022="wood")
    state.row[0] = tile("B02")
    turn(state, hand={"stone": 1})
    play(state, "place stone boat at S021")  # touches I07 only
    assert not any(a.kind == "build" for a in state.legal_actions())


def test_R11_without_standard_buildings_only_prestige_tiles() -> None:
    state = bare()
    put_boats(state, S001="wood", S008="stone", S015="gold", S022="wood")
    state.row[0], state.row[1] = tile("P01"), tile("B02")  # torii: bamboo wood stone gold
    state.pieces[0] = 0
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    builds = [a.label for a in state.legal_actions() if a.kind == "build"]
    assert builds == ["build P01 on I01"]
    play(state, "build P01 on I01")
    assert state.island_building[island("I01")] == geo.TORII


def test_R12_the_row_is_refilled_only_at_the_end_of_the_round() -> None:
    state = build_ready(bare())
    deck_before = len(state.deck)
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.row[0] == -1 and len(state.deck) == deck_before
    state.turn_fleets = [1, 2, 3, 4]
    state._end_round()
    assert state.row[0] >= 0 and len(state.deck) == deck_before - 1


def test_R13_group_coins_count_connected_own_buildings() -> None:
    state = build_ready(bare())
    state.island_building[island("I02")] = 0
    state.island_building[island("I09")] = 0  # chained through I02
    state.island_building[island("I07")] = 1  # another player's building does not join
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.coins[0] == 10 + 3
    state = build_ready(bare())
    state.island_building[island("I07")] = geo.TORII  # prestige buildings do not join groups
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.coins[0] == 10  # a lone building is no group


def test_R14_prestige_neighbours_give_a_token_each_when_built() -> None:
    state = build_ready(bare())
    state.island_building[island("I02")] = geo.TORII
    state.island_building[island("I08")] = geo.PALACE
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.pp_tokens[0] == 2
    # a Torii built later next to a standing building gives nobody anything
    state = bare()
    state.island_building[island("I02")] = 1
    put_boats(state, S001="wood", S008="stone", S015="gold", S022="wood")
    state.row[0] = tile("P01")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007", "build P01 on I01")
    assert state.pp_tokens == [0, 0, 0, 0]


def test_R15_mountain_bonus_only_for_standard_buildings() -> None:
    state = build_ready(bare())
    state.mountain = tuple(i == island("I01") for i in range(34))
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.pp_tokens[0] == 1
    state = bare()
    state.mountain = tuple(i == island("I01") for i in range(34))
    put_boats(state, S001="wood", S008="stone", S015="gold", S022="wood")
    state.row[0] = tile("P01")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007", "build P01 on I01")
    assert state.pp_tokens[0] == 0


def test_R16_reserved_tiles_are_built_by_their_owner_or_cost_a_point() -> None:
    state = bare()
    put_boats(state, S022="wood")
    state.reserved[0] = 1 << tile("B02")
    state.reserved[1] = 1 << tile("B03")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert [a.label for a in state.legal_actions() if a.kind == "build"] == ["build B02 on I01"]
    assert state.scores()[0].breakdown["reserved tiles unbuilt"] == -1
    play(state, "build B02 on I01")
    assert state.reserved[0] == 0 and state.scores()[0].breakdown["reserved tiles unbuilt"] == 0
    assert state.scores()[1].breakdown["reserved tiles unbuilt"] == -1


def test_R17_discarded_boats_never_return_to_the_reserve() -> None:
    state = turn(bare(), hand={"clay": 3})
    play(state, "stop placing boats")
    assert state.discarded[0] == 2 and state.reserve[colour("clay")] == 13


def test_R18_recruit_payment_and_spent_tokens_leave_the_game() -> None:
    state = bare()
    state.culture[0:6] = [1, 1, 0, 0, 0, 0]
    turn(state, phase=r.RECRUIT)
    assert not any(a.kind == "recruit" for a in state.legal_actions())  # two different need the Envoy
    state = bare()
    state.culture[0:6] = [0, 0, 0, 0, 2, 0]
    turn(state, phase=r.RECRUIT)
    name = state.game.components.specialists[state.spec_track[0]].name
    play(state, f"recruit the {name}", "pay two beige tokens")
    assert sum(state.culture) == 0 and all(k == -1 for k in state.island_token)


def test_R19_specialists_gather_two_coins_a_round_new_ones_start_empty() -> None:
    state = bare()
    state.spec_coins = [0, 2, 0, 0, 0]
    state.spec_track[3] = -1
    state.turn_fleets = [1, 2, 3, 4]
    state._end_round()
    assert state.spec_coins == [2, 4, 2, 0, 2] and state.spec_track[3] >= 0


def test_R20_sacred_ground_blocks_building_and_counts_as_prestige_neighbour() -> None:
    state = build_ready(bare())
    state.island_building[island("I01")] = geo.SACRED_GROUND
    play(state, "place bamboo boat at S007")
    assert not any(a.kind == "build" for a in state.legal_actions())
    state = build_ready(bare())
    state.island_building[island("I07")] = geo.SACRED_GROUND
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.pp_tokens[0] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R21_fleet_track_slides_and_five_are_face_up(players: int) -> None:
    state = fresh(players, seed=4)
    before = state.fleet_track[:]
    meeples = len(state.order)
    taken = before[:meeples]
    for n in taken:
        state.fleet_track[state.fleet_track.index(n)] = 0
    state.turn_fleets = taken
    state._end_round()
    kept = [t for t in before if t not in taken]
    assert state.fleet_track[: len(kept)] == kept
    assert sorted(state.fleet_track[len(kept) :]) == sorted(taken)
    view = state.view(None)
    assert sum(1 for f in view["fleet_track"] if f["tile"] is not None) == 5
    assert view["fleet_face_down"][-1]["tiles"] == sorted(taken)


def test_R22_turn_order_follows_the_fleet_numbers() -> None:
    state = fresh(4, seed=1)
    state.order = [0, 1, 2, 3]
    state.turn_fleets = [9, 2, 7, 4]
    state._end_round()
    assert state.order == [1, 3, 2, 0] and state.final_order == [0, 1, 2, 3]


def test_R22_two_players_each_meeple_follows_its_own_tile() -> None:
    state = fresh(2, seed=1)
    state.order = [0, 1, 0, 1]
    state.turn_fleets = [6, 5, 8, 1]
    state._end_round()
    assert state.order == [1, 1, 0, 0]  # a player may well play twice in a row


def test_R23_trigger_A_finishes_the_round_then_scores_without_round_end() -> None:
    state = build_ready(bare())
    state.pieces[0] = 1
    coins_on_track = state.spec_coins[:]
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.end_a and not state.is_terminal()
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1] if state.phase == r.FLEET else state.legal_actions()[0])
    assert state.end_reason == "A" and state.spec_coins == coins_on_track


def test_R23_trigger_C_ends_at_step_1_and_D_at_step_2() -> None:
    state = bare()
    state.spec_deck = []
    state.spec_track[0] = -1
    order = state.order[:]
    state.turn_fleets = [1, 2, 3, 4]
    state._end_round()
    assert state.is_terminal() and state.end_reason == "C" and state.spec_coins[1] == 2
    state = bare()
    state.deck = []
    state.row[2] = -1
    state.turn_fleets = [4, 3, 2, 1]
    state._end_round()
    assert state.end_reason == "D" and state.order == order and state.spec_coins[0] == 2


def test_R23_trigger_B_is_checked_after_the_round_end_steps() -> None:
    state = bare()
    state.reserve[colour("gold")] = 0
    state.turn_fleets = [4, 3, 2, 1]
    state.fleet_track[:4] = [0, 0, 0, 0]
    state._end_round()
    assert state.end_reason == "B" and state.order == state.final_order[::-1]


def test_R24_unused_boats_in_discard_and_harbour_cost_a_point_per_two() -> None:
    state = bare()
    state.discarded[0] = 2
    state.harbour[0:5] = [1, 0, 0, 0, 0]
    assert state.scores()[0].breakdown["unused boats"] == -1
    state.harbour[0:5] = [1, 1, 0, 0, 0]
    assert state.scores()[0].breakdown["unused boats"] == -2


def test_R25_five_coins_make_a_point_remainders_are_lost() -> None:
    state = bare()
    state.coins = [14, 15, 4, 0]
    assert [s.breakdown["coins"] for s in state.scores()] == [2, 3, 0, 0]


def test_R26_tie_goes_to_the_earliest_in_the_final_round() -> None:
    state = bare()
    state.final_order = state.order = [2, 0, 3, 1]
    state.phase = r.OVER
    state.coins = [10, 10, 10, 0]
    assert state.winners() == [2]


def test_R27_bonuses_are_kept_whatever_happens_later() -> None:
    state = build_ready(bare())
    state.island_building[island("I02")] = geo.TORII
    play(state, "place bamboo boat at S007", "build B02 on I01")
    state.spot_boat = [-1] * 90
    assert state.pp_tokens[0] == 1 and state.island_building[island("I01")] == 0


def test_R28_a_moved_boat_still_counts_as_placed_this_turn() -> None:
    state = bare()
    put_tokens(state, I07="green")
    turn(state, fleet=5, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "use the fleet power", "move the boat on S007", "move it to S014")
    assert state.placed == [spot("S014")] and state.head == spot("S014")
    play(state, "stop placing boats")
    assert "collect the token on I07" in labels(state)


def test_R29_swapping_tokens_leaves_mountains_in_place() -> None:
    state = bare()
    put_tokens(state, I05="orange", I30="pink")
    state.mountain = tuple(i == island("I05") for i in range(34))
    turn(state, fleet=2, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "swap the token on I05", "with the token on I30")
    assert state.island_token[island("I05")] == 5 and state.island_token[island("I30")] == 0
    assert state.mountain[island("I05")] and not state.mountain[island("I30")]


def test_R30_R43_preview_exchange_and_order() -> None:
    state = bare()
    state.deck = [tile("B01"), tile("B05"), tile("P02"), tile("B20"), tile("B21")]  # top is the end
    state.row = [tile("B02"), tile("B03"), tile("B04"), -1, tile("B06")]
    turn(state, seat=1, fleet=3, hand={}, phase=r.RECRUIT)
    events = state.apply("use the fleet power")
    assert state.preview == [tile("B21"), tile("B20"), tile("P02")]
    secret = [e for e in events if e.audience == (1,)]
    assert secret and secret[0].data["tiles"] == ["B21", "B20", "P02"]
    assert any(e.audience is None and "top 3" in e.text for e in events)
    assert "put B21 in the row instead of B03" in labels(state)
    assert not any("instead of None" in label for label in labels(state))
    play(state, "put B21 in the row instead of B03")
    assert state.row[1] == tile("B21")
    assert sorted(labels(state)) == [
        "put B03 back on top of the deck",
        "put B20 back on top of the deck",
        "put P02 back on top of the deck",
    ]
    play(state, "put P02 back on top of the deck", "put B03 back on top of the deck")
    assert state.deck == [tile("B01"), tile("B05"), tile("P02"), tile("B03"), tile("B20")]
    assert state.view(1)["known_deck_top"] == ["B20", "B03", "P02"] and state.view(0)["known_deck_top"] == []


def test_R31_build_minus_one_lets_one_required_boat_be_missing() -> None:
    state = bare()
    state.row[0] = tile("B06")  # bamboo bamboo wood
    put_boats(state, S022="wood")
    turn(state, fleet=9, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert "build B06 on I01" in labels(state) and "neither collect nor build" in labels(state)
    play(state, "build B06 on I01")
    assert not state.minus_one
    state = bare()
    state.row[0] = tile("B06")
    turn(state, fleet=1, hand={"bamboo": 1})
    put_boats(state, S022="wood")
    state._legal = None
    play(state, "place bamboo boat at S007")
    assert "build B06 on I01" not in labels(state)


def test_R32_each_substitution_relabels_one_boat_and_they_combine() -> None:
    state = bare()
    state.row[0] = tile("B10")  # wood stone stone
    put_boats(state, S001="bamboo", S022="wood", S015="wood")
    turn(state, hand={"wood": 1}, specialists=("Carpenter", "Stonemason"))
    play(state, "place wood boat at S007")
    # 3 wood + 1 bamboo around I01: Stonemason makes one wood a stone; a second stone is missing
    assert "build B10 on I01" not in labels(state)
    assert geo.missing_boats((0, 1, 2, 0, 0), (1, 3, 0, 0, 0), [(0, 1), (1, 2)]) == 1
    assert geo.missing_boats((0, 1, 1, 0, 0), (1, 0, 0, 0, 0), [(0, 1), (1, 2)]) == 1  # never bamboo -> stone


def test_R33_two_players_play_one_full_turn_per_meeple_and_keep_the_harbour() -> None:
    state = fresh(2, seed=8)
    first = state.current_player()
    turns = []
    while state.round_no == 1:
        if state.phase == r.FLEET:
            turns.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert turns == [first, 1 - first, first, 1 - first]


def test_R35_no_trading_after_placing() -> None:
    state = turn(bare(), hand={"bamboo": 2}, phase=r.TRADE)
    play(state, "end trading", "place bamboo boat at S007")
    with pytest.raises(IllegalAction, match="steps go in order"):
        state.apply("sell a bamboo boat")


def test_R36_phases_without_choice_are_skipped() -> None:
    state = turn(bare(), hand={}, fleet=9, phase=r.TRADE)
    state.coins[0] = 0
    state._legal = None
    state._advance()
    assert state.to_move != 0 and state.phase == r.FLEET  # nothing to trade, place, collect, keep or recruit


def test_R37_empty_deck_ends_nothing_unless_a_refill_is_needed() -> None:
    state = bare()
    state.deck = []
    state.spec_deck = []
    state.turn_fleets = [1, 2, 3, 4]
    state.fleet_track[:4] = [0, 0, 0, 0]
    state._end_round()
    assert not state.is_terminal() and state.round_no == 2


def test_R38_cleared_islands_stay_clear() -> None:
    state = bare()
    put_tokens(state, I01="orange")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007", "collect the token on I01")
    state.turn_fleets = [1, 2, 3, 4]
    state.fleet_track[:4] = [0, 0, 0, 0]
    state._end_round()
    assert state.island_token[island("I01")] == -1


def test_R40_harbour_master_replaces_the_harbour_capacity() -> None:
    state = turn(bare(), hand={"bamboo": 2, "wood": 1, "clay": 1}, specialists=("Harbour Master",))
    play(state, "stop placing boats", "keep a clay boat in the harbour")
    assert "use the fleet power" not in labels(state)  # one harbour choice is one step
    play(state, "keep a bamboo boat in the harbour", "keep a bamboo boat in the harbour")
    assert state.harbour[:5] == [2, 0, 0, 1, 0] and state.discarded[0] == 1


def test_R41_power_decision_points_and_exceptions() -> None:
    state = bare()
    put_tokens(state, I01="orange", I07="green")
    turn(state, fleet=1, hand={"bamboo": 2}, phase=r.TRADE)
    assert "use the fleet power" in labels(state)
    play(state, "end trading")
    assert "use the fleet power" in labels(state)
    play(state, "place bamboo boat at S007")
    assert "use the fleet power" in labels(state)  # between two placements
    play(state, "place bamboo boat at S014", "collect the token on I01")
    assert "use the fleet power" not in labels(state)  # not inside the Collect
    play(state, "stop collecting")
    assert "use the fleet power" in labels(state)


@pytest.mark.parametrize(
    ("fleet", "setup"),
    [
        (2, lambda s: put_tokens(s, I01="orange")),
        (3, lambda s: setattr(s, "deck", [])),
        (4, lambda s: setattr(s, "sacred_left", 0)),
        (5, lambda s: None),
        (6, lambda s: setattr(s, "row", [-1] * 5)),
        (7, lambda s: put_boats(s, S001="wood", S050="wood")),
        (8, lambda s: None),
    ],
)
def test_R41_a_power_without_target_cannot_be_used(fleet: int, setup: object) -> None:
    state = bare()
    setup(state)  # type: ignore[operator]
    turn(state, fleet=fleet, hand={"bamboo": 1}, phase=r.TRADE)
    assert "use the fleet power" not in labels(state)


def test_R41_build_minus_one_is_never_a_separate_action() -> None:
    state = turn(bare(), fleet=9, hand={"bamboo": 1}, phase=r.TRADE)
    assert state.to_move == 0 and "use the fleet power" not in labels(state) and state.minus_one


def test_R42_moving_the_last_boat_moves_the_chain_end() -> None:
    state = turn(bare(), fleet=5, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "use the fleet power", "move the boat on S007", "move it to S001")
    placements = {a.label for a in state.legal_actions() if a.kind == "place"}
    assert placements == {"place bamboo boat at S007", "place bamboo boat at S008"}  # around S001 now


def test_R42_removing_the_last_boat_ends_placement_and_its_claims() -> None:
    state = bare()
    put_tokens(state, I01="orange")
    turn(state, fleet=8, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "use the fleet power", "remove the boat on S007")
    # no further boat, no Collect: the turn runs out by itself, the second boat goes to the harbour
    assert state.to_move != 0 and state.culture[0] == 0 and state.island_token[island("I01")] >= 0
    assert state.harbour[:5] == [1, 0, 0, 0, 0] and state.spot_boat[spot("S007")] == -1


def test_R42_after_removing_the_last_boat_the_view_shows_no_chain_end() -> None:
    state = bare()
    put_tokens(state, I01="orange")
    turn(state, fleet=8, hand={"bamboo": 3})
    play(state, "place bamboo boat at S007", "place bamboo boat at S014", "use the fleet power")
    play(state, "remove the boat on S014")
    assert state.phase == r.CHOOSE
    turn_view = state.view(1)["turn"]
    assert turn_view["placed"] == ["S007"] and turn_view["last_placed"] is None and turn_view["placing_closed"]


def test_R42_moving_another_boat_never_makes_it_yours() -> None:
    state = bare()
    put_boats(state, S050="clay")
    put_tokens(state, I07="blue")
    turn(state, fleet=5, hand={"bamboo": 1})
    play(state, "use the fleet power", "move the boat on S050", "move it to S041")
    assert state.placed == []


def test_R44_targets_of_sacred_ground_reserve_and_swap_boats() -> None:
    state = bare()
    put_tokens(state, I05="orange")
    turn(state, fleet=4, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    targets = {a.label for a in state.legal_actions()}
    assert "put sacred ground on I34" in targets and "put sacred ground on I05" not in targets
    play(state, "put sacred ground on I34")
    assert state.island_building[island("I34")] == geo.SACRED_GROUND and state.sacred_left == 7
    state = bare()
    put_boats(state, S001="wood", S050="wood", S070="clay")
    turn(state, fleet=7, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "swap the boat on S001")
    assert labels(state) == ["with the boat on S070"]


def test_R44_reserved_tile_can_be_built_the_same_turn() -> None:
    state = bare()
    put_boats(state, S022="wood")
    code = state.game.components.buildings[state.row[2]].code
    state.row[2] = tile("B02")
    turn(state, fleet=6, hand={"bamboo": 1}, phase=r.TRADE)
    play(state, "use the fleet power", "reserve B02")
    assert state.row[2] == -1 and code
    play(state, "end trading", "place bamboo boat at S007", "build B02 on I01")
    assert state.built[0] == 1 << tile("B02") and state.reserved[0] == 0


def test_R45_no_resale_and_modifiers_add_up() -> None:
    state = turn(bare(), hand={}, phase=r.TRADE, specialists=("Merchant", "Haggler", "Gold Dealer"))
    assert state.price_table == ((1, 2, 3, 4, 6), (2, 2, 3, 3, 4))
    play(state, "buy a gold boat")
    assert state.coins[0] == 4
    with pytest.raises(IllegalAction, match="bought this turn cannot be sold"):
        state.apply("sell a gold boat")


def test_R46_powers_never_create_obligations() -> None:
    state = bare()
    state.row[0] = tile("B06")
    put_boats(state, S022="wood")
    turn(state, fleet=9, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert "neither collect nor build" in labels(state)


def test_R47_a_player_out_of_buildings_plays_the_round_out() -> None:
    state = bare(players=2)
    state.order = [0, 1, 0, 1]
    state.pieces[0] = 1
    put_boats(state, S022="wood")
    state.row[0] = tile("B02")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007", "build B02 on I01")  # the last building: trigger A
    assert state.end_a and state.pieces[0] == 0
    fleet_turns = []
    while not state.is_terminal():
        if state.phase == r.FLEET:
            fleet_turns.append(state.current_player())
        if state.current_player() == 0 and state.phase == r.CHOOSE:
            builds = [a for a in state.legal_actions() if a.kind == "build"]
            assert all(not state.game.components.buildings[tile(a.param("tile"))].standard for a in builds)
        state.apply(state.legal_actions()[0])
    assert fleet_turns == [1, 0, 1]  # seat 0's second turn of the round is still played
    assert state.end_reason == "A" and state.round_no == 1


def test_R47_tie_break_uses_the_round_actually_played() -> None:
    state = bare()
    state.order = [3, 2, 1, 0]
    state.turn_fleets = [1, 2, 3, 4]
    state.fleet_track[:4] = [0, 0, 0, 0]
    state.reserve[colour("clay")] = 0
    state._end_round()
    assert state.end_reason == "B" and state.winners() == [3]


def test_R47_round_limit_safeguard() -> None:
    state = fresh(4, seed=3, max_rounds=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.round_no == 1 and state.end_reason == "rounds"


def test_R41_an_empty_collect_or_build_waits_for_a_power_that_could_open_it() -> None:
    state = bare()
    put_tokens(state, I07="green")
    turn(state, fleet=5, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")  # S007 touches I01 only, which holds nothing
    assert labels(state) == ["neither collect nor build", "use the fleet power"]
    play(state, "use the fleet power", "move the boat on S007", "move it to S014")
    assert labels(state) == ["collect the token on I07"]  # compulsory now (R9)


def test_R41_a_blocked_chain_waits_for_a_power_that_could_free_a_spot() -> None:
    state = bare()
    put_boats(state, S001="clay", S014="clay")
    turn(state, fleet=8, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007")  # both spots next to S007 are taken
    assert labels(state) == ["stop placing boats", "use the fleet power"]
    play(state, "use the fleet power", "remove the boat on S014")
    assert "place bamboo boat at S014" in labels(state)


def test_R41_an_empty_trade_waits_for_coins_from_the_power() -> None:
    state = bare()
    state.coins[0] = 1
    turn(state, fleet=1, hand={}, phase=r.TRADE)
    assert labels(state) == ["end trading", "use the fleet power"]
    play(state, "use the fleet power")
    assert labels(state) == ["buy a bamboo boat", "buy a wood boat", "end trading"]


def test_R36_an_empty_step_is_skipped_when_the_power_could_not_open_it() -> None:
    state = bare()
    put_tokens(state, I07="green", I30="blue")
    turn(state, fleet=2, hand={"bamboo": 1})  # a token swap never puts a token on an empty island
    play(state, "place bamboo boat at S007")
    assert state.phase == r.END and labels(state) == ["end the turn", "use the fleet power"]


def test_R45_a_colour_bought_this_turn_cannot_be_sold_this_turn() -> None:
    # Boats of one colour cannot be told apart: selling the fleet's bamboo after buying one is the
    # buy-and-resell that R45(b) forbids (with the Haggler it would make a coin out of nothing).
    state = turn(bare(), hand={"bamboo": 1, "wood": 1}, phase=r.TRADE, specialists=("Merchant", "Haggler"))
    play(state, "buy a bamboo boat")
    assert "sell a bamboo boat" not in labels(state) and "sell a wood boat" in labels(state)
    with pytest.raises(IllegalAction, match="bought this turn cannot be sold"):
        state.apply("sell a bamboo boat")
    assert state.coins[0] == 9 and state.hand[colour("bamboo")] == 2


def test_R42_swapping_the_last_boat_moves_the_chain_end_with_it() -> None:
    state = bare()
    put_boats(state, S050="gold")
    turn(state, fleet=7, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "use the fleet power", "swap the boat on S007", "with the boat on S050")
    assert state.placed == [spot("S050")] and state.spot_boat[spot("S007")] == colour("gold")
    board = state.game.components.board
    around = {board.spot_ids[t] for t in board.spot_neighbours[spot("S050")]}
    assert {a.param("spot") for a in state.legal_actions() if a.kind == "place"} == around
