"""One test per ruling R1-R62 of the Hatairo specification, each on a position built for it."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from parlour.engine import IllegalAction, Rng
from parlour.games.hatairo.components import COLOURS, FLAGS, MOTIFS, TILES
from parlour.games.hatairo.constants import (
    ACTION,
    BONUS_PICK,
    CARDS,
    CELL,
    CLEAN,
    MOTIF_PICK,
    OVER,
    PAY,
    SETUP_KEEP,
    TURN_START,
)
from parlour.games.hatairo.scoring import breakdown, solo_rank

from .positions import (
    action_phase,
    clear_board,
    flag,
    give_motif,
    labels,
    motif,
    new,
    palette_of,
    put_flags,
    refresh,
    set_market,
    set_palette,
    started,
    turn_of,
)


def play(state, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def blank(players: int = 2, seed: int = 0, **options) -> object:
    """A started game whose boards are emptied, for building positions."""
    state = started(players, seed, **options)
    for board in state.boards:
        clear_board(board)
    return refresh(state)


ELEVEN = {
    i: name
    for i, name in enumerate(
        [
            "Austria",
            "Bahrain",
            "Canada",
            "Indonesia",
            "Monaco",
            "Poland",
            "Nigeria",
            "Italy",
            "France",
            "Germany",
            "Chile",
        ]
    )
}


# --- 1. geometry -------------------------------------------------------------------------


def test_R1_gallery_is_3_by_4_or_3_by_3() -> None:
    standard, beginner = started(2), started(2, beginner=True)
    assert len(standard.boards[0].gallery) == 12 and standard.game.columns == 4
    assert len(beginner.boards[0].gallery) == 9 and beginner.game.columns == 3
    assert standard.game.action("place at row 3 column 4")
    with pytest.raises(IllegalAction, match="no action called"):
        beginner.game.action("place at row 3 column 4")


def test_R2_motif_area_one_space_per_column_and_row() -> None:
    assert len(started(2).boards[0].motifs) == 7
    assert len(started(2, beginner=True).boards[0].motifs) == 6
    view = started(2).view(0)["players"][0]["motifs"]
    assert list(view) == [f"above column {c}" for c in range(1, 5)] + [f"left of row {r}" for r in range(1, 4)]


def test_R3_one_topography_tile_per_column_beginner_leaves_one_out() -> None:
    state = new(2, beginner=True)
    play(state, *labels(state)[:3])  # keep three cards
    assert state.phase != SETUP_KEEP
    while state.to_move == 0 and not state.revealed:
        state.apply(state.legal_actions()[0])
    tiles = state.boards[0].tiles
    assert len(tiles) == 3 and all(t >= 0 for t in tiles)
    assert len({TILES[t].id for t in tiles}) == 3  # three of the four tiles, the fourth left out


# --- 2. set-up -----------------------------------------------------------------------------


def test_R4_palette_flag_is_one_pigment_of_its_bonus_colour_never_a_sketch() -> None:
    state = blank(2)
    set_market(state, [["France", "United States"], ["Japan"], [], []])
    action_phase(state, 0)
    state.apply("gain United States as Orange pigment")
    assert palette_of(state, 0) == {"Orange": 1}
    assert state.boards[0].palette_flags == [flag("United States")]
    assert all("United States" not in label for label in labels(turn_of(state, 0)))


def test_R5_setup_choices_hidden_until_everyone_has_chosen() -> None:
    state = new(3)
    secret = state.legal_actions()[0]
    events = state.apply(secret)
    assert any(e.audience == (0,) and "keep" in e.text for e in events)
    assert all(e.audience is not None or "a card" in e.text for e in events)
    assert "palette" not in state.view(1)["players"][0] and "hand" not in state.view(1)["players"][0]
    assert state.view(0)["players"][0]["pigments"] + len(state.view(0)["players"][0]["atelier"]) == 1
    while not state.revealed:
        state.apply(state.legal_actions()[0])
    assert "palette" in state.view(1)["players"][0]
    assert state.view(None)["market"] and len(state.view(None)["motif_supply"]) == 4  # visible while choosing


def test_R6_only_active_player_triggers_and_others_must_pick() -> None:
    state = blank(3)
    set_market(state, [["Japan"], [], ["France"], []])
    for space in range(7):
        state.boards[0].place_motif(MOTIFS[[m.id for m in MOTIFS if m.type == "I"][space]].id, space)
    state.motif_supply = [motif("Sun"), motif("Asia"), motif("Red as any"), motif("3-for-2")]
    turn_of(state, 0)
    assert "start the motif phase" in labels(state)  # allowed even with a full Motif Area
    state.apply("start the motif phase")
    assert state.phase == MOTIF_PICK and state.to_move == 1  # seat 0 is skipped: no free space
    assert "pass" not in labels(state)
    state.apply("motif Sun above column 1")
    state.apply("motif Asia left of row 2")
    assert state.phase == ACTION and state.to_move == 0
    assert "start the motif phase" not in labels(state)  # never mid-turn


def test_R7_empty_market_forces_the_motif_phase_then_pass_if_nothing_possible() -> None:
    state = blank(2)
    set_market(state, [[], [], [], []])
    turn_of(state, 0)
    assert labels(state) == ["start the motif phase"]
    state.flag_supply = []
    state.motif_supply = [motif("Sun")]
    state.piles = [[], []]
    state.apply("start the motif phase")
    state.apply("motif Sun above column 2")
    assert state.phase == ACTION and labels(state) == ["pass"]


def test_R8_full_motif_area_or_empty_supply_skips_the_pick() -> None:
    state = blank(4)
    set_market(state, [["Japan"], [], [], []])
    state.motif_supply = [motif("Sun"), motif("Star")]
    for space in range(7):
        state.boards[1].motifs[space] = motif("Pigment")
    turn_of(state, 3)
    state.apply("start the motif phase")
    assert state.to_move == 3
    state.apply("motif Sun above column 1")
    assert state.to_move == 0  # seat 1 skipped next round, seat 0 picks second
    state.apply("motif Star above column 1")
    assert state.phase == ACTION and state.to_move == 3  # supply empty: seats 1 and 2 get nothing
    assert state.boards[2].motifs == [-1] * 7


def test_R8_unpicked_motifs_are_boxed_with_two_players() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    supply = state.motif_supply[:]
    turn_of(state, 0)
    state.apply("start the motif phase")
    play(state, state.legal_actions()[0].label)
    state.apply(state.legal_actions()[0])
    assert len(state.box_motifs) == 2 and set(state.box_motifs) < set(supply)


def test_R9_short_pile_filled_from_the_other() -> None:
    state = blank(2)
    first, second = state.piles
    state.piles = [first[:1], second[:5]]
    state._reveal_motifs()
    types = [MOTIFS[m].type for m in state.motif_supply]
    assert types == ["I", "II", "II", "II"]
    state.piles = [[], []]
    state._reveal_motifs()
    assert state.motif_supply == []


def test_R10_short_flag_supply_fills_rows_in_order() -> None:
    state = blank(2)
    state.flag_supply = [flag("Japan"), flag("France"), flag("Chile"), flag("Italy"), flag("Germany")]
    state.market = [[], [], [], []]
    state._fill_market()
    assert [len(row) for row in state.market] == [4, 1, 0, 0]
    assert state.market[1] == [flag("Japan")]  # the last card left, dealt to row 2


def test_R11_only_rightmost_card_is_accessible() -> None:
    state = blank(2)
    set_market(state, [["France", "Japan"], [], [], []])
    set_palette(state, 0, Red=1, Blue=1)
    action_phase(state)
    assert set(labels(state)) == {"reserve Japan", "gain Japan as Red pigment", "complete Japan"}
    with pytest.raises(IllegalAction, match="not the rightmost card"):
        state.apply("reserve France")


def test_R12_actions_legal_only_if_fully_executable() -> None:
    state = blank(2)
    set_market(state, [["France"], [], [], []])
    state.boards[0].atelier = [flag("Japan"), flag("Chile"), flag("Italy")]
    action_phase(state)
    assert "reserve France" not in labels(state)
    with pytest.raises(IllegalAction, match="Atelier already holds 3"):
        state.apply("reserve France")
    with pytest.raises(IllegalAction, match="cannot pay for France"):
        state.apply("complete France")
    set_market(state, [[], [], [], []])
    action_phase(state)
    assert labels(state) == ["pass"]
    state.apply("pass")
    assert state.active == 1


def test_R13_limit_checked_only_in_the_clean_phase() -> None:
    state = blank(2)
    set_market(state, [["France"], [], [], []])
    set_palette(state, 0, Red=5, Blue=5)
    put_flags(state, 0, {3: "Japan", 1: "Chile", 5: "Italy"})
    action_phase(state)
    play(state, "complete France", "place at row 1 column 3")
    assert state.phase == PAY
    play(state, "pay Red with Red", "pay Blue with Blue")
    # 8 left + 3 bonuses = 11 during the action phase; the clean phase asks to discard one
    assert state.phase == CLEAN and state.boards[0].pigments() == 11
    state.apply("discard Red")
    assert state.boards[0].pigments() == 10 and state.active == 1


def test_R14_conversions_never_change_the_palette() -> None:
    state = blank(2)
    set_market(state, [["Somalia"], [], [], []])
    set_palette(state, 0, Yellow=2)
    give_motif(state, 0, "Yellow as any", 0)
    action_phase(state)
    play(state, "complete Somalia", "place at row 1 column 1")
    assert palette_of(state, 0) == {"Yellow": 1}


def test_R15_no_chaining_of_conversions() -> None:
    state = blank(2)
    set_market(state, [["Ukraine"], [], [], []])  # Blue + Yellow
    set_palette(state, 0, Green=1, Yellow=1)
    give_motif(state, 0, "any as Red", 0)
    give_motif(state, 0, "Red as any", 1)
    action_phase(state)
    # Green -> Red -> Blue would need chaining: not allowed, so Ukraine cannot be paid.
    assert "complete Ukraine" not in labels(state)


def test_R16_a_conversion_may_be_repeated() -> None:
    state = blank(2)
    set_market(state, [["Germany"], [], [], []])  # Black, Red, Yellow
    set_palette(state, 0, Cyan=3)
    give_motif(state, 0, "Cyan as any", 0)
    action_phase(state)
    play(state, "complete Germany", "place at row 1 column 1")
    assert state.boards[0].gallery[0] == flag("Germany") and palette_of(state, 0) == {}


def test_R17_three_for_two_spends_three_and_spare_pays_another_slot() -> None:
    state = blank(2)
    set_market(state, [["France"], [], [], []])  # Blue + Red
    set_palette(state, 0, Green=3)
    give_motif(state, 0, "3-for-2", 0)
    action_phase(state)
    play(state, "complete France", "place at row 2 column 2")
    assert labels(state) == ["pay Red with three Green"] or labels(state) == ["pay Blue with three Green"]
    state.apply(labels(state)[0])
    # the spare went (forced) to the other slot; all three Green are gone
    assert state.boards[0].gallery[5] == flag("France") and palette_of(state, 0) == {}


def test_R17_three_for_two_is_not_offered_for_a_single_slot() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Green=3)
    give_motif(state, 0, "3-for-2", 0)
    action_phase(state)
    play(state, "complete Japan", "place at row 1 column 1")
    # a pair pays Red for two pigments; a three-for-two would waste its spare (R17), so only the pair is
    # offered and, being forced, paid at once
    assert palette_of(state, 0) == {"Green": 1}


def test_R18_spent_pigment_cards_return_and_flag_cards_are_boxed() -> None:
    state = blank(2)
    set_market(state, [["Italy"], [], [], []])  # Green + Red
    set_palette(state, 0, Red=1)
    state.boards[0].add_palette_flag(flag("Nigeria"))  # a Green palette flag
    supply = state.pigment_supply
    action_phase(state)
    play(state, "complete Italy", "place at row 1 column 1")
    assert state.pigment_supply == supply + 1
    assert state.box_flags[-1] == flag("Nigeria")


def test_R19_payment_choices_stay_few() -> None:
    state = blank(2)
    set_market(state, [["Ecuador"], [], [], []])  # 7 slots
    set_palette(state, 0, Red=2, Yellow=2, Blue=2, Green=2, Black=1, Others=1)
    for space, design in enumerate(["3-for-2", "any as Cyan", "Red as any"]):
        give_motif(state, 0, design, space)
    action_phase(state)
    play(state, "complete Ecuador", "place at row 1 column 1")
    while state.phase == PAY:
        assert 1 <= len(state.legal_actions()) <= 24
        state.apply(state.legal_actions()[-1])
    assert state.boards[0].gallery[0] == flag("Ecuador")


def test_R20_bonus_per_completed_neighbour_in_its_colour() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    # neighbours of row 2 column 1 (cell 4): cells 0, 1, 5, 8, 9
    put_flags(state, 0, {0: "France", 1: "Germany", 9: "Italy", 3: "Chile"})
    set_palette(state, 0, Red=1)
    action_phase(state)
    play(state, "complete Japan", "place at row 2 column 1")
    # France -> Blue, Germany -> Black, Italy -> Green (diagonal); Chile is not adjacent; no bonus for Japan itself
    assert palette_of(state, 0) == {"Blue": 1, "Black": 1, "Green": 1}


def test_R21_short_pigment_supply_the_player_chooses_bonuses() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    put_flags(state, 0, {0: "France", 1: "Germany", 5: "Italy"})
    set_palette(state, 0)
    state.boards[0].add_palette_flag(flag("Canada"))  # a Red palette flag: paying returns no pigment card
    state.pigment_supply = 1
    action_phase(state)
    play(state, "complete Japan", "place at row 2 column 1")
    assert state.phase == BONUS_PICK
    assert set(labels(state)) == {"take bonus Green", "take bonus Blue", "take bonus Black"}
    state.apply("take bonus Black")
    assert palette_of(state, 0) == {"Black": 1} and state.pigment_supply == 0 and state.active == 1


def test_R22_trigger_on_the_last_gallery_space() -> None:
    for beginner, size in ((False, 12), (True, 9)):
        state = blank(2, beginner=beginner)
        names = list(ELEVEN.values())[: size - 1]
        put_flags(state, 0, dict(enumerate(names)))
        set_market(state, [["Japan"], [], [], []])
        set_palette(state, 0, Red=1)
        action_phase(state)
        state.apply("complete Japan")  # one free space: placed at once
        assert state.trigger == 0 and state.boards[0].placed == size


def test_R23_play_continues_until_the_starting_player_would_play_again() -> None:
    state = blank(3)
    put_flags(state, 1, ELEVEN)
    set_market(state, [["Japan"], ["France"], ["Chile"], []])
    set_palette(state, 1, Red=1)
    state.turns = [9, 8, 8]
    action_phase(state, 1)
    state.apply("complete Japan")
    assert state.trigger == 1 and state.to_move == 2 and not state.is_terminal()
    state.apply("gain France as Blue pigment")
    assert state.is_terminal() and state.turns == [9, 9, 9]


def test_R23_last_seat_triggering_ends_the_game_at_once() -> None:
    state = blank(3)
    put_flags(state, 2, ELEVEN)
    set_market(state, [["Japan"], ["France"], [], []])
    set_palette(state, 2, Red=1)
    action_phase(state, 2)
    state.apply("complete Japan")
    assert state.is_terminal()


def test_R24_atelier_sketches_score_nothing() -> None:
    state = blank(2)
    state.boards[0].atelier = [flag("Ecuador"), flag("Spain")]
    assert state.scores()[0].total == 0


def test_R25_pigment_motif_scores_one_per_pigment_anywhere() -> None:
    state = blank(2)
    set_palette(state, 0, Red=3, Blue=1)
    give_motif(state, 0, "Pigment", 5)
    give_motif(state, 0, "Pigment", 2, skip=1)
    assert state.scores()[0].breakdown == {"flags": 0, "motifs": 8, "topography": 0, "pigments": 4}


def test_R26_solo_rank_boundaries_are_disjoint() -> None:
    assert [solo_rank(v) for v in (0, 59, 60, 79, 80, 99, 100, 119, 120, 200)] == [
        "Novice",
        "Novice",
        "Apprentice",
        "Apprentice",
        "Fellow",
        "Fellow",
        "Master",
        "Master",
        "Vexillologist",
        "Vexillologist",
    ]


def test_R27_hidden_supply_and_piles_public_everything_else() -> None:
    state = started(3)
    view = state.view(None)
    assert view["flag_supply"] == len(state.flag_supply) and isinstance(view["flag_supply"], int)
    assert view["motif_piles"] == [len(p) for p in state.piles]
    text = json.dumps(view)
    for f in state.flag_supply[-5:]:
        assert f'"{FLAGS[f].name}"' not in text
    twin = state.determinize(1, Rng(5))
    assert twin.view(1) == state.view(1)
    assert twin.flag_supply != state.flag_supply and sorted(twin.flag_supply) == sorted(state.flag_supply)


def test_R27_determinize_before_reveal_redeals_others_hands() -> None:
    state = new(3)
    state.apply(state.legal_actions()[0])
    twin = state.determinize(1, Rng(3))
    assert twin.view(1) == state.view(1)
    assert twin.boards[0].hand != state.boards[0].hand
    assert twin.boards[1].hand == state.boards[1].hand


def test_R5_R27_determinize_before_reveal_redraws_where_the_others_put_their_cards_and_tiles() -> None:
    """Seat 1 cannot see whether seat 0 kept her cards in palette or atelier, nor how she laid her
    tiles: a re-dealt copy must not keep the true split and arrangement for search to peek at."""
    state = new(3)
    play(state, *[f"keep {FLAGS[f].name} in atelier" for f in state.boards[0].hand[:3]])
    while state.to_move == 0:
        state.apply(state.legal_actions()[0])
    assert state.phase == SETUP_KEEP and state.to_move == 1
    true_tiles = state.boards[0].tiles[:]
    splits, arrangements = set(), set()
    for trial in range(40):
        twin = state.determinize(1, Rng(trial))
        assert twin.view(1) == state.view(1)
        other = twin.boards[0]
        assert len(other.atelier) + len(other.palette_flags) == 3 and sum(other.palette) == len(other.palette_flags)
        assert sorted(TILES[t].topography for t in other.tiles) == sorted(TILES[t].topography for t in true_tiles)
        splits.add(len(other.atelier))
        arrangements.add(tuple(TILES[t].topography for t in other.tiles))
        while not twin.is_terminal() and not twin.revealed:  # the copy plays on through the reveal
            twin.apply(twin.legal_actions()[0])
    assert len(splits) > 1 and len(arrangements) > 1


def test_R28_player_colours_by_seat() -> None:
    assert [p["colour"] for p in started(4).view(None)["players"]] == ["Red", "Yellow", "Blue", "Green"]


def test_R29_completed_market_card_leaves_row_without_refill() -> None:
    state = blank(2)
    set_market(state, [["France", "Japan"], ["Chile"], [], []])
    set_palette(state, 0, Red=1)
    supply = len(state.flag_supply)
    action_phase(state)
    play(state, "complete Japan", "place at row 1 column 1")
    assert state.market[0] == [flag("France")] and len(state.flag_supply) == supply


def test_R30_every_player_has_the_same_number_of_turns() -> None:
    state = started(4, seed=11)
    rng = Rng(11)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert len(set(state.turns)) == 1


def test_R31_pairs_must_share_a_colour_palette_flags_count_as_bonus_colour() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Orange=1, Blue=1)
    state.boards[0].add_palette_flag(flag("United States"))  # Orange bonus
    action_phase(state)
    play(state, "complete Japan", "place at row 1 column 1")
    assert palette_of(state, 0) == {"Blue": 1}  # the two Orange paid Red; Orange + Blue could not


def test_R32_motif_usable_in_the_same_turn() -> None:
    state = blank(2)
    set_market(state, [["Somalia"], [], [], []])
    set_palette(state, 0, Red=1)
    state.motif_supply = [motif("Red as any"), motif("Sun")]
    turn_of(state, 0)
    play(state, "start the motif phase", "motif Red as any above column 1", "motif Sun above column 1")
    # the Market was refreshed; put Somalia back as a row's rightmost card
    set_market(state, [["Somalia"], [], [], []])
    action_phase(state)
    assert "complete Somalia" in labels(state)


def test_R33_type_I_motif_scores_only_its_line() -> None:
    state = blank(2)
    put_flags(state, 0, {0: "Japan", 5: "Argentina"})  # both show a Sun
    give_motif(state, 0, "Sun", 0)  # above column 1: Japan only
    assert state.scores()[0].breakdown["motifs"] == 5
    state.boards[0].motifs = [-1] * 7
    give_motif(state, 0, "Sun", 5)  # left of row 2: Argentina only
    assert state.scores()[0].breakdown["motifs"] == 5


def test_R34_boxed_cards_never_return() -> None:
    state = blank(2)
    set_market(state, [["Japan", "France"], [], [], []])
    turn_of(state, 0)
    state.apply("start the motif phase")
    while state.phase == MOTIF_PICK:
        state.apply(state.legal_actions()[0])
    assert {flag("Japan"), flag("France")} <= set(state.box_flags)
    assert flag("Japan") not in state.flag_supply and all(flag("Japan") not in row for row in state.market)


def test_R35_pigment_cards_are_spent_before_flag_cards() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=1)
    state.boards[0].add_palette_flag(flag("Canada"))  # Red bonus
    action_phase(state)
    play(state, "complete Japan", "place at row 1 column 1")
    assert state.boards[0].palette_flags == [flag("Canada")] and state.boards[0].pigment_cards[0] == 0


def test_P2_four_players_choose_which_kind_of_card_pays() -> None:
    """With 4 players the Pigment Supply can run short (R21), so whether a pigment card goes back to it
    or a palette flag card leaves the game is the player's choice (the rulebook lets her pay with either)."""
    state = blank(4)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=1)
    state.boards[0].add_palette_flag(flag("Canada"))  # a Red palette flag
    supply = state.pigment_supply
    action_phase(state)
    play(state, "complete Japan", "place at row 1 column 1")
    assert state.phase == CARDS and set(labels(state)) == {"spend pigment cards only", "spend 1 palette flag card"}
    assert state.view(0)["spending"] == {"pigment": "Red", "n": 1}
    state.apply("spend 1 palette flag card")
    assert state.boards[0].gallery[0] == flag("Japan") and state.box_flags[-1] == flag("Canada")
    assert state.boards[0].pigment_cards[0] == 1 and state.pigment_supply == supply


