"""What one move of a search costs, in CPU time, for several MCTS specs on the same positions.

Not a unit test. Positions are taken from games of greedy against greedy (every `--every`th
decision of games with seeds `--start`, `--start + 1`, ...), so they are the positions a game
really reaches; every spec searches every position once (a fresh bot, no tree kept), and the
table gives each spec's mean CPU milliseconds per move and iterations per CPU second, with the
ratio of its mean cost to the first spec's. It is how a game's default iteration count for its
learned search (`search_defaults["iterations"]`) was chosen: the count at which a move costs no
more than 1000 iterations of the heuristic search.

    python benchmarks/learned_speed.py --game hatflings --specs \\
        "mcts:eval=heuristic,iterations=1000;mcts:eval=learned,puct=1,even=0.25,iterations=1000;mcts"

Run it with the compiled build first on the path (PYTHONPATH=build/compiled) for the speed the
server's bots have; CPU time is this process's (`time.process_time`), what one core gives on a
shared machine.
"""

from __future__ import annotations

import argparse
import os
import time

import parlour
from parlour.agents import make_agent, parse_spec
from parlour.agents.mcts import MctsAgent
from parlour.engine.game import State


def positions(game_name: str, players: int, games: int, start: int, every: int) -> list[State]:
    """Every `every`th position with a choice to make, from games of greedy against greedy."""
    game = parlour.load_game(game_name, players=players)
    found = []
    for seed in range(start, start + games):
        state = game.new_state(seed=seed)
        bots = [make_agent("greedy", seed + seat) for seat in range(players)]
        decisions = 0
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                if decisions % every == 0:
                    found.append(state.clone())
                decisions += 1
            state.apply(bots[state.current_player()].act(state))
    return found


def fresh(spec: str) -> MctsAgent:
    kind, params = parse_spec(spec)
    params["reuse"] = "no"
    agent = make_agent(f"{kind}:" + ",".join(f"{key}={value}" for key, value in params.items()), 1)
    assert isinstance(agent, MctsAgent), f"{spec} is not an MCTS spec"
    return agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="hatflings")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--specs", required=True, help="MCTS specs separated by ';', the first is the reference")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--start", type=int, default=40000, help="the first game's seed")
    parser.add_argument("--every", type=int, default=4, help="keep every Nth decision")
    args = parser.parse_args()
    specs = [spec.strip() for spec in args.specs.split(";") if spec.strip()]
    found = positions(args.game, args.players, args.games, args.start, args.every)
    for spec in specs:
        fresh(spec).search(found[0])  # loads what the spec needs (weights) outside the timing
    cpu = dict.fromkeys(specs, 0.0)
    iterations = dict.fromkeys(specs, 0)
    for state in found:
        for spec in specs:  # interleaved, so that a change in the machine's load hits every spec alike
            agent = fresh(spec)
            begin = time.process_time()
            search = agent.search(state)
            cpu[spec] += time.process_time() - begin
            iterations[spec] += search.iterations
    print(f"{args.game}, {args.players} players: {len(found)} positions; load average {os.getloadavg()[0]:.1f}")
    print("| spec | CPU ms a move | iterations a move | iterations per CPU second | cost against the first |")
    print("| --- | --- | --- | --- | --- |")
    first = cpu[specs[0]]
    for spec in specs:
        print(
            f"| `{spec}` | {cpu[spec] / len(found) * 1000:.1f} | {iterations[spec] / len(found):.0f} | "
            f"{iterations[spec] / cpu[spec]:,.0f} | {cpu[spec] / first:.2f} |"
        )


if __name__ == "__main__":
    main()
