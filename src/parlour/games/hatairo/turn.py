"""Hatairo's turn: the three actions (gain, reserve, complete a flag, R11-R12), paying pigments as
consecutive sub-decisions (payment.py), bonuses, the Clean phase, and the end with equal turns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import TERMINAL, Event
from parlour.games.hatairo import payment
from parlour.games.hatairo.board import NCOL, Board
from parlour.games.hatairo.components import COLOURS, FLAGS
from parlour.games.hatairo.constants import (
    ATELIER_SIZE,
    BONUS_PICK,
    CARDS,
    CELL,
    CLEAN,
    DISCARDING,
    FLAG_BONUS,
    FLAG_ITEMS,
    FLAG_NAME,
    FLAG_NEED,
    FLAG_REQ,
    FLAG_SIZE,
    OVER,
    PALETTE_LIMIT,
    PAY,
    SPARE_SLOT,
    THEN_ACTION,
    THEN_END_TURN,
    TURN_START,
)
from parlour.games.hatairo.moves import (
    COMPLETE,
    GAIN,
    PASS,
    PAY_SINGLE,
    RESERVE,
    START_MOTIF,
)
from parlour.games.hatairo.scoring import solo_rank

if TYPE_CHECKING:
    pass


from parlour.games.hatairo.motif import Motif


class Turn(Motif):
    __slots__ = ()

    def _payment_ids(self, options: list[tuple[int, int, int]]) -> list[int]:
        base = self.game.table.base
        return [base[PAY_SINGLE + unit] + slot * NCOL + colour for unit, slot, colour in options]

    def _turn_ids(self, board: Board, motif_allowed: bool) -> list[int]:
        base = self.game.table.base
        ids: list[int] = []
        empty_row = False
        any_card = False
        for row in self.market:
            if row:
                any_card = True
            else:
                empty_row = True
        if motif_allowed and empty_row and not self.game.solo:
            # R7: with no flag in the Market at all the Motif phase is compulsory.
            if not any_card:
                return [base[START_MOTIF]]
            ids.append(base[START_MOTIF])
        room = len(board.atelier) < ATELIER_SIZE
        for row in self.market:
            if row:
                flag = row[-1]  # R11: only the rightmost card of a row is accessible
                if room:
                    ids.append(base[RESERVE] + flag)
                ids.append(base[GAIN] + flag)
        palette = board.palette
        pigments = sum(palette)
        if board.placed < len(board.gallery) and pigments:
            tiles = board.as_any or board.any_as or board.three
            all_pairs = 0
            for have in palette:
                all_pairs += have >> 1
            sketches = [row[-1] for row in self.market if row]
            sketches += board.atelier
            complete = base[COMPLETE]
            for flag in sketches:
                # Every unit pays at most one slot per pigment, so a short palette cannot pay.
                if FLAG_SIZE[flag] > pigments:
                    continue
                # The base rule (direct, then pairs of leftovers), touching only the flag's own colours;
                # the full check with the type-II tiles only when that is not enough.
                unpaid = 0
                pairs = all_pairs
                for colour, need in FLAG_ITEMS[flag]:
                    have = palette[colour]
                    if have >= need:
                        pairs += ((have - need) >> 1) - (have >> 1)
                    else:
                        pairs -= have >> 1
                        unpaid += need - have
                if pairs >= unpaid or (
                    tiles and payment.pays(FLAG_NEED[flag], palette, board.as_any, board.any_as, board.three)
                ):
                    ids.append(complete + flag)
        if not ids:
            ids.append(base[PASS])  # R12: no action can be carried out
        return ids

    def _begin_turn(self, events: list[Event]) -> None:
        self.to_move = self.active
        self.phase = TURN_START
        if self.game.solo and not any(self.market):
            # R54 with R7: an empty Market makes the automaton run its Motif phase at once.
            self._solo_motif_phase(THEN_ACTION, events)

    def _take_from_market(self, flag: int) -> None:
        for row in self.market:
            if row and row[-1] == flag:
                row.pop()
                return
        raise AssertionError(f"{FLAGS[flag].name} is not at the right end of a Market row")

    def _start_complete(self, board: Board, flag: int, events: list[Event]) -> None:
        if flag in board.atelier:
            board.atelier.remove(flag)
            source = "atelier"
        else:
            self._take_from_market(flag)
            source = "market"
        self.sketch = flag
        self.remaining = list(FLAG_REQ[flag])
        text = f"{self._who(self.to_move)} completes {FLAG_NAME[flag]} from the {source}"
        events.append(self._event("complete", text, flag=flag, source=source))
        free = board.free_cells()
        if len(free) == 1:
            self._begin_payment(board, free[0], events)
        else:
            self.phase = CELL

    def _pay(self, board: Board, unit: int, slot: int, colour: int, events: list[Event], flag_cards: int = -1) -> None:
        spent = unit + 1  # single 1, pair 2, three-for-two 3
        words = ("one", "two", "three")[unit]
        if flag_cards < 0 and self._asks_cards(board, colour):
            self.spending = [unit, slot, colour]
            self.phase = CARDS
            # P2: the unit is chosen now, its cards next; the others see the choice at once.
            text = f"{self._who(self.to_move)} will pay {COLOURS[slot]} with {words} {COLOURS[colour]}"
            events.append(self._event("pay_choice", text, slot=slot, pigment=colour, n=spent))
            return
        for index in range(spent):
            self._spend(board, colour, index < flag_cards)
        self.remaining[slot] -= 1
        events.append(
            self._event(
                "pay",
                f"{self._who(self.to_move)} pays {COLOURS[slot]} with {words} {COLOURS[colour]}",
                slot=slot,
                pigment=colour,
                n=spent,
            )
        )
        if unit == payment.TRIPLE:
            self.spare_from = colour
            self.phase = SPARE_SLOT
            targets = payment.spare_options(
                self.remaining, board.palette, colour, board.as_any, board.any_as, board.three, self.waste
            )
            if targets == [payment.LOST]:
                events.append(self._event("spare_lost", f"{self._who(self.to_move)} loses the spare pigment"))
                self.phase = PAY
            elif len(targets) == 1:
                self.remaining[targets[0]] -= 1
                text = f"{self._who(self.to_move)} pays {COLOURS[targets[0]]} with the spare pigment"
                events.append(self._event("spare", text, slot=targets[0]))
                self.phase = PAY
            else:
                return
        self._advance_payment(board, events)

    def _choose_cell(self, board: Board, cell: int, events: list[Event]) -> None:
        """The gallery cell is chosen before the payment: told now, as the flag goes there at the end."""
        where = f"row {cell // self.game.columns + 1} column {cell % self.game.columns + 1}"
        text = f"{self._who(self.to_move)} will place {FLAG_NAME[self.sketch]} at {where}"
        events.append(self._event("cell", text, flag=self.sketch, cell=cell))
        self._begin_payment(board, cell, events)

    def _begin_payment(self, board: Board, cell: int, events: list[Event]) -> None:
        self.cell = cell
        self.phase = PAY
        self.waste = self._short_for_bonuses(board)
        self._advance_payment(board, events)

    def _short_for_bonuses(self, board: Board) -> bool:
        """P3: needless units (a pair where one pigment would do, a three-for-two whose spare is lost)
        change something only when the pigment cards they return can come back at once as bonuses of
        other colours: with 4 players, when the Pigment Supply is short for the bonuses this flag
        will bring (R21). Only then, decided as the payment begins, are they offered."""
        if self.game.num_players != 4:
            return False
        due = 0
        gallery = board.gallery
        for cell in self.game.neighbours[self.cell]:
            if gallery[cell] >= 0:
                due += 1
        return self.pigment_supply < due

    def _asks_cards(self, board: Board, colour: int) -> bool:
        """P2: which physical cards pay changes only the Pigment Supply (pigment cards go back to it,
        palette flag cards leave the game), and that matters only if the supply can run short (R21),
        which needs 4 players. Then, holding both kinds of the colour, she chooses."""
        return (
            self.game.num_players == 4
            and board.pigment_cards[colour] > 0
            and board.palette[colour] > board.pigment_cards[colour]
        )

    def _flag_card_range(self, board: Board) -> tuple[int, int]:
        """How many of the pigments of the pending spend may be palette flag cards."""
        unit, _, colour = self.spending
        spent = 1 if unit == DISCARDING else unit + 1
        cards = board.pigment_cards[colour]
        flags = board.palette[colour] - cards
        return max(0, spent - cards), min(spent, flags)

    def _spend_chosen(self, board: Board, flag_cards: int, events: list[Event]) -> None:
        unit, slot, colour = self.spending
        self.spending = []
        if unit == DISCARDING:
            self._discard(board, colour, events, flag_cards == 1)
            return
        self.phase = PAY
        self._pay(board, unit, slot, colour, events, flag_cards)

    def _spend(self, board: Board, colour: int, flag_card: bool | None = None) -> None:
        boxed = board.spend(colour, flag_card)
        if boxed < 0:
            self.pigment_supply += 1
        else:
            self.box_flags.append(boxed)

    def _advance_payment(self, board: Board, events: list[Event]) -> None:
        """Pay forced units at once; stop at the first real choice or finish the flag."""
        while payment.next_slot(self.remaining) >= 0:
            waste = self.waste
            options = payment.unit_options(
                self.remaining, board.palette, board.as_any, board.any_as, board.three, waste
            )
            if len(options) != 1 or options[0][0] == payment.TRIPLE:
                # A real choice: these units are the legal actions, so keep them rather than search again.
                actions = self.game.actions
                self._legal = [actions[i] for i in self._payment_ids(options)]
                return
            unit, slot, colour = options[0]
            if self._asks_cards(board, colour):
                self.spending = [unit, slot, colour]
                self.phase = CARDS
                return
            for _ in range(unit + 1):
                self._spend(board, colour)
            self.remaining[slot] -= 1
            words = ("one", "two")[unit]
            text = f"{self._who(self.to_move)} pays {COLOURS[slot]} with {words} {COLOURS[colour]}"
            events.append(self._event("pay", text, slot=slot, pigment=colour, n=unit + 1))
        self._finish_complete(board, events)

    def _finish_complete(self, board: Board, events: list[Event]) -> None:
        flag, cell = self.sketch, self.cell
        board.gallery[cell] = flag
        board.placed += 1
        self.sketch = self.cell = self.spare_from = -1
        self.waste = False
        seat = self.to_move
        text = f"{self._who(seat)} places {FLAG_NAME[flag]} at row {cell // self.game.columns + 1} column "
        text += f"{cell % self.game.columns + 1}"
        events.append(self._event("place", text, flag=flag, cell=cell))
        # R20: one bonus pigment per completed neighbour, in that neighbour's bonus colour.
        bonuses = [FLAG_BONUS[board.gallery[n]] for n in self.game.neighbours[cell] if board.gallery[n] >= 0]
        if board.placed == len(board.gallery) and self.trigger < 0:
            self.trigger = seat  # R22
            events.append(self._event("end_triggered", f"{self._who(seat)} completes her gallery: last round"))
        available = self.pigment_supply
        if len(bonuses) <= available or available == 0 or len(set(bonuses)) == 1:
            for colour in bonuses[:available]:
                self._gain_bonus(board, colour, events)
            if len(bonuses) > available:
                events.append(self._event("bonus_lost", "the Pigment Supply is empty: further bonuses are lost"))
            self._clean_or_end(events)
            return
        # R21: the supply is short, so she chooses which bonuses she receives.
        self.bonuses = bonuses
        self.bonus_count = available
        self.phase = BONUS_PICK

    def _gain_bonus(self, board: Board, colour: int, events: list[Event]) -> None:
        board.take_pigment_card(colour)
        self.pigment_supply -= 1
        text = f"{self._who(self.to_move)} gains a bonus {COLOURS[colour]} pigment"
        events.append(self._event("bonus", text, pigment=colour))

    def _take_bonus(self, board: Board, colour: int, events: list[Event]) -> None:
        self.bonuses.remove(colour)
        self._gain_bonus(board, colour, events)
        self.bonus_count -= 1
        if self.bonus_count and len(set(self.bonuses)) > 1:
            return
        for rest in self.bonuses[: self.bonus_count]:
            self._gain_bonus(board, rest, events)
        self.bonuses = []
        self.bonus_count = 0
        events.append(self._event("bonus_lost", "the Pigment Supply is empty: further bonuses are lost"))
        self._clean_or_end(events)

    def _clean_or_end(self, events: list[Event]) -> None:
        board = self.boards[self.to_move]
        excess = board.pigments() - PALETTE_LIMIT
        if excess > 0:
            colours = [c for c in range(NCOL) if board.palette[c]]
            if len(colours) > 1:
                self.phase = CLEAN
                return
            if self._asks_cards(board, colours[0]):
                self._discard(board, colours[0], events)
                return
            for _ in range(excess):
                self._spend(board, colours[0])
            text = f"{self._who(self.to_move)} discards {excess} {COLOURS[colours[0]]}"
            events.append(self._event("discard", text, pigment=colours[0], n=excess))
        self._end_turn(events)

    def _discard(self, board: Board, colour: int, events: list[Event], flag_card: bool | None = None) -> None:
        if flag_card is None and self._asks_cards(board, colour):
            self.spending = [DISCARDING, -1, colour]
            self.phase = CARDS
            # P2: the colour is known now, the kind of card next.
            text = f"{self._who(self.to_move)} will discard {COLOURS[colour]}"
            events.append(self._event("discard_choice", text, pigment=colour))
            return
        self._spend(board, colour, flag_card)
        events.append(self._event("discard", f"{self._who(self.to_move)} discards {COLOURS[colour]}", pigment=colour))
        self._clean_or_end(events)

    def _end_turn(self, events: list[Event]) -> None:
        seat = self.active
        self.turns[seat] += 1
        n = self.game.num_players
        # R23 (and R55 in solo): the round ends when the turn would pass back to the starting player.
        if self.trigger >= 0 and seat == n - 1:
            self._game_over(events)
            return
        if self.game.solo:
            if any(not row for row in self.market):
                self._solo_motif_phase(THEN_END_TURN, events)
                return
            self._solo_remove(events)
        self._next_turn(events)

    def _next_turn(self, events: list[Event]) -> None:
        if self._is_dead_end():
            self.dead_end = True
            events.append(self._event("dead_end", "no flag can be placed any more: the game ends"))
            self._game_over(events)
            return
        self.active = (self.active + 1) % self.game.num_players
        self._begin_turn(events)

    def _is_dead_end(self) -> bool:
        """R61: flag cards and motifs are all gone and nobody can pay for an Atelier sketch."""
        # Whether the supply and piles are empty, not their order: read without a pending re-draw.
        if self._flag_supply or any(self.market) or self.motif_supply or any(self._piles):
            return False
        for board in self.boards:
            if board.placed < len(board.gallery):
                for flag in board.atelier:
                    if payment.pays(FLAG_NEED[flag], board.palette, board.as_any, board.any_as, board.three):
                        return False
        return True

    def _game_over(self, events: list[Event]) -> None:
        self.phase = OVER
        self.to_move = TERMINAL
        totals = [score.total for score in self.scores()]
        text = "game over: " + ", ".join(f"{self._who(s)} {int(t)}" for s, t in enumerate(totals))
        if self.game.solo:
            text += f" ({solo_rank(int(totals[0]))})"
        events.append(self._event("game_over", text, scores=totals))
