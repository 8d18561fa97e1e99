"""Ratings of the named levels: round robins among the levels with random and greedy as anchors.

Not a unit test. Every pair of {random, greedy, level:novice ... level:master} plays `--games` games
of a two-player game through the arena (seats swapped game by game, each pair its own tournament
seed, folders kept so a run resumes), and openskill's Plackett-Luce model rates all the games,
interleaved pair by pair. The table gives openskill's mu and sigma and an anchored scale on which
random is 0 and greedy 1000 (`1000 * (mu - mu_random) / (mu_greedy - mu_random)`), and writes it
into docs/bots.md between the game's markers; the ratings go into the data file the code reads
(src/parlour/agents/level_ratings.json), where the game's entry is replaced.

    python benchmarks/levels_calibration.py --game hatflings --games 6 --out /tmp/levels
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

from bots_strength import write_section

import parlour.agents.levels
from parlour.agents.levels import LEVELS, RATINGS_FILE
from parlour.arena.runner import run
from parlour.arena.stats import openskill_ratings
from parlour.arena.tournament import Tournament
from parlour.engine.registry import load_game

ANCHORS = ("random", "greedy")
DATA = Path(parlour.agents.levels.__file__).with_name(RATINGS_FILE)


def markers(game: str) -> tuple[str, str]:
    """The markers around a game's table in docs/bots.md."""
    return f"<!-- level ratings {game}: begin -->", f"<!-- level ratings {game}: end -->"


def entrants() -> list[str]:
    return [*ANCHORS, *(f"level:{name}" for name in LEVELS)]


def play_pairs(game: str, games: int, seed: int, out: Path, until_pairs: int | None) -> list[list[dict[str, Any]]]:
    options = dict(load_game(game, players=2).options)
    found = []
    pairs = list(itertools.combinations(entrants(), 2))[:until_pairs]
    for index, pair in enumerate(pairs):
        tournament = Tournament(game, pair, games, seed=seed + index, options=options)
        records = run(tournament, out=out / f"pair-{index}", resume=True, workers=1).records
        found.append(records)
        print(f"{pair[0]} vs {pair[1]}: {len(records)} games", flush=True)
    return found


def rate(by_pair: list[list[dict[str, Any]]]) -> dict[str, tuple[float, float]]:
    """Every entrant's (mu, sigma) after all the games, interleaved pair by pair."""
    names = entrants()
    interleaved = [record for group in itertools.zip_longest(*by_pair) for record in group if record is not None]
    return dict(zip(names, openskill_ratings(interleaved, names), strict=True))


def write_data(game: str, by_pair: list[list[dict[str, Any]]], ratings: dict[str, tuple[float, float]]) -> None:
    """Replace the game's entry of the ratings data file (rounded as the docs' table shows them)."""
    data = json.loads(DATA.read_text())
    data["games"][game] = {
        "players": 2,
        "games_per_pair": len(by_pair[0]) if by_pair else 0,
        "games": sum(len(group) for group in by_pair),
        "ratings": {name: {"mu": round(mu, 1), "sigma": round(sigma, 1)} for name, (mu, sigma) in ratings.items()},
    }
    DATA.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def table(game: str, by_pair: list[list[dict[str, Any]]], ratings: dict[str, tuple[float, float]]) -> str:
    names = entrants()
    low, high = ratings["random"][0], ratings["greedy"][0]
    games = sum(len(group) for group in by_pair)
    lines = [
        f"{game}, two players, {games} games ({len(by_pair)} pairs, {len(by_pair[0]) if by_pair else 0} each):",
        "",
        "| entrant | spec | time per move | openskill mu | sigma | anchored (random 0, greedy 1000) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name in sorted(names, key=lambda entry: ratings[entry][0]):
        mu, sigma = ratings[name]
        level = name.removeprefix("level:")
        spec, seconds = LEVELS.get(level, (name, 0.0))
        anchored = 1000 * (mu - low) / (high - low) if high != low else float("nan")
        shown_time = f"≤ {seconds:g} s" if level in LEVELS else "—"
        lines.append(f"| {name} | `{spec}` | {shown_time} | {mu:.1f} | {sigma:.1f} | {anchored:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="hatflings")
    parser.add_argument("--games", type=int, default=6, help="games per pair")
    parser.add_argument("--seed", type=int, default=700_000, help="tournament seed of the first pair")
    parser.add_argument("--out", type=Path, required=True, help="folder of the pairs' tournaments (resumable)")
    parser.add_argument("--pairs", type=int, default=None, help="play only the first N pairs")
    parser.add_argument("--no-docs", action="store_true", help="print the table only (no docs, no data file)")
    args = parser.parse_args()
    by_pair = play_pairs(args.game, args.games, args.seed, args.out, args.pairs)
    ratings = rate(by_pair)
    body = table(args.game, by_pair, ratings)
    print(body)
    if not args.no_docs:
        write_section(*markers(args.game), body)
        write_data(args.game, by_pair, ratings)


if __name__ == "__main__":
    main()
