"""One game of a tournament, played to its end and written up as a replayable record.

This runs in the workers (a local process or a Ray task), so it takes only the tournament and
the game's index and returns plain JSON-able data.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from parlour.agents import make_agent
from parlour.arena.extras import seat_features
from parlour.arena.offers import Offers
from parlour.arena.tournament import Tournament
from parlour.engine.actions import Event
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
    course = Course(len(seating))
    offers = Offers(len(seating))
    while not state.is_terminal():
        seat = state.current_player()
        actors.append(seat)
        legal = state.legal_actions()
        choices = len(legal)
        started = time.perf_counter()
        action = agents[seat].act(state)
        course.decided(seat, choices, time.perf_counter() - started)
        offers.decided(state, seat, [move.id for move in legal], action.id, course.standing(seat))
        course.told(state.apply(action))
        if state.is_terminal() or state.current_player() < seat:
            course.scored(state)  # once a round (the turn passes back to an earlier seat): scoring every move costs
    record = _write_up(tournament, index, seating, state, actors)
    record["arena"]["course"] = course.to_json(course.ending(state))
    record["arena"]["offers"] = offers.to_json(len(state.history))
    # The agents' thinking time differs from run to run: it travels with the game but is not journaled,
    # so a tournament's files stay the same whatever the machine and the number of workers.
    record[TIMING] = course.seconds
    return record


TIMING = "timing"
"""A played record's key for each seat's thinking time (seconds); `Played` moves it into the digest."""


class Course:
    """How a game went: each seat's decisions, the choices it had, its thinking time, the lead's changes
    (on total score, looked at once a round, when the turn passes back to an earlier seat, and at the end)."""

    def __init__(self, players: int) -> None:
        self.decisions = [0] * players
        self.choices = [0] * players  # the legal moves summed over the seat's decisions
        self.forced = [0] * players  # decisions with one legal move
        self.widest = 0
        self.legal_counts: list[int] = []  # each decision's legal moves, in order: branching over the game
        self.seconds = [0.0] * players
        self.leader: int | None = None
        self.totals = [0.0] * players  # each seat's total score when last looked at
        self.lead_changes = 0
        self.last_end = ""  # the text of the last public event about the game's end
        self.last_kind = ""  # the kind of the last public event

    def told(self, events: list[Event]) -> None:
        for event in events:
            if event.audience is None and not event.excluded:  # what every seat saw, nothing secret
                self.last_kind = event.kind
                if "end" in event.kind:
                    self.last_end = event.text

    def ending(self, state: State) -> str:
        """How the game ended, in the game's words: the end its spectator's view states, else its last
        end event, else the kind of its last event. Numbers are written N, so that "the safety cap of
        40 turns" and of 60 count as one way to end."""
        view = state.view(None)  # a spectator's view: only what everyone may know
        stated = [view.get(key) for key in ("end_reason", "end")]
        reason = next((text for text in stated if isinstance(text, str) and text), "")
        reason = reason or self.last_end or self.last_kind
        return re.sub(r"\d+", "N", reason) or "not said"

    def decided(self, seat: int, choices: int, seconds: float) -> None:
        self.decisions[seat] += 1
        self.choices[seat] += choices
        self.forced[seat] += choices == 1
        self.widest = max(self.widest, choices)
        self.legal_counts.append(choices)
        self.seconds[seat] += seconds

    def standing(self, seat: int) -> float:
        """The seat's total minus the best other seat's, as last looked at (0 alone or before the first look)."""
        others = [total for other, total in enumerate(self.totals) if other != seat]
        return self.totals[seat] - max(others) if others else 0.0

    def by_third(self) -> list[list[int]]:
        """[decisions, legal moves summed] in each third of the game's decisions: how branching runs over it."""
        thirds = [[0, 0] for _ in range(3)]
        for index, choices in enumerate(self.legal_counts):
            third = thirds[3 * index // len(self.legal_counts)]
            third[0] += 1
            third[1] += choices
        return thirds

    def scored(self, state: State) -> None:
        """Note who leads on total score after a move; a tie leaves the lead where it was."""
        totals = [float(score.total) for score in state.scores()]
        self.totals = totals
        best = max(totals)
        if totals.count(best) != 1:
            return
        leader = totals.index(best)
        if self.leader is not None and leader != self.leader:
            self.lead_changes += 1
        self.leader = leader

    def to_json(self, end: str) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "choices": self.choices,
            "forced": self.forced,
            "widest": self.widest,
            "by_third": self.by_third(),
            "lead_changes": self.lead_changes,
            "end": end,
        }


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

    __slots__ = ("_digest", "_line", "_record", "_timing", "index")

    def __init__(
        self,
        index: int,
        record: dict[str, Any] | None = None,
        line: str | None = None,
        digest: dict[str, Any] | None = None,
    ) -> None:
        assert record is not None or line is not None, "a game is its record or its line"
        self._timing = record.pop(TIMING, None) if record is not None else None
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
            if self._timing is not None:
                self._digest[TIMING] = self._timing
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