def test_P2_a_pair_chooses_how_many_flag_cards_it_spends() -> None:
    state = blank(4)
    set_market(state, [["Somalia"], [], [], []])  # Cyan
    set_palette(state, 0, Red=1)
    state.boards[0].add_palette_flag(flag("Canada"))
    state.boards[0].add_palette_flag(flag("Georgia"))
    supply = state.pigment_supply
    action_phase(state)
    play(state, "complete Somalia", "place at row 1 column 1")  # two Red pay Cyan: the only unit
    assert labels(state) == ["spend 1 palette flag card", "spend 2 palette flag cards"]
    with pytest.raises(IllegalAction, match="1 to 2 can be palette flag cards"):
        state.apply("spend pigment cards only")
    state.apply("spend 1 palette flag card")
    assert state.pigment_supply == supply + 1 and state.box_flags[-1] == flag("Canada")
    assert state.boards[0].palette_flags == [flag("Georgia")]


def test_P2_four_players_choose_which_kind_of_card_to_discard() -> None:
    state = blank(4)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=10)
    action_phase(state)
    state.apply("gain Japan as Red pigment")  # one colour only, but two kinds of card
    assert state.phase == CARDS and set(labels(state)) == {"spend pigment cards only", "spend 1 palette flag card"}
    state.apply("spend 1 palette flag card")
    assert state.boards[0].palette_flags == [] and state.boards[0].pigment_cards[0] == 10 and state.active == 1


