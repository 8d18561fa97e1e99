"""The rulebook's turn, paragraph by paragraph, on positions built for each (phases I-V)."""

from __future__ import annotations

import pytest

from parlour.engine import IllegalAction
from parlour.games.yamatai import board as geo
from parlour.games.yamatai import constants as r

from .positions import bare, colour, fresh, island, labels, play, put_boats, put_tokens, spot, tile, turn


def test_phase_I_choose_a_fleet_tile_takes_its_boats_and_meeple() -> None:
    state = fresh(4, seed=3)
    seat = state.current_player()
    number = state.fleet_track[0]
    boats = state.game.components.fleet[number - 1].boats
    state.apply(f"take fleet tile {number}")
    assert state.hand == list(boats)
    assert number not in state.fleet_track and state.turn_fleets == [number]
    assert [state.reserve[c] for c in range(5)] == [
        s - b for s, b in zip(state.game.components.boat_stock, boats, strict=True)
    ]
    assert state.to_move == seat and state.tile == number


def test_phase_I_only_face_up_tiles_can_be_taken() -> None:
    state = fresh(4, seed=3)
    hidden = state.fleet_track[7]
    with pytest.raises(IllegalAction, match="is not face up"):
        state.apply(f"take fleet tile {hidden}")


def test_phase_II_trade_buy_one_boat_at_the_mat_price() -> None:
    state = turn(bare(), hand={"bamboo": 1}, phase=r.TRADE)
    assert "buy a clay boat" in labels(state) and "buy a gold boat" not in labels(state)
    play(state, "buy a clay boat")
    assert state.coins[0] == 5 and state.hand[colour("clay")] == 1 and state.reserve[colour("clay")] == 12
    assert state.phase == r.PLACE  # one transaction only


def test_phase_II_sell_one_boat_returns_it_to_the_reserve() -> None:
    state = turn(bare(), hand={"stone": 1}, phase=r.TRADE)
    play(state, "sell a stone boat")
    assert state.coins[0] == 12 and state.hand == [0] * 5 and state.reserve[colour("stone")] == 17


def test_phase_II_gold_is_never_traded() -> None:
    state = turn(bare(), hand={"gold": 1, "bamboo": 1}, phase=r.TRADE)
    assert "sell a gold boat" not in labels(state)
    with pytest.raises(IllegalAction, match="gold is never bought or sold"):
        state.apply("buy a gold boat")


def test_phase_II_buying_needs_coins() -> None:
    state = turn(bare(), hand={"bamboo": 1}, phase=r.TRADE)
    state.coins[0] = 3
    state._legal = None
    with pytest.raises(IllegalAction, match="costs 4 coins and you have 3"):
        state.apply("buy a stone boat")


def test_phase_IIIA_first_boat_on_entry_or_next_to_same_colour() -> None:
    state = bare()
    put_boats(state, S040="wood")
    turn(state, hand={"bamboo": 1, "wood": 1})
    legal = labels(state)
    assert "place bamboo boat at S007" in legal and "place wood boat at S063" in legal
    assert "place wood boat at S031" in legal  # next to the wood boat on S040
    assert "place bamboo boat at S031" not in legal
    with pytest.raises(IllegalAction, match="first boat goes on a free entry spot"):
        state.apply("place bamboo boat at S031")


def test_phase_IIIA_later_boats_follow_the_previous_one() -> None:
    state = turn(bare(), hand={"bamboo": 2, "wood": 1})
    play(state, "place bamboo boat at S007")
    assert sorted(labels(state)) == sorted(
        [
            "place bamboo boat at S001",
            "place bamboo boat at S014",
            "place wood boat at S001",
            "place wood boat at S014",
            "stop placing boats",
            "use the fleet power",
        ]
    )
    play(state, "place wood boat at S014")
    assert "place bamboo boat at S021" in labels(state) and "place bamboo boat at S001" not in labels(state)


def test_phase_IIIA_placing_is_optional() -> None:
    state = turn(bare(), hand={"bamboo": 2})
    play(state, "stop placing boats")
    assert state.phase == r.RECRUIT or state.phase == r.END or state.phase == r.FLEET
    assert state.discarded[0] == 1 and state.harbour[colour("bamboo")] == 1


def test_phase_IIIB_collect_a_token_next_to_each_placed_boat() -> None:
    state = bare()
    put_tokens(state, I01="orange", I07="green", I02="blue")
    turn(state, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "place bamboo boat at S014")  # last boat: placing ends by itself
    assert {"collect the token on I01", "collect the token on I07"} <= set(labels(state))
    assert "collect the token on I02" not in labels(state)
    play(state, "collect the token on I01", "collect the token on I07")
    assert state.culture[:6] == [1, 1, 0, 0, 0, 0]
    assert state.island_token[island("I01")] == -1


def test_phase_IIIB_build_on_empty_island_next_to_a_placed_boat() -> None:
    state = bare()
    put_boats(state, S022="wood")
    state.row[0] = tile("B02")  # bamboo + wood
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    assert "build B02 on I01" in labels(state)
    play(state, "build B02 on I01")
    assert state.island_building[island("I01")] == 0 and state.built[0] == 1 << tile("B02")
    assert state.pieces[0] == 5 and state.row[0] == -1
    assert state.spot_boat[spot("S022")] == colour("wood")  # boats stay


