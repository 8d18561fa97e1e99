"""Per-component statistics: compared within equal agents, and called strong or weak only after FDR control."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.arena.components import Table, benjamini_hochberg, components, mantel_haenszel
from tests.arena.conftest import game_record


def two_seat_games(count: int, seed: int, seat_features: Any, winner: Any) -> list[dict[str, Any]]:
    """`count` games of greedy against random, seats alternating; features and the winner drawn per game."""
    rng = random.Random(seed)
    games = []
    for index in range(count):
        agents = ["greedy", "random"] if index % 2 == 0 else ["random", "greedy"]
        features = [seat_features(rng, agent) for agent in agents]
        won = winner(rng, agents, features)
        games.append(game_record(index, agents, [1.0 - won, float(won)], [won], [1 + won, 2 - won], features=features))
    return games


def test_benjamini_hochberg_adjusts_in_the_order_given() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 of four: 0.02, 0.02, 0.04, 0.04 after the step-up minimum.
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg([0.9, 0.6]) == pytest.approx([0.9, 0.9])
    assert benjamini_hochberg([]) == []


def test_mantel_haenszel_pools_the_strata_and_ignores_uninformative_ones() -> None:
    # One stratum, takers 30/40 against others 10/40: a difference of one half, far beyond chance.
    difference, error, p = mantel_haenszel([Table(30, 40, 10, 40), Table(0, 0, 5, 9), Table(3, 3, 0, 0)])
    assert difference == pytest.approx(0.5)
    assert error == pytest.approx((0.75 * 0.25 / 40 + 0.25 * 0.75 / 40) ** 0.5)
    assert p < 1e-4
    assert mantel_haenszel([Table(0, 0, 5, 9)]) == (0.0, 0.0, 1.0)
    # Equal win rates in every stratum: no difference, no evidence.
    difference, _, p = mantel_haenszel([Table(5, 10, 5, 10), Table(2, 8, 6, 24)])
    assert difference == pytest.approx(0.0)
    assert p == pytest.approx(1.0)


def test_a_weak_random_seat_does_not_make_what_it_takes_look_bad() -> None:
    # The random agent takes "flag: moon" nine times in ten, greedy once in ten; greedy wins 80% of
    # games whatever anyone takes. Pooled, the moon's takers lose; within each agent it changes nothing.
    def features(rng: random.Random, agent: str) -> dict[str, float]:
        return {"flag: moon": float(rng.random() < (0.9 if agent == "random" else 0.1))}

    def winner(rng: random.Random, agents: list[str], _: Any) -> int:
        greedy = agents.index("greedy")
        return greedy if rng.random() < 0.8 else 1 - greedy

    games = two_seat_games(400, 1, features, winner)
    (moon,) = components(games, {"greedy": "greedy", "random": "random"})
    assert moon.takers.rate < 0.3 < 0.7 < moon.others.rate  # the pooled figures the agents make
    assert abs(moon.difference) < 0.1
    assert moon.verdict() == ""
    assert moon.by_agent["random"].games > 4 * moon.by_agent["greedy"].games
    # Told the two agents are one, the same games would call the moon weak.
    (pooled,) = components(games, {"greedy": "bot", "random": "bot"})
    assert pooled.verdict() == "weak"


def test_a_component_that_wins_is_called_strong_among_many_that_do_not() -> None:
    # Twenty flags taken at random; whoever takes the sun wins three games in four against equal agents.
    def features(rng: random.Random, agent: str) -> dict[str, float]:
        return {f"flag: {n}": float(rng.random() < 0.5) for n in ["sun", *(f"f{i}" for i in range(19))]}

    def winner(rng: random.Random, agents: list[str], taken: list[dict[str, float]]) -> int:
        suns = [seat for seat in (0, 1) if taken[seat]["flag: sun"]]
        if len(suns) == 1:
            return suns[0] if rng.random() < 0.75 else 1 - suns[0]
        return rng.randrange(2)

    games = two_seat_games(600, 2, features, winner)
    found = {c.name: c for c in components(games, {"greedy": "greedy", "random": "greedy"})}
    assert len(found) == 20
    assert found["flag: sun"].verdict() == "strong"
    assert found["flag: sun"].difference > 0.2
    assert found["flag: sun"].takers.interval[0] > found["flag: sun"].others.interval[1]
    assert found["flag: sun"].interval[0] > 0
    assert [name for name, c in found.items() if c.verdict()] == ["flag: sun"]
    # The raw p-values of some null flags may dip below 5%; the q-values keep them out.
    assert all(c.q_value >= c.p_value for c in found.values())


def test_move_kinds_and_rare_components_are_not_components() -> None:
    games = [
        game_record(i, ["a", "b"], [1, 0], [0], [1, 2], features=[{"move: take": 3.0, "flag: rare": float(i < 2)}, {}])
        for i in range(20)
    ]
    assert components(games, {}) == []
    assert [c.name for c in components(games, {}, minimum=2)] == ["flag: rare"]


def test_a_component_every_seat_took_has_nothing_to_compare_and_says_so() -> None:
    games = [
        game_record(i, ["a", "b"], [1, 0], [i % 2], [1, 2], features=[{"flag: all": 1.0}, {"flag: all": 2.0}])
        for i in range(20)
    ]
    (everyone,) = components(games, {"a": "bot", "b": "bot"})
    assert not everyone.informative and everyone.verdict() == "" and everyone.taken.rate == 1.0
    from parlour.arena import report
    from parlour.arena.stats import summarize

    page = report.render("t", [], [("", summarize(games, ["a", "b"], ["bot", "bot"]))])
    assert "— (no seat of an agent took it while another did not)" in page


def test_picks_of_a_kind_taken_by_stronger_seats_are_not_called_strong_but_planted_ones_are() -> None:
    # Equal agents; a seat that plays better builds more tiles of every kind and wins more, so each
    # tile goes with winning (as 200 greedy Yamataï games once called eleven tiles strong, one of them
    # worth 1 prestige). Planted: tile 0 is worth a lot, tile 1 costs its taker. Only those two are called.
    tiles = [f"building tile: T{i}" for i in range(12)]

    def features(rng: random.Random, agent: str) -> dict[str, float]:
        form = rng.random()
        built = sum(rng.random() < form for _ in range(8))
        return {tile: 1.0 for tile in rng.sample(tiles, built)} | {"form": form}

    def winner(rng: random.Random, agents: list[str], taken: list[dict[str, float]]) -> int:
        def strength(seat: int) -> float:
            planted = 0.6 * taken[seat].get(tiles[0], 0.0) - 0.6 * taken[seat].get(tiles[1], 0.0)
            return 3 * taken[seat].pop("form") + planted + rng.gauss(0, 0.5)

        return 0 if strength(0) > strength(1) else 1

    games = two_seat_games(1500, 5, features, winner)
    found = {c.name: c for c in components(games, {"greedy": "bot", "random": "bot"})}
    assert found[tiles[0]].verdict() == "strong" and found[tiles[1]].verdict() == "weak"
    assert [name for name, c in found.items() if c.verdict()] == tiles[:2]
    unchanged = [found[tile] for tile in tiles[2:]]
    assert all(c.takers.rate > c.others.rate + 0.05 for c in unchanged)  # raw, every tile goes with winning
    assert all(abs(c.difference) < 0.08 for c in unchanged)  # matched on picks, they do not
