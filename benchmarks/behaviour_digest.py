"""A digest of everything the games do, to show that restructuring code changed no behaviour.

    .venv/bin/python benchmarks/behaviour_digest.py [--games 20] [--bot-moves 40] [--only hatairo]
        [--write benchmarks/results/behaviour_digest.json | --check benchmarks/results/behaviour_digest.json]

For every game, player count and variant it plays `--games` random games from fixed seeds and
hashes, at every step: the seat to move, the legal list (ids), the reasons given for a stride of
refused ids, the events (with their audience), every seat's and the spectator's view and text,
every seat's heuristic, the scores; at the end the winners and returns. Every few steps it also
hashes the view of a determinization for the seat to move. Then the bots (greedy and
`mcts:iterations=50`) play `--bot-moves` decisions from fixed seeds and their moves are hashed.
`--write` stores one hash per configuration; `--check` compares with a stored file and exits 1 on
the first difference, naming the configuration and the part that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import parlour
from parlour.agents import make_agent
from parlour.engine import Rng, State

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("hatflings", {}),
    ("hatflings", {"scene": "interactive", "num_objects": 5}),
    ("hanbok_runway", {}),
    ("hatairo", {"players": 1}),
    ("hatairo", {"players": 2}),
    ("hatairo", {"players": 3}),
    ("hatairo", {"players": 4}),
    ("hatairo", {"players": 3, "beginner": True}),
    ("hatairo", {"players": 4, "variant": "motif"}),
    ("hatairo", {"players": 2, "variant": "drafting"}),
    ("hatairo", {"players": 3, "variant": "drafting"}),
    ("hatairo", {"players": 4, "variant": "motif+drafting"}),
    ("yamatai", {"players": 2}),
    ("yamatai", {"players": 3}),
    ("yamatai", {"players": 4}),
]
BOTS = ("greedy", "mcts:iterations=50")
REASON_STRIDE = 11
DETERMINIZE_EVERY = 7


def config_name(name: str, options: dict[str, Any]) -> str:
    return name + "".join(f" {key}={value}" for key, value in sorted(options.items()))


class Digest:
    """Named running hashes, one per part of the behaviour."""

    def __init__(self) -> None:
        self.parts: dict[str, Any] = {}

    def add(self, part: str, value: Any) -> None:
        if part not in self.parts:
            self.parts[part] = hashlib.sha256()
        self.parts[part].update(json.dumps(value, sort_keys=True, default=str).encode())
        self.parts[part].update(b"\n")

    def hexdigests(self) -> dict[str, str]:
        return {part: digest.hexdigest()[:16] for part, digest in sorted(self.parts.items())}


def _observe(digest: Digest, state: State, step: int) -> None:
    seats: list[int | None] = [*range(state.game.num_players), None]
    player = state.current_player()
    digest.add("turn", player)
    legal = state.legal_actions()
    digest.add("legal", [action.id for action in legal])
    legal_ids = {action.id for action in legal}
    refused = [i for i in range(step % REASON_STRIDE, state.game.num_actions, REASON_STRIDE) if i not in legal_ids]
    digest.add("reasons", [state.why_illegal(state.game.actions[i]) for i in refused])
    digest.add("views", [state.view(seat) for seat in seats])
    digest.add("render", [state.render(seat) for seat in seats])
    digest.add("heuristic", [round(state.heuristic(seat), 9) for seat in range(state.game.num_players)])
    digest.add("scores", [score.to_json() for score in state.scores()])
    if step % DETERMINIZE_EVERY == 0 and player >= 0:
        world = state.determinize(player, Rng(step))
        digest.add("determinize", [world.view(seat) for seat in seats])


def _excluded(event: Any) -> list[list[int]]:
    """The seats an event is kept from, when any: its audience is then "everyone but these seats"
    (an event for everybody hashes as it always did)."""
    return [list(event.excluded)] if event.excluded else []


def random_games(name: str, options: dict[str, Any], games: int) -> dict[str, str]:
    game = parlour.load_game(name, **options)
    digest = Digest()
    for seed in range(games):
        state, rng = game.new_state(seed=seed), Rng(1000 + seed)
        step = 0
        while not state.is_terminal():
            _observe(digest, state, step)
            action = rng.choice(state.legal_actions())
            events = state.apply(action)
            digest.add("events", [[event.to_json(), event.audience, *_excluded(event)] for event in events])
            step += 1
        _observe(digest, state, step)
        digest.add("end", {"winners": state.winners(), "returns": state.returns(), "record": state.record()})
    return digest.hexdigests()


def bot_moves(name: str, options: dict[str, Any], moves: int) -> dict[str, str]:
    game = parlour.load_game(name, **options)
    digest = Digest()
    for spec in BOTS:
        for seed in (3, 4):
            state = game.new_state(seed=seed)
            agents = [make_agent(spec, seed=seed * 10 + seat) for seat in range(game.num_players)]
            played = []
            while not state.is_terminal() and len(played) < moves:
                action = agents[state.current_player()].act(state)
                state.apply(action)
                played.append(action.id)
            digest.add(f"bot {spec}", played)
    return digest.hexdigests()


def run(games: int, bot_decisions: int, only: str | None, report: Callable[[str], None]) -> dict[str, dict[str, str]]:
    results: dict[str, dict[str, str]] = {}
    for name, options in CONFIGS:
        if only and name != only:
            continue
        started = time.perf_counter()
        key = config_name(name, options)
        results[key] = {**random_games(name, options, games), **bot_moves(name, options, bot_decisions)}
        report(f"{key}: {time.perf_counter() - started:.1f} s")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per configuration")
    parser.add_argument("--bot-moves", type=int, default=40, help="decisions each bot game plays")
    parser.add_argument("--only", help="one game's configurations only")
    parser.add_argument("--write", type=Path, help="store the digest in this file")
    parser.add_argument("--check", type=Path, help="compare with the digest stored in this file")
    args = parser.parse_args()
    results = run(args.games, args.bot_moves, args.only, lambda line: print(line, file=sys.stderr))
    meta = {"games": args.games, "bot_moves": args.bot_moves}
    if args.write:
        stored: dict[str, Any] = json.loads(args.write.read_text()) if args.write.exists() else {}
        if stored.get("settings", meta) != meta:
            stored = {}
        stored["settings"] = meta
        stored.setdefault("configurations", {}).update(results)
        args.write.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    if args.check:
        stored = json.loads(args.check.read_text())
        if stored["settings"] != meta:
            print(f"{args.check} was made with {stored['settings']}, not {meta}", file=sys.stderr)
            return 2
        differ = [
            f"{key}: {part}"
            for key, parts in results.items()
            for part, value in parts.items()
            if stored["configurations"].get(key, {}).get(part) != value
        ]
        for line in differ:
            print("differs:", line)
        print("identical" if not differ else f"{len(differ)} parts differ")
        return 1 if differ else 0
    if not args.write:
        print(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