def test_phase_IIIB_only_one_building_per_turn() -> None:
    state = bare()
    put_boats(state, S022="wood", S029="bamboo")
    state.row[0], state.row[1] = tile("B02"), tile("B01")
    turn(state, hand={"bamboo": 2})
    play(state, "place bamboo boat at S007", "place bamboo boat at S014", "build B02 on I01")
    assert not any(label.startswith("build") for label in labels(state))


def test_phase_IV_harbour_keeps_one_boat_rest_discarded() -> None:
    state = turn(bare(), hand={"bamboo": 1, "stone": 2})
    play(state, "stop placing boats")
    assert sorted(labels(state)) == [
        "keep a bamboo boat in the harbour",
        "keep a stone boat in the harbour",
        "use the fleet power",
    ]
    play(state, "keep a stone boat in the harbour")
    assert state.harbour[:5] == [0, 0, 1, 0, 0] and state.discarded[0] == 2


def test_phase_V_recruit_with_two_identical_tokens_takes_the_coins() -> None:
    state = bare()
    slot_specialist = state.spec_track[2]
    state.spec_coins[2] = 4
    state.culture[0:6] = [2, 0, 0, 0, 0, 0]
    turn(state, phase=r.RECRUIT)
    name = state.game.components.specialists[slot_specialist].name
    play(state, f"recruit the {name}")
    assert labels(state) == ["pay two orange tokens"]
    play(state, "pay two orange tokens")
    assert state.specs[0] == 1 << slot_specialist and state.coins[0] == 14 and state.culture[0] == 0
    assert state.spec_track[2] == -1


def test_phase_V_recruit_with_three_different_tokens_and_only_one_per_turn() -> None:
    state = bare()
    state.culture[0:6] = [1, 1, 1, 2, 0, 0]
    turn(state, phase=r.RECRUIT)
    name = state.game.components.specialists[state.spec_track[0]].name
    play(state, f"recruit the {name}")
    assert "pay orange, green and violet tokens" in labels(state) and "pay two blue tokens" in labels(state)
    play(state, "pay orange, green and violet tokens")
    assert state.culture[0:6] == [0, 0, 0, 2, 0, 0]
    assert state.phase != r.RECRUIT and not any(a.kind == "recruit" for a in state.legal_actions())


def test_round_passes_through_every_meeple_in_order() -> None:
    state = fresh(3, seed=2)
    seen = []
    while state.round_no == 1:
        if state.phase == r.FLEET:
            seen.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert seen == state.final_order


def test_prestige_buildings_take_no_standard_bonus() -> None:
    state = bare()
    state.mountain = tuple(i == island("I01") for i in range(34))
    state.island_building[island("I02")] = geo.TORII
    state.island_building[island("I08")] = 0
    put_boats(state, S001="wood", S008="stone", S015="gold", S022="wood")
    state.row[0] = tile("P01")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007", "build P01 on I01")
    assert state.pp_tokens[0] == 0 and state.coins[0] == 10 and state.pieces[0] == 6
    assert state.island_building[island("I01")] == geo.TORII and state.built[0] == 1 << tile("P01")


def test_two_players_harbour_carries_into_the_second_turn() -> None:
    state = fresh(2, seed=8)
    first = state.current_player()
    play(state, f"take fleet tile {next(t for t in state.fleet_track[:5] if t)}")
    passive = ("end trading", "stop placing boats", "recruit no specialist", "end the turn")
    while state.current_player() == first:
        legal = labels(state)
        state.apply(next((label for label in passive if label in legal), legal[0]))
    kept = state.harbour[5 * first : 5 * first + 5]
    assert sum(kept) == 1
    while state.current_player() != first:
        state.apply(state.legal_actions()[0])
    second = next(t for t in state.fleet_track[:5] if t)
    play(state, f"take fleet tile {second}")
    fleet = state.game.components.fleet[second - 1].boats
    assert state.hand == [k + f for k, f in zip(kept, fleet, strict=True)]


def test_standard_building_bonuses_are_cumulative() -> None:
    state = bare()
    state.mountain = tuple(i == island("I01") for i in range(34))
    state.island_building[island("I02")] = geo.PALACE
    state.island_building[island("I07")] = geo.SACRED_GROUND
    state.island_building[island("I08")] = 0  # own building: a group of two
    put_boats(state, S022="wood")
    state.row[0] = tile("B02")
    turn(state, hand={"bamboo": 1})
    play(state, "place bamboo boat at S007")
    events = state.apply("build B02 on I01")
    assert state.pp_tokens[0] == 2 + 1 and state.coins[0] == 10 + 2
    assert events[0].data["pp_tokens"] == 3 and events[0].data["coins"] == 2


def test_ending_trading_or_placing_early_is_told_to_every_seat_and_spectator() -> None:
    """Stopping before the rules require is a public choice: the others read it, not a silent move."""
    state = turn(bare(), hand={"bamboo": 1}, phase=r.TRADE)
    who = state._who()
    ended = state.apply("end trading")
    assert [(e.text, e.public) for e in ended] == [(f"{who} ends trading", True)]
    assert "stop placing boats" in labels(state)  # the bamboo boat could still go out
    stopped = state.apply("stop placing boats")
    assert (f"{who} stops placing boats", True) in [(e.text, e.public) for e in stopped]
