"""One test per paragraph of the Hatairo rulebook (components, set-up, phases, actions, end,
scoring with its worked example, variants, solo mode, appendix), on positions built for it."""

from __future__ import annotations

import pytest

from parlour.engine import InvalidOption, load_game
from parlour.games.hatairo.components import FLAGS, MOTIFS, TILES
from parlour.games.hatairo.constants import ACTION, CLEAN, MOTIF_PICK, PIGMENT_CARDS, TURN_START
from parlour.games.hatairo.scoring import breakdown
from parlour.games.hatairo.state import HatairoState

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


def blank(players: int = 2, **options) -> HatairoState:
    state = started(players, **options)
    for board in state.boards:
        clear_board(board)
    return refresh(state)


# --- Components ------------------------------------------------------------------------------


def test_components_counts() -> None:
    assert len(FLAGS) == 208 and len(TILES) == 16 and PIGMENT_CARDS == 40
    assert sum(m.type == "I" for m in MOTIFS) == 19 and sum(m.type == "II" for m in MOTIFS) == 17


def test_components_flag_names_follow_the_rulebook_appendix() -> None:
    names = [f.name for f in FLAGS]
    assert names[0] == "Afghanistan" and names[-1] == "Zimbabwe"
    # the appendix order, not plain alphabetical order
    assert names.index("Thailand") < names.index("The Bahamas") < names.index("The Gambia") < names.index("Togo")
    assert names.index("China") + 1 == names.index("Chinese Taipei")
    assert names.index("Costa Rica") + 1 == names.index("Côte d'Ivoire")


# --- Game set-up -----------------------------------------------------------------------------------


def test_setup_1_board_side_per_game() -> None:
    assert started(3).game.columns == 4 and started(3, beginner=True).game.columns == 3


def test_setup_2_the_starting_player_moves_first() -> None:
    state = new(3)
    assert state.to_move == 0
    state = started(3)
    assert state.active == 0 and state.phase == TURN_START and state.view(None)["starting_player"] == 0


@pytest.mark.parametrize(("players", "rows"), [(2, [4, 3, 2, 2]), (3, [5, 4, 4, 3]), (4, [6, 6, 5, 4])])
def test_setup_3_market_distribution_table(players: int, rows: list[int]) -> None:
    assert [len(row) for row in new(players).market] == rows


def test_setup_4_nine_cards_dealt_to_each_player() -> None:
    assert all(len(board.hand) == 9 for board in new(4).boards)


def test_setup_5_keep_three_in_palette_or_atelier_return_the_rest_and_reshuffle() -> None:
    state = new(2)
    hand = state.boards[0].hand[:]
    state.apply(f"keep {FLAGS[hand[0]].name} in palette")
    state.apply(f"keep {FLAGS[hand[1]].name} in atelier")
    state.apply(f"keep {FLAGS[hand[2]].name} in atelier")
    assert state.boards[0].palette_flags == [hand[0]] and state.boards[0].atelier == hand[1:3]
    assert labels(state)[0].startswith("topography")
    while not state.revealed:
        state.apply(state.legal_actions()[0])
    assert all(not board.hand for board in state.boards)
    assert len(state.flag_supply) == 208 - 11 - 2 * 3
    assert set(hand[3:]) <= set(state.flag_supply)
    assert sorted(TILES[t].topography for t in state.boards[0].tiles) == ["Coastal", "Coastal", "Island", "Landlocked"]


def test_setup_5_topography_arrangement_is_the_players_choice() -> None:
    state = new(2)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert labels(state) == [
        "topography Coastal under column 1",
        "topography Island under column 1",
        "topography Landlocked under column 1",
    ]
    state.apply("topography Landlocked under column 1")
    state.apply("topography Island under column 2")
    # two Coastal tiles remain: still her decision (P5), so that how many moves she makes does not
    # tell the others how she laid her tiles; the last single tile is laid at once
    assert labels(state) == ["topography Coastal under column 3"]
    state.apply("topography Coastal under column 3")
    assert [TILES[t].topography for t in state.boards[0].tiles] == ["Landlocked", "Island", "Coastal", "Coastal"]
    assert state.to_move == 1


def test_setup_6_motif_supply_two_of_each_type() -> None:
    state = new(3)
    assert [MOTIFS[m].type for m in state.motif_supply] == ["I", "I", "II", "II"]
    assert [len(p) for p in state.piles] == [17, 15]


def test_setup_7_pigment_supply_and_empty_palettes_but_kept_cards() -> None:
    state = started(2)
    assert state.pigment_supply == 40
    assert all(sum(b.pigment_cards) == 0 for b in state.boards)


# --- Gameplay ---------------------------------------------------------------------------------


