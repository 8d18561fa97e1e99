"""Reading and checking a scene and start zones given as options (R1, R4, R6, R24).

A fixed scene is written "tree:c3,box:d4,barrel:b4,pig:e3": scene objects with their squares and
exactly one pig. Start zones are written "a1,b1,c1,d1,e1,f1". Every problem is reported as an
InvalidOption naming the entry at fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import InvalidOption
from parlour.games.hatflings.board import NAMES, parse_square
from parlour.games.hatflings.pieces import OBJECT_KINDS


@dataclass(frozen=True)
class Scene:
    objects: tuple[tuple[str, int], ...]
    pig: int

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled through the constructor: the compiled build cannot refill a frozen dataclass field by field.
        return (Scene, (self.objects, self.pig))


def parse_zone(text: str, which: int) -> tuple[int, ...]:
    squares: list[int] = []
    for part in text.split(","):
        square = parse_square(part)
        if square is None:
            raise InvalidOption(f"hatflings start_zone_{which}: {part.strip()!r} is not a square a1..f6")
        if square in squares:
            raise InvalidOption(f"hatflings start_zone_{which}: {NAMES[square]} is listed twice")
        squares.append(square)
    if len(squares) < 2:
        raise InvalidOption(f"hatflings start_zone_{which} needs at least 2 squares (R24), got {len(squares)}")
    return tuple(squares)


def check_zones(zone_0: tuple[int, ...], zone_1: tuple[int, ...]) -> None:
    shared = sorted(set(zone_0) & set(zone_1))
    if shared:
        raise InvalidOption(f"hatflings start zones overlap on {', '.join(NAMES[s] for s in shared)}")


def parse_scene(
    text: str,
    zones: tuple[tuple[int, ...], tuple[int, ...]],
    supply: dict[str, int],
    min_objects: int,
) -> Scene:
    """A fixed scene from its option text, checked as R4 and R6 require."""
    in_zone = set(zones[0]) | set(zones[1])
    objects: list[tuple[str, int]] = []
    pigs: list[int] = []
    for entry in (part.strip() for part in text.split(",")):
        kind, colon, where = (piece.strip().lower() for piece in entry.partition(":"))
        if not colon:
            raise InvalidOption(f"hatflings scene entry {entry!r} is not object:square (e.g. tree:c3)")
        square = parse_square(where)
        if square is None:
            raise InvalidOption(f"hatflings scene entry {entry!r}: {where!r} is not a square a1..f6")
        if kind == "pig":
            pigs.append(square)
            continue
        if kind not in OBJECT_KINDS:
            raise InvalidOption(f"hatflings scene entry {entry!r}: objects are {', '.join(OBJECT_KINDS)} and the pig")
        if square in in_zone:
            raise InvalidOption(f"hatflings scene: {kind} on {NAMES[square]} is inside a start zone (R4)")
        if any(square == taken for _, taken in objects):
            raise InvalidOption(f"hatflings scene: two objects on {NAMES[square]} (R4)")
        objects.append((kind, square))
    for kind in OBJECT_KINDS:
        used = sum(1 for placed, _ in objects if placed == kind)
        if used > supply[kind]:
            raise InvalidOption(f"hatflings scene uses {used} {kind}s but the game has only {supply[kind]}")
    if len(objects) < min_objects:
        raise InvalidOption(f"hatflings scene needs at least {min_objects} objects, got {len(objects)}")
    if len(pigs) != 1:
        raise InvalidOption(f"hatflings scene needs exactly one pig (e.g. pig:e3), got {len(pigs)}")
    pig = pigs[0]
    under_pig = [kind for kind, square in objects if square == pig]
    if under_pig and under_pig[0] not in ("box", "barrel"):
        raise InvalidOption(f"hatflings scene: the pig cannot stand on the {under_pig[0]} at {NAMES[pig]} (R6)")
    return Scene(tuple(objects), pig)