def test_P2_with_fewer_players_pigment_cards_go_first_without_asking() -> None:
    """With 1-3 players the supply can never run short (at most 9 + 10 + 10 pigments are out when a
    bonus is taken, 7 bonuses at most before the last), so the kind of card changes nothing."""
    state = blank(3)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=1)
    state.boards[0].add_palette_flag(flag("Canada"))
    action_phase(state)
    play(state, "complete Japan", "place at row 1 column 1")
    assert state.phase != CARDS and state.boards[0].palette_flags == [flag("Canada")]


def short_supply_position(supply: int, tile: str = "", **pigments: int):
    """4 players; Red completes Japan (Red) at row 2 column 1 next to France (Blue bonus) and Germany
    (Black bonus), with `supply` pigment cards left in the Pigment Supply."""
    state = blank(4)
    set_market(state, [["Japan"], [], [], []])
    put_flags(state, 0, {0: "France", 1: "Germany"})
    set_palette(state, 0, **pigments)
    if tile:
        give_motif(state, 0, tile, 0)
    state.pigment_supply = supply
    action_phase(state)
    play(state, "complete Japan", "place at row 2 column 1")
    return state


def test_P3_short_supply_with_four_players_offers_a_needless_pair() -> None:
    """Two Red for the Red slot puts one more card back in time to take both bonuses (R21)."""
    state = short_supply_position(1, Red=2)
    assert set(labels(state)) == {"pay Red with Red", "pay Red with two Red"}
    state.apply("pay Red with two Red")
    assert palette_of(state, 0) == {"Blue": 1, "Black": 1} and state.pigment_supply == 1


