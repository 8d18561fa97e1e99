"""A finished game reviewed: each seat's prospects after every move, and the moves that cost most.

Prospects: after every move, each seat's expected return (+1 a sole win, -1 a loss) as that seat
could judge it from what it saw then: by the game's learned evaluator on the seat's own observation
tensor where the game ships one, otherwise by the game's heuristic averaged over determinizations
drawn from the seat's view. With two players the expected return is shown as a winning chance,
(1 + value) / 2.

Costly moves: at every decision with a choice, the strongest bot searches the position from the
deciding seat's view alone (a search draws every world from that seat's view), and the move played
is compared with the search's preferred one; the gap between their values is the move's cost.

Who may see what (a review read by someone else than the seat it judges): `seen_by[v]` holds every
seat's prospects as seat `v` could judge them (worlds drawn from `v`'s view alone), so a player's
chart of the others reads only what that player saw. `public[ply][seat]` says whether that seat saw
no more than a spectator then (its view is the spectator's), so that its own prospects there tell a
spectator nothing hidden; `Mistake.public` says the same of the mover at a costly move (its preferred
move and cost then read nothing hidden, e.g. no card of the mover's hand).

The review runs within a stated time (`max_seconds`: each decision gets an even share of what is
left, and the search stops at its iterations or its share, whichever comes first), reports its
progress, and keeps its result in a cache keyed by the record and the review's settings.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parlour.agents.mcts import MctsAgent
from parlour.engine.errors import RecordError
from parlour.engine.game import Game, State
from parlour.engine.records import verify
from parlour.engine.rng import Rng

FORMAT = "parlour-review/2"
WORLDS = 4
"""Determinizations averaged per seat where a game's heuristic judges the prospects."""


@dataclass(frozen=True)
class Settings:
    iterations: int = 400
    max_seconds: float = 120.0
    top: int = 5
    seed: int = 0

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if not self.max_seconds > 0:
            raise ValueError(f"the time bound must be more than 0 seconds, got {self.max_seconds:g}")
        if self.top < 0:
            raise ValueError(f"top must be 0 or more, got {self.top}")


@dataclass
class Mistake:
    step: int  # the move's number, from 1
    seat: int
    played: str
    preferred: str
    cost: float  # expected return lost, judged from the seat's view
    visits: tuple[int, int]  # the search's visits to the played and the preferred move
    public: bool = False  # whether the mover saw no more than a spectator at this move

    def words(self, players: int) -> str:
        gain = f"{self.cost:+.2f} expected return"
        if players == 2:
            gain += f", about {50 * self.cost:.0f} points of winning chance"
        return (
            f"move {self.step}, Player {self.seat + 1} played {self.played!r}; "
            f"the strongest bot prefers {self.preferred!r} ({gain})"
        )


@dataclass
class Review:
    game: str
    players: int
    judged_by: str  # "learned evaluator" or "heuristic"
    prospects: list[list[float]]  # after each move (and at the start), each seat's expected return
    mistakes: list[Mistake]  # the costliest first
    decisions: int  # decisions searched
    complete: bool  # False when the time bound stopped the search part early
    seconds: float
    settings: dict[str, Any] = field(default_factory=dict)
    seen_by: list[list[list[float]]] = field(default_factory=list)  # [viewer][ply][seat], see the module
    public: list[list[bool]] = field(default_factory=list)  # [ply][seat], see the module

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Review:
        fields = {key: value for key, value in data.items() if key != "format"}
        fields["mistakes"] = [Mistake(**{**m, "visits": tuple(m["visits"])}) for m in fields["mistakes"]]
        return Review(**fields)

    def chances(self, rows: list[list[float]] | None = None) -> list[list[float]]:
        """Winning chances (two players) or expected returns (more) after each move, of `rows` (the
        seats' own prospects unless given)."""
        rows = self.prospects if rows is None else rows
        if self.players != 2:
            return rows
        return [[(1 + value) / 2 for value in row] for row in rows]


Progress = Callable[[int, int], None]


def prospects(state: State, seed: int) -> list[float]:
    """Each seat's expected return as it can judge from its own view."""
    if state.is_terminal():
        return state.returns()
    evaluator = _learned(state.game)
    if evaluator is not None:
        values: list[float] = evaluator.values(state)
        return values
    rng = Rng(seed)
    found = []
    for seat in range(state.game.num_players):
        worlds = [state.determinize(seat, rng.spawn()) for _ in range(WORLDS)]
        found.append(sum(world.heuristic(seat) for world in worlds) / WORLDS)
    return found


def prospects_seen_by(state: State, viewer: int, seed: int) -> list[float]:
    """Every seat's expected return as `viewer` could judge it: averaged over worlds drawn from the
    viewer's view alone (the viewer's own entry is `prospects`'s)."""
    if state.is_terminal():
        return state.returns()
    evaluator = _learned(state.game)
    rng = Rng(seed)
    seats = range(state.game.num_players)
    totals = [0.0 for _ in seats]
    for _ in range(WORLDS):
        world = state.determinize(viewer, rng.spawn())
        values = evaluator.values(world) if evaluator is not None else [world.heuristic(seat) for seat in seats]
        totals = [total + value for total, value in zip(totals, values, strict=True)]
    return [total / WORLDS for total in totals]


def public_seats(state: State) -> list[bool]:
    """For each seat, whether it sees no more than a spectator now (at the end, its prospects are
    the result, which everybody sees)."""
    if state.is_terminal():
        return [True] * state.game.num_players
    spectator = state.view(None)
    return [state.view(seat) == spectator for seat in range(state.game.num_players)]


def _learned(game: Game) -> Any:
    try:
        from parlour.agents.learned.evaluator import shipped
    except ImportError:
        return None
    return shipped(game)


