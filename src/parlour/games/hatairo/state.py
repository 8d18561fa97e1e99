"""Hatairo's rules as a state machine: set-up, the Motif phase, the three actions with payment as
consecutive sub-decisions, the Clean phase, the end with equal turns, and the solo automaton.

`HatairoState` joins the phases (setup.py, turn.py, motif.py, solo.py) over the position's fields
(position.py) and answers the engine protocol: the legal actions of each phase and what an action
does, by its kind.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import Action, Event, Rng, State
from parlour.engine.hidden import Forget, Generator, Rule
from parlour.games.hatairo import payment
from parlour.games.hatairo.board import NCOL
from parlour.games.hatairo.components import COLOURS, TOPOGRAPHIES
from parlour.games.hatairo.constants import (
    ACTION,
    BONUS_PICK,
    CARDS,
    CELL,
    CLEAN,
    DRAFTING,
    FLAG_NAME,
    MOTIF_PICK,
    PAY,
    SETUP_KEEP,
    SETUP_TOPOGRAPHY,
    SPARE_SLOT,
    TURN_START,
)
from parlour.games.hatairo.heuristic import evaluate
from parlour.games.hatairo.hidden import redeal_setup
from parlour.games.hatairo.moves import (
    BONUS,
    CARD_KIND,
    COMPLETE,
    DISCARD,
    DRAFT,
    GAIN,
    KEEP_ATELIER,
    KEEP_PALETTE,
    MOTIF,
    PASS,
    PAY_PAIR,
    PAY_SINGLE,
    PAY_TRIPLE,
    PLACE,
    RESERVE,
    SPARE,
    SPARE_LOST,
    START_MOTIF,
    TOPOGRAPHY,
)
from parlour.games.hatairo.reasons import why_illegal
from parlour.games.hatairo.render import render_text
from parlour.games.hatairo.setup import SetUp
from parlour.games.hatairo.view import view


class HatairoState(SetUp):  # SetUp < Turn < Motif < Solo < HatairoPosition: one line of bases
    __slots__ = ()

    # The heuristic's values and re-draws still pending: replaced, never changed in place.
    clone_shares = State.clone_shares | {"_values", "_supply_shuffle", "_piles_shuffle"}
    # Hidden hands and the Flag Supply, the motif piles' order, the generator's future; then the
    # legal list (it names drawn cards) and the heuristic's values read from the real ones go.
    hidden = (Rule("_redeal_flags"), Rule("_redraw_piles"), Generator(), Forget("_legal", "_values"))

    def _legal_now(self) -> list[Action]:
        actions = self.game.actions
        return [actions[i] for i in self._legal_ids()]

    def _legal_ids(self) -> list[int]:
        phase = self.phase
        base = self.game.table.base
        board = self.boards[self.to_move]
        if phase in (TURN_START, ACTION):
            return self._turn_ids(board, phase == TURN_START)
        if phase == PAY:
            waste = self.waste
            options = payment.unit_options(
                self.remaining, board.palette, board.as_any, board.any_as, board.three, waste
            )
            return self._payment_ids(options)
        if phase == CELL:
            return [base[PLACE] + cell for cell in board.free_cells()]
        if phase == CLEAN:
            return [base[DISCARD] + c for c in range(NCOL) if board.palette[c]]
        if phase == MOTIF_PICK:
            return self._motif_ids(board)
        if phase == SPARE_SLOT:
            waste = self.waste
            targets = payment.spare_options(
                self.remaining, board.palette, self.spare_from, board.as_any, board.any_as, board.three, waste
            )
            return [base[SPARE_LOST] if slot == payment.LOST else base[SPARE] + slot for slot in targets]
        if phase == BONUS_PICK:
            return [base[BONUS] + c for c in sorted(set(self.bonuses))]
        if phase == CARDS:
            low, high = self._flag_card_range(board)
            return [base[CARD_KIND] + k for k in range(low, high + 1)]
        if phase == SETUP_KEEP:
            return [base[KEEP_PALETTE] + f for f in board.hand] + [base[KEEP_ATELIER] + f for f in board.hand]
        if phase == SETUP_TOPOGRAPHY:
            column = board.tiles.index(-1)
            return [base[TOPOGRAPHY] + column * len(TOPOGRAPHIES) + t for t in self._free_topographies(board)]
        if phase == DRAFTING:
            return [base[DRAFT] + f for f in board.hand]
        return []

    def _apply(self, action: Action) -> list[Event]:
        self._values = None
        table = self.game.table
        aid = action.id
        kind, a, b = table.kind[aid], table.a[aid], table.b[aid]
        events: list[Event] = []
        seat = self.to_move
        board = self.boards[seat]
        if kind in (PAY_SINGLE, PAY_PAIR, PAY_TRIPLE):
            self._pay(board, kind - PAY_SINGLE, a, b, events)
        elif kind == GAIN:
            self._take_from_market(a)
            board.add_palette_flag(a)
            events.append(self._event("gain", f"{self._who(seat)} gains {FLAG_NAME[a]} as a pigment", flag=a))
            self._clean_or_end(events)
        elif kind == RESERVE:
            self._take_from_market(a)
            board.atelier.append(a)
            events.append(self._event("reserve", f"{self._who(seat)} reserves {FLAG_NAME[a]}", flag=a))
            self._clean_or_end(events)
        elif kind == COMPLETE:
            self._start_complete(board, a, events)
        elif kind == PLACE:
            self._choose_cell(board, a, events)
        elif kind == SPARE:
            self.remaining[a] -= 1
            events.append(self._event("spare", f"{self._who(seat)} pays {COLOURS[a]} with the spare pigment", slot=a))
            self.phase = PAY
            self._advance_payment(board, events)
        elif kind == SPARE_LOST:
            events.append(self._event("spare_lost", f"{self._who(seat)} loses the spare pigment"))
            self.phase = PAY
            self._advance_payment(board, events)
        elif kind == DISCARD:
            self._discard(board, a, events)
        elif kind == START_MOTIF:
            events.append(self._event("motif_phase", f"{self._who(seat)} starts the motif phase"))
            self._start_motif_phase(events)
        elif kind == MOTIF:
            self._pick_motif(board, a, b, events)
        elif kind == BONUS:
            self._take_bonus(board, a, events)
        elif kind == CARD_KIND:
            self._spend_chosen(board, a, events)
        elif kind == PASS:
            events.append(self._event("pass", f"{self._who(seat)} passes: no action is possible"))
            self._end_turn(events)
        elif kind in (KEEP_PALETTE, KEEP_ATELIER):
            self._keep(board, a, kind == KEEP_ATELIER, events)
        elif kind == TOPOGRAPHY:
            self._place_topography(board, a, b, events)
        elif kind == DRAFT:
            self._draft(board, a, events)
        return events

    def clone(self) -> HatairoState:
        twin = HatairoState.__new__(HatairoState)
        self._copy_base_into(twin)
        twin.phase = self.phase
        twin.to_move = self.to_move
        twin.active = self.active
        twin.turns = self.turns[:]
        twin.trigger = self.trigger
        twin._flag_supply = self._flag_supply[:]  # a re-deal still pending is copied as pending
        twin._supply_shuffle = self._supply_shuffle
        twin.market = [row[:] for row in self.market]
        twin._piles = [pile[:] for pile in self._piles]
        twin._piles_shuffle = self._piles_shuffle
        twin.motif_supply = self.motif_supply[:]
        twin.box_flags = self.box_flags[:]
        twin.box_motifs = self.box_motifs[:]
        twin.pigment_supply = self.pigment_supply
        twin.boards = [board.copy() for board in self.boards]
        twin.rng = self.rng.clone()
        twin.revealed = self.revealed
        twin.draft_round = self.draft_round
        twin.sketch = self.sketch
        twin.cell = self.cell
        twin.remaining = self.remaining[:]
        twin.spare_from = self.spare_from
        twin.spending = self.spending[:]
        twin.waste = self.waste
        twin.bonuses = self.bonuses[:]
        twin.bonus_count = self.bonus_count
        twin.motif_queue = self.motif_queue[:]
        twin.motif_then = self.motif_then
        twin.dead_end = self.dead_end
        twin._values = self._values
        return twin

    def _redeal_flags(self, seat: int, rng: Rng) -> None:
        """Re-deal the flags `seat` cannot see (R27): the Flag Supply and, before the set-up reveal,
        the other players' hands, kept cards, whether each went to palette or atelier, and their
        topography tiles (R5). During and after a draft the re-deal keeps what she learnt from the
        hands that passed through her (`hidden.redeal_setup`)."""
        if self.revealed:
            self.redeal_supply_later(rng)
        else:
            redeal_setup(self, seat, rng)

    def _redraw_piles(self, seat: int, rng: Rng) -> None:
        """The motif piles' order, hidden from every seat: each pile's motifs are known, not their order."""
        self.redraw_piles_later(rng)

    def view(self, seat: int | None) -> dict[str, Any]:
        return view(self, seat)

    def render(self, seat: int | None = None) -> str:
        return render_text(self, seat)

    def heuristic(self, seat: int) -> float:
        return evaluate(self, seat)

    def why_illegal(self, action: Action) -> str:
        return why_illegal(self, action)
