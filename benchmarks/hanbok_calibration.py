"""Fit how Hanbok Runway's trophy edge turns into a chance of winning.

The heuristic (`parlour.games.hanbok_runway.heuristic`) first estimates a seat's *trophy edge*: the
trophies it expects to lead by, and then divides it by the total stake. A search mixes that value
with real results (+1 a win, -1 a loss) wherever it reaches the end of the game. This script
measures how far apart the two scales are: it plays greedy against greedy, records the edge of both
seats at the start of every turn together with how the game ended, and fits

    P(win) = sigmoid(slope * edge),   slope = start + growth * tokens taken

by logistic regression (a shared win counts half). It prints the fit of every stretch of the game on
its own and the fitted `start` and `growth`. docs/bots.md reports the fit and what a search made of
an evaluator rescaled by it.

    python benchmarks/hanbok_calibration.py --games 1500
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

import parlour
from parlour.agents import make_agent
from parlour.games.hanbok_runway.constants import DRAW
from parlour.games.hanbok_runway.heuristic import trophy_edge

Sample = tuple[int, float, float]  # tokens taken, trophy edge, result as a win share (1, 1/2, 0)


def play(games: int, first_seed: int) -> list[Sample]:
    game = parlour.load_game("hanbok_runway", players=2)
    samples: list[Sample] = []
    for index in range(games):
        state = game.new_state(seed=first_seed + index)
        agents = [make_agent("greedy", 2 * index + seat) for seat in (0, 1)]
        seen: list[tuple[int, int, float]] = []
        while not state.is_terminal():
            if state.phase == DRAW:
                for seat in (0, 1):
                    seen.append((seat, sum(state.taken), trophy_edge(state, seat)))
            state.apply(agents[state.current_player()].act(state))
        share = [(result + 1) / 2 for result in state.returns()]
        samples.extend((taken, edge, share[seat]) for seat, taken, edge in seen)
    return samples


def fit(samples: list[Sample], with_growth: bool = True, steps: int = 30) -> tuple[float, float]:
    """Newton's method on the log-likelihood of sigmoid((start + growth * taken) * edge)."""
    start, growth = 0.1, 0.0
    for _ in range(steps):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for taken, edge, won in samples:
            p = 1.0 / (1.0 + math.exp(-(start + growth * taken) * edge))
            x0, x1 = edge, taken * edge
            g0 += (won - p) * x0
            g1 += (won - p) * x1
            w = p * (1.0 - p)
            h00 += w * x0 * x0
            h01 += w * x0 * x1
            h11 += w * x1 * x1
        if not with_growth:
            start += g0 / h00
            continue
        det = h00 * h11 - h01 * h01
        start += (h11 * g0 - h01 * g1) / det
        growth += (h00 * g1 - h01 * g0) / det
    return start, growth


def log_loss(samples: list[Sample], slope_of: Callable[[int], float]) -> float:
    total = 0.0
    for taken, edge, won in samples:
        p = min(max(1.0 / (1.0 + math.exp(-slope_of(taken) * edge)), 1e-9), 1 - 1e-9)
        total -= won * math.log(p) + (1.0 - won) * math.log(1.0 - p)
    return total / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1500, help="greedy-against-greedy games to learn from")
    parser.add_argument("--seed", type=int, default=100_000, help="seed of the first game")
    args = parser.parse_args()
    if args.games < 20:
        parser.error(f"--games must be at least 20 for a fit to mean anything, got {args.games}")
    samples = play(args.games, args.seed)
    print(f"{len(samples)} positions from {args.games} games")
    print("| tokens taken | positions | slope on its own | trophies for a 73% chance (1 / slope) |")
    print("| --- | --- | --- | --- |")
    for low in range(0, 36, 4):
        stretch = [s for s in samples if low <= s[0] < low + 4]
        if len(stretch) < 100:
            continue
        slope, _ = fit(stretch, with_growth=False)
        print(f"| {low}-{low + 3} | {len(stretch)} | {slope:.3f} | {1 / slope:.1f} |")
    start, growth = fit(samples)
    flat, _ = fit(samples, with_growth=False)
    print(f"\nfit: slope = {start:.4f} + {growth:.5f} x tokens taken")
    print(
        f"log loss: fitted {log_loss(samples, lambda t: start + growth * t):.4f}, one slope {flat:.3f} for all "
        f"{log_loss(samples, lambda t: flat):.4f}"
    )


if __name__ == "__main__":
    main()