def test_P3_short_supply_a_three_for_two_may_lose_its_spare() -> None:
    state = short_supply_position(0, "3-for-2", Green=3)
    assert set(labels(state)) == {"pay Red with two Green", "pay Red with three Green"}
    state.apply("pay Red with three Green")  # no other slot: the spare is lost (R17), all three go back
    assert palette_of(state, 0) == {"Blue": 1, "Black": 1} and state.pigment_supply == 1


def test_P3_short_supply_the_spare_may_be_given_up_though_a_slot_could_take_it() -> None:
    state = blank(4)
    set_market(state, [["Chile"], [], [], []])  # Red + Blue
    put_flags(state, 0, {0: "France", 1: "Germany"})
    set_palette(state, 0, Green=3, Blue=1)
    give_motif(state, 0, "3-for-2", 0)
    state.pigment_supply = 0
    action_phase(state)
    play(state, "complete Chile", "place at row 2 column 1", "pay Red with three Green")
    assert set(labels(state)) == {"spare pigment pays Blue", "the spare pigment is lost"}
    state.apply("the spare pigment is lost")  # Blue then pays Blue: four cards back, both bonuses
    assert state.boards[0].gallery[4] == flag("Chile") and palette_of(state, 0) == {"Blue": 1, "Black": 1}
    assert state.pigment_supply == 2


