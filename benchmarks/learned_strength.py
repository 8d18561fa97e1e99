"""The learned evaluators' strength table in docs/bots.md, from the journals bots_strength.py wrote.

Not a unit test. The rows are played by `benchmarks/bots_strength.py` with a learned spec and
journals named `benchmarks/results/learned_*.jsonl`, on seeds the training never used (the training's
game seeds are 53-bit hashes of its tournament seed; these are 20000 and up), for example:

    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents greedy \\
        --mcts mcts:eval=learned,puct=1,seconds=0.2 --start 20000 --games 20200 --no-docs \\
        --journal benchmarks/results/learned_hatflings_greedy.jsonl
    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents mcts:eval=heuristic,seconds=0.2 \\
        --mcts mcts:eval=learned,puct=1,seconds=0.2 --start 20000 --games 20200 --no-docs \\
        --journal benchmarks/results/learned_hatflings_mcts.jsonl
    python benchmarks/learned_strength.py

The 0.1 s rows of 3 December 2026 (Hatflings! now searches with its evaluator by default, so its
heuristic search is spelled `mcts:eval=heuristic`; the Hanbok Runway and Yamataï weights are not
shipped and are played from benchmarks/results/evaluators/ with `weights=FILE`), for example:

    python benchmarks/bots_strength.py --only hatflings --players 2 \
        --opponents mcts:eval=heuristic,seconds=0.1 --mcts mcts:eval=learned,puct=1,even=0.25,seconds=0.1 \
        --start 22000 --games 22200 --no-docs --journal benchmarks/results/learned_hatflings_mcts_even.jsonl
    python benchmarks/bots_strength.py --only hanbok_runway --players 2 --opponents mcts:seconds=0.1 \
        --mcts mcts:weights=benchmarks/results/evaluators/hanbok_runway_2p.npz,puct=1,even=0.25,seconds=0.1 \
        --start 22000 --games 22060 --no-docs --journal benchmarks/results/learned_hanbok_runway_mcts.jsonl

The rows of Hatflings!' default search at its iteration budget (200 iterations, which cost no more
CPU a move than 1000 of the heuristic search's: benchmarks/learned_speed.py), on seeds from 30000,
against greedy and against the heuristic search's default budget; the compiled build plays them
(PYTHONPATH=build/compiled), and a second process extends the second row on seeds from 30300:

    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents greedy \
        --mcts mcts:eval=learned,puct=1,even=0.25,iterations=200 --start 30000 --games 30300 --no-docs \
        --journal benchmarks/results/learned_hatflings_default_greedy.jsonl
    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents mcts:eval=heuristic,iterations=1000 \
        --mcts mcts:eval=learned,puct=1,even=0.25,iterations=200 --start 30000 --games 30300 --no-docs \
        --journal benchmarks/results/learned_hatflings_default_mcts.jsonl
    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents mcts:eval=heuristic,iterations=1000 \
        --mcts mcts:eval=learned,puct=1,even=0.25,iterations=200 --start 30300 --games 30600 --no-docs \
        --journal benchmarks/results/learned_hatflings_default_mcts_b.jsonl

The first row was extended on seeds 30300-30599, and twice the budget tried on seeds 30600-30799:

    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents greedy \
        --mcts mcts:eval=learned,puct=1,even=0.25,iterations=200 --start 30300 --games 30600 --no-docs \
        --journal benchmarks/results/learned_hatflings_default_greedy_b.jsonl
    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents greedy \
        --mcts mcts:eval=learned,puct=1,even=0.25,iterations=400 --start 30600 --games 30800 --no-docs \
        --journal benchmarks/results/learned_hatflings_400_greedy.jsonl

Seeds 30800-30999 were played by the default (journals learned_hatflings_default_greedy_c and _d,
seeds 30800-30899 and 30900-30999) and, on the same seeds, by a second-generation evaluator kept
in benchmarks/results/evaluators/ (journals learned_hatflings_gen2_greedy and _b), for example:

    python benchmarks/bots_strength.py --only hatflings --players 2 --opponents greedy \
        --mcts mcts:weights=benchmarks/results/evaluators/hatflings_2p_gen2.npz,puct=1,even=0.25,iterations=200 \
        --start 30800 --games 30900 --no-docs --journal benchmarks/results/learned_hatflings_gen2_greedy.jsonl

Targets: at least 90% against greedy with two players, 2.5 times the fair share with 3-4, and 65%
against the default MCTS at the same time per move. A row meets its target when its whole 95%
interval lies at or above it; "not shown" when the interval still reaches below it.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from bots_strength import wilson, write_section

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
BEGIN, END = "<!-- learned evaluators: begin -->", "<!-- learned evaluators: end -->"


def target(players: int, opponent: str) -> float:
    if opponent.startswith("mcts"):
        return 0.65
    return 0.90 if players == 2 else 2.5 / players


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, int, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["game"], row["players"], row["mcts"], row["opponent"])].append(row)
    lines = [
        "| game | players | bot | against | games (seeds) | score | 95% interval | target | met |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for (game, players, spec, opponent), group in sorted(groups.items()):
        n = len(group)
        total = sum(row["score"] for row in group)
        low, high = wilson(total, n)
        goal = target(players, opponent)
        verdict = "yes" if low >= goal else ("no" if high < goal else "not shown")
        seeds = f"{min(r['index'] for r in group)}–{max(r['index'] for r in group)}"
        lines.append(
            f"| {game} | {players} | `{spec}` | `{opponent}` | {n} ({seeds}) | {total / n:.0%} | "
            f"{low:.0%}–{high:.0%} | ≥ {goal:.0%} | {verdict} |"
        )
    return "\n".join(lines)


def main() -> None:
    rows = [
        json.loads(line)
        for path in sorted(RESULTS.glob("learned_*.jsonl"))
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    body = table(rows)
    print(body)
    write_section(BEGIN, END, body)


if __name__ == "__main__":
    main()
