"""One game of a tournament, played to its end and written up as a replayable record.

This runs in the workers (a local process or a Ray task), so it takes only the tournament and
the game's index and returns plain JSON-able data.
"""

from __future__ import annotations

import json
from typing import Any

from parlour.agents import make_agent
from parlour.arena.extras import seat_features
from parlour.arena.tournament import Tournament
from parlour.engine.game import Game, Score, State
from parlour.engine.records import full_record

# Games are cheap to keep and some build large action spaces, so each worker builds one per setup.
_GAMES: dict[str, Game] = {}
MAX_KEPT_GAMES = 8
"""Setups a worker keeps built; a tuning run plays a new setup (data folder) every trial."""


def game_for(tournament: Tournament) -> Game:
    key = repr((tournament.game, sorted(tournament.options.items()), tournament.game_source))
    if key not in _GAMES:
        if len(_GAMES) >= MAX_KEPT_GAMES:
            del _GAMES[next(iter(_GAMES))]  # the oldest setup: dicts keep their insertion order
        _GAMES[key] = tournament.load()
    return _GAMES[key]


def ranks(scores: list[Score], winners: list[int]) -> list[int]:
    """Finishing places: winners share place 1, the others follow by total then tie-break.

    Seats equal on total and tie-break share a place (competition ranking, 1-2-2-4).
    """
    places: list[int] = []
    for seat, score in enumerate(scores):
        if seat in winners:
            places.append(1)
            continue
        key = (score.total, *score.tiebreak)
        ahead = sum(
            1 for other, rival in enumerate(scores) if other not in winners and (rival.total, *rival.tiebreak) > key
        )
        places.append(1 + len(winners) + ahead)
    return places


def play(tournament: Tournament, index: int) -> dict[str, Any]:
    """Play game `index` of the tournament; returns its full record with an `arena` section."""
    game = game_for(tournament)
    seating = tournament.seating(index)
    agents = [
        make_agent(tournament.agents[agent], tournament.agent_seed(index, seat)) for seat, agent in enumerate(seating)
    ]
    state = game.new_state(seed=tournament.game_seed(index))
    actors: list[int] = []  # who made each move, for the per-seat features
    while not state.is_terminal():
        seat = state.current_player()
        actors.append(seat)
        state.apply(agents[seat].act(state))
    return _write_up(tournament, index, seating, state, actors)


def _write_up(
    tournament: Tournament, index: int, seating: list[int], state: State, actors: list[int]
) -> dict[str, Any]:
    names = tournament.names
    scores = state.scores()
    winners = state.winners()
    # Changed data is named by hash only: the tournament folder keeps its files once (store.py).
    record = full_record(state, store_data=False)
    record["arena"] = {
        "index": index,
        "seating": seating,
        "agents": [names[agent] for agent in seating],
        "agent_seeds": [tournament.agent_seed(index, seat) for seat in range(len(seating))],
        "scores": [score.to_json() for score in scores],
        "ranks": ranks(scores, winners),
        "length": len(state.history),
        "features": seat_features(state, actors),
    }
    return record


DIGEST = ("game", "options", "seed", "winners", "arena")
"""The parts of a record that the statistics and the CSV read (not the moves)."""


class Played:
    """One finished game, held as its record or as the JSON line that stores it, whichever is at hand.

    The other form is made only when asked for. Workers send the line with the record's `digest`:
    a string passes between processes almost for free while a nested record costs the receiving
    process time to rebuild, and the receiver, which also feeds the workers, then only writes the
    line to the journal and keeps the digest for the statistics.
    """

    __slots__ = ("_digest", "_line", "_record", "index")

    def __init__(
        self,
        index: int,
        record: dict[str, Any] | None = None,
        line: str | None = None,
        digest: dict[str, Any] | None = None,
    ) -> None:
        assert record is not None or line is not None, "a game is its record or its line"
        self.index = index
        self._record = record
        self._line = line
        self._digest = digest

    @property
    def digest(self) -> dict[str, Any]:
        """The record without its moves: what the statistics and the CSV read."""
        if self._digest is None:
            record = self.record
            self._digest = {key: record[key] for key in DIGEST if key in record}
        return self._digest

    @property
    def record(self) -> dict[str, Any]:
        if self._record is None:
            self._record = json.loads(self._line)  # type: ignore[arg-type]
        return self._record

    @property
    def line(self) -> str:
        """The record as one line of JSON, without the newline."""
        if self._line is None:
            self._line = json.dumps(self._record, separators=(",", ":"))
        return self._line


def play_to_line(tournament: Tournament, index: int) -> tuple[int, str, dict[str, Any]]:
    """Game `index` as (index, JSON line, digest): the form a worker sends back."""
    played = Played(index, play(tournament, index))
    return index, played.line, played.digest