def test_P3_needless_units_are_not_offered_when_the_supply_suffices() -> None:
    state = short_supply_position(2, Red=2)
    assert palette_of(state, 0) == {"Red": 1, "Blue": 1, "Black": 1}  # the single Red was paid at once
    state = blank(3)
    set_market(state, [["Japan"], [], [], []])
    put_flags(state, 0, {0: "France", 1: "Germany"})
    set_palette(state, 0, Red=2)
    state.pigment_supply = 0
    action_phase(state)
    play(state, "complete Japan", "place at row 2 column 1")
    assert state.phase == BONUS_PICK  # fewer than 4 players: never offered (P3)


# --- data rulings R36-R46 ------------------------------------------------------------------


def test_R36_continents_follow_olympic_associations() -> None:
    counts = Counter(f.continent for f in FLAGS)
    assert counts == {"Africa": 54, "America": 41, "Asia": 45, "Europe": 51, "Oceania": 17}
    by = {f.name: f for f in FLAGS}
    assert by["Cyprus"].continent == "Europe" and by["Kazakhstan"].continent == "Asia"
    assert by["Guam"].continent == "Oceania" and by["Faroe Islands"].continent == "Europe"


def test_R37_topography_counts_and_examples() -> None:
    assert Counter(f.topography for f in FLAGS) == {"Coastal": 107, "Island": 57, "Landlocked": 44}
    by = {f.name: f for f in FLAGS}
    assert by["Azerbaijan"].topography == "Landlocked" and by["Haiti"].topography == "Island"
    assert by["Australia"].topography == "Coastal"


