"""Playing a game in the terminal: people type moves, bots answer.

A person types a legal move's number or its label; `moves` lists them again, `save FILE` saves the
record so far, `quit` (or end of input, or Ctrl-C) leaves. A wrong entry is refused with the rule
that forbids it and the person is asked again; nothing changes.
"""

from __future__ import annotations

import difflib
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.agents import Agent, make_agent
from parlour.agents.hint import RIVALS_SHOWN
from parlour.agents.mcts import MctsAgent, Search
from parlour.engine.actions import Action, Event
from parlour.engine.errors import IllegalAction, InvalidOption, ParlourError, RecordError
from parlour.engine.game import Game, State
from parlour.engine.records import check_writable, save
from parlour.play_screen import Screen, SeatNames, agent_title, board_changes, seat_colours

HUMAN = "human"
CLEAR_SCREEN = "\033[2J\033[3J\033[H"  # clear the screen and its scroll-back, cursor home
HELP = (
    "Type a move's number or its label. Other commands: moves (list them all; a long list is summed up"
    " before a turn), board (show the whole board; after a move only what changed is shown), hint (what the"
    " strongest bot would play), save FILE (save the record so far), help, quit."
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


def format_moves(legal: Sequence[Action], width: int | None = None, most_lines: int | None = None) -> str:
    """The numbered legal moves: one a line, in columns when there are many, or grouped by what they share.

    Many moves often differ only in their last word ("place normal at a1", "place normal at b2"):
    then each group is one line ("place normal at:  1) a1  8) b2"), when that takes fewer lines.
    A short list goes in columns too when one a line would take more than `most_lines`.
    """
    width = shutil.get_terminal_size().columns if width is None else width
    short = len(legal) <= MOVES_IN_ONE_COLUMN
    columns = _in_columns(legal, width, one_column=short)
    if short and (most_lines is None or len(legal) <= most_lines):
        return columns
    layouts = [columns, _grouped(legal, width), _in_columns(legal, width, one_column=False)]
    return min(layouts, key=lambda text: len(text.splitlines()))  # the first of the shortest


def _in_columns(legal: Sequence[Action], width: int, one_column: bool) -> str:
    digits = len(str(len(legal)))
    cells = [f"{number:>{digits}}. {action.label}" for number, action in enumerate(legal, 1)]
    cell = max(len(text) for text in cells) + 3 if cells else 0
    columns = max(1, (width - 2) // cell) if not one_column and cell else 1
    rows = -(-len(cells) // columns)
    # Numbered down each column, as people read a list.
    lines = [
        "  " + "".join(cells[row + rows * col].ljust(cell) for col in range(columns) if row + rows * col < len(cells))
        for row in range(rows)
    ]
    return "\n".join(line.rstrip() for line in lines)


def _grouped(legal: Sequence[Action], width: int) -> str:
    groups: dict[str, list[str]] = {}
    for number, action in enumerate(legal, 1):
        head, _, last = action.label.rpartition(" ")
        groups.setdefault(head or last, []).append(f"{number}) {last}" if head else str(number))
    lines = []
    pad = max(len(head) for head in groups) + 1
    pad = pad if pad <= width // 2 else 0  # heads line up when that leaves room for the moves
    for head, items in groups.items():
        if len(items) == 1:  # a move of its own: its whole label, numbered as in a list
            alone = items[0].split(")", 1)[0]
            lines.append(f"  {alone}. {legal[int(alone) - 1].label}")
        else:
            lines.extend(_wrap_items(f"  {head + ':':<{pad}}", items, width))
    return "\n".join(lines)


def _wrap_items(head: str, items: Sequence[str], width: int) -> list[str]:
    """`head` followed by `items` two spaces apart, continued on indented lines; an item is never split."""
    lines, line = [], head
    for item in items:
        if len(line) + 2 + len(item) > width and line.strip() != head.strip():
            lines.append(line)
            line = " " * min(len(head), 8)
        line += "  " + item
    return [*lines, line]


MOVE_LIST_SHARE = 0.4
"""The most of the screen's height the list of moves may take when a turn is shown; a longer list
is summed up in a line or two (which numbers do what) and printed whole on `moves`, so that the
board and the moves just played stay on the screen."""


def summarise_moves(legal: Sequence[Action]) -> str:
    """The legal moves in brief: for each kind, the words its labels share and its numbers.

    "42 moves: 1-4 jump …, 5-34 place …, 35-42 greedy push at …" -- a person types a number, a
    move's words, or `moves` for the whole list.
    """
    kinds: dict[tuple[str, str], list[int]] = {}
    for number, action in enumerate(legal, 1):
        # by kind and first word: Hatflings!' scene moves are "box at a2", "tree at c3", ...
        kinds.setdefault((action.kind, action.label.split(" ", 1)[0]), []).append(number)
    parts = []
    for (kind, _), numbers in kinds.items():
        labels = [legal[number - 1].label.split() for number in numbers]
        parts.append(f"{_number_ranges(numbers)} {_what_they_share(labels) or kind.replace('_', ' ')}")
    count = f"{len(legal)} moves" if len(legal) != 1 else "1 move"
    return f"  {count}: " + ", ".join(parts) + "\n  (type moves to list them all, then a number or a move's words)"


def _what_they_share(labels: Sequence[Sequence[str]]) -> str:
    """The words that start and end every label, the rest an ellipsis: "keep … in palette"."""
    if len(labels) == 1:
        return " ".join(labels[0])
    head = _shared_start(labels)
    if not head:
        return ""
    shortest = min(len(words) for words in labels)
    tail = _shared_start([words[::-1] for words in labels])[: shortest - len(head)][::-1]
    return " ".join([*head, "…", *tail])


def _shared_start(labels: Sequence[Sequence[str]]) -> list[str]:
    shared: list[str] = []
    for words in zip(*labels, strict=False):
        if any(word != words[0] for word in words):
            break
        shared.append(words[0])
    return shared


def _number_ranges(numbers: Sequence[int]) -> str:
    """1, 2, 3, 5 as "1-3, 5"."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs)


def format_events(events: Sequence[Event], seat: int | None, names: SeatNames | None = None) -> str:
    said = (names.humanise(event.text) if names else event.text for event in events if event.visible_to(seat))
    return "\n".join(f"  - {text}" for text in said)


TIE_BREAKS = {
    "yamatai": "among tied players the one who played earliest in the final round wins",
    "hanbok_runway": "among tied players the one who made fewer sets wins",
    "hatflings": "among tied players the one with more halflings in the rival's start zone wins",
}
"""Each game's tie-break in words, for the end of a game it decided."""


def format_result(state: State, names: SeatNames | None = None, viewer: int | None = None) -> str:
    """The end in the player's terms: who won by how much, each score's breakdown, the tie-break.

    Without `names` the seats are called by colour (a replay knows no more); `viewer` is the seat of
    the one person at the screen, told "You win" or "You lose".
    """
    if names is None:
        players = state.game.num_players
        names = SeatNames(tuple(seat_colours(state.view(None), players)), ("",) * players)
    scores = state.scores()
    winners = state.winners()
    ranked = sorted(range(len(scores)), key=lambda seat: (seat not in winners, -scores[seat].total, seat))
    lines = ["Game over. " + _headline(scores, winners, names, viewer)]
    best = max(score.total for score in scores)
    tied = [seat for seat, score in enumerate(scores) if score.total == best]
    if len(tied) > len(winners) and len(winners) == 1:
        rule = TIE_BREAKS.get(state.game.name, "the game's tie-break decides")
        lines.append(f"{_and(names.full(seat) for seat in tied)} tied on {best:g}; {rule}.")
    for seat in ranked:
        parts = ", ".join(f"{name} {value:g}" for name, value in scores[seat].breakdown.items() if value)
        mark = " (winner)" if seat in winners and len(scores) > 1 else ""
        lines.append(f"  {names.full(seat)}: {scores[seat].total:g}{mark}" + (f" — {parts}" if parts else ""))
    return "\n".join(lines)


def _headline(scores: Sequence[Any], winners: Sequence[int], names: SeatNames, viewer: int | None) -> str:
    if len(scores) == 1:
        return f"{'You score' if viewer == 0 else names.full(0) + ' scores'} {scores[0].total:g}."
    best = scores[winners[0]].total
    if len(winners) > 1:
        return f"A shared win: {_and(names.full(seat) for seat in winners)}, {best:g} each."
    winner = winners[0]
    runner_up = max(score.total for seat, score in enumerate(scores) if seat != winner)
    margin = f"{best:g}–{runner_up:g}"
    if viewer == winner:
        return f"You win {margin}."
    if viewer is not None:
        return f"You lose: {names.full(winner)} wins {margin}."
    return f"{names.full(winner)} wins {margin}."


def _and(words: Iterable[str]) -> str:
    items = list(words)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def hint_search(state: State, seconds: float) -> Search:
    """The search behind `hint`: MCTS for `seconds` on what the seat to move can see."""
    return MctsAgent(seed=0, seconds=seconds, reuse=False).search(state)


def plain_hint(state: State, seconds: float = HINT_SECONDS) -> tuple[Action, str]:
    """The move the strongest bot would play for the seat to move, and why, in plain words.

    Like every bot the search sees only what the seat sees, so a hint never gives a secret away.
    """
    search = hint_search(state, seconds)
    legal = state.legal_actions()
    best = search.best

    def named(choice: Any) -> str:
        return f"{legal.index(choice.action) + 1}. {choice.action.label}"

    if len(search.choices) == 1:
        return best.action, f"Hint: {named(best)} is the only move you have."
    tries = f"{search.iterations:,} practice games" if search.iterations != 1 else "1 practice game"
    text = (
        f"Hint: {named(best)}. The strongest bot played out {tries} from what you can see and likes"
        f" this move best: it came out ahead in about {_win_chance(best.value)} of the games it tried it in."
    )
    others = [choice for choice in search.choices[1 : 1 + RIVALS_SHOWN] if choice.visits]
    if others:
        text += " Next best: " + "; ".join(f"{named(c)} (about {_win_chance(c.value)})" for c in others) + "."
    return best.action, text + f"\nType {legal.index(best.action) + 1} to play it."


def _win_chance(value: float) -> str:
    """A search's mean result on -1 (loss) .. +1 (win) as a rough share of wins."""
    return f"{(max(-1.0, min(1.0, value)) + 1) / 2:.0%}"


class TerminalSession:
    """Runs a Table with the given input and output functions (the console, or a test's).

    After a move it shows what changed, not the whole board again: each move since the person's
    last turn in words (the bots' moves as they are played), then the lines of the board that
    changed, as many as leave those moves, the list of moves and the prompt on one screen.
    """

    def __init__(
        self,
        table: Table,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
        record_path: Path | None = None,
        screen: Screen | None = None,
        move_list_share: float = MOVE_LIST_SHARE,
    ) -> None:
        if not 0 < move_list_share <= 1:
            raise ValueError(
                f"move_list_share is a share of the screen's height, above 0 and at most 1, not {move_list_share}"
            )
        self.move_list_share = move_list_share
        self.table = table
        self.ask = ask
        self.say = say
        self.record_path = record_path
        self.fixed_screen = screen
        """The screen a test gives; otherwise the terminal's, read afresh so that a resize is followed."""
        self.names = seat_names(table)
        self.last_human: int | None = None
        self.log: list[tuple[int, list[str]]] = []
        """The public account of every move so far (its seat, its steps), to show again after a hot-seat hand-over."""
        self.teller: int | None = None
        """The seat whose move was told last, so that the steps of one turn are told under one name."""
        self.log_read: dict[int, int] = {}
        """How much of the log each person has seen on their screen."""
        self.seen: dict[int, list[str]] = {}
        """The board each person last saw, to show them only what changed since."""
        self.kept = 0
        """How many lines printed since the person's last entry must stay on the screen."""

    @property
    def screen(self) -> Screen:
        return Screen.of() if self.fixed_screen is None else self.fixed_screen

    def show(self, text: str) -> None:
        """Print `text` fitted to the screen's width, in colour when the screen takes it."""
        lines = self.screen.fit(text)
        self.kept += len(lines)
        names = self.names.styled()
        self.say("\n".join(self.screen.paint(line, names) for line in lines))

    def run(self) -> int:
        """Play to the end or until the person leaves; returns the process exit code."""
        try:
            self._loop()
        except (EOFError, KeyboardInterrupt):
            self.say("\nLeaving the game.")
            self._save_on_exit()
            return 0
        self.show(self.names.humanise(self.table.state.render(None)))
        self.show(format_result(self.table.state, self.names, self._watcher()))
        self._save_on_exit()
        return 0

    def _watcher(self) -> int | None:
        """The seat of the one person at the screen, or None when several share it (or none)."""
        humans = self.table.humans
        return humans[0] if len(humans) == 1 else None

    def _loop(self) -> None:
        state = self.table.state
        while not state.is_terminal():
            seat = state.current_player()
            if seat in self.table.agents:
                action = self.table.agents[seat].act(state)
                events = state.apply(action)
                self._tell_move(seat, action, events, self._watcher())
            else:
                self._human_turn(seat)

    def _tell_move(self, seat: int, action: Action, events: Sequence[Event], watcher: int | None) -> None:
        """Say what a move did, as far as `watcher` may see; keep its public account for later.

        The moves of one turn are told together: the seat's name once, then each step.
        """
        # In a game with hidden information a move's words may be its seat's secret (a card kept
        # face down, a tile put back on the deck): then only the events it shows are told.
        perfect = self.table.state.game.perfect_information
        steps = self._steps(seat, action if perfect or watcher == seat else None, events, watcher)
        self.show(self._told(seat, steps, continuing=self.teller == seat))
        self.teller = seat
        self.log.append((seat, self._steps(seat, action if perfect else None, events, None)))

    def _steps(self, seat: int, action: Action | None, events: Sequence[Event], watcher: int | None) -> list[str]:
        """What `watcher` may see of a move: its events, or its label, or that there was a move."""
        colour = self.names.short(seat)
        said = [self._said(e, colour, watcher) for e in events if e.visible_to(watcher)]
        if said:
            return said
        return [action.label if action is not None else "a move you cannot see"]

    def _said(self, event: Event, colour: str, watcher: int | None) -> str:
        text = _without_actor(self.names.humanise(event.text), colour)
        return _to_reader(text) if watcher is not None and event.audience == (watcher,) else text

    def _told(self, seat: int, steps: Sequence[str], continuing: bool) -> str:
        bullets = [f"  - {step}" for step in steps]
        if continuing:
            return "\n".join(bullets)
        who = self.names.full(seat)
        if len(steps) == 1:
            # A line that speaks to its reader ("You keep Peru in your atelier") is a sentence of its
            # own: under the seat's name it would read "You (Red): you keep …".
            return steps[0] if _speaks_to_reader(steps[0]) else f"{who}: {steps[0]}"
        return "\n".join([f"{who}:", *bullets])

    def _recap(self, moves: Sequence[tuple[int, list[str]]]) -> str:
        """The moves told again, one seat's run of them under its name once."""
        runs: list[tuple[int, list[str]]] = []
        for seat, steps in moves:
            if runs and runs[-1][0] == seat:
                runs[-1][1].extend(steps)
            else:
                runs.append((seat, list(steps)))
        return "\n".join(self._told(seat, steps, continuing=False) for seat, steps in runs)

    def _human_turn(self, seat: int) -> None:
        state = self.table.state
        hidden = not state.game.perfect_information
        if hidden and len(self.table.humans) > 1 and self.last_human not in (None, seat):
            self._hand_over(seat)
        self.last_human = seat
        self._show_turn(seat)
        self.kept = 0
        self.teller = None
        while True:
            colour = self.names.short(seat)
            entry = self.ask(self.screen.paint(f"{colour}> ", [colour])).strip()
            if not entry:
                continue
            if self._command(entry):
                continue
            try:
                action = choose(state, entry)
                events = state.apply(action)
            except IllegalAction as error:
                self.show(f"Not allowed: {self.names.humanise(str(error))}")
                continue
            self.kept = 0
            self._tell_move(seat, action, events, seat)
            self.log_read[seat] = len(self.log)  # their own moves are no news to them after a hand-over
            return

    def _hand_over(self, seat: int) -> None:
        # Clear the screen first, so the next person does not read the last one's secrets.
        self.say(CLEAR_SCREEN)
        self.ask(f"Pass the screen to {self.names.short(seat)} and press Enter.")
        self.say(CLEAR_SCREEN)
        self.kept = 0
        missed = self.log[self.log_read.get(seat, 0) :]
        if missed:
            # The clearing wiped the moves made since this person's last turn; show their public part again.
            self.show("Since your last turn:\n" + self._recap(missed))

    def _show_turn(self, seat: int) -> None:
        """The board, or what changed on it since this person last saw it, and the moves to choose from.

        All of it fits the screen with the moves told since the person's last entry: a board too
        tall is cut (`board` shows it whole), a long list of moves summed up (`moves` lists it).
        """
        state = self.table.state
        board = self.names.humanise(state.render(seat)).splitlines()
        moves = self._moves_for_turn(state.legal_actions())
        heading = f"Your move, {self.names.short(seat)}:" if self._watcher() is None else "Your move:"
        room = self.screen.height - self.kept - len(self.screen.fit(moves)) - 3  # heading, prompt, a spare line
        before = self.seen.get(seat)
        self.seen[seat] = board
        if len(self.screen.fit("\n".join(board))) < room:  # and the blank line above it
            self.show("\n" + "\n".join(board))
        elif before == board:
            heading = heading.removesuffix(":") + " (the board is as you last saw it):"
        elif room < 3:  # the moves told since fill the screen: the board waits for `board`
            changed = "changed" if before is not None else "is not shown"
            heading = heading.removesuffix(":") + f" (the board {changed}: type board to see it):"
        elif before is None:
            self.show("\n" + self._cut("Top of the board", self.screen.fit("\n".join(board)), room - 1))
        else:
            self.show(self._cut("Changed on the board", self.screen.fit("\n".join(board_changes(before, board))), room))
        self.show(heading + "\n" + moves)

    def _moves_for_turn(self, legal: Sequence[Action]) -> str:
        """The numbered moves, or their summary when the list would take too much of the screen."""
        most = max(2, int(self.screen.height * self.move_list_share))
        moves = format_moves(legal, self.screen.width, most)
        if len(self.screen.fit(moves)) <= most:
            return moves
        return summarise_moves(legal)

    def _cut(self, title: str, lines: list[str], room: int) -> str:
        """`lines` under `title`, cut to `room` lines with a note of how many more `board` shows."""
        if len(lines) < room:  # and the title
            return f"{title}:\n" + "\n".join(lines)
        shown = room - 2
        rest = len(lines) - shown
        note = f"  … {rest} more lines: type board to see the whole board"
        return f"{title}:\n" + "\n".join([*lines[:shown], note])

    def _command(self, entry: str) -> bool:
        """Handle a non-move command; returns False when the entry should be read as a move."""
        word, _, rest = entry.partition(" ")
        word = word.lower()
        state = self.table.state
        if word in ("quit", "exit"):
            raise EOFError
        if word in ("help", "?"):
            self.show(HELP)
        elif word == "moves":
            self.show(format_moves(state.legal_actions(), self.screen.width))
        elif word == "board":
            self.show(self.names.humanise(state.render(state.current_player())))
        elif word == "hint":
            self.show(plain_hint(state)[1])
        elif word == "save" and not rest.strip():
            self.show("save needs a file name: save FILE")
        elif word == "save":
            name = _file_name(rest)
            try:
                path = save(state, check_writable(name, state))
            except RecordError as error:
                self.show(f"Not saved: {error}")
            except OSError as error:
                self.show(f"Not saved: cannot write {name}: {error.strerror or error}")
            else:
                self.show(f"Record saved to {path}")
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


def _without_actor(text: str, colour: str) -> str:
    """An event's words without its actor's name in front, when told under that name."""
    rest = text[len(colour) + 1 :]
    return rest if text[: len(colour) + 1].lower() == colour.lower() + " " and rest else text


READER = "You "
"""How a line addressed to the seat reading it begins (a game's private "you keep …"); the lines
for everyone name the seat instead."""


def _to_reader(text: str) -> str:
    """A line for its reader alone that speaks to her ("you keep Peru in your atelier") as a
    sentence: "You keep Peru in your atelier"."""
    return READER + text[len(READER) :] if text[: len(READER)].lower() == READER.lower() else text


def _speaks_to_reader(step: str) -> bool:
    return step.startswith(READER)


def seat_names(table: Table) -> SeatNames:
    """The colour of each seat and who sits there: "you" alone with bots, a bot's name, or nobody named."""
    game = table.game
    colours = seat_colours(table.state.view(None), game.num_players)
    alone = len(table.humans) == 1
    who = tuple(("you" if alone else "") if spec == HUMAN else agent_title(spec) for spec in table.seats)
    return SeatNames(tuple(colours), who)


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
