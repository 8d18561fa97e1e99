"""One player's board: Gallery, Motif Area, Topography Area, Palette and Atelier (rules §1, R1-R3),
plus the cards she holds during set-up. Flat lists of ints so that a copy is cheap."""

from __future__ import annotations

from typing import Final

from parlour.engine.compile_hints import mypyc_attr
from parlour.games.hatairo.components import FLAGS, MOTIFS
from parlour.games.hatairo.scoring import ROWS

NCOL: Final = 8
# Each flag card's bonus colour, the pigment it is in a Palette (R4), read as ints rather than
# from the flag records.
BONUS_OF: Final[tuple[int, ...]] = tuple(flag.bonus for flag in FLAGS)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)  # see compile_hints
class Board:
    __slots__ = (
        "gallery",
        "motifs",
        "tiles",
        "palette",
        "pigment_cards",
        "palette_flags",
        "atelier",
        "hand",
        "picks",
        "passed",
        "returned",
        "placed",
        "as_any",
        "any_as",
        "three",
    )

    def __init__(self, columns: int) -> None:
        self.gallery = [-1] * (ROWS * columns)  # flag id per cell, row by row
        self.motifs = [-1] * (columns + ROWS)  # motif id per space: above each column, then left of each row
        self.tiles = [-1] * columns  # topography tile id per column
        self.palette = [0] * NCOL  # pigments per colour: pigment cards plus palette flag cards (R13, R35)
        self.pigment_cards = [0] * NCOL  # how many of those are pigment cards
        self.palette_flags: list[int] = []  # flag cards tucked under the Palette, oldest first
        self.atelier: list[int] = []  # sketches, at most 3
        self.hand: list[int] = []  # set-up: dealt (or drafted) cards not yet kept
        self.picks: list[int] = []  # drafting variant: her picks, one per round (kept until the reveal)
        # drafting variant: the cards she passed on, one list per pass; she remembers them until the reveal
        self.passed: list[list[int]] = []
        self.returned: list[int] = []  # drafting variant: her leftovers, back in the Flag Supply until the reveal
        self.placed = 0  # completed flags in the Gallery
        self.as_any = 0  # colours owned as "X as any" tiles (bit mask)
        self.any_as = 0  # colours owned as "any as Y" tiles (bit mask)
        self.three = False  # owns a 3-for-2 tile

    def copy(self) -> Board:
        twin = Board.__new__(Board)
        twin.gallery = self.gallery[:]
        twin.motifs = self.motifs[:]
        twin.tiles = self.tiles[:]
        twin.palette = self.palette[:]
        twin.pigment_cards = self.pigment_cards[:]
        twin.palette_flags = self.palette_flags[:]
        twin.atelier = self.atelier[:]
        twin.hand = self.hand[:]
        twin.picks = self.picks[:]
        twin.passed = [cards[:] for cards in self.passed]
        twin.returned = self.returned[:]
        twin.placed = self.placed
        twin.as_any = self.as_any
        twin.any_as = self.any_as
        twin.three = self.three
        return twin

    def pigments(self) -> int:
        return sum(self.palette)

    def add_palette_flag(self, flag_id: int) -> None:
        """R4: a flag card in the Palette is one pigment of its bonus colour."""
        self.palette_flags.append(flag_id)
        self.palette[BONUS_OF[flag_id]] += 1

    def take_pigment_card(self, colour: int) -> None:
        self.palette[colour] += 1
        self.pigment_cards[colour] += 1

    def spend(self, colour: int, flag_card: bool | None = None) -> int:
        """Remove one pigment of `colour`. Returns the flag id boxed (R18), or -1 for a pigment card.

        `flag_card` says which kind of card goes when the player chose (P2); by default pigment cards
        go first (back to the Pigment Supply), then palette flag cards, the oldest first (which of
        several flag cards of one colour leaves the game changes nothing).
        """
        self.palette[colour] -= 1
        if self.pigment_cards[colour] and not flag_card:
            self.pigment_cards[colour] -= 1
            return -1
        for index, flag_id in enumerate(self.palette_flags):
            if BONUS_OF[flag_id] == colour:
                del self.palette_flags[index]
                return flag_id
        raise AssertionError(f"palette count of colour {colour} out of step with its cards")

    def place_motif(self, motif_id: int, space: int) -> None:
        self.motifs[space] = motif_id
        motif = MOTIFS[motif_id]
        if motif.kind == "pigment_as_any":
            self.as_any |= 1 << motif.colour
        elif motif.kind == "any_as_colour":
            self.any_as |= 1 << motif.colour
        elif motif.kind == "three_for_two":
            self.three = True

    def free_cells(self) -> list[int]:
        return [cell for cell, flag in enumerate(self.gallery) if flag < 0]

    def free_spaces(self) -> list[int]:
        return [space for space, motif in enumerate(self.motifs) if motif < 0]