def test_R38_flag_versions() -> None:
    by = {f.name: f for f in FLAGS}
    assert "Artifact" in by["Spain"].features  # state flag with arms
    assert "Artifact" not in by["Peru"].features  # plain civil flag


def test_R39_white_is_never_a_pigment_and_blues_split() -> None:
    by = {f.name: f for f in FLAGS}
    assert [COLOURS[c] for c in by["United States"].required] == ["Red", "Blue"]
    assert COLOURS.index("Cyan") in by["Argentina"].required and COLOURS.index("Blue") in by["Greece"].required


def test_R40_multiset_of_pigments() -> None:
    by = {f.name: f for f in FLAGS}
    assert by["Spain"].required.count(COLOURS.index("Others")) == 2
    assert max(len(f.required) for f in FLAGS) == 7


def test_R41_features() -> None:
    by = {f.name: f for f in FLAGS}
    assert sorted(f.name for f in FLAGS if not f.features) == ["Palau", "South Korea"]
    assert "Triangle" in by["Jamaica"].features and "Diagonal Stripes" not in by["Jamaica"].features
    assert "Fauna" in by["Bhutan"].features


def test_R42_designed_vp_formula() -> None:
    by = {f.name: f for f in FLAGS}
    expected = {
        "Japan": 1,
        "Somalia": 2,
        "France": 3,
        "Côte d'Ivoire": 4,
        "Germany": 6,
        "Armenia": 7,
        "Ghana": 10,
        "Sri Lanka": 12,
        "South Africa": 15,
        "Belize": 22,
        "Ecuador": 28,
    }
    assert {name: by[name].vp for name in expected} == expected


