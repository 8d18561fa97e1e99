"""Hatairo's Motif phase (R7-R9, the motif variant R49): every player in turn picks a motif of the
supply for a free space of her gallery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Event
from parlour.games.hatairo.board import Board
from parlour.games.hatairo.components import DESIGNS
from parlour.games.hatairo.constants import ACTION, DESIGN_OF, MOTIF_PICK, THEN_ACTION, THEN_END_TURN
from parlour.games.hatairo.moves import (
    MOTIF,
)

if TYPE_CHECKING:
    pass


from parlour.games.hatairo.solo import Solo


class Motif(Solo):
    __slots__ = ()

    def _motif_ids(self, board: Board) -> list[int]:
        base = self.game.table.base[MOTIF]
        spaces = board.free_spaces()
        per_design = len(board.motifs)
        designs = sorted({DESIGN_OF[m] for m in self.motif_supply})
        return [base + design * per_design + space for design in designs for space in spaces]

    def _start_motif_phase(self, events: list[Event]) -> None:
        n = self.game.num_players
        self.motif_queue = [(self.active + k) % n for k in range(n)]
        self.motif_then = THEN_ACTION
        self._next_motif_pick(events)

    def _next_motif_pick(self, events: list[Event]) -> None:
        """R6, R8: players pick in turn order; a full Motif Area or an empty supply skips the pick."""
        while self.motif_queue:
            seat = self.motif_queue.pop(0)
            if self.motif_supply and -1 in self.boards[seat].motifs:
                self.to_move = seat
                self.phase = MOTIF_PICK
                return
        self._end_motif_phase(events)

    def _pick_motif(self, board: Board, design: int, space: int, events: list[Event]) -> None:
        motif = next(m for m in self.motif_supply if DESIGN_OF[m] == design)
        self.motif_supply.remove(motif)
        board.place_motif(motif, space)
        text = f"{self._who(self.to_move)} places motif {DESIGNS[design]} {self._space(space)}"
        events.append(self._event("motif", text, motif=motif, space=space))
        self._next_motif_pick(events)

    def _end_motif_phase(self, events: list[Event]) -> None:
        self.box_motifs.extend(self.motif_supply)
        for row in self.market:
            self.box_flags.extend(row)
            row.clear()
        self._fill_market()
        self._reveal_motifs()
        events.append(self._event("refill", "the Market and the Motif Supply are refreshed"))
        if self.motif_then == THEN_END_TURN:
            self._next_turn(events)
            return
        self.to_move = self.active
        self.phase = ACTION
