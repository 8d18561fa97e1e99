"""Hatairo's rules as a state machine: set-up, the Motif phase, the three actions with payment as
consecutive sub-decisions, the Clean phase, the end with equal turns, and the solo automaton.

Rule and ruling numbers (R7, R20 ...) refer to the specification; `rules.md` beside this module has them
in words. Where parlour settled a gap itself the comment says so (P1, P2 ...).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from parlour.engine import TERMINAL, Action, Event, Game, InvalidOption, Option, Rng, Score, State
from parlour.games.hatairo import payment
from parlour.games.hatairo.board import NCOL, Board
from parlour.games.hatairo.components import COLOURS, DESIGNS, FLAGS, MOTIFS, PLAYER_COLOURS, TILES, TOPOGRAPHIES
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
    ActionTable,
    build_table,
)
from parlour.games.hatairo.scoring import ROWS, breakdown, solo_rank

# Market Distribution Table (rows 1-4); solo uses the 2-player row counts.
MARKET_TABLE = {1: (4, 3, 2, 2), 2: (4, 3, 2, 2), 3: (5, 4, 4, 3), 4: (6, 6, 5, 4)}
DEALT = 9
KEPT = 3
ATELIER_SIZE = 3
PALETTE_LIMIT = 10
PIGMENT_CARDS = 40
MOTIF_SUPPLY = 4
VARIANTS = ("standard", "motif", "drafting", "motif+drafting")

# Phases: who decides what next.
(
    SETUP_KEEP,
    SETUP_TOPOGRAPHY,
    DRAFTING,
    TURN_START,
    ACTION,
    MOTIF_PICK,
    CELL,
    PAY,
    SPARE_SLOT,
    BONUS_PICK,
    CLEAN,
    OVER,
    CARDS,
) = range(13)
PHASE_NAMES = (
    "set-up: keep cards",
    "set-up: topography",
    "set-up: drafting",
    "turn start",
    "action",
    "motif phase",
    "choose a gallery space",
    "pay pigments",
    "three-for-two spare",
    "choose bonus pigments",
    "clean phase",
    "game over",
    "choose cards to spend",
)
# A pending spend waiting for the choice of cards (P2): a payment unit (SINGLE, PAIR, TRIPLE) or a discard.
DISCARDING = 3
# What follows a Motif phase: the active player's action, or the end of her turn (solo automaton).
THEN_ACTION, THEN_END_TURN = 0, 1

FLAG_REQ = tuple(tuple(flag.required.count(c) for c in range(NCOL)) for flag in FLAGS)
FLAG_ITEMS = tuple(tuple((c, n) for c, n in enumerate(counts) if n) for counts in FLAG_REQ)
FLAG_SIZE = tuple(len(flag.required) for flag in FLAGS)
FLAG_BONUS = tuple(flag.bonus for flag in FLAGS)
FLAG_VP = tuple(flag.vp for flag in FLAGS)
DESIGN_OF = tuple(DESIGNS.index(motif.design) for motif in MOTIFS)
TYPE_I = tuple(motif.id for motif in MOTIFS if motif.type == "I")
TYPE_II = tuple(motif.id for motif in MOTIFS if motif.type == "II")


def neighbours(columns: int) -> tuple[tuple[int, ...], ...]:
    """R20: the up-to-8 orthogonal and diagonal neighbours of every Gallery cell."""
    around = []
    for cell in range(ROWS * columns):
        row, column = divmod(cell, columns)
        around.append(
            tuple(
                r * columns + c
                for r in range(row - 1, row + 2)
                for c in range(column - 1, column + 2)
                if (r, c) != (row, column) and 0 <= r < ROWS and 0 <= c < columns
            )
        )
    return tuple(around)


class Hatairo(Game):
    name = "hatairo"
    title = "Hatairo"
    summary = "paint flags of the world into your gallery; motifs and topography reward the arrangement"
    perfect_information = False
    max_game_length = 6_000
    # A completion is a chain of sub-decisions by one seat (flag, space, each payment): the search
    # finishes it greedily before judging a leaf and then keeps to the continuations that do well
    # (first-play urgency) rather than averaging every poor payment; a low exploration constant
    # because the heuristic's values differ by little. Measured against greedy seats (docs/bots.md).
    search_defaults: ClassVar[dict[str, Any]] = {"c": 0.05, "finish": 6, "fpu": True}
    # Events that show a seat what it could not know (engine.conformance): the set-up reveal and
    # Market refills from the Flag Supply (which may hold cards she saw during a draft); and a
    # passed hand, which tells her which of the cards she knew its last holder drafted.
    revealing_events: ClassVar[frozenset[str]] = frozenset({"reveal", "refill"})
    passing_events: ClassVar[frozenset[str]] = frozenset({"pass_hands"})
    options_spec = (
        Option("players", int, 2, "number of players (1 = solo mode)", choices=(1, 2, 3, 4)),
        Option("beginner", bool, False, "beginner's game: 3x3 gallery, 9 flags, 3 topography spaces"),
        Option(
            "variant",
            str,
            "standard",
            "motif: one mixed motif pile; drafting: draft the 3 starting flags",
            choices=VARIANTS,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["players"] == 1 and "drafting" in self.options["variant"]:
            raise InvalidOption("hatairo: the drafting variant needs 2-4 players (solo mode keeps 3 of 9 flags)")
        self.columns = 3 if self.options["beginner"] else 4
        self.solo = self.options["players"] == 1
        # Solo mode always plays the motif variant (rulebook, Solo Mode 2).
        self.single_pile = self.solo or "motif" in self.options["variant"]
        self.drafting = "drafting" in self.options["variant"]
        self.market_rows = MARKET_TABLE[self.options["players"]]
        self.neighbours = neighbours(self.columns)

    def _build_actions(self) -> tuple[Action, ...]:
        self.table: ActionTable = build_table(3 if self.options["beginner"] else 4)
        return self.table.actions

    def new_state(self, seed: int = 0) -> HatairoState:
        return HatairoState.start(self, seed)

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is fully given by its options; pickling them instead of the 1,600 prebuilt actions
        # keeps pickled states small (process pools, conformance checks).
        return (_game_from_options, (tuple(sorted(self.options.items())),))


@functools.lru_cache(maxsize=32)
def _game_from_options(options: tuple[tuple[str, Any], ...]) -> Hatairo:
    return Hatairo(**dict(options))


class HatairoState(State):
    __slots__ = (
        "phase",
        "to_move",
        "active",
        "turns",
        "trigger",
        "flag_supply",
        "market",
        "piles",
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
        "_legal",
        "_values",
    )

    game: Hatairo
    phase: int
    to_move: int
    active: int
    turns: list[int]
    trigger: int
    flag_supply: list[int]
    market: list[list[int]]
    piles: list[list[int]]
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
    _legal: list[Action] | None
    _values: list[float] | None  # the heuristic's values of every seat, kept until the next action

    # --- set-up --------------------------------------------------------------------------

    @classmethod
    def start(cls, game: Hatairo, seed: int) -> HatairoState:
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
        state._legal = None
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

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            actions = self.game.actions
            self._legal = [actions[i] for i in self._legal_ids()]
        return self._legal

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
                    tiles and payment.can_pay(FLAG_REQ[flag], palette, board.as_any, board.any_as, board.three)
                ):
                    ids.append(complete + flag)
        if not ids:
            ids.append(base[PASS])  # R12: no action can be carried out
        return ids

    def _motif_ids(self, board: Board) -> list[int]:
        base = self.game.table.base[MOTIF]
        spaces = board.free_spaces()
        per_design = len(board.motifs)
        designs = sorted({DESIGN_OF[m] for m in self.motif_supply})
        return [base + design * per_design + space for design in designs for space in spaces]

    def _free_topographies(self, board: Board) -> list[int]:
        return sorted({TOPOGRAPHIES.index(TILES[tile].topography) for tile in self._own_tiles_left(board)})

    # --- applying actions -----------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
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
            events.append(self._event("gain", f"{self._who(seat)} gains {FLAGS[a].name} as a pigment", flag=a))
            self._clean_or_end(events)
        elif kind == RESERVE:
            self._take_from_market(a)
            board.atelier.append(a)
            events.append(self._event("reserve", f"{self._who(seat)} reserves {FLAGS[a].name}", flag=a))
            self._clean_or_end(events)
        elif kind == COMPLETE:
            self._start_complete(board, a, events)
        elif kind == PLACE:
            self._begin_payment(board, a, events)
        elif kind == SPARE:
            self.remaining[a] -= 1
            events.append(self._event("spare", f"the spare pigment pays {COLOURS[a]}", slot=a))
            self.phase = PAY
            self._advance_payment(board, events)
        elif kind == SPARE_LOST:
            events.append(self._event("spare_lost", "the spare pigment is lost"))
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

    def _event(self, kind: str, text: str, audience: tuple[int, ...] | None = None, **data: Any) -> Event:
        return Event(kind, text, data, audience)

    def _who(self, seat: int) -> str:
        return PLAYER_COLOURS[seat]

    # set-up decisions (R5: hidden from the others until everyone has chosen)

    def _keep(self, board: Board, flag: int, to_atelier: bool, events: list[Event]) -> None:
        seat = self.to_move
        board.hand.remove(flag)
        where = "atelier" if to_atelier else "palette"
        if to_atelier:
            board.atelier.append(flag)
        else:
            board.add_palette_flag(flag)
        events.append(self._event("keep", f"you keep {FLAGS[flag].name} in your {where}", (seat,), flag=flag))
        events.append(self._event("keep_hidden", f"{self._who(seat)} keeps a card"))
        if len(board.atelier) + len(board.palette_flags) == KEPT:
            self.phase = SETUP_TOPOGRAPHY
            self._auto_topography(board, events)

    def _auto_topography(self, board: Board, events: list[Event]) -> None:
        """Lay the last tile at once when only one is left (P5); finish when every column has one.

        Only a single remaining tile is laid by itself, never one that is merely the only kind left:
        then every player makes the same number of set-up decisions whatever she chose, and how long
        she takes tells the others nothing about her hidden arrangement (R5).
        """
        if board.tiles.count(-1) == 1 and len(self._own_tiles_left(board)) == 1:
            self._put_tile(board, self._free_topographies(board)[0], board.tiles.index(-1))
        if -1 not in board.tiles:
            self._next_setup_seat(events)

    def _own_tiles_left(self, board: Board) -> list[int]:
        colour = PLAYER_COLOURS[self.to_move]
        return [tile.id for tile in TILES if tile.player_colour == colour and tile.id not in board.tiles]

    def _put_tile(self, board: Board, topo: int, column: int) -> None:
        colour = PLAYER_COLOURS[self.to_move]
        for tile in TILES:
            if tile.player_colour == colour and tile.topography == TOPOGRAPHIES[topo] and tile.id not in board.tiles:
                board.tiles[column] = tile.id
                return

    def _place_topography(self, board: Board, topo: int, column: int, events: list[Event]) -> None:
        self._put_tile(board, topo, column)
        text = f"you put your {TOPOGRAPHIES[topo]} tile under column {column + 1}"
        events.append(self._event("topography", text, (self.to_move,), topography=topo, column=column))
        self._auto_topography(board, events)

    def _next_setup_seat(self, events: list[Event]) -> None:
        if self.to_move + 1 < self.game.num_players:
            self.to_move += 1
            self.phase = SETUP_KEEP
            return
        self._reveal_setup(events)

    def _draft(self, board: Board, flag: int, events: list[Event]) -> None:
        seat = self.to_move
        board.hand.remove(flag)
        board.picks.append(flag)
        events.append(self._event("draft", f"you draft {FLAGS[flag].name}", (seat,), flag=flag))
        events.append(self._event("draft_hidden", f"{self._who(seat)} drafts a card"))
        n = self.game.num_players
        if seat + 1 < n:
            self.to_move = seat + 1
            return
        self.to_move = 0
        self.draft_round += 1
        if self.draft_round < KEPT:
            # R50: every hand passes to the left (the next seat).
            hands = [b.hand for b in self.boards]
            for index, b in enumerate(self.boards):
                b.passed.append(b.hand[:])  # a copy: the hand itself travels on and shrinks
                b.hand = hands[(index - 1) % n]
            events.append(self._event("pass_hands", "every player passes her hand to the left"))
            return
        for b in self.boards:
            self.flag_supply.extend(b.hand)
            b.returned = b.hand
            # Her picks stay listed until the reveal: with what she passed they say where cards went.
            b.hand = b.picks[:]
        self.phase = SETUP_KEEP

    def _reveal_setup(self, events: list[Event]) -> None:
        for board in self.boards:
            self.flag_supply.extend(board.hand)
            board.hand = []
            board.picks = []
            board.passed = []
            board.returned = []
        self.rng.shuffle(self.flag_supply)
        self.revealed = True
        for seat, board in enumerate(self.boards):
            palette = ", ".join(FLAGS[f].name for f in board.palette_flags) or "nothing"
            atelier = ", ".join(FLAGS[f].name for f in board.atelier) or "nothing"
            tiles = ", ".join(TILES[t].topography for t in board.tiles if t >= 0)
            text = f"{self._who(seat)} reveals palette: {palette}; atelier: {atelier}; topography: {tiles}"
            events.append(self._event("reveal", text, seat=seat))
        self.active = 0
        self._begin_turn(events)

    # the turn

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
        text = f"{self._who(self.to_move)} completes {FLAGS[flag].name} from the {source}"
        events.append(self._event("complete", text, flag=flag, source=source))
        free = board.free_cells()
        if len(free) == 1:
            self._begin_payment(board, free[0], events)
        else:
            self.phase = CELL

    def _pay(self, board: Board, unit: int, slot: int, colour: int, events: list[Event], flag_cards: int = -1) -> None:
        spent = unit + 1  # single 1, pair 2, three-for-two 3
        if flag_cards < 0 and self._asks_cards(board, colour):
            self.spending = [unit, slot, colour]
            self.phase = CARDS
            return
        for index in range(spent):
            self._spend(board, colour, index < flag_cards)
        self.remaining[slot] -= 1
        words = ("one", "two", "three")[unit]
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
                events.append(self._event("spare_lost", "the spare pigment is lost"))
                self.phase = PAY
            elif len(targets) == 1:
                self.remaining[targets[0]] -= 1
                events.append(self._event("spare", f"the spare pigment pays {COLOURS[targets[0]]}", slot=targets[0]))
                self.phase = PAY
            else:
                return
        self._advance_payment(board, events)

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
        text = f"{self._who(seat)} places {FLAGS[flag].name} at row {cell // self.game.columns + 1} column "
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
        events.append(self._event("bonus", f"bonus pigment: {COLOURS[colour]}", pigment=colour))

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
            events.append(self._event("dead_end", "no flag can be placed any more: the game ends (R61)"))
            self._game_over(events)
            return
        self.active = (self.active + 1) % self.game.num_players
        self._begin_turn(events)

    def _is_dead_end(self) -> bool:
        """R61: flag cards and motifs are all gone and nobody can pay for an Atelier sketch."""
        if self.flag_supply or any(self.market) or self.motif_supply or any(self.piles):
            return False
        for board in self.boards:
            if board.placed < len(board.gallery):
                for flag in board.atelier:
                    if payment.can_pay(FLAG_REQ[flag], board.palette, board.as_any, board.any_as, board.three):
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

    # the Motif phase

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

    def _space(self, space: int) -> str:
        columns = self.game.columns
        return f"above column {space + 1}" if space < columns else f"left of row {space - columns + 1}"

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

    # the solo automaton

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
        row = min(rows, key=lambda r: (FLAG_VP[self.market[r][-1]], r))
        flag = self.market[row].pop()
        self.box_flags.append(flag)
        text = f"the automaton boxes {FLAGS[flag].name} from row {row + 1}"
        events.append(self._event("automaton_remove", text, flag=flag, row=row))

    # --- scores ---------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        columns = self.game.columns
        result = []
        for board in self.boards:
            parts = breakdown(board.gallery, board.motifs, board.tiles, columns, board.pigments())
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

    # --- copies, views and hidden information ---------------------------------------------

    def clone(self) -> HatairoState:
        twin = HatairoState.__new__(HatairoState)
        self._copy_base_into(twin)
        twin.phase = self.phase
        twin.to_move = self.to_move
        twin.active = self.active
        twin.turns = self.turns[:]
        twin.trigger = self.trigger
        twin.flag_supply = self.flag_supply[:]
        twin.market = [row[:] for row in self.market]
        twin.piles = [pile[:] for pile in self.piles]
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
        twin._legal = self._legal
        twin._values = self._values
        return twin

    def determinize(self, seat: int, rng: Rng) -> HatairoState:
        """Re-deal what `seat` cannot see (R27): the Flag Supply, the motif piles' order and, before
        the set-up reveal, the other players' hands, kept cards, whether each went to palette or atelier,
        and their topography tiles (R5); and re-draw the future.

        During and after a draft the re-deal keeps what she learnt from the hands that passed through
        her (`hidden.redeal_setup`). Hidden cards are put in a fixed order before any shuffle, so the
        copy depends only on what she sees and on `rng`.
        """
        from parlour.games.hatairo.hidden import redeal_setup

        twin = self.clone()
        if twin.revealed:
            twin.flag_supply.sort()
            rng.shuffle(twin.flag_supply)
        else:
            redeal_setup(twin, seat, rng)
        for pile in twin.piles:
            pile.sort()
            rng.shuffle(pile)
        twin.rng = Rng(rng.next64())
        twin._legal = None
        twin._values = None
        return twin

    def view(self, seat: int | None) -> dict[str, Any]:
        from parlour.games.hatairo.render import state_view

        return state_view(self, seat)

    def render(self, seat: int | None = None) -> str:
        from parlour.games.hatairo.render import render_text

        return render_text(self, seat)

    def heuristic(self, seat: int) -> float:
        from parlour.games.hatairo.heuristic import evaluate

        return evaluate(self, seat)

    def why_illegal(self, action: Action) -> str:
        from parlour.games.hatairo.explain import why_illegal

        return why_illegal(self, action)