def test_R43_bonus_pigments_26_per_colour() -> None:
    assert Counter(f.bonus for f in FLAGS) == {c: 26 for c in range(8)}


def test_R44_type_I_motif_vp_tiers() -> None:
    vp = {m.subject: m.vp_per_match for m in MOTIFS if m.type == "I"}
    assert vp["Horizontal Stripes"] == 2 and vp["Artifact"] == 3 and vp["Fauna"] == 4 and vp["Sun"] == 5
    assert vp["Africa"] == 2 and vp["Oceania"] == 5 and vp["Pigment"] == 1
    assert sum(1 for m in MOTIFS if m.kind == "pigment") == 2


def test_R45_type_II_split() -> None:
    assert Counter(m.kind for m in MOTIFS if m.type == "II") == {
        "pigment_as_any": 8,
        "any_as_colour": 6,
        "three_for_two": 3,
    }


def test_R46_topography_tiles() -> None:
    red = sorted((t.topography, t.vp) for t in TILES if t.player_colour == "Red")
    assert red == [
        ("Coastal", (0, 1, 3, 6)),
        ("Coastal", (0, 1, 3, 6)),
        ("Island", (0, 2, 5, 8)),
        ("Landlocked", (0, 3, 6, 10)),
    ]


# --- scoring and ties ----------------------------------------------------------------------------


def test_R47_a_flag_counts_once_per_motif_and_for_row_and_column() -> None:
    state = blank(2)
    put_flags(state, 0, {0: "Ghana"})  # one star (Star motif: 2 VP per flag)
    give_motif(state, 0, "Star", 0)  # column 1
    give_motif(state, 0, "Africa", 4)  # row 1
    assert state.scores()[0].breakdown["motifs"] == 2 + 2


def test_R48_ties_share_the_victory() -> None:
    state = blank(2)
    put_flags(state, 0, {0: "France"})
    put_flags(state, 1, {5: "Chile"})
    state.phase = OVER
    assert state.winners() == [0, 1] and state.returns() == [0.0, 0.0]


# --- variants and solo -------------------------------------------------------------------------


def test_R49_motif_variant_one_pile_from_setup_on() -> None:
    state = new(3, variant="motif")
    assert len(state.piles) == 1 and len(state.piles[0]) == 32 and len(state.motif_supply) == 4
    state.piles = [state.piles[0][:2]]
    state._reveal_motifs()
    assert len(state.motif_supply) == 2


def test_R50_drafting_pick_one_pass_left_three_times() -> None:
    state = new(3, variant="drafting")
    hands = [b.hand[:] for b in state.boards]
    state.apply(f"draft {FLAGS[hands[0][0]].name}")
    state.apply(f"draft {FLAGS[hands[1][0]].name}")
    state.apply(f"draft {FLAGS[hands[2][0]].name}")
    # seat 1 now holds what seat 0 passed (8 cards)
    assert state.boards[1].hand == hands[0][1:] and state.to_move == 0
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    assert state.phase == SETUP_KEEP and all(len(b.hand) == 3 for b in state.boards)
    supply = len(state.flag_supply)
    while not state.revealed:
        state.apply(state.legal_actions()[0])
    assert len(state.flag_supply) == supply  # the 6 left in each hand went back before


def test_R51_solo_beginner_side_allowed() -> None:
    state = started(1, beginner=True)
    assert state.game.columns == 3 and state.game.solo


def test_R52_solo_automaton_boxes_the_two_upper_motifs() -> None:
    state = blank(1)
    set_market(state, [["Japan"], ["Chile"], ["Italy"], ["Germany"]])
    action_phase(state)
    upper, lower = state.motif_supply[:2], state.motif_supply[2:]
    state.apply("gain Chile as Red pigment")  # row 2 is now empty: the automaton runs (A)
    assert state.phase == MOTIF_PICK and set(upper) <= set(state.box_motifs)
    assert state.motif_supply == lower
    state.apply(state.legal_actions()[0])
    assert set(lower) & set(state.box_motifs) and len(state.motif_supply) == 4
    assert [len(row) for row in state.market] == [4, 3, 2, 2] and state.phase == TURN_START


