"""How `parlour play` writes to the terminal: names for the seats, lines that fit, colour, board changes.

Everything here works on text a seat may already see (its `render(seat)` and the events visible to
it); nothing reads a state, so nothing here can show a secret.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

COLOUR_CODES = {
    "red": "31",
    "yellow": "33",
    "blue": "34",
    "green": "32",
    "cyan": "36",
    "purple": "35",
    "orange": "38;5;208",
    "pink": "38;5;205",
    "violet": "38;5;135",
    "beige": "38;5;180",
    "brown": "38;5;94",
    "grey": "90",
    "gray": "90",
    "black": "1",  # bold: a black word would vanish on a dark terminal
    "white": "1",
}
"""ANSI codes for the colour names the games use for seats, pigments, fabrics and culture tokens."""
COLOUR_WORD = re.compile(r"\b(" + "|".join(COLOUR_CODES) + r")\b", re.IGNORECASE)
RESET = "\033[0m"
SEAT_STYLE = "1;4"
"""Seats' names are bold and underlined, so a seat called Red is never mistaken for red paint."""
MORE_INDENT = "    "
"""How much further a wrapped line's continuation is indented than the line it continues."""


@dataclass(frozen=True)
class Screen:
    """The terminal the game is shown on: its size and whether it takes colour."""

    width: int = 80
    height: int = 24
    colour: bool = False

    @classmethod
    def of(cls, stream: TextIO | None = None) -> Screen:
        """The terminal `stream` (standard output) writes to; colour only on a terminal, never with NO_COLOR
        set (no-color.org). Standard output is looked up at each call: bound as a default it would be the
        stream of whoever imported this module first (a test runner's, since closed)."""
        stream = sys.stdout if stream is None else stream
        size = shutil.get_terminal_size()
        tty = hasattr(stream, "isatty") and stream.isatty()
        colour = tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        return cls(max(20, size.columns), max(10, size.lines), colour)

    def fit(self, text: str) -> list[str]:
        """`text` as lines no wider than the screen, broken between words, never inside one.

        A continuation keeps the line's indentation and a little more, so it reads as part of it.
        A single word longer than the screen stays whole (it is a name or a label one types).
        """
        lines: list[str] = []
        for line in squeeze_tables(text.split("\n"), self.width):
            if len(line) <= self.width:
                lines.append(line)
                continue
            indent = line[: len(line) - len(line.lstrip())]
            more = (indent + MORE_INDENT)[: max(0, self.width // 2)]
            lines.extend(
                textwrap.wrap(
                    line.strip(),
                    self.width,
                    initial_indent=indent,
                    subsequent_indent=more,
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            )
        return lines

    def paint(self, line: str, seat_names: Sequence[str] = ()) -> str:
        """A line with its seats' names and colour names in colour (unchanged without colour)."""
        if not self.colour:
            return line
        pieces = _split_on(line, [name for name in seat_names if name])
        out = []
        for piece, is_seat in pieces:
            if is_seat:
                match = COLOUR_WORD.search(piece)
                code = COLOUR_CODES[match.group(1).lower()] + ";" if match else ""
                out.append(f"\033[{code}{SEAT_STYLE}m{piece}{RESET}")
            else:
                out.append(
                    COLOUR_WORD.sub(lambda m: f"\033[{COLOUR_CODES[m.group(1).lower()]}m{m.group(1)}{RESET}", piece)
                )
        return "".join(out)


TABLE_GAP = re.compile(r"\S {3,}\S")
"""Three spaces or more between two words: the line is a row of a table (a player's mat, a queue)."""


def squeeze_tables(lines: Sequence[str], width: int) -> list[str]:
    """`lines` with each table too wide for `width` narrowed, its columns still lined up.

    A table is a run of lines laid out in columns; a column of blanks through all its lines is
    dropped where more than two stand side by side, so that every row keeps its alignment.
    """
    out: list[str] = []
    block: list[str] = []
    for line in [*lines, ""]:
        if TABLE_GAP.search(line):
            block.append(line)
            continue
        out.extend(_narrowed(block) if any(len(row) > width for row in block) else block)
        block = []
        out.append(line)
    return out[:-1]


def _narrowed(block: Sequence[str]) -> list[str]:
    longest = max(len(row) for row in block)
    rows = [row.ljust(longest) for row in block]
    blank = [all(row[c] == " " for row in rows) for c in range(longest)]
    keep = [not blank[c] or c < 2 or not (blank[c - 1] and blank[c - 2]) for c in range(longest)]
    return ["".join(ch for ch, kept in zip(row, keep, strict=True) if kept).rstrip() for row in rows]


def _coloured(match: re.Match[str]) -> str:
    return f"\033[{COLOUR_CODES[match.group(1).lower()]}m{match.group(1)}{RESET}"


def _split_on(line: str, names: Sequence[str]) -> list[tuple[str, bool]]:
    """`line` cut into pieces, each marked True when it is one of `names` (longest names first)."""
    if not names:
        return [(line, False)]
    pattern = re.compile("|".join(re.escape(name) for name in sorted(set(names), key=len, reverse=True)))
    pieces: list[tuple[str, bool]] = []
    start = 0
    for match in pattern.finditer(line):
        pieces.append((line[start : match.start()], False))
        pieces.append((match.group(0), True))
        start = match.end()
    pieces.append((line[start:], False))
    return [(piece, seat) for piece, seat in pieces if piece]


def seat_colours(view: dict[str, Any], players: int) -> list[str]:
    """Each seat's colour name, read from the public view as the browser's boards read it.

    The games name seats by colour: Hatairo and Yamataï in their players' mats, Hatflings! by hat
    colour. A game without seat colours (Hanbok Runway) gets "Player 1", "Player 2", ...
    """
    for key in ("players", "mats"):
        rows = view.get(key)
        if isinstance(rows, list) and len(rows) == players and all(isinstance(r, dict) and "colour" in r for r in rows):
            return [str(row["colour"]).capitalize() for row in rows]
    colours = view.get("colours")
    if isinstance(colours, list) and len(colours) == players and all(isinstance(c, str) for c in colours):
        return [colour.capitalize() for colour in colours]
    return [f"Player {seat + 1}" for seat in range(players)]


def agent_title(spec: str) -> str:
    """A bot's name from its spec: "mcts:iterations=500" is "MCTS", "greedy" is "Greedy"."""
    kind = spec.split(":", 1)[0].strip()
    return kind.upper() if len(kind) <= 4 else kind.capitalize()


SEAT_MENTION = re.compile(r"\b([Ss])eat (\d+)(?: \(([A-Za-z]+)\)| ([A-Za-z]+)\b)?")
SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
"""An identifier from the code ("reserve_building", a Yamataï fleet power), said as words instead."""


@dataclass(frozen=True)
class SeatNames:
    """What the terminal calls each seat: its colour, and who sits there."""

    colours: tuple[str, ...]
    who: tuple[str, ...]
    """"you" for the one person at a table of bots, a bot's name, or "" for a hot-seat person."""

    def short(self, seat: int) -> str:
        return self.colours[seat]

    def full(self, seat: int) -> str:
        """ "You (Red)", "Greedy (Blue)", or just "Red" for one of several people at the screen."""
        who = self.who[seat]
        if who == "you":
            return f"You ({self.colours[seat]})"
        return f"{who} ({self.colours[seat]})" if who else self.colours[seat]

    def styled(self) -> list[str]:
        """The names shown as a seat's: "You (Red)", "Greedy (Blue)", never a bare colour that paint shares."""
        return [name for seat in range(len(self.colours)) if (name := self.full(seat)) != self.colours[seat]]

    def humanise(self, text: str) -> str:
        """`text` with "seat 1", "seat 1 (orange)" and "seat 1 orange" said as the seat's colour, and
        identifiers ("reserve_building") as words ("reserve building")."""

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(2))
            if seat >= len(self.colours):
                return match.group(0)
            said = self.colours[seat]
            bracket, word = match.group(3), match.group(4)
            if bracket is not None:
                return said if bracket.lower() == said.lower() else f"{said} ({bracket})"
            if word is not None:
                return said if word.lower() == said.lower() else f"{said} {word}"
            return said

        return SNAKE_CASE.sub(lambda match: match.group(0).replace("_", " "), SEAT_MENTION.sub(name, text))


def board_changes(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The lines of `after` that differ from `before`, each block under the heading it belongs to.

    The heading of a changed line is the nearest line above it that is indented less (a player's
    mat above its rows, a section title above its items); the first line (who is to move) always
    comes first. Skipped stretches show as "  …".
    """
    shown: set[int] = {0} if after else set()
    matcher = difflib.SequenceMatcher(a=list(before), b=list(after), autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            for j in range(j1, j2):
                if after[j].strip():
                    shown.add(j)
                    shown.update(_headings(after, j))
    lines: list[str] = []
    previous = -1
    for j in sorted(shown):
        if j > previous + 1 and lines:
            lines.append("  …")
        lines.append(after[j])
        previous = j
    return lines


def _headings(lines: Sequence[str], index: int) -> list[int]:
    """The indices of the lines above `index` that are indented less, nearest first in each level."""
    found = []
    depth = _indent(lines[index])
    for j in range(index - 1, -1, -1):
        if lines[j].strip() and _indent(lines[j]) < depth:
            found.append(j)
            depth = _indent(lines[j])
            if depth == 0:
                break
    return found


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