def test_gameplay_turns_go_clockwise_from_the_starting_player() -> None:
    state = started(3)
    seen = []
    for _ in range(3):
        seen.append(state.active)
        while state.active == seen[-1]:
            gains = [a for a in state.legal_actions() if a.kind == "gain"]
            state.apply(gains[0] if gains else state.legal_actions()[0])
    assert seen == [0, 1, 2] and state.active == 0


def test_motif_phase_only_when_a_row_is_empty_and_optional() -> None:
    state = blank(2)
    set_market(state, [["Japan"], ["France"], ["Chile"], ["Italy"]])
    assert "start the motif phase" not in labels(turn_of(state, 0))
    set_market(state, [["Japan"], [], ["Chile"], ["Italy"]])
    assert "start the motif phase" in labels(turn_of(state, 0)) and "reserve Japan" in labels(state)


def test_motif_phase_every_player_picks_then_market_and_supply_refresh() -> None:
    state = blank(3)
    set_market(state, [["Japan"], [], ["Chile"], []])
    supply = state.motif_supply[:]
    turn_of(state, 1)
    state.apply("start the motif phase")
    order = []
    while state.phase == MOTIF_PICK:
        order.append(state.to_move)
        state.apply(state.legal_actions()[0])
    assert order == [1, 2, 0]
    assert {flag("Japan"), flag("Chile")} <= set(state.box_flags)
    assert len(set(supply) & set(state.box_motifs)) == 1  # the unpicked one is boxed
    assert [len(r) for r in state.market] == [5, 4, 4, 3] and len(state.motif_supply) == 4
    assert state.phase == ACTION and state.to_move == 1


def test_motif_phase_one_motif_per_space_and_never_moved() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    give_motif(state, 0, "Star", 0)
    state.motif_supply = [motif("Sun"), motif("Asia")]
    turn_of(state, 0)
    state.apply("start the motif phase")
    assert not any(label.endswith("above column 1") for label in labels(state))
    assert len(labels(state)) == 2 * 6


def test_action_1_reserve_takes_the_rightmost_card_to_the_atelier() -> None:
    state = blank(2)
    set_market(state, [["France"], ["Germany", "Japan"], [], []])
    action_phase(state)
    state.apply("reserve Japan")
    assert state.boards[0].atelier == [flag("Japan")] and state.market[1] == [flag("Germany")]
    assert palette_of(state, 0) == {}  # a sketch is never a pigment


def test_action_1_atelier_sketches_are_not_pigments_for_the_clean_phase() -> None:
    state = blank(2)
    set_market(state, [["France"], [], [], []])
    set_palette(state, 0, Red=10)
    state.boards[0].atelier = [flag("Japan"), flag("Chile")]
    action_phase(state)
    state.apply("reserve France")
    assert state.active == 1 and len(state.boards[0].atelier) == 3  # 10 pigments: nothing to discard


def test_action_2_gain_takes_the_rightmost_card_as_its_pigment() -> None:
    state = blank(2)
    set_market(state, [["France"], ["Germany", "Japan"], [], []])
    action_phase(state)
    state.apply("gain Japan as Red pigment")
    assert palette_of(state, 0) == {"Red": 1} and state.boards[0].palette_flags == [flag("Japan")]


def test_action_3_complete_from_the_atelier_pay_place_and_take_bonuses() -> None:
    state = blank(2)
    set_market(state, [["Chile"], [], [], []])
    state.boards[0].atelier = [flag("Germany")]
    put_flags(state, 0, {0: "Japan", 2: "France"})
    set_palette(state, 0, Black=1, Red=1, Yellow=1)
    action_phase(state)
    assert "complete Germany" in labels(state)
    state.apply("complete Germany")
    state.apply("place at row 1 column 2")
    assert state.boards[0].gallery[1] == flag("Germany") and state.boards[0].atelier == []
    assert palette_of(state, 0) == {"Red": 1, "Blue": 1}  # bonuses of Japan (Red) and France (Blue)


def test_action_3_two_of_a_colour_pay_one_of_any_colour() -> None:
    state = blank(2)
    set_market(state, [["Somalia"], [], [], []])
    set_palette(state, 0, Black=2)
    action_phase(state)
    state.apply("complete Somalia")
    state.apply("place at row 1 column 1")
    assert state.boards[0].gallery[0] == flag("Somalia") and palette_of(state, 0) == {}


def test_clean_phase_discard_down_to_ten_by_choice() -> None:
    state = blank(2)
    set_market(state, [["France"], [], [], []])
    set_palette(state, 0, Red=6, Green=5)
    action_phase(state)
    state.apply("gain France as Blue pigment")
    assert state.phase == CLEAN and set(labels(state)) == {"discard Red", "discard Green", "discard Blue"}
    state.apply("discard Red")
    assert state.phase == CLEAN
    state.apply("discard Blue")
    assert palette_of(state, 0) == {"Red": 5, "Green": 5} and state.active == 1


