"""`parlour train GAME`: play games with the arena, fit an evaluator, write weights and a card.

Everything is bounded by `minutes`: about half of it plays games (in rounds, each line-up's
tournament growing by `round_games` games a round, so a stopped run resumes from its folder), most
of the rest fits the network, and what remains checks the new evaluator's strength in a few games
against greedy seats. The card (`evaluator_<N>p.json` beside the weights) says what went in and
what came out: line-ups, seeds, games and positions, steps, validation losses, strength.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parlour.agents.learned.evaluator import weights_name
from parlour.agents.learned.weights import fit_of, save
from parlour.arena.runner import run
from parlour.arena.stats import wilson
from parlour.arena.tournament import Tournament
from parlour.engine.errors import InvalidOption
from parlour.train.positions import game_of, line_ups, play_games, positions_of

CARD_FORMAT = "parlour-evaluator-card/1"
SHARES = {"games": 0.5, "fit": 0.35}
"""Parts of the time budget for playing games and for fitting; the rest checks the strength."""


@dataclass(frozen=True)
class Request:
    game: str
    out: Path
    players: int | None = None
    minutes: float = 10.0
    workers: int | None = 1
    backend: str = "local"
    agents: tuple[str, ...] = ("greedy", "greedy,random")
    seed: int = 0
    round_games: int = 20
    max_games: int | None = None
    keep: float = 0.3
    memory_mb: int = 256
    hidden: tuple[int, ...] = (128, 64)
    steps: int = 50_000
    check_games: int = 20
    check_spec: str = "mcts:eval=learned,iterations=200"
    lam: float = 1.0
    options: dict[str, Any] = field(default_factory=dict)


Say = Callable[[str], None]


def check(request: Request) -> None:
    """Everything that can be wrong before the first game is played."""
    if request.minutes <= 0:
        raise InvalidOption(f"--minutes must be more than 0, got {request.minutes:g}")
    if not 0 < request.keep <= 1:
        raise InvalidOption(f"--keep is the share of positions kept, in (0, 1], got {request.keep:g}")
    if request.round_games < 1:
        raise InvalidOption(f"--round-games must be at least 1, got {request.round_games}")
    if request.max_games is not None and request.max_games < 1:
        raise InvalidOption(f"--max-games must be at least 1, got {request.max_games}")
    if not 0 <= request.lam <= 1:
        raise InvalidOption(f"--lam mixes heuristic and return targets, in [0, 1], got {request.lam:g}")
    if request.memory_mb < 1:
        raise InvalidOption(f"--memory-mb must be at least 1, got {request.memory_mb}")
    if not request.hidden or any(width < 1 for width in request.hidden):
        raise InvalidOption(f"--hidden takes layer widths of at least 1, got {request.hidden}")
    if request.out.exists() and not request.out.is_dir():
        raise InvalidOption(f"--out {request.out} is a file, not a folder")


def train(request: Request, say: Say = print) -> dict[str, Any]:
    """Run the whole pipeline; returns the card (also written beside the weights)."""
    check(request)
    from parlour.train import fit as fitting  # JAX: imported only once the request is sound

    game = game_of(request.game, request.players, request.options)
    made_for = fit_of(game)  # an InvalidOption here: the game has no observation encoder
    budget = request.minutes * 60
    started = time.perf_counter()
    request.out.mkdir(parents=True, exist_ok=True)
    teams = line_ups(request.agents, game.num_players)

    records = _play(request, dict(game.options), teams, started + budget * SHARES["games"], say)
    limit = max(1, request.memory_mb * 2**20 // (2 * made_for.tensor_size))
    say(f"replaying {len(records)} games into positions (keeping {request.keep:.0%}, at most {limit:,} rows)")
    rows = positions_of(records, game, request.keep, request.seed, limit, lam=request.lam)
    training, validation = rows.split(0.1)
    say(f"{len(training):,} training rows, {len(validation):,} validation rows (from games of their own)")

    fit_seconds = max(1.0, started + budget * (SHARES["games"] + SHARES["fit"]) - time.perf_counter())
    plan = fitting.Plan(hidden=request.hidden, steps=request.steps, seconds=fit_seconds, seed=request.seed)
    outcome = fitting.train(
        training,
        validation,
        made_for,
        plan,
        lambda step, measured: say(
            f"step {step}: validation value MSE {measured['value_mse']:.4f}, "
            f"policy cross-entropy {measured['policy_xent']:.3f}"
        ),
    )
    weights_path = save(outcome.weights, request.out / weights_name(game.num_players))
    card: dict[str, Any] = {
        "format": CARD_FORMAT,
        "game": made_for.game,
        "players": made_for.players,
        "options": dict(game.options),
        "weights": weights_path.name,
        "bytes": weights_path.stat().st_size,
        "fits": asdict(made_for),
        "data": {
            "line_ups": [list(team) for team in teams],
            # A search spec leaves out what the game sets itself, and a game's defaults change (a
            # shipped evaluator becomes its search's default): these make the line-ups reproducible.
            "search_defaults": dict(game.search_defaults),
            "tournament_seeds": [request.seed + index for index in range(len(teams))],
            "games": len(records),
            "positions": len(rows),
            "training_rows": len(training),
            "validation_rows": len(validation),
            "kept_share": request.keep,
            "lambda": request.lam,
        },
        "training": {
            "library": fitting.library(),
            "hidden": list(request.hidden),
            "batch": plan.batch,
            "learning_rate": plan.learning_rate,
            "policy_weight": plan.policy_weight,
            "seed": plan.seed,
            "steps": outcome.steps,
            "best_step": outcome.best_step,
            "seconds": round(outcome.seconds, 1),
        },
        "validation": outcome.validation,
        "untrained": outcome.untrained,
        "value_mse_of_saying_zero": float((validation.returns**2).mean()),
        "value_mse_of_the_heuristic": float(((validation.heuristics - validation.returns) ** 2).mean()),
        "strength": [],
    }
    _write_card(request.out, game.num_players, card)
    say(f"wrote {weights_path} ({card['bytes']:,} bytes)")
    if request.check_games:
        card["strength"] = _strength(request, weights_path, started + budget, say)
        _write_card(request.out, game.num_players, card)
    return card


def _write_card(out: Path, players: int, card: dict[str, Any]) -> None:
    path = out / weights_name(players).replace(".npz", ".json")
    path.write_text(json.dumps(card, indent=2) + "\n")


def _play(
    request: Request, options: dict[str, Any], teams: list[tuple[str, ...]], until: float, say: Say
) -> list[dict[str, Any]]:
    """Rounds of games for every line-up until the time for games is spent (or `max_games`)."""
    folders = [request.out / "games" / f"line-up-{index}" for index in range(len(teams))]
    # A resumed run goes on from the games its folders hold (a tournament never shrinks).
    held = max(_held(folder) for folder in folders)
    per_team = max(0, held - request.round_games)
    records: list[list[dict[str, Any]]] = [[] for _ in teams]
    while True:
        per_team += request.round_games
        if request.max_games is not None:
            per_team = max(held, min(per_team, max(1, request.max_games // len(teams))))
        for index, team in enumerate(teams):
            folder = folders[index]
            records[index] = play_games(
                request.game, options, team, per_team, request.seed + index, folder, request.workers, request.backend
            )
        total = sum(len(found) for found in records)
        say(f"{total} games played ({', '.join(str(len(found)) for found in records)} by line-up)")
        capped = request.max_games is not None and per_team * len(teams) >= request.max_games
        if capped or time.perf_counter() >= until:
            break
    return [record for found in records for record in found]


def _held(folder: Path) -> int:
    """How many games a line-up's folder holds already (0 for a new one)."""
    journal = folder / "records.jsonl"
    if not journal.is_file():
        return 0
    with journal.open() as lines:
        return sum(1 for line in lines if line.strip())