def test_R53_automaton_removes_lowest_vp_rightmost_uppermost_on_ties() -> None:
    state = blank(1)
    set_market(state, [["Ghana", "France"], ["Germany", "Chile"], ["Japan", "Nigeria"], ["Spain", "Italy"]])
    action_phase(state)
    state.apply("reserve Italy")
    # rightmost of rows with more than one card: France 3, Chile 3, Nigeria 1 -> Nigeria
    assert state.box_flags[-1] == flag("Nigeria")
    state = blank(1)
    set_market(state, [["Ghana"], ["Chile"], ["France"], ["Japan", "Italy"]])
    action_phase(state)
    state.apply("reserve Italy")  # every row holds one card: the lowest VP, Japan (1), goes
    assert state.box_flags[-1] == flag("Japan")
    state = blank(1)
    set_market(state, [["Ghana"], ["Chile"], ["France"], ["Germany", "Italy"]])
    action_phase(state)
    state.apply("reserve Italy")  # Chile and France tie at 3 VP: the uppermost (row 2) goes
    assert state.box_flags[-1] == flag("Chile")


def test_R54_no_voluntary_motif_phase_in_solo_but_forced_when_market_empty() -> None:
    state = blank(1)
    set_market(state, [["Japan"], [], ["France"], []])
    turn_of(state, 0)
    assert "start the motif phase" not in labels(state)
    set_market(state, [[], [], [], []])
    state.phase = ACTION
    state.active = 0
    state._begin_turn([])
    assert state.phase in (MOTIF_PICK, ACTION) and len(state.box_motifs) == 2


def test_R55_solo_ends_right_after_the_last_flag() -> None:
    state = blank(1)
    put_flags(state, 0, ELEVEN)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=1)
    action_phase(state)
    events = state.apply("complete Japan")
    assert state.is_terminal()
    assert any("(" in e.text and e.kind == "game_over" for e in events)
    assert state.view(0)["rank"] == solo_rank(int(state.scores()[0].total))


def test_R56_two_player_market_is_4_3_2_2() -> None:
    assert [len(r) for r in new(2).market] == [4, 3, 2, 2]
    assert [len(r) for r in new(1).market] == [4, 3, 2, 2]


def test_R57_gain_is_legal_with_a_full_palette() -> None:
    state = blank(2)
    set_market(state, [["France"], [], [], []])
    set_palette(state, 0, Red=10)
    action_phase(state)
    state.apply("gain France as Blue pigment")
    assert state.phase == CLEAN and state.boards[0].pigments() == 11
    state.apply("discard Red")
    assert palette_of(state, 0) == {"Red": 9, "Blue": 1}


def test_R58_any_empty_space_even_for_the_first_flag() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=1)
    action_phase(state)
    state.apply("complete Japan")
    assert state.phase == CELL and len(state.legal_actions()) == 12
    state.apply("place at row 3 column 4")
    assert state.boards[0].gallery[11] == flag("Japan")


def test_R59_motif_phase_possible_in_the_final_round() -> None:
    state = blank(2)
    state.trigger = 0
    set_market(state, [["Japan"], [], [], []])
    turn_of(state, 1)
    assert "start the motif phase" in labels(state)


def test_R60_only_completed_flags_score_for_motifs_and_topography() -> None:
    state = blank(2)
    state.boards[0].tiles = [t.id for t in TILES if t.player_colour == "Red"]
    state.boards[0].atelier = [flag("Japan")]
    give_motif(state, 0, "Sun", 0)
    assert state.scores()[0].total == 0


def test_R61_dead_end_ends_the_game() -> None:
    state = blank(2)
    set_market(state, [[], [], [], []])
    state.flag_supply = []
    state.piles = [[], []]
    state.motif_supply = []
    state.boards[0].atelier = [flag("Ecuador")]
    turn_of(state, 0)
    state.apply("start the motif phase")
    assert labels(state) == ["pass"]
    events = state.apply("pass")
    assert state.is_terminal() and state.dead_end and any(e.kind == "dead_end" for e in events)


def test_R61_no_dead_end_while_someone_can_pay_an_atelier_sketch() -> None:
    state = blank(2)
    set_market(state, [[], [], [], []])
    state.flag_supply, state.piles, state.motif_supply = [], [[], []], []
    state.boards[1].atelier = [flag("Japan")]
    set_palette(state, 1, Red=1)
    turn_of(state, 0)
    play(state, "start the motif phase", "pass")
    assert not state.is_terminal() and state.to_move == 1
    assert labels(state) == ["start the motif phase"]
    state.apply("start the motif phase")
    assert labels(state) == ["complete Japan"]


def test_R62_pigment_motif_points_are_reported_as_motifs() -> None:
    parts = breakdown([-1] * 12, [motif("Pigment")] + [-1] * 6, [-1] * 4, 4, 3)
    assert parts == {"flags": 0, "motifs": 3, "topography": 0, "pigments": 3}
