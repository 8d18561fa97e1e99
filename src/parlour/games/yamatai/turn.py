"""Yamataï's turn flow: a turn's start, the end of
a round with its end triggers (R23) and the end of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import TERMINAL, Event
from parlour.games.yamatai.components import (
    SLOTS,
)
from parlour.games.yamatai.constants import (
    END_REASONS,
    FLEET,
    OVER,
)
from parlour.games.yamatai.deck import after_draw

if TYPE_CHECKING:
    pass


from parlour.games.yamatai.trade import Trade


class TurnFlow(Trade):
    __slots__ = ()

    def _start_turn(self, turn: int) -> None:
        self.turn = turn
        self.to_move = self.order[turn]
        self.phase = FLEET
        self.resume = FLEET
        self.tile = 0
        self.power_ready = False
        self.minus_one = False
        self.hand = [0] * 5
        self.bought = [0] * 5
        self.price_table = ((0,) * 5, (0,) * 5)
        self.trades_left = 0
        self.placed = []
        self.head = -1
        self.chain_closed = False
        self.branch_used = False
        self.picks = []
        self.keep_left = 0
        self.pending = -1
        self.preview = []
        if turn == 0:
            self.turn_fleets = []

    def _end_turn(self) -> list[Event]:
        """She ends her turn with her fleet tile's power unused: it is lost (R41)."""
        self.power_ready = False
        return [Event("end_turn", f"{self._who()} ends the turn", {"seat": self.to_move})]

    def _end_round(self) -> Event:
        """End-of-round steps in the rulebook's order, with the end triggers where they bite (R23)."""
        self.final_order = self.order[:]
        if self.end_a:
            return self._finish("A")
        for k in range(SLOTS):
            if self.spec_track[k] >= 0:
                self.spec_coins[k] += 2
        for k in range(SLOTS):
            if self.spec_track[k] < 0:
                if not self.spec_deck:
                    return self._finish("C")
                self.spec_track[k] = self.spec_deck.pop()
                self.spec_coins[k] = 0
        for k in range(SLOTS):
            if self.row[k] < 0:
                if not self.deck:
                    return self._finish("D")
                self.row[k] = self._draw_building()
        used = self.turn_fleets
        ranked = sorted(range(len(self.order)), key=lambda j: used[j])
        self.order = [self.order[j] for j in ranked]
        left = [(t, b) for t, b in zip(self.fleet_track, self.fleet_batch, strict=True) if t]
        returned = used[:]
        self.rng.shuffle(returned)
        batch = self.next_batch
        self.next_batch += 1
        self.fleet_track = [t for t, _ in left] + returned
        self.fleet_batch = [-1 if p < SLOTS else b for p, (_, b) in enumerate(left)] + [batch] * len(returned)
        if min(self.reserve) == 0:
            return self._finish("B")
        limit = self.game.options["max_rounds"]
        if limit and self.round_no >= limit:
            return self._finish("rounds")
        self.round_no += 1
        self._start_turn(0)
        order = [self.game.colours[s] for s in self.order]
        text = f"round {self.round_no} begins; turn order: {', '.join(order)}"
        return Event("round", text, {"round": self.round_no, "turn_order": order})

    def _draw_building(self) -> int:
        for s in range(len(self.known_top)):
            if self.known_top[s]:
                self.known_top[s] -= 1
        tile = self.deck.pop()
        if self.deck_within:
            self.deck_within = after_draw(self.deck_within, tile)
        return tile

    def _finish(self, reason: str) -> Event:
        self.end_reason = reason
        self.phase = OVER
        self.to_move = TERMINAL
        totals = [score.total for score in self.scores()]
        text = f"the game ends: {END_REASONS[reason]}"
        return Event("game_over", text, {"reason": reason, "scores": totals, "winners": self.winners()})
