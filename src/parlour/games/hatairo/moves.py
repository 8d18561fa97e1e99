"""Hatairo's fixed action space: every action built once per Game, with small integer codes for
fast decoding (`kind`, `a`, `b` per action id).

Flags are named by their card name (a card is in one place at a time, so "complete Japan" is
unambiguous); colours, cells, columns and motif spaces by words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from parlour.engine.actions import Action
from parlour.games.hatairo.components import COLOURS, DESIGNS, FLAGS, TOPOGRAPHIES
from parlour.games.hatairo.scoring import ROWS

KEEP_PALETTE: Final = 0
KEEP_ATELIER: Final = 1
DRAFT: Final = 2
TOPOGRAPHY: Final = 3
START_MOTIF: Final = 4
RESERVE: Final = 5
GAIN: Final = 6
COMPLETE: Final = 7
PLACE: Final = 8
PAY_SINGLE: Final = 9
PAY_PAIR: Final = 10
PAY_TRIPLE: Final = 11
SPARE: Final = 12
BONUS: Final = 13
DISCARD: Final = 14
MOTIF: Final = 15
PASS: Final = 16
CARD_KIND: Final = 17
SPARE_LOST: Final = 18

KIND_NAMES = (
    "keep_palette",
    "keep_atelier",
    "draft",
    "topography",
    "start_motif_phase",
    "reserve",
    "gain",
    "complete",
    "place",
    "pay",
    "pay_pair",
    "pay_three_for_two",
    "spare",
    "bonus",
    "discard",
    "motif",
    "pass",
    "cards",
    "spare_lost",
)


def space_name(space: int, columns: int) -> str:
    if space < columns:
        return f"above column {space + 1}"
    return f"left of row {space - columns + 1}"


def cell_name(cell: int, columns: int) -> str:
    return f"row {cell // columns + 1} column {cell % columns + 1}"


@dataclass(frozen=True)
class ActionTable:
    """The actions of one board side, and the first id of each family."""

    actions: tuple[Action, ...]
    kind: tuple[int, ...]
    a: tuple[int, ...]
    b: tuple[int, ...]
    base: dict[int, int]


def build_table(columns: int) -> ActionTable:
    actions: list[Action] = []
    kinds: list[int] = []
    first: list[int] = []
    second: list[int] = []
    base: dict[int, int] = {}

    def add(kind: int, label: str, a: int = 0, b: int = 0, **params: object) -> None:
        base.setdefault(kind, len(actions))
        actions.append(Action(len(actions), label, KIND_NAMES[kind], tuple(params.items())))
        kinds.append(kind)
        first.append(a)
        second.append(b)

    for flag in FLAGS:
        add(KEEP_PALETTE, f"keep {flag.name} in palette", flag.id, flag=flag.name)
    for flag in FLAGS:
        add(KEEP_ATELIER, f"keep {flag.name} in atelier", flag.id, flag=flag.name)
    for flag in FLAGS:
        add(DRAFT, f"draft {flag.name}", flag.id, flag=flag.name)
    for column in range(columns):
        for topo, name in enumerate(TOPOGRAPHIES):
            add(
                TOPOGRAPHY, f"topography {name} under column {column + 1}", topo, column, topography=name, column=column
            )
    add(START_MOTIF, "start the motif phase")
    for flag in FLAGS:
        add(RESERVE, f"reserve {flag.name}", flag.id, flag=flag.name)
    for flag in FLAGS:
        add(GAIN, f"gain {flag.name} as {COLOURS[flag.bonus]} pigment", flag.id, flag=flag.name)
    for flag in FLAGS:
        add(COMPLETE, f"complete {flag.name}", flag.id, flag=flag.name)
    for cell in range(ROWS * columns):
        add(PLACE, f"place at {cell_name(cell, columns)}", cell, 0, row=cell // columns, column=cell % columns)
    for slot, slot_name in enumerate(COLOURS):
        for colour, name in enumerate(COLOURS):
            add(PAY_SINGLE, f"pay {slot_name} with {name}", slot, colour, slot=slot_name, pigment=name)
    for slot, slot_name in enumerate(COLOURS):
        for colour, name in enumerate(COLOURS):
            add(PAY_PAIR, f"pay {slot_name} with two {name}", slot, colour, slot=slot_name, pigment=name)
    for slot, slot_name in enumerate(COLOURS):
        for colour, name in enumerate(COLOURS):
            add(PAY_TRIPLE, f"pay {slot_name} with three {name}", slot, colour, slot=slot_name, pigment=name)
    for slot, slot_name in enumerate(COLOURS):
        add(SPARE, f"spare pigment pays {slot_name}", slot, slot=slot_name)
    for colour, name in enumerate(COLOURS):
        add(BONUS, f"take bonus {name}", colour, pigment=name)
    for colour, name in enumerate(COLOURS):
        add(DISCARD, f"discard {name}", colour, pigment=name)
    for design_index, design in enumerate(DESIGNS):
        for space in range(columns + ROWS):
            add(MOTIF, f"motif {design} {space_name(space, columns)}", design_index, space, motif=design, space=space)
    add(PASS, "pass")
    # P2 (4 players): how many of the pigments being spent are palette flag cards rather than pigment cards.
    add(CARD_KIND, "spend pigment cards only", 0, flag_cards=0)
    add(CARD_KIND, "spend 1 palette flag card", 1, flag_cards=1)
    for count in (2, 3):
        add(CARD_KIND, f"spend {count} palette flag cards", count, flag_cards=count)
    # P3 (4 players, supply short for the bonuses due): the spare output of a three-for-two given up (R17).
    add(SPARE_LOST, "the spare pigment is lost")
    return ActionTable(tuple(actions), tuple(kinds), tuple(first), tuple(second), base)
