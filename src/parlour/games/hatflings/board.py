"""The 6×6 dance floor: square names, neighbourhoods, directions and the tables built from them.

A square is an index `s = y * 6 + x` (file a-f is x 0-5, rank 1-6 is y 0-5), so `a1 = 0` and
`f6 = 35`. Everything here is computed once at import; the rules only look things up.
"""

from __future__ import annotations

WIDTH = 6
HEIGHT = 6
SQUARES = tuple(range(WIDTH * HEIGHT))
FILES = "abcdef"

# The eight directions, named as a captain sitting at rank 1 sees the floor.
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("north", 0, 1),
    ("northeast", 1, 1),
    ("east", 1, 0),
    ("southeast", 1, -1),
    ("south", 0, -1),
    ("southwest", -1, -1),
    ("west", -1, 0),
    ("northwest", -1, 1),
)
DIRECTION_INDEX = {name: index for index, (name, _, _) in enumerate(DIRECTIONS)}


def on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


def square_name(square: int) -> str:
    return f"{FILES[square % WIDTH]}{square // WIDTH + 1}"


NAMES = tuple(square_name(s) for s in SQUARES)
_BY_NAME = {name: square for square, name in enumerate(NAMES)}


def parse_square(text: str) -> int | None:
    """The square a name like "c4" means, or None if it names no square of the floor."""
    return _BY_NAME.get(text.strip().lower())


def step(square: int, direction: int, distance: int = 1) -> int | None:
    """The square `distance` steps from `square` in `direction`, or None off the floor."""
    _, dx, dy = DIRECTIONS[direction]
    x, y = square % WIDTH + dx * distance, square // WIDTH + dy * distance
    return y * WIDTH + x if on_board(x, y) else None


def _neighbours(square: int) -> tuple[int, ...]:
    found = (step(square, d) for d in range(len(DIRECTIONS)))
    return tuple(sorted(n for n in found if n is not None))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in SQUARES)
"""The up-to-8 squares that surround each square."""

NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in NEIGHBOURS[s]) for s in SQUARES)


def is_edge(square: int) -> bool:
    x, y = square % WIDTH, square // WIDTH
    return x in (0, WIDTH - 1) or y in (0, HEIGHT - 1)


def inward_directions(square: int) -> tuple[int, ...]:
    """Push directions of a greedy entry: one per edge the square lies on, pointing into the floor."""
    x, y = square % WIDTH, square // WIDTH
    found = []
    if y == 0:
        found.append(DIRECTION_INDEX["north"])
    if y == HEIGHT - 1:
        found.append(DIRECTION_INDEX["south"])
    if x == 0:
        found.append(DIRECTION_INDEX["east"])
    if x == WIDTH - 1:
        found.append(DIRECTION_INDEX["west"])
    return tuple(found)


def jump_lines(square: int) -> tuple[tuple[int, int, int], ...]:
    """(direction, jumped square, landing square) for every jump that stays on the floor."""
    lines = []
    for direction in range(len(DIRECTIONS)):
        over, to = step(square, direction), step(square, direction, 2)
        if over is not None and to is not None:
            lines.append((direction, over, to))
    return tuple(lines)


def push_line(square: int, direction: int) -> tuple[int, ...]:
    """The squares from `square` onwards in `direction`, up to the edge of the floor."""
    line = [square]
    nxt = step(square, direction)
    while nxt is not None:
        line.append(nxt)
        nxt = step(nxt, direction)
    return tuple(line)
