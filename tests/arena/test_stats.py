"""Statistics against values worked out by hand."""

from __future__ import annotations

import pytest

from parlour.arena.match import ranks
from parlour.arena.stats import features, openskill_ratings, spread, summarize, welch, wilson
from parlour.engine.game import Score
from tests.arena.conftest import game_record


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # p = 0.8, n = 10: centre (0.8 + 1.9208/10) / 1.38415 = 0.71674, half 1.96 * 0.16 / 1.38415 = 0.22656
        (8, 10, 0.49016, 0.94332),
        (5, 10, 0.23659, 0.76341),
        # no success: the lower bound is 0 and the upper z^2 / (n + z^2) = 3.8415 / 13.8415
        (0, 10, 0.0, 0.27753),
        (10, 10, 0.72247, 1.0),
        (50, 100, 0.40383, 0.59617),
    ],
)
def test_wilson_interval_matches_hand_values(wins: int, games: int, low: float, high: float) -> None:
    got_low, got_high = wilson(wins, games)
    assert got_low == pytest.approx(low, abs=1e-5)
    assert got_high == pytest.approx(high, abs=1e-5)


def test_wilson_with_no_games_says_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_spread_is_the_sample_standard_deviation() -> None:
    # mean 5, squared deviations 9+1+1+9 = 20, / (4 - 1) -> sqrt(20/3)
    assert spread([2.0, 4.0, 6.0, 8.0]) == pytest.approx((20 / 3) ** 0.5)
    assert spread([3.0]) == 0.0


def test_ranks_put_winners_first_and_share_places_on_ties() -> None:
    scores = [Score(10, tiebreak=(1,)), Score(7), Score(10, tiebreak=(2,)), Score(7)]
    assert ranks(scores, [2]) == [2, 3, 1, 3]
    assert ranks([Score(5), Score(5)], [0, 1]) == [1, 1]


def records_for_summary() -> list[dict]:
    a, b = "alpha", "beta"
    return [
        # game 0: alpha at seat 0 wins 3-1
        game_record(0, [a, b], [3, 1], [0], [1, 2], breakdowns=[{"flips": 2, "pig": 1}, {"flips": 1, "pig": 0}]),
        # game 1: seats swap; beta at seat 0 wins 4-2
        game_record(1, [b, a], [4, 2], [0], [1, 2], breakdowns=[{"flips": 4, "pig": 0}, {"flips": 2, "pig": 0}]),
        # game 2: alpha at seat 0, a draw 2-2
        game_record(2, [a, b], [2, 2], [0, 1], [1, 1], breakdowns=[{"flips": 2, "pig": 0}, {"flips": 2, "pig": 0}]),
        # game 3: beta at seat 0, alpha at seat 1 wins 5-0
        game_record(3, [b, a], [0, 5], [1], [2, 1], breakdowns=[{"flips": 0, "pig": 0}, {"flips": 3, "pig": 2}]),
    ]


def test_summary_counts_wins_draws_seats_and_scores() -> None:
    summary = summarize(records_for_summary(), ["alpha", "beta"], ["random", "greedy"])
    alpha, beta = summary.agents
    assert (summary.games, summary.draws) == (4, 1)
    assert (alpha.record.wins, alpha.record.games, alpha.draws) == (2, 4, 1)
    assert (beta.record.wins, beta.record.games, beta.draws) == (1, 4, 1)
    assert alpha.scores == [3, 2, 2, 5] and beta.scores == [1, 4, 2, 0]
    assert alpha.mean_rank == pytest.approx((1 + 2 + 1 + 1) / 4)
    # alpha's breakdown: flips 2+2+2+3 = 9, pig 1+0+0+2 = 3 over 4 games
    assert alpha.breakdown == {"flips": 9 / 4, "pig": 3 / 4}
    # seat 0 won games 0 and 1; seat 1 won game 3; both drew game 2
    assert [(s.record.wins, s.record.games, s.draws) for s in summary.seats] == [(2, 4, 1), (1, 4, 1)]
    # alpha won at seat 0 once (game 0) of two, at seat 1 once (game 3) of two
    assert [(r.wins, r.games) for r in alpha.by_seat] == [(1, 2), (1, 2)]
    assert [(r.wins, r.games) for r in beta.by_seat] == [(1, 2), (0, 2)]
    assert summary.to_json()["agents"][0]["spec"] == "random"
    assert summary.mean_length == 10


def test_openskill_rates_the_games_in_order() -> None:
    # One game from the default prior: openskill's documented Plackett-Luce result for a 1-v-1 win.
    one = [game_record(0, ["alpha", "beta"], [1, 0], [0], [1, 2])]
    (mu_a, sigma_a), (mu_b, sigma_b) = openskill_ratings(one, ["alpha", "beta"])
    assert mu_a == pytest.approx(27.63539, abs=1e-4) and mu_b == pytest.approx(22.36461, abs=1e-4)
    assert sigma_a == pytest.approx(8.06590, abs=1e-4) == sigma_b
    # An agent that wins every game ends rated above one that never does.
    many = []
    for i in range(10):
        seating, winner = (["alpha", "beta"], 0) if i % 2 == 0 else (["beta", "alpha"], 1)
        many.append(game_record(i, seating, [1 - winner, winner], [winner], [1 + winner, 2 - winner]))
    (alpha, _), (beta, _) = openskill_ratings(many, ["alpha", "beta"])
    assert alpha > beta + 5


def test_features_compare_seats_that_had_them_with_those_that_did_not() -> None:
    # 6 games; "move: firebug" is used in 4 seats, 3 of which won.
    records = []
    for i, (used, winner) in enumerate([((1, 0), 0), ((1, 0), 0), ((0, 1), 1), ((1, 0), 1), ((0, 0), 0), ((0, 0), 1)]):
        seat_features = [{"move: firebug": float(used[0])}, {"move: firebug": float(used[1])}]
        records.append(game_record(i, ["a", "b"], [1, 0], [winner], [1, 2], features=seat_features))
    (firebug,) = features(records, minimum=4)
    assert (firebug.with_it.wins, firebug.with_it.games) == (3, 4)
    assert (firebug.without_it.wins, firebug.without_it.games) == (3, 8)
    assert firebug.mean_winners == pytest.approx(3 / 6) and firebug.mean_others == pytest.approx(1 / 6)
    assert firebug.evidence > 0
    assert features(records, minimum=5) == []


def test_welch_t_matches_a_hand_computation() -> None:
    # means 2 and 0.5; variances 1 and 1/3; standard error sqrt(1/3 + 1/12) = 0.645497
    assert welch([1, 2, 3], [0, 0, 1, 1]) == pytest.approx(1.5 / 0.645497, abs=1e-5)
    assert welch([1], [0, 1]) == 0.0 and welch([2, 2], [2, 2]) == 0.0


def test_solo_games_leave_the_rating_at_its_prior() -> None:
    solo = [game_record(i, ["alone"], [40 + i], [0], [1]) for i in range(3)]
    ((mu, sigma),) = openskill_ratings(solo, ["alone"])
    assert (mu, sigma) == pytest.approx((25.0, 25 / 3))
    assert summarize(solo, ["alone"], ["random"]).agents[0].record.wins == 3