def test_clean_phase_single_colour_discards_at_once() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Red=10)
    action_phase(state)
    state.apply("gain Japan as Red pigment")
    assert palette_of(state, 0) == {"Red": 10} and state.active == 1


def test_end_of_game_equal_turns_then_scoring() -> None:
    state = started(4, seed=3)
    from parlour.engine import Rng

    rng = Rng(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert len(set(state.turns)) == 1
    assert state.dead_end or state.trigger >= 0
    assert state.view(None)["scores"][0]["breakdown"].keys() == {"flags", "motifs", "topography", "pigments"}


# --- Scoring ----------------------------------------------------------------------------------------

EXAMPLE = [
    ["Ecuador", "Afghanistan", "Bhutan", "Virgin Islands"],
    ["Kyrgyzstan", "Jamaica", "East Timor", "Palau"],
    ["Argentina", "Rwanda", "Micronesia", "Cyprus"],
]


def example_state() -> HatairoState:
    state = blank(2)
    put_flags(state, 0, {r * 4 + c: name for r, row in enumerate(EXAMPLE) for c, name in enumerate(row)})
    tiles = {
        t: [x.id for x in TILES if x.player_colour == "Red" and x.topography == t]
        for t in ("Coastal", "Island", "Landlocked")
    }
    state.boards[0].tiles = [tiles["Coastal"][0], tiles["Landlocked"][0], tiles["Coastal"][1], tiles["Island"][0]]
    give_motif(state, 0, "Artifact", 0)
    give_motif(state, 0, "Asia", 2)
    give_motif(state, 0, "Flora", 3)
    give_motif(state, 0, "Fauna", 4)
    give_motif(state, 0, "Sun", 6)
    set_palette(state, 0, Red=1, Blue=1, Others=1)
    return state


def test_scoring_rulebook_example_84_42_17_3_is_146() -> None:
    score = example_state().scores()[0]
    assert score.breakdown == {"flags": 84, "motifs": 42, "topography": 17, "pigments": 3}
    assert score.total == 146


def test_scoring_categories_as_pure_functions() -> None:
    state = example_state()
    board = state.boards[0]
    assert breakdown(board.gallery, board.motifs, board.tiles, 4, 3)["motifs"] == 12 + 6 + 6 + 10 + 8


def test_scoring_ties_share_the_victory() -> None:
    state = blank(3)
    put_flags(state, 0, {0: "Germany"})
    put_flags(state, 2, {0: "Belgium"})
    state.phase = 11
    assert state.winners() == [0, 2]


def test_general_note_the_game_box_is_public() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    turn_of(state, 0)
    state.apply("start the motif phase")
    while state.phase == MOTIF_PICK:
        state.apply(state.legal_actions()[0])
    assert "Japan" in state.view(1)["box"]["flags"] and len(state.view(None)["box"]["motifs"]) == 2


def test_special_case_empty_market_forces_the_motif_phase() -> None:
    state = blank(3)
    set_market(state, [[], [], [], []])
    assert labels(turn_of(state, 2)) == ["start the motif phase"]


# --- Variants and solo ------------------------------------------------------------------------------


def test_motif_variant_one_shuffled_pile() -> None:
    state = new(2, variant="motif")
    assert len(state.piles) == 1 and len(state.piles[0]) + len(state.motif_supply) == 36


def test_drafting_variant_picks_are_hidden_and_passed_left() -> None:
    state = new(2, variant="drafting")
    assert all(label.startswith("draft ") for label in labels(state)) and len(labels(state)) == 9
    events = state.apply(state.legal_actions()[0])
    assert [e.audience for e in events if e.kind == "draft"] == [(0,)]
    assert "hand" not in state.view(1)["players"][0] and state.view(0)["players"][0]["drafted"]


def test_solo_1_two_player_market_2_motif_variant_3_one_board() -> None:
    state = new(1)
    assert [len(r) for r in state.market] == [4, 3, 2, 2] and len(state.piles) == 1 and len(state.boards) == 1


def test_solo_4a_empty_row_automaton_runs_a_motif_phase() -> None:
    state = blank(1)
    set_market(state, [["Japan"], ["France"], ["Chile"], ["Italy"]])
    action_phase(state)
    state.apply("gain Japan as Red pigment")
    assert state.phase == MOTIF_PICK and len(state.box_motifs) == 2


def test_solo_4b_no_empty_row_automaton_removes_a_card() -> None:
    state = blank(1)
    set_market(state, [["Japan", "Chile"], ["France"], ["Italy"], ["Germany", "Ghana"]])
    action_phase(state)
    state.apply("gain Ghana as Red pigment")
    assert state.box_flags[-1] == flag("Chile") and state.phase == TURN_START


def test_solo_5_6_play_to_the_end_and_show_the_rank() -> None:
    from parlour.engine import Rng

    state = started(1, seed=4)
    rng = Rng(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.view(0)["rank"] in {"Novice", "Apprentice", "Fellow", "Master", "Vexillologist"}
    assert "Rank: " in state.render(0)
    assert -1.0 <= state.returns()[0] <= 1.0


# --- Appendix -------------------------------------------------------------------------------------------


def test_appendix_continent_motif_scores_matching_flags_in_its_row() -> None:
    state = blank(2)
    put_flags(state, 0, {4: "Japan", 5: "Bahrain", 6: "France"})  # row 2: two Asian flags
    give_motif(state, 0, "Asia", 5)
    assert state.scores()[0].breakdown["motifs"] == 2 * 3


def test_appendix_topography_tile_scores_its_column() -> None:
    state = blank(2)
    put_flags(state, 0, {0: "Japan", 4: "Bahrain", 8: "Indonesia"})  # three islands in column 1
    state.boards[0].tiles[0] = next(t.id for t in TILES if t.player_colour == "Red" and t.topography == "Island")
    assert state.scores()[0].breakdown["topography"] == 8


def test_appendix_type_II_pigment_colour_tile() -> None:
    state = blank(2)
    set_market(state, [["Ukraine"], [], [], []])
    set_palette(state, 0, Black=2)
    give_motif(state, 0, "Black as any", 0)
    action_phase(state)
    assert "complete Ukraine" in labels(state)


def test_appendix_type_II_any_to_colour_tile() -> None:
    state = blank(2)
    set_market(state, [["Japan"], [], [], []])
    set_palette(state, 0, Cyan=1)
    give_motif(state, 0, "any as Red", 0)
    action_phase(state)
    state.apply("complete Japan")
    state.apply("place at row 1 column 1")
    assert state.boards[0].gallery[0] == flag("Japan") and palette_of(state, 0) == {}


# --- Options and the terminal --------------------------------------------------------------------------


def test_options_map_from_the_command_line() -> None:
    game = load_game("hatairo", players="3", beginner="true", variant="motif")
    assert game.options == {"players": 3, "beginner": True, "variant": "motif"}
    with pytest.raises(InvalidOption, match="takes 1-4 players"):
        load_game("hatairo", players=5)
    with pytest.raises(InvalidOption, match="drafting variant needs 2-4 players"):
        load_game("hatairo", players=1, variant="drafting")
    with pytest.raises(InvalidOption, match="variant must be one of"):
        load_game("hatairo", variant="teams")


def test_render_shows_market_gallery_motifs_topography_palette_atelier() -> None:
    state = example_state()
    state.boards[0].atelier = [flag("Japan")]
    set_market(state, [["France", "Chile"], [], [], []])
    text = state.render(0)
    for piece in (
        "row 1: France · [Chile",
        "needs Red+Blue",
        "[Artifact]",
        "row 3 [Sun]",
        "Ecuador 28",
        "topography:",
        "Island",
        "palette (3/10)",
        "atelier:",
        "Japan — needs Red",
        "146 VP now",
    ):
        assert piece in text, piece


def test_render_tells_what_motifs_and_topography_tiles_are_worth() -> None:
    state = example_state()
    state.motif_supply = [motif("Sun"), motif("Pigment"), motif("Red as any"), motif("3-for-2")]
    text = state.render(0)
    supply = next(line for line in text.splitlines() if line.startswith("Motif supply:"))
    assert "Sun (5 VP per flag)" in supply and "Pigment (1 VP per pigment left)" in supply
    assert "Red as any" in supply and "3-for-2 (three of a colour pay two of any)" in supply
    tiles = next(line for line in text.splitlines() if line.strip().startswith("topography:"))
    expected = ["Coastal", "0/1/3/6", "Landlocked", "0/3/6/10", "Coastal", "0/1/3/6", "Island", "0/2/5/8"]
    assert tiles.split()[1:] == expected


def test_render_hides_the_others_set_up_choices() -> None:
    state = new(2)
    state.apply(state.legal_actions()[0])
    assert "your cards to choose from" in state.render(0)
    assert "hidden until every player has chosen" in state.render(1)
    kept = state.boards[0].palette_flags + state.boards[0].atelier
    assert FLAGS[kept[0]].name in state.render(0) and FLAGS[kept[0]].name not in state.render(1)