def review(
    record: Mapping[str, Any],
    settings: Settings,
    progress: Progress | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Review:
    """Review a finished game's record (see the module's description)."""
    game = finished(record).game
    actions = [int(action) for action in record["actions"]]
    state = game.new_state(seed=int(record["seed"]))
    started = clock()
    deadline = started + settings.max_seconds
    rows = [prospects(state, settings.seed)]
    seen_by = [[_seen_by(state, viewer, settings.seed, rows[-1])] for viewer in range(game.num_players)]
    public = [public_seats(state)]
    mistakes: list[Mistake] = []
    decisions, complete = 0, True
    for step, action_id in enumerate(actions, 1):
        legal = state.legal_actions()
        if len(legal) > 1:
            left = deadline - clock()
            if left <= 0:
                complete = False
            else:
                share = left / (len(actions) - step + 1)  # an even share (forced moves count too)
                mistake = _judge(state, action_id, step, settings, share)
                decisions += 1
                if mistake is not None:
                    mistake.public = public[-1][mistake.seat]
                    mistakes.append(mistake)
        state.apply(game.action(action_id))
        rows.append(prospects(state, settings.seed + step))
        for viewer, seen in enumerate(seen_by):
            seen.append(_seen_by(state, viewer, settings.seed + step, rows[-1]))
        public.append(public_seats(state))
        if progress:
            progress(step, len(actions))
    mistakes.sort(key=lambda mistake: (-mistake.cost, mistake.step))
    judged_by = "learned evaluator" if _learned(game) is not None else "heuristic"
    return Review(
        game.name,
        game.num_players,
        judged_by,
        rows,
        mistakes[: settings.top],
        decisions,
        complete,
        round(clock() - started, 2),
        asdict(settings),
        seen_by,
        public,
    )


def _seen_by(state: State, viewer: int, seed: int, own: list[float]) -> list[float]:
    """`prospects_seen_by`, with the viewer's own entry the one `prospects` gave."""
    seen = prospects_seen_by(state, viewer, seed)
    seen[viewer] = own[viewer]
    return seen


def _judge(state: State, played: int, step: int, settings: Settings, seconds: float) -> Mistake | None:
    """The played move against the search's preferred one, from the mover's view only."""
    seat = state.current_player()
    agent = MctsAgent(seed=settings.seed + step, iterations=settings.iterations, seconds=seconds, reuse=False)
    search = agent.search(state)
    best = search.best
    chosen = next((choice for choice in search.choices if choice.action.id == played), None)
    if chosen is None or best.action.id == played or chosen.visits == 0:
        return None
    cost = best.value - chosen.value
    if cost <= 0:
        return None
    return Mistake(step, seat, chosen.action.label, best.action.label, round(cost, 4), (chosen.visits, best.visits))


def finished(record: Mapping[str, Any]) -> State:
    """The record's final position, verified; a RecordError unless the game is over."""
    final = verify(record)
    if not final.is_terminal():
        raise RecordError("the game in this record is not finished; a review is for finished games")
    return final


def cache_key(record: Mapping[str, Any], settings: Settings) -> str:
    """The record's game, options, seed and moves, with the settings and the review's format."""
    wanted = {key: record[key] for key in ("game", "options", "seed", "actions")}
    text = json.dumps([FORMAT, wanted, asdict(settings)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "parlour" / "reviews"


def cached_review(
    record: Mapping[str, Any], settings: Settings, cache: Path | None, progress: Progress | None = None
) -> tuple[Review, bool]:
    """The review from the cache if it holds one (complete), else a fresh one, stored there."""
    finished(record)
    path = cache / f"{cache_key(record, settings)}.json" if cache is not None else None
    if path is not None and path.is_file():
        try:
            return Review.from_json(json.loads(path.read_text())), True
        except (ValueError, KeyError, TypeError):
            pass  # an unreadable entry is replaced below
    result = review(record, settings, progress)
    if path is not None and result.complete:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result.to_json()))
    return result, False


BARS = " ▁▂▃▄▅▆▇█"


def render(found: Review, from_cache: bool = False) -> str:
    """The review in words: a line of bars per seat (its chances move by move) and the costly moves."""
    what = "winning chance" if found.players == 2 else "expected return (-1 to +1)"
    lines = [f"{found.game}: each seat's {what} after every move, as judged by its {found.judged_by}"]
    chances = found.chances()
    for seat in range(found.players):
        series = [row[seat] for row in chances]
        low, high = (0.0, 1.0) if found.players == 2 else (-1.0, 1.0)
        bars = "".join(BARS[round((value - low) / (high - low) * (len(BARS) - 1))] for value in series)
        label = f"  Player {seat + 1}: "
        lines.append(f"{label}{bars}  ({_show(series[0], found.players)} -> {_show(series[-1], found.players)})")
        costly = sorted(mistake.step for mistake in found.mistakes if mistake.seat == seat)
        if costly:  # a mark under the bar after each of the seat's costly moves, as the browser's rings
            marks = "".join("^" if step in costly else " " for step in range(len(series))).rstrip()
            lines.append(f"{' ' * len(label)}{marks}  (costly: move {', '.join(map(str, costly))})")
    if found.mistakes:
        lines.append(f"The costliest moves ({found.decisions} decisions searched):")
        lines.extend(f"  {mistake.words(found.players)}" for mistake in found.mistakes)
    else:
        lines.append(f"No move cost anything the search could see ({found.decisions} decisions searched).")
    if not found.complete:
        lines.append(f"The time bound ran out: only the first {found.decisions} decisions were searched.")
    lines.append(f"({'from the cache' if from_cache else f'{found.seconds:g} s'})")
    return "\n".join(lines)


def _show(value: float, players: int) -> str:
    return f"{value:.0%}" if players == 2 else f"{value:+.2f}"
