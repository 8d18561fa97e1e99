"""Hatairo's position: its fields, the set-up deal, the scores, and what every phase reads.

Rule and ruling numbers (R7, R20 ...) refer to the specification; `rules.md` beside this package has
them in words. Where parlour settled a gap itself the comment says so (P1, P2 ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from parlour.engine import TERMINAL, Event, Rng, Score, State
from parlour.engine.rng import shuffle_draws
from parlour.games.hatairo.board import NCOL, Board
from parlour.games.hatairo.components import FLAGS, MOTIFS, PLAYER_COLOURS
from parlour.games.hatairo.constants import (
    DEALT,
    DRAFTING,
    MOTIF_SUPPLY,
    OVER,
    PIGMENT_CARDS,
    SETUP_KEEP,
    THEN_ACTION,
    TYPE_I,
    TYPE_II,
)
from parlour.games.hatairo.scoring import breakdown, solo_rank

if TYPE_CHECKING:
    from parlour.games.hatairo.game import Hatairo


class HatairoPosition(State["Hatairo"]):
    """The fields of a Hatairo position, its set-up deal and what every phase reads; `HatairoState`
    adds the phases (setup.py, turn.py, motif.py, solo.py) and the engine protocol."""

    __slots__ = (
        "phase",
        "to_move",
        "active",
        "turns",
        "trigger",
        "_flag_supply",
        "_supply_shuffle",
        "market",
        "_piles",
        "_piles_shuffle",
        "motif_supply",
        "box_flags",
        "box_motifs",
        "pigment_supply",
        "boards",
        "rng",
        "revealed",
        "draft_round",
        "sketch",
        "cell",
        "remaining",
        "spare_from",
        "spending",
        "waste",
        "bonuses",
        "bonus_count",
        "motif_queue",
        "motif_then",
        "dead_end",
        "_values",
    )

    phase: int
    to_move: int
    active: int
    turns: list[int]
    trigger: int
    _flag_supply: list[int]  # read through `flag_supply`
    _supply_shuffle: Rng | None  # a re-deal noted by a determinization, done when the order is read
    market: list[list[int]]
    _piles: list[list[int]]  # read through `piles`
    _piles_shuffle: Rng | None  # a re-draw noted by a determinization, done when the piles are read
    motif_supply: list[int]
    box_flags: list[int]
    box_motifs: list[int]
    pigment_supply: int
    boards: list[Board]
    rng: Rng
    revealed: bool
    draft_round: int
    sketch: int
    cell: int
    remaining: list[int]
    spare_from: int
    spending: list[int]
    waste: bool
    bonuses: list[int]
    bonus_count: int
    motif_queue: list[int]
    motif_then: int
    dead_end: bool
    _values: list[float] | None  # the heuristic's values of every seat, kept until the next action

    @property
    def flag_supply(self) -> list[int]:
        """The Flag Supply, face down, top at the end.

        A determinization only notes the supply's re-deal (`redeal_supply_later`): the supply's order
        is read only when the Market is dealt again, which most searched worlds never reach.
        """
        pending = self._supply_shuffle
        if pending is not None:
            self._supply_shuffle = None
            self._flag_supply.sort()  # the fixed order `Rng.redeal` starts from
            pending.clone().shuffle(self._flag_supply)  # the noted generator is shared by clones
        return self._flag_supply

    @flag_supply.setter
    def flag_supply(self, flags: list[int]) -> None:
        self._flag_supply, self._supply_shuffle = flags, None

    def redeal_supply_later(self, rng: Rng) -> None:
        """Re-deal the Flag Supply as `rng.redeal` would, but only when its order is first read;
        `rng` moves on at once past the draws the re-deal takes, so every later draw is the same."""
        self._supply_shuffle = rng.defer(shuffle_draws(len(self._flag_supply)))

    @property
    def piles(self) -> list[list[int]]:
        """The motif piles, face down, tops at the end (one pile with the R49 single-pile option).

        As with the Flag Supply, a determinization only notes their re-draw (`redraw_piles_later`):
        they are read only when a new Motif Supply is turned over.
        """
        pending = self._piles_shuffle
        if pending is not None:
            self._piles_shuffle = None
            later = pending.clone()
            for pile in self._piles:  # as the engine's `Piles`: each in a fixed order, then shuffled
                pile.sort()
                later.shuffle(pile)
        return self._piles

    @piles.setter
    def piles(self, piles: list[list[int]]) -> None:
        self._piles, self._piles_shuffle = piles, None

    def redraw_piles_later(self, rng: Rng) -> None:
        """Re-draw the order of every motif pile, pile by pile, but only when one is first read;
        `rng` moves on at once past the draws the re-draw takes."""
        self._piles_shuffle = rng.defer(sum(shuffle_draws(len(pile)) for pile in self._piles))

    # --- set-up --------------------------------------------------------------------------

    @classmethod
    def set_up(cls, game: Hatairo, seed: int) -> Self:
        state = cls(game, seed)
        n = game.num_players
        state.rng = Rng(seed)
        state.phase = SETUP_KEEP
        state.to_move = 0
        state.active = 0  # the starting player is seat 0 (P1)
        state.turns = [0] * n
        state.trigger = -1
        state.flag_supply = list(range(len(FLAGS)))
        state.rng.shuffle(state.flag_supply)
        state.market = [[], [], [], []]
        state.box_flags = []
        state.box_motifs = []
        state.pigment_supply = PIGMENT_CARDS
        state.boards = [Board(game.columns) for _ in range(n)]
        state.revealed = False
        state.draft_round = 0
        state.sketch = -1
        state.cell = -1
        state.remaining = [0] * NCOL
        state.spare_from = -1
        state.spending = []
        state.waste = False
        state.bonuses = []
        state.bonus_count = 0
        state.motif_queue = []
        state.motif_then = THEN_ACTION
        state.dead_end = False
        state._values = None
        state._fill_market()
        for board in state.boards:
            board.hand = [state.flag_supply.pop() for _ in range(DEALT)]
        if game.single_pile:
            pile = list(range(len(MOTIFS)))
            state.rng.shuffle(pile)
            state.piles = [pile]
        else:
            first, second = list(TYPE_I), list(TYPE_II)
            state.rng.shuffle(first)
            state.rng.shuffle(second)
            state.piles = [first, second]
        state.motif_supply = []
        state._reveal_motifs()
        if game.drafting:
            state.phase = DRAFTING
        return state

    def _fill_market(self) -> None:
        """Deal the Market row by row, left to right (R10: rows stay short when the supply runs out)."""
        for row, count in zip(self.market, self.game.market_rows, strict=True):
            for _ in range(count):
                if not self.flag_supply:
                    return
                row.append(self.flag_supply.pop())

    def _reveal_motifs(self) -> None:
        """Turn over a new Motif Supply: 2 type I then 2 type II (R9), or 4 from the single pile (R49)."""
        if len(self.piles) == 1:
            pile = self.piles[0]
            self.motif_supply = [pile.pop() for _ in range(min(MOTIF_SUPPLY, len(pile)))]
            return
        first, second = self.piles
        take_second = min(2, len(second))
        # R9: a short pile gives what it has; the other pile fills the supply up to 4.
        take_first = min(len(first), MOTIF_SUPPLY - take_second)
        take_second = min(len(second), MOTIF_SUPPLY - take_first)
        self.motif_supply = [first.pop() for _ in range(take_first)] + [second.pop() for _ in range(take_second)]

    # --- protocol basics -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # --- applying actions -----------------------------------------------------------------

    def _event(self, kind: str, text: str, audience: tuple[int, ...] | None = None, **data: Any) -> Event:
        return Event(kind, text, data, audience)

    def _who(self, seat: int) -> str:
        return PLAYER_COLOURS[seat]

    # set-up decisions (R5: hidden from the others until everyone has chosen)

    # the turn

    # the Motif phase

    def _space(self, space: int) -> str:
        columns = self.game.columns
        return f"above column {space + 1}" if space < columns else f"left of row {space - columns + 1}"

    # the solo automaton

    # --- scores ---------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        columns = self.game.columns
        result = []
        for board in self.boards:
            parts = breakdown(board.gallery, board.motifs, board.tiles, columns, board.pigments(), self.game.components)
            result.append(Score(float(sum(parts.values())), {k: float(v) for k, v in parts.items()}))
        return result

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        totals = [score.total for score in self.scores()]
        best = max(totals)
        return [seat for seat, total in enumerate(totals) if total == best]  # R48: shared victory

    def returns(self) -> list[float]:
        if self.game.solo:
            # Solo has no opponent: the payoff follows the rank table, 0 VP -> -1, 60 -> 0, 120+ -> +1.
            if not self.is_terminal():
                return [0.0]
            return [max(-1.0, min(1.0, self.scores()[0].total / 60.0 - 1.0))]
        return super().returns()

    def solo_rank(self) -> str:
        return solo_rank(int(self.scores()[0].total))

    # --- where one phase hands over to another (each is resolved in its phase's module) ----

    def _begin_turn(self, events: list[Event]) -> None:
        """The active player's turn begins (turn.py); the set-up ends by calling it."""
        raise NotImplementedError

    def _next_turn(self, events: list[Event]) -> None:
        """The next player's turn (turn.py); the Motif phase ends by calling it."""
        raise NotImplementedError

    def _next_motif_pick(self, events: list[Event]) -> None:
        """The next pick of the Motif phase (motif.py); the solo automaton starts it."""
        raise NotImplementedError

    def _solo_motif_phase(self, then: int, events: list[Event]) -> None:
        """The solo automaton's Motif phase (solo.py)."""
        raise NotImplementedError

    def _solo_remove(self, events: list[Event]) -> None:
        """The solo automaton removes Market cards (solo.py)."""
        raise NotImplementedError
