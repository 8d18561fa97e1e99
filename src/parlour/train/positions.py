"""Training positions: games played by the arena's runner, replayed into observation tensors.

The games come from ordinary arena tournaments (the same runner `parlour simulate` uses, so the
same seeding, workers, Ray backend and resumable folders), one tournament per line-up of bots. Each
finished game is replayed and a sample of its positions kept: for every seat, the tensor of what it
saw then and the return it got at the end (the value target), and for the seat to move, the move
it made (the policy target). Tensors are kept as float16, which holds the encoders' values (0/1
flags and small fractions) closely enough and halves the memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parlour.arena.runner import run
from parlour.arena.tournament import Tournament
from parlour.engine.game import Game
from parlour.engine.registry import load_game
from parlour.engine.rng import Rng
from parlour.interop.encoding import observation_size, write_observation

NO_MOVE = -1
"""The policy target of a row whose seat was not the one to move."""


@dataclass
class Positions:
    """Rows of (tensor, seat's return, move made or NO_MOVE), and which game each came from."""

    tensors: np.ndarray  # float16, rows x tensor length
    returns: np.ndarray  # float32
    moves: np.ndarray  # int32
    games: np.ndarray  # int32: the index of the game (across line-ups) each row came from
    heuristics: np.ndarray  # float32: the game's heuristic for the row's seat (a baseline to beat)

    def __len__(self) -> int:
        return int(self.returns.shape[0])

    def split(self, share: float) -> tuple[Positions, Positions]:
        """Training and validation rows, split by game so that no game feeds both."""
        held_out = self.games % max(2, round(1 / share)) == 0
        return self._take(~held_out), self._take(held_out)

    def _take(self, rows: np.ndarray) -> Positions:
        return Positions(
            self.tensors[rows], self.returns[rows], self.moves[rows], self.games[rows], self.heuristics[rows]
        )


def line_ups(specs: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Each `--agents` entry as one tournament's seats: a comma-separated list, its last seat
    repeated to fill the table (`greedy` is greedy in every seat)."""
    from parlour.agents import split_specs

    found = []
    for entry in specs:
        seats = split_specs(entry)
        seats += [seats[-1]] * (players - len(seats))
        found.append(tuple(seats[:players]))
    return found


def play_games(
    game: str,
    options: Mapping[str, Any],
    agents: tuple[str, ...],
    games: int,
    seed: int,
    folder: Path,
    workers: int | None,
    backend: str,
) -> list[dict[str, Any]]:
    """The first `games` games of one line-up, played (or read back from `folder`) by the arena."""
    tournament = Tournament(game, agents, games, seed=seed, options=dict(options))
    return run(tournament, out=folder, resume=True, workers=workers, backend=backend).records


def positions_of(
    records: Iterable[Mapping[str, Any]],
    game: Game,
    keep: float,
    seed: int,
    limit: int,
    progress: Callable[[int], None] | None = None,
    lam: float = 1.0,
) -> Positions:
    """Replay the records and keep each position with probability `keep`, at most `limit` rows.

    A row's value target is the seat's lambda-return: `lam` = 1 is the final return alone; below 1
    each position's target mixes in the game's heuristic of the positions that follow,
    `G(t) = (1 - lam) h(t + 1) + lam G(t + 1)` with `G` at the end the return, which takes much of
    the noise of a single outcome out of the early positions' targets. The heuristic is a target
    only: the network still reads nothing but the seat's tensor."""
    size = observation_size(game)
    rng = Rng(seed)
    tensor = np.zeros(size, np.float32)
    rows: list[np.ndarray] = []
    returns: list[float] = []
    moves: list[int] = []
    games: list[int] = []
    heuristics: list[float] = []
    for index, record in enumerate(records):
        state = game.new_state(seed=int(record["seed"]))
        seats: list[int] = []  # the seat of each row kept from this game, for its return at the end
        steps: list[int] = []  # the position each kept row was taken at
        judged: list[list[float]] = []  # every position's heuristic per seat, for lambda-returns
        for step, action_id in enumerate(record["actions"]):
            if lam < 1:
                judged.append([state.heuristic(seat) for seat in range(game.num_players)])
            if rng.random() < keep and len(moves) < limit:
                mover = state.current_player()
                for seat in range(game.num_players):
                    write_observation(state, seat, tensor)
                    rows.append(tensor.astype(np.float16))
                    seats.append(seat)
                    steps.append(step)
                    moves.append(int(action_id) if seat == mover else NO_MOVE)
                    games.append(index)
                    heuristics.append(state.heuristic(seat))
            state.apply(game.action(int(action_id)))
        final = state.returns()  # replayed, so a record cannot claim another outcome
        if lam < 1:
            targets = lambda_returns(judged, final, lam)
            returns.extend(targets[step][seat] for step, seat in zip(steps, seats, strict=True))
        else:
            returns.extend(final[seat] for seat in seats)
        if progress:
            progress(index + 1)
    matrix = np.stack(rows) if rows else np.zeros((0, size), np.float16)
    return Positions(
        matrix,
        np.asarray(returns, np.float32),
        np.asarray(moves, np.int32),
        np.asarray(games, np.int32),
        np.asarray(heuristics, np.float32),
    )


def lambda_returns(judged: list[list[float]], final: list[float], lam: float) -> list[list[float]]:
    """Per position (and seat), `G(t) = (1 - lam) h(t + 1) + lam G(t + 1)`, `G` at the end `final`."""
    targets = [list(final)]
    following = list(final)
    for position in range(len(judged) - 1, -1, -1):
        after = judged[position + 1] if position + 1 < len(judged) else final
        following = [(1 - lam) * h + lam * g for h, g in zip(after, following, strict=True)]
        targets.append(following)
    targets.reverse()
    return targets


def game_of(name: str, players: int | None, options: Mapping[str, Any] | None = None) -> Game:
    """The game to train for: its default player count unless `players` names one."""
    chosen = dict(options or {})
    if players is not None:
        chosen["players"] = players
    return load_game(name, **chosen)
