"""Set-up for 2, 3 and 4 players (rulebook "Setup"; R34, R39)."""

from __future__ import annotations

import json

import pytest

from parlour.engine import InvalidOption, load_game
from parlour.games.yamatai import constants as r

from .positions import fresh


@pytest.mark.parametrize(
    ("players", "buildings", "colours"),
    [
        (4, 6, ["blue", "orange", "purple", "grey"]),
        (3, 8, ["blue", "orange", "purple"]),
        (2, 10, ["blue", "orange"]),
    ],
)
def test_setup_players_get_coins_buildings_and_colours(players: int, buildings: int, colours: list[str]) -> None:
    state = fresh(players, seed=5)
    view = state.view(0)
    assert [mat["colour"] for mat in view["mats"]] == colours
    assert all(mat["coins"] == 10 and mat["buildings_left"] == buildings for mat in view["mats"])
    assert all(sum(mat["culture"].values()) == 0 and sum(mat["harbour"].values()) == 0 for mat in view["mats"])


def test_R34_colours_by_player_count() -> None:
    assert "grey" not in load_game("yamatai", players=3).colours
    assert load_game("yamatai", players=2).colours == ("blue", "orange")


def test_setup_tracks_row_and_fleet() -> None:
    state = fresh(4, seed=9)
    assert len([s for s in state.spec_track if s >= 0]) == 5 and state.spec_coins == [0] * 5
    assert len(state.spec_deck) == 13
    assert len([t for t in state.row if t >= 0]) == 5 and len(state.deck) == 23
    view = state.view(None)
    assert [f["face_up"] for f in view["fleet_track"]] == [True] * 5 + [False] * 5
    assert all(f["tile"] is None for f in view["fleet_track"][5:])
    assert sorted(state.fleet_track) == list(range(1, 11))
    assert view["reserve"] == {"bamboo": 22, "wood": 19, "stone": 16, "clay": 13, "gold": 10}


@pytest.mark.parametrize("seed", range(6))
def test_R39_culture_tokens_and_mountains(seed: int) -> None:
    state = fresh(4, seed=seed)
    holding = [k for k in state.island_token if k >= 0]
    assert len(holding) == 30
    assert sorted(holding) == sorted(k for k in range(6) for _ in range(5))
    assert sum(state.mountain) == 7
    empty_mountains = [i for i in range(34) if state.mountain[i] and state.island_token[i] < 0]
    assert len(empty_mountains) == 1  # the black-rimmed blank leaves its mountain tile


def test_setup_turn_order_is_a_shuffle_of_the_players() -> None:
    orders = {tuple(fresh(4, seed=s).order) for s in range(20)}
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders) and len(orders) > 3


@pytest.mark.parametrize("seed", range(10))
def test_setup_two_players_repeat_their_meeple_order(seed: int) -> None:
    order = fresh(2, seed=seed).order
    assert len(order) == 4 and order[:2] == order[2:] and sorted(order[:2]) == [0, 1]


def test_setup_is_fixed_by_the_seed() -> None:
    a, b = fresh(3, seed=11), fresh(3, seed=11)
    assert json.dumps(a.view(None)) == json.dumps(b.view(None))
    assert json.dumps(a.view(None)) != json.dumps(fresh(3, seed=12).view(None))


def test_first_decision_is_a_face_up_fleet_tile() -> None:
    state = fresh(4, seed=1)
    assert state.phase == r.FLEET and state.current_player() == state.order[0]
    assert sorted(a.param("tile") for a in state.legal_actions()) == sorted(state.fleet_track[:5])


def test_player_count_and_options_are_checked() -> None:
    with pytest.raises(InvalidOption, match="yamatai takes 2-4 players, got 5"):
        load_game("yamatai", players=5)
    with pytest.raises(InvalidOption, match="max_rounds"):
        load_game("yamatai", max_rounds=-1)


def test_action_labels_are_unique_and_ids_are_indices() -> None:
    game = load_game("yamatai", players=3)
    labels = [" ".join(a.label.lower().split()) for a in game.actions]
    assert len(set(labels)) == len(labels) == game.num_actions
    assert all(action.id == index for index, action in enumerate(game.actions))
    assert game.action("Place WOOD boat at s037").label == "place wood boat at S037"
