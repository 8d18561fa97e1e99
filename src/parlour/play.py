"""Playing a game in the terminal: people type moves, bots answer.

A person types a legal move's number or its label; `moves` lists them again, `save FILE` saves the
record so far, `quit` (or end of input, or Ctrl-C) leaves. A wrong entry is refused with the rule
that forbids it and the person is asked again; nothing changes.
"""

from __future__ import annotations

import difflib
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from parlour.agents import Agent, hint, make_agent
from parlour.engine.actions import Action, Event
from parlour.engine.errors import IllegalAction, InvalidOption, ParlourError, RecordError
from parlour.engine.game import Game, State
from parlour.engine.records import check_writable, save

HUMAN = "human"
CLEAR_SCREEN = "\033[2J\033[3J\033[H"  # clear the screen and its scroll-back, cursor home
HELP = (
    "Type a move's number or its label. Other commands: moves (list them again), board (show the board),\n"
    "hint (what the strongest bot would play), save FILE (save the record so far), help, quit."
)
HINT_SECONDS = 1.0
"""How long `hint` lets the search think."""


@dataclass
class Table:
    """A game in progress in the terminal, with who sits where."""

    game: Game
    state: State
    seats: list[str]
    agents: dict[int, Agent] = field(default_factory=dict)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, who in enumerate(self.seats) if who == HUMAN]


def seat_table(game: Game, seats: Sequence[str], seed: int) -> Table:
    """Check the seat list against the game and make the bots; raises InvalidOption."""
    seats = [HUMAN if who.strip().lower() == HUMAN else who.strip() for who in seats]
    if len(seats) != game.num_players:
        given = ",".join(seats)
        count = game.num_players
        raise InvalidOption(f"{game.name} with {count} players needs {count} seats, got {given!r}")
    agents = {seat: make_agent(who, seed + 1000 * seat) for seat, who in enumerate(seats) if who != HUMAN}
    return Table(game, game.new_state(seed=seed), seats, agents)


def choose(state: State, entry: str) -> Action:
    """The action a person's entry names: a number from the list or a label. Raises IllegalAction."""
    legal = state.legal_actions()
    text = entry.strip()
    if text.removeprefix("-").isdigit() and text.isascii():  # "²" is a digit to Python but no number
        # Python refuses to convert thousands of digits; any number that long is out of range anyway.
        number = int(text) if len(text) < 20 else len(legal) + 1
        if not 1 <= number <= len(legal):
            raise IllegalAction(f"there is no move {_shorten(text)}; choose 1 to {len(legal)}")
        return legal[number - 1]
    try:
        action = state.game.action(text)
    except IllegalAction:
        unknown = f"{state.game.name} has no action called {_shorten(text, 60)!r}"
        raise IllegalAction(unknown + _suggest(text, legal)) from None
    if action not in legal:
        raise IllegalAction(state.why_illegal(action))
    return action


def _shorten(text: str, most: int = 24) -> str:
    return text if len(text) <= most else text[:most] + "…"


def _suggest(text: str, legal: Sequence[Action]) -> str:
    """The legal moves a mistyped label is closest to, as a hint to add to the refusal."""
    labels = {action.label.lower(): action.label for action in legal}
    close = difflib.get_close_matches(" ".join(text.lower().split()), labels, n=3, cutoff=0.6)
    return "; did you mean " + " or ".join(repr(labels[label]) for label in close) + "?" if close else ""


MOVES_IN_ONE_COLUMN = 15
"""Longer lists of moves are laid out in columns across the terminal, so they stay on one screen."""