def _strength(request: Request, weights: Path, until: float, say: Say) -> list[dict[str, Any]]:
    """The new evaluator's search against greedy seats, in rounds until the games or the time run
    out. Seeds of their own (the tournament seed is far from the training's)."""
    spec = f"{request.check_spec},weights={weights}"
    game = game_of(request.game, request.players, request.options)
    shutil.rmtree(request.out / "check", ignore_errors=True)  # games of earlier weights are not these
    team = (spec, *["greedy"] * (game.num_players - 1))
    tournament_seed = 1_000_000 + request.seed
    per_round = max(2, game.num_players)
    played = 0
    records: list[dict[str, Any]] = []
    while played < request.check_games and (not records or time.perf_counter() < until):
        played = min(request.check_games, played + per_round)
        tournament = Tournament(request.game, team, played, seed=tournament_seed, options=dict(game.options))
        records = run(
            tournament, out=request.out / "check", resume=True, workers=request.workers, backend=request.backend
        ).records
    score = sum(_score(record, spec) for record in records)
    low, high = wilson(round(score), len(records)) if records else (0.0, 1.0)
    row = {
        "bot": request.check_spec,
        "against": "greedy",
        "games": len(records),
        "score": score,
        "share": score / len(records) if records else 0.0,
        "fair_share": 1 / game.num_players,
        "interval": [low, high],
        "tournament_seed": tournament_seed,
    }
    say(f"against greedy: {score:g} of {len(records)} games ({row['share']:.0%}, 95% {low:.0%}-{high:.0%})")
    return [row]


def _score(record: dict[str, Any], spec: str) -> float:
    """1 for a sole win, 1/k for a win shared by k, else 0, for the seat `spec` sat in."""
    seat = record["arena"]["agents"].index(spec)
    winners = record["winners"]
    return 1 / len(winners) if seat in winners else 0.0
