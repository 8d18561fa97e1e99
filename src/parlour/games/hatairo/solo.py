"""Hatairo's solo automaton: its Motif phase and the Market cards it removes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Event
from parlour.games.hatairo.components import FLAGS

if TYPE_CHECKING:
    pass


from parlour.games.hatairo.position import HatairoPosition


class Solo(HatairoPosition):
    __slots__ = ()

    def _solo_motif_phase(self, then: int, events: list[Event]) -> None:
        """Solo (A): box the 2 upper motifs, the player picks one of the rest, then refresh (R52)."""
        upper, self.motif_supply = self.motif_supply[:2], self.motif_supply[2:]
        self.box_motifs.extend(upper)
        events.append(self._event("automaton_motif", "the automaton boxes the two upper motifs and runs a motif phase"))
        self.motif_then = then
        self.motif_queue = [0]
        self._next_motif_pick(events)

    def _solo_remove(self, events: list[Event]) -> None:
        """Solo (B): box the lowest-VP rightmost card among rows with more than one card (uppermost on ties)."""
        rows = [r for r, row in enumerate(self.market) if len(row) > 1]
        if not rows:
            rows = [r for r, row in enumerate(self.market) if row]
        if not rows:
            return
        flag_vp = self.game.components.flag_vp  # the game's data's values (R42 or a designer's)
        row = min(rows, key=lambda r: (flag_vp[self.market[r][-1]], r))
        flag = self.market[row].pop()
        self.box_flags.append(flag)
        text = f"the automaton boxes {FLAGS[flag].name} from row {row + 1}"
        events.append(self._event("automaton_remove", text, flag=flag, row=row))
