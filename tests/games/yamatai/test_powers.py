"""Every fleet power and every specialist power, each on a position built for it."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalAction
from parlour.games.yamatai import board as geo
from parlour.games.yamatai import constants as r

from .positions import (
    bare,
    colour,
    island,
    labels,
    play,
    put_boats,
    put_tokens,
    seat_first,
    specialist,
    spot,
    tile,
    turn,
)

# --- fleet powers -------------------------------------------------------------------------------


def test_fleet_1_gain_coins() -> None:
    state = turn(bare(), fleet=1, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    assert state.coins[0] == 12


def test_fleet_2_swap_culture_tokens_any_two_islands() -> None:
    state = bare()
    put_tokens(state, I01="orange", I34="blue", I17="green")
    turn(state, fleet=2, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    assert labels(state) == ["swap the token on I01", "swap the token on I17", "swap the token on I34"]
    play(state, "swap the token on I01")
    assert labels(state) == ["with the token on I17", "with the token on I34"]
    play(state, "with the token on I34")
    assert state.island_token[island("I01")] == 3 and state.island_token[island("I34")] == 0
    assert not state.power_ready


def test_fleet_3_preview_keeps_the_row_and_handles_a_short_deck() -> None:
    state = bare()
    state.deck = [tile("B07"), tile("B08")]
    row = state.row[:]
    turn(state, seat=2, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "leave the building row as it is")
    assert labels(state) == ["put B07 back on top of the deck", "put B08 back on top of the deck"]
    play(state, "put B08 back on top of the deck")
    assert state.deck == [tile("B08"), tile("B07")] and state.row == row
    assert state.view(2)["known_deck_top"] == ["B07", "B08"]


def test_fleet_4_place_sacred_ground_on_an_empty_island() -> None:
    state = bare()
    state.island_building = [geo.TORII] * 34
    state.island_building[island("I20")] = geo.NO_BUILDING
    turn(state, fleet=4, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    assert labels(state) == ["put sacred ground on I20"]
    play(state, "put sacred ground on I20")
    assert state.island_building[island("I20")] == geo.SACRED_GROUND and state.sacred_left == 7


def test_fleet_5_move_boat_to_an_adjacent_empty_spot() -> None:
    state = bare()
    put_boats(state, S022="stone", S014="wood")
    turn(state, fleet=5, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    assert labels(state) == ["move the boat on S014", "move the boat on S022"]
    play(state, "move the boat on S022")
    assert labels(state) == ["move it to S015", "move it to S030"]
    play(state, "move it to S030")
    assert state.spot_boat[spot("S030")] == colour("stone") and state.spot_boat[spot("S022")] == -1


def test_fleet_6_reserve_a_face_up_building() -> None:
    state = bare()
    state.row = [tile("B01"), -1, tile("P04"), -1, -1]
    turn(state, fleet=6, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    assert labels(state) == ["reserve B01", "reserve P04"]
    play(state, "reserve P04")
    assert state.reserved[0] == 1 << tile("P04") and state.row[2] == -1
    assert state.view(None)["mats"][0]["reserved"] == ["P04"]


def test_fleet_7_swap_two_boats_of_different_colours() -> None:
    state = bare()
    put_boats(state, S001="bamboo", S002="gold", S003="bamboo")
    turn(state, fleet=7, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "swap the boat on S001")
    assert labels(state) == ["with the boat on S002"]
    play(state, "with the boat on S002")
    assert state.spot_boat[spot("S001")] == colour("gold") and state.spot_boat[spot("S002")] == colour("bamboo")


def test_fleet_8_remove_a_boat_back_to_the_reserve() -> None:
    state = bare()
    put_boats(state, S050="clay")
    turn(state, fleet=8, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "remove the boat on S050")
    assert state.spot_boat[spot("S050")] == -1 and state.reserve[colour("clay")] == 13


def test_fleet_9_build_minus_one_works_for_prestige_tiles_too() -> None:
    state = bare()
    state.row[0] = tile("P04")  # palace: one boat of each colour
    put_boats(state, S001="wood", S008="stone", S015="clay")
    turn(state, fleet=9, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    play(state, "build P04 on I01")  # the gold boat is the missing one
    assert state.island_building[island("I01")] == geo.PALACE and not state.minus_one


def test_fleet_10_gain_a_prestige_token() -> None:
    state = turn(bare(), fleet=10, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    assert state.pp_tokens[0] == 1


# --- specialists ---------------------------------------------------------------------------------


def test_specialist_harbour_master_keeps_three() -> None:
    state = turn(bare(), hand={"stone": 4}, specialists=("Harbour Master",))
    play(state, "stop placing boats")
    assert state.harbour[:5] == [0, 0, 3, 0, 0] and state.discarded[0] == 1


def test_specialist_merchant_two_transactions() -> None:
    state = turn(bare(), hand={"stone": 1}, phase=r.TRADE, specialists=("Merchant",))
    play(state, "sell a stone boat", "buy a bamboo boat")
    assert state.coins[0] == 10 and state.phase == r.PLACE


def test_specialist_gold_dealer_trades_gold() -> None:
    state = turn(bare(), hand={"gold": 1}, phase=r.TRADE, specialists=("Gold Dealer",))
    assert {"buy a gold boat", "sell a gold boat"} <= set(labels(state))
    play(state, "sell a gold boat")
    assert state.coins[0] == 13 and state.reserve[colour("gold")] == 11


def test_specialist_haggler_prices() -> None:
    state = turn(bare(), hand={"clay": 1}, phase=r.TRADE, specialists=("Haggler",))
    assert state.price_table == ((1, 2, 3, 4, 0), (2, 2, 3, 3, 0))
    play(state, "sell a clay boat")
    assert state.coins[0] == 13


@pytest.mark.parametrize(
    ("name", "around", "code"),
    [
        ("Carpenter", {"S022": "bamboo"}, "B03"),  # wood wood: a bamboo counts as wood
        ("Stonemason", {"S022": "wood"}, "B04"),  # bamboo stone: a wood counts as stone
        ("Potter", {"S022": "stone"}, "B12"),  # bamboo stone clay: needs a second stone to relabel
    ],
)
def test_specialist_colour_substitutions(name: str, around: dict[str, str], code: str) -> None:
    state = bare()
    put_boats(state, **around)
    if name == "Potter":
        put_boats(state, S001="stone")
    state.row[0] = tile(code)
    turn(state, hand={"bamboo": 1} if name != "Carpenter" else {"wood": 1}, specialists=(name,))
    first = "place bamboo boat at S007" if name != "Carpenter" else "place wood boat at S007"
    play(state, first)
    assert f"build {code} on I01" in labels(state)
    assert "neither collect nor build" in labels(state)  # a power never forces the Build (R46)
    plain = turn(bare(), hand={"bamboo": 1})
    put_boats(plain, **around)
    plain.row[0] = tile(code)
    plain._legal = None
    plain._advance()
    play(plain, "place bamboo boat at S007")
    assert f"build {code} on I01" not in labels(plain)


def test_specialist_mountain_hermit() -> None:
    state = bare()
    state.mountain = tuple(i == island("I01") for i in range(34))
    put_boats(state, S022="wood")
    state.row[0] = tile("B02")
    turn(state, hand={"bamboo": 1}, specialists=("Mountain Hermit",))
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.pp_tokens[0] == 2


def test_specialist_shrine_priest_needs_a_prestige_neighbour() -> None:
    for neighbour, expected in ((geo.PALACE, 2), (geo.NO_BUILDING, 0)):
        state = bare()
        state.island_building[island("I02")] = neighbour
        put_boats(state, S022="wood")
        state.row[0] = tile("B02")
        turn(state, hand={"bamboo": 1}, specialists=("Shrine Priest",))
        play(state, "place bamboo boat at S007", "build B02 on I01")
        assert state.pp_tokens[0] == expected


def test_specialist_treasurer_only_with_group_coins() -> None:
    for group, expected in ((True, 10 + 2 + 2), (False, 10)):
        state = bare()
        if group:
            state.island_building[island("I02")] = 0
        put_boats(state, S022="wood")
        state.row[0] = tile("B02")
        turn(state, hand={"bamboo": 1}, specialists=("Treasurer",))
        play(state, "place bamboo boat at S007", "build B02 on I01")
        assert state.coins[0] == expected


def test_specialist_tax_collector_four_coins_a_point() -> None:
    state = bare()
    state.coins[0] = 13
    state.specs[0] = 1 << next(s.index for s in state.game.components.specialists if s.name == "Tax Collector")
    assert state.scores()[0].breakdown["coins"] == 3


def test_specialist_land_clearer_one_more_token() -> None:
    state = bare()
    put_tokens(state, I01="orange", I02="green")
    turn(state, hand={"bamboo": 1}, specialists=("Land Clearer",))
    play(state, "place bamboo boat at S007", "collect the token on I01")
    assert state.culture[:6] == [1, 0, 0, 0, 0, 0] and state.phase != r.COLLECT  # S007 touches I01 only
    state = bare()
    put_tokens(state, I01="orange", I07="green")
    turn(state, hand={"bamboo": 1}, specialists=("Land Clearer",))
    play(state, "place bamboo boat at S021")
    play(state, "collect the token on I07")
    assert state.culture[:6] == [0, 1, 0, 0, 0, 0] and state.phase != r.COLLECT
    state = bare()
    put_tokens(state, I01="orange", I07="green")
    put_boats(state, S021="bamboo")  # lets the first boat go to S014, which touches I01 and I07
    turn(state, hand={"bamboo": 1}, specialists=("Land Clearer",))
    play(state, "place bamboo boat at S014", "collect the token on I07", "collect the token on I01")
    assert state.culture[:6] == [1, 1, 0, 0, 0, 0]


def test_specialist_pilot_first_boat_next_to_any_colour() -> None:
    state = bare()
    put_boats(state, S050="clay")
    turn(state, hand={"bamboo": 1}, specialists=("Pilot",))
    assert "place bamboo boat at S041" in labels(state)
    plain = bare()
    put_boats(plain, S050="clay")
    turn(plain, hand={"bamboo": 1})
    assert "place bamboo boat at S041" not in labels(plain)


def test_specialist_navigator_branches_once() -> None:
    state = turn(bare(), hand={"bamboo": 4}, specialists=("Navigator",))
    play(state, "place bamboo boat at S007", "place bamboo boat at S014", "place bamboo boat at S001")
    assert state.branch_used and state.head == spot("S001")
    with pytest.raises(IllegalAction):
        state.apply("place bamboo boat at S021")  # next to S014 but not to S001: the branch is spent
    play(state, "place bamboo boat at S008")


def test_specialist_shipwright_adds_a_bamboo_boat_if_any_left() -> None:
    for left, expected in ((5, 1), (0, 0)):
        state = bare()
        state.specs[0] = 1 << next(s.index for s in state.game.components.specialists if s.name == "Shipwright")
        state.reserve[colour("bamboo")] = left
        seat_first(state, 0)
        state.fleet_track[0] = 5  # wood + stone
        state._start_turn(0)
        state._advance()
        play(state, "take fleet tile 5")
        assert state.hand[colour("bamboo")] == expected


def test_specialist_scholar_scores_leftover_tokens() -> None:
    state = bare()
    state.specs[0] = 1 << next(s.index for s in state.game.components.specialists if s.name == "Scholar")
    state.culture[0:6] = [2, 1, 0, 0, 2, 0]
    assert state.scores()[0].breakdown["leftover culture"] == 2


def test_specialist_envoy_two_different_tokens() -> None:
    state = bare()
    state.culture[0:6] = [0, 1, 0, 0, 1, 0]
    turn(state, phase=r.RECRUIT, specialists=("Envoy",))
    name = state.game.components.specialists[state.spec_track[0]].name
    play(state, f"recruit the {name}")
    assert labels(state) == ["pay green and beige tokens"]
    play(state, "pay green and beige tokens")
    assert sum(state.culture) == 0


def test_specialist_master_builder_builds_on_a_token() -> None:
    state = bare()
    put_tokens(state, I01="pink")
    put_boats(state, S022="wood")
    state.row[0] = tile("B02")
    turn(state, hand={"bamboo": 1}, specialists=("Master Builder",))
    play(state, "place bamboo boat at S007", "build B02 on I01")
    assert state.culture[5] == 1 and state.island_building[island("I01")] == 0


def test_specialist_pilot_never_offers_an_occupied_spot() -> None:
    state = bare()
    put_boats(state, S050="clay", S041="wood", S059="stone")
    turn(state, hand={"bamboo": 1}, specialists=("Pilot",))
    spots = {a.param("spot") for a in state.legal_actions() if a.kind == "place"}
    assert "S041" not in spots and "S059" not in spots and "S050" not in spots
    assert {"S032", "S033", "S058", "S051", "S067"} <= spots


def test_specialist_recruited_works_on_the_same_players_second_turn_of_a_two_player_round() -> None:
    state = bare(players=2)
    state.order = [0, 1, 0, 1]
    slot = 1
    state.spec_track[slot] = specialist("Merchant")
    state.culture[0:6] = [2, 0, 0, 0, 0, 0]
    turn(state, fleet=1, hand={}, phase=r.RECRUIT)
    play(state, "recruit the Merchant", "pay two orange tokens", "end the turn")  # the coins power is lost
    while state.turn < 2:
        state.apply(state.legal_actions()[0])
    assert state.current_player() == 0 and state.phase == r.FLEET and not state.power_ready
    play(state, f"take fleet tile {next(t for t in state.fleet_track[:5] if t)}")
    assert state.trades_left == 2  # the Merchant recruited one turn earlier already counts (R46)