def format_moves(legal: Sequence[Action], width: int | None = None) -> str:
    digits = len(str(len(legal)))
    cells = [f"{number:>{digits}}. {action.label}" for number, action in enumerate(legal, 1)]
    width = shutil.get_terminal_size().columns if width is None else width
    cell = max(len(text) for text in cells) + 3 if cells else 0
    columns = max(1, (width - 2) // cell) if len(cells) > MOVES_IN_ONE_COLUMN and cell else 1
    rows = -(-len(cells) // columns)
    # Numbered down each column, as people read a list.
    lines = [
        "  " + "".join(cells[row + rows * col].ljust(cell) for col in range(columns) if row + rows * col < len(cells))
        for row in range(rows)
    ]
    return "\n".join(line.rstrip() for line in lines)


def format_events(events: Sequence[Event], seat: int | None) -> str:
    return "\n".join(f"  - {event.text}" for event in events if event.visible_to(seat))


def format_result(state: State) -> str:
    lines = ["Game over."]
    winners = state.winners()
    for seat, score in enumerate(state.scores()):
        parts = ", ".join(f"{name} {value:g}" for name, value in score.breakdown.items())
        mark = "  <- winner" if seat in winners else ""
        lines.append(f"  seat {seat}: {score.total:g}" + (f" ({parts})" if parts else "") + mark)
    if len(winners) > 1:
        lines.append("  shared victory: " + ", ".join(f"seat {seat}" for seat in winners))
    return "\n".join(lines)


class TerminalSession:
    """Runs a Table with the given input and output functions (the console, or a test's)."""

    def __init__(
        self,
        table: Table,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
        record_path: Path | None = None,
    ) -> None:
        self.table = table
        self.ask = ask
        self.say = say
        self.record_path = record_path
        self.last_human: int | None = None
        self.since_last_hand_over: list[str] = []

    def run(self) -> int:
        """Play to the end or until the person leaves; returns the process exit code."""
        try:
            self._loop()
        except (EOFError, KeyboardInterrupt):
            self.say("\nLeaving the game.")
            self._save_on_exit()
            return 0
        self.say(self.table.state.render(None))
        self.say(format_result(self.table.state))
        self._save_on_exit()
        return 0

    def _loop(self) -> None:
        state = self.table.state
        while not state.is_terminal():
            seat = state.current_player()
            if seat in self.table.agents:
                action = self.table.agents[seat].act(state)
                events = state.apply(action)
                # In a game with hidden information a move's words may be its seat's secret (a
                # card kept face down, a tile put back on the deck): show only its public events.
                move = action.label if state.game.perfect_information else "moved"
                self.say(f"seat {seat} ({self.table.seats[seat]}): {move}")
                self._show_events(events)
                self._remember(f"seat {seat} ({self.table.seats[seat]}): {move}", events)
            else:
                self._human_turn(seat)

    def _show_events(self, events: Sequence[Event]) -> None:
        # Hot-seat: only what every person at the screen may see; with one person, their own secrets too.
        humans = self.table.humans
        watcher = humans[0] if len(humans) == 1 else None
        text = format_events(events, watcher)
        if text:
            self.say(text)

    def _human_turn(self, seat: int) -> None:
        state = self.table.state
        hidden = not state.game.perfect_information
        if hidden and len(self.table.humans) > 1 and self.last_human not in (None, seat):
            # Clear the screen first, so the next person does not read the last one's secrets.
            self.say(CLEAR_SCREEN)
            self.ask(f"Pass the screen to seat {seat} and press Enter.")
            self.say(CLEAR_SCREEN)
            if self.since_last_hand_over:
                # The clearing also wiped the moves made since; show their public part again.
                self.say("Since the last hand-over:\n" + "\n".join(self.since_last_hand_over))
            self.since_last_hand_over = []
        self.last_human = seat
        self.say("\n" + state.render(seat))
        self.say(f"Seat {seat}, your move:\n" + format_moves(state.legal_actions()))
        while True:
            entry = self.ask(f"seat {seat}> ").strip()
            if not entry:
                continue
            if self._command(entry):
                continue
            try:
                action = choose(state, entry)
                events = state.apply(action)
            except IllegalAction as error:
                self.say(f"Not allowed: {error}")
                continue
            self.say(f"seat {seat} (you): {action.label}")
            text = format_events(events, seat)
            if text:
                self.say(text)
            self._remember(f"seat {seat}: {action.label if state.game.perfect_information else 'moved'}", events)
            return

    def _remember(self, move: str, events: Sequence[Event]) -> None:
        """Keep the public account of a move, to show again after a hot-seat hand-over clears the screen."""
        public = format_events(events, None)
        self.since_last_hand_over.extend([move, public] if public else [move])

    def _command(self, entry: str) -> bool:
        """Handle a non-move command; returns False when the entry should be read as a move."""
        word, _, rest = entry.partition(" ")
        word = word.lower()
        state = self.table.state
        if word in ("quit", "exit"):
            raise EOFError
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "moves":
            self.say(format_moves(state.legal_actions()))
        elif word == "board":
            self.say(state.render(state.current_player()))
        elif word == "hint":
            action, text = hint(state, seconds=HINT_SECONDS)
            self.say(f"{text}\nType {state.legal_actions().index(action) + 1} to play it.")
        elif word == "save" and not rest.strip():
            self.say("save needs a file name: save FILE")
        elif word == "save":
            name = _file_name(rest)
            try:
                path = save(state, check_writable(name, state))
            except RecordError as error:
                self.say(f"Not saved: {error}")
            except OSError as error:
                self.say(f"Not saved: cannot write {name}: {error.strerror or error}")
            else:
                self.say(f"Record saved to {path}")
        else:
            return False
        return True

    def _save_on_exit(self) -> None:
        if self.record_path is None:
            return
        state = self.table.state
        try:
            save(state, check_writable(self.record_path, state))
        except (RecordError, OSError) as error:
            # The path was fine when the game started; the game must not be lost now, so keep it elsewhere.
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            self.say(f"Cannot save the record to {self.record_path}: {reason}")
            fallback = _spare_path(state)
            save(state, fallback)
            self.say(f"Record saved to {fallback} instead")
        else:
            self.say(f"Record saved to {self.record_path}")


def _file_name(typed: str) -> Path:
    """A file name as a shell would read it: `~` is the home folder, surrounding quotes are not part of it."""
    name = typed.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        name = name[1:-1]
    return Path(name).expanduser()


def _spare_path(state: State) -> Path:
    """A new file in the temporary folder for a record that could not go where it was asked to."""
    folder = Path(tempfile.gettempdir())
    number = 1
    while (path := folder / f"parlour-{state.game.name}-{state.seed}-{number}.json").exists():
        number += 1
    return path


__all__ = ["HUMAN", "ParlourError", "TerminalSession", "choose", "seat_table"]
