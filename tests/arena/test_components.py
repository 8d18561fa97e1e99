"""Per-component statistics: takers against passers among the seats offered a component, matched on the
decision's context, clustered by game, and called strong or weak only after FDR control."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.arena.components import Seat, benjamini_hochberg, components, matched
from parlour.arena.offers import is_component
from tests.arena.conftest import game_record


def two_seat_games(
    count: int, seed: int, seat_features: Any, winner: Any, offers: Any = None, length: int = 90
) -> list[dict[str, Any]]:
    """`count` games of greedy against random, seats alternating; features and the winner drawn per game.

    Unless `offers(rng, features)` says otherwise, every component named in either seat's features
    (taken or not) was offered to both seats early in the game, neither ahead: in the cell "0 0".
    """
    rng = random.Random(seed)
    games = []
    for index in range(count):
        agents = ["greedy", "random"] if index % 2 == 0 else ["random", "greedy"]
        features = [seat_features(rng, agent) for agent in agents]
        if offers is None:
            named = sorted({name for seat in features for name in seat if is_component(name)})
            offered = [{name: {"0 0": int(seat.get(name, 0.0) > 0)} for name in named} for seat in features]
        else:
            offered = offers(rng, features)
        won = winner(rng, agents, features)
        record = game_record(
            index, agents, [1.0 - won, float(won)], [won], [1 + won, 2 - won], features=features, length=length
        )
        record["arena"]["offers"] = offered
        games.append(record)
    return games


def test_benjamini_hochberg_adjusts_in_the_order_given() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 of four: 0.02, 0.02, 0.04, 0.04 after the step-up minimum.
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert benjamini_hochberg([0.9, 0.6]) == pytest.approx([0.9, 0.9])
    assert benjamini_hochberg([]) == []


def seats(stratum: Any, takers: tuple[int, int], passers: tuple[int, int], first_game: int = 0) -> list[Seat]:
    """(wins, seats) of takers and of passers in one stratum, each seat in a game of its own."""
    made = [Seat(first_game + i, stratum, True, i < takers[0]) for i in range(takers[1])]
    start = first_game + takers[1]
    return made + [Seat(start + i, stratum, False, i < passers[0]) for i in range(passers[1])]


def test_the_matched_difference_pools_the_strata_and_ignores_uninformative_ones() -> None:
    # One stratum, takers 30/40 against passers 10/40: a difference of one half, far beyond chance.
    one = ("bot", 0, 0, 0)
    found = seats(one, (30, 40), (10, 40)) + seats(("bot", 1, 0, 0), (3, 3), (0, 0), first_game=80)
    difference, error, p, informative = matched(found)
    assert informative and difference == pytest.approx(0.5)
    # Each seat its own game: the clustered variance is the binomial one (with G/(G-1)); the variance with
    # no difference (each arm at the pooled 50%) is larger, and the larger is kept.
    assert error == pytest.approx((20**2 * 0.25 * (1 / 40 + 1 / 40)) ** 0.5 / 20)
    assert p < 1e-5
    assert matched(seats(one, (3, 3), (0, 0))) == (0.0, 0.0, 1.0, False)
    # Equal win rates in every stratum: no difference, no evidence.
    difference, _, p, _ = matched(seats(one, (5, 10), (5, 10)) + seats(("bot", 1, 0, 0), (2, 8), (6, 24), 20))
    assert difference == pytest.approx(0.0) and p == pytest.approx(1.0)


def null_p_values(own_games: bool) -> list[float]:
    """300 null components on 100 two-seat games each: one seat takes, the other passes, one of them wins
    at random. With `own_games`, each seat is told it played a game of its own."""
    rng = random.Random(4)
    p_values = []
    for _ in range(300):
        found = []
        for game in range(100):
            taker, winner = rng.randrange(2), rng.randrange(2)
            for seat in (0, 1):
                label = 2 * game + seat if own_games else game
                found.append(Seat(label, ("bot", seat, 0, 0), seat == taker, seat == winner))
        p_values.append(matched(found)[2])
    return p_values


def test_two_seats_of_one_game_are_not_taken_for_independent_evidence() -> None:
    # The takers' and passers' results are tied together (one of the two seats wins). Counted as
    # independent seats the difference's error would be too small by a factor of √2 and one null
    # component in six would be called at p < 0.05; clustered by game, about one in twenty is.
    clustered = null_p_values(own_games=False)
    assert 0.02 < sum(p < 0.05 for p in clustered) / len(clustered) < 0.08
    independent = null_p_values(own_games=True)
    assert sum(p < 0.05 for p in independent) / len(independent) > 0.1


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


TILES = [f"building tile: T{i}" for i in range(12)]


def leading_seats_take_more(planted: float, seed: int) -> list[dict[str, Any]]:
    """Equal agents; a seat ahead when the tiles come up is offered them earlier, takes more of every
    tile and wins more. Planted (by `planted`): tile 0 helps its taker, tile 1 costs it."""

    def features(rng: random.Random, agent: str) -> dict[str, float]:
        ahead = rng.random() < 0.5
        taken = {tile: float(rng.random() < (0.7 if ahead else 0.3)) for tile in TILES}
        return taken | {"ahead": float(ahead)}

    def offers(rng: random.Random, features: list[dict[str, float]]) -> list[dict[str, dict[str, int]]]:
        # The leader is offered the tiles while ahead in the first third of the game, the other seat later, behind.
        return [
            {tile: {"0 1" if seat["ahead"] else "1 -1": int(seat[tile] > 0)} for tile in TILES} for seat in features
        ]

    def winner(rng: random.Random, agents: list[str], taken: list[dict[str, float]]) -> int:
        def strength(seat: int) -> float:
            bonus = planted * (taken[seat][TILES[0]] - taken[seat][TILES[1]])
            return 2 * taken[seat]["ahead"] + bonus + rng.gauss(0, 1)

        return 0 if strength(0) > strength(1) else 1

    return two_seat_games(1200, seed, features, winner, offers)


def test_tiles_a_leading_seat_takes_more_often_are_not_called_but_planted_ones_are() -> None:
    # As 200 greedy Yamataï games once called eleven tiles strong, one of them worth 1 prestige: the
    # seats that take tiles are the seats already ahead. Matched on the standing when the tile was first
    # offered, only the planted tiles are called, each in its direction.
    found = {c.name: c for c in components(leading_seats_take_more(1.0, 5), {"greedy": "bot", "random": "bot"})}
    assert found[TILES[0]].verdict() == "strong" and found[TILES[1]].verdict() == "weak"
    assert [name for name, c in found.items() if c.verdict()] == TILES[:2]
    unchanged = [found[tile] for tile in TILES[2:]]
    assert all(c.takers.rate > c.others.rate + 0.1 for c in unchanged)  # raw, every tile goes with winning
    assert all(abs(c.difference) < 0.08 for c in unchanged)  # matched on the standing, they do not
    # Nothing planted, nothing called (a false call is at most a 5% chance, the false discovery rate).
    null = components(leading_seats_take_more(0.0, 7), {"greedy": "bot", "random": "bot"})
    assert [c.name for c in null if c.verdict()] == []
    assert sum(c.p_value < 0.05 for c in null) <= 2


def test_only_the_seats_offered_a_component_are_compared() -> None:
    # The sun goes only to the seat that is dealt it, and the dealt seat wins two games in three, whether it
    # takes the sun or not. Against every seat its takers look strong; against its passers they are not.
    def features(rng: random.Random, agent: str) -> dict[str, float]:
        dealt = rng.random() < 0.5
        return {"flag: sun": float(dealt and rng.random() < 0.5), "dealt": float(dealt)}

    def offers(rng: random.Random, features: list[dict[str, float]]) -> list[dict[str, dict[str, int]]]:
        return [{"flag: sun": {"0 0": int(seat["flag: sun"] > 0)}} if seat["dealt"] else {} for seat in features]

    def winner(rng: random.Random, agents: list[str], taken: list[dict[str, float]]) -> int:
        dealt = [seat for seat in (0, 1) if taken[seat]["dealt"]]
        if len(dealt) == 1:
            return dealt[0] if rng.random() < 2 / 3 else 1 - dealt[0]
        return rng.randrange(2)

    (sun,) = components(two_seat_games(1000, 6, features, winner, offers), {"greedy": "bot", "random": "bot"})
    assert sun.offered.rate == pytest.approx(0.5, abs=0.05) and sun.taken.rate == pytest.approx(0.5, abs=0.05)
    assert sun.verdict() == "" and abs(sun.difference) < 0.08


def test_move_kinds_rare_components_and_games_without_offers_are_left_out() -> None:
    games = [
        game_record(i, ["a", "b"], [1, 0], [0], [1, 2], features=[{"move: take": 3.0, "flag: rare": float(i < 2)}, {}])
        for i in range(20)
    ]
    for i, record in enumerate(games):
        record["arena"]["offers"] = [
            {"move: take": {"0 0": 1}, "flag: rare": {"0 0": int(i < 2)}},
            {"flag: rare": {"1 0": 0}},
        ]
    assert components(games, {}) == []
    assert [c.name for c in components(games, {}, minimum=2)] == ["flag: rare"]
    for record in games:
        del record["arena"]["offers"]  # written before the arena noted offers
    assert components(games, {}, minimum=2) == []


def test_a_component_every_seat_took_has_nothing_to_compare_and_says_so() -> None:
    games = [
        game_record(i, ["a", "b"], [1, 0], [i % 2], [1, 2], features=[{"flag: all": 1.0}, {"flag: all": 2.0}])
        for i in range(20)
    ]
    for record in games:
        record["arena"]["offers"] = [{"flag: all": {"0 0": 1}}, {"flag: all": {"2 0": 1}}]
    (everyone,) = components(games, {"a": "bot", "b": "bot"})
    assert not everyone.informative and everyone.verdict() == "" and everyone.taken.rate == 1.0
    from parlour.arena import report
    from parlour.arena.stats import summarize

    summary = summarize(games, ["a", "b"], ["bot", "bot"])
    page = report.render("t", [], [("", summary)])
    assert "— (no seat took it while another passed it in the same position)" in page
    # The terminal names it: taken wherever offered is what a designer looks at first, even unjudged.
    from parlour.arena.commands import _component_lines

    line = _component_lines(summary)
    assert line.endswith("too few passers to judge: flag: all (40 of 40)") and "none strong or weak of 1" in line


def test_a_seat_that_passed_early_and_took_late_counts_in_both_contexts() -> None:
    games = [game_record(i, ["a", "b"], [1, 0], [i % 2], [1, 2], features=[{"flag: sun": 1.0}, {}]) for i in range(10)]
    for record in games:
        record["arena"]["offers"] = [{"flag: sun": {"0 0": 0, "2 -1": 1}}, {"flag: sun": {"0 0": 0}}]
    (sun,) = components(games, {"a": "bot", "b": "bot"})
    assert sun.offered.games == 20 and sun.taken.wins == 10 and sun.takers.games == 10 and sun.others.games == 10
    # Early and level, seat 1 passed it and so did seat 2; late and behind only seat 1 took it (no passer there).
    assert sun.informative is False


def test_the_arena_notes_what_each_seat_was_offered_and_took_in_real_games() -> None:
    from parlour.arena.match import play
    from parlour.arena.offers import takes
    from parlour.arena.tournament import plan
    from parlour.engine.registry import load_game

    tournament = plan("hatflings", "random,random", 4, seed=3, players=2)
    for index in range(4):
        record = play(tournament, index)
        arena = record["arena"]
        for seat, offered in enumerate(arena["offers"]):
            taken = {name for name, count in arena["features"][seat].items() if count > 0 and is_component(name)}
            # Every component a seat took was offered to it, and taken in some context.
            assert taken <= set(offered)
            assert {name for name, cells in offered.items() if any(cells.values())} == taken
            for cells in offered.values():
                for cell in cells:
                    phase, standing = (int(part) for part in cell.split())
                    assert 0 <= phase <= 2 and standing in (-1, 0, 1)
    state = load_game("yamatai", players=2).new_state(seed=1)
    builds = [action for action in state.game.actions if action.kind == "build"]
    tile = dict(builds[0].params)["tile"]
    assert f"building tile: {tile}" in takes(state, builds[0].id)
    assert takes(state, next(a for a in state.game.actions if a.kind not in ("build", "recruit", "fleet")).id) == ()
