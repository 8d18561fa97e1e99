"""Planning a tournament: seats, seeds, and everything refused before a game is played."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.arena.tournament import ArenaError, agent_names, derive_seed, parse_options, plan


def test_every_agent_plays_every_seat_equally() -> None:
    tournament = plan("nim", "random,greedy", 10)
    seats = Counter((agent, seat) for index in range(10) for seat, agent in enumerate(tournament.seating(index)))
    assert seats == {(0, 0): 5, (0, 1): 5, (1, 0): 5, (1, 1): 5}


def test_game_seeds_depend_only_on_the_tournament_seed_and_the_index() -> None:
    short, long = plan("nim", "random,random", 5, seed=9), plan("nim", "random,random", 500, seed=9)
    assert [short.game_seed(i) for i in range(5)] == [long.game_seed(i) for i in range(5)]
    assert len({long.game_seed(i) for i in range(500)}) == 500
    assert plan("nim", "random,random", 5, seed=10).game_seed(0) != short.game_seed(0)
    assert short.agent_seed(0, 0) != short.agent_seed(0, 1) != short.game_seed(0)
    assert all(0 <= derive_seed(9, i) < 2**53 for i in range(100))


def test_repeated_agents_get_numbered_names() -> None:
    assert agent_names(["random", "greedy", "random"]) == ["random #1", "greedy", "random #2"]
    assert plan("nim", ["mcts:iterations=50", "random"], 2).names == ["mcts:iterations=50", "random"]


def test_plan_fills_in_the_game_options() -> None:
    tournament = plan("nim", "random,random", 3, options={"stones": "12"})
    assert tournament.options == {"players": 2, "stones": 12}
    assert parse_options(["stones=12", "a=1,b=2"]) == {"stones": "12", "a": "1", "b": "2"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "no game called 'chess'"),
        ({"agents": "random,wizard"}, "no agent called 'wizard'"),
        ({"agents": "random,mcts:depth=3"}, "mcts has no parameter 'depth'"),
        ({"agents": "random"}, "nim is played by 2 players, but --agents gives 1"),
        ({"agents": "random,random,random"}, "gives 3"),
        ({"agents": "random,"}, "one per seat"),
        ({"players": 3}, "3 players need 3 agents"),
        ({"games": 0}, "--games must be at least 1"),
        ({"seed": -1}, "--seed must be zero or more"),
        ({"options": {"stones": "many"}}, "nim option stones takes int"),
        ({"options": {"colour": "red"}}, "nim has no option 'colour'"),
        ({"options": {"players": "2"}}, "--players"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(kwargs: dict, message: str) -> None:
    arguments = {"game": "nim", "agents": "random,random", "games": 4, **kwargs}
    with pytest.raises(ArenaError, match=message.replace("[", r"\[")):
        plan(**arguments)


def test_bad_option_words_are_refused() -> None:
    with pytest.raises(ArenaError, match="not name=value"):
        parse_options(["stones"])


def test_an_agent_spec_keeps_all_its_parameters() -> None:
    tournament = plan("nim", "mcts:iterations=20,c=0.7,random", 2)
    assert tournament.agents == ("mcts:iterations=20,c=0.7", "random")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_games_go_through_every_seating_order_equally_often(players: int) -> None:
    from math import factorial

    tournament = plan("yamatai", ["greedy"] * (players - 1) + ["random"], 1)
    games = 2 * factorial(players)
    orders = Counter(tuple(tournament.seating(index)) for index in range(games))
    assert len(orders) == factorial(players)
    assert set(orders.values()) == {2}
    # Two identical agents: each sits right after the other as often as the other sits after it.
    after = Counter(
        (order[seat], order[(seat + 1) % players])
        for index in range(games)
        for order in [tournament.seating(index)]
        for seat in range(players)
    )
    assert after[(0, 1)] == after[(1, 0)]


@pytest.mark.parametrize("players", [5, 6, 7])
def test_beyond_four_seats_a_balanced_latin_square_seats_everyone(players: int) -> None:
    from parlour.arena.tournament import seating_orders

    orders = seating_orders(players)
    assert len(orders) == (players if players % 2 == 0 else 2 * players)
    seats = Counter((agent, seat) for order in orders for seat, agent in enumerate(order))
    assert set(seats.values()) == {len(orders) // players}
    followers = Counter((order[s], order[s + 1]) for order in orders for s in range(players - 1))
    assert len(followers) == players * (players - 1)
    assert len(set(followers.values())) == 1
