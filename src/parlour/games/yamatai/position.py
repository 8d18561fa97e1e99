"""Yamataï's position: its fields, the decks (shuffled when first read), the set-up, the scores and
what every step of a turn reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from parlour.engine import TERMINAL, Event, Rng, Score, State
from parlour.games.yamatai import board as geo
from parlour.games.yamatai.actions import N_ISLANDS, N_SPOTS
from parlour.games.yamatai.components import (
    BUILDINGS_PER_PLAYER,
    SACRED_GROUND_TOKENS,
    SLOTS,
    STARTING_COINS,
)
from parlour.games.yamatai.constants import NO_TOKEN, OVER
from parlour.games.yamatai.deck import Facts, Redraw, redraw_now
from parlour.games.yamatai.scoring import player_score
from parlour.games.yamatai.scoring import winners as best_players

if TYPE_CHECKING:
    from parlour.games.yamatai.game import Yamatai


class YamataiPosition(State["Yamatai"]):
    """The fields of a Yamataï position, its set-up and what every phase reads; `YamataiState` adds
    the steps of a turn (turn.py, trade.py, placement.py, building.py, recruit.py, powers.py) and
    the engine protocol."""

    __slots__ = (
        "rng",
        "spot_boat",
        "island_token",
        "island_building",
        "island_tile",
        "mountain",
        "reserve",
        "sacred_left",
        "fleet_track",
        "fleet_batch",
        "next_batch",
        "row",
        "_deck",
        "_deck_shuffle",
        "known_top",
        "deck_within",
        "spec_track",
        "spec_coins",
        "_spec_deck",
        "_spec_shuffle",
        "coins",
        "pp_tokens",
        "culture",
        "harbour",
        "discarded",
        "pieces",
        "built",
        "reserved",
        "specs",
        "round_no",
        "order",
        "turn",
        "turn_fleets",
        "final_order",
        "end_a",
        "end_reason",
        "phase",
        "resume",
        "to_move",
        "tile",
        "power_ready",
        "minus_one",
        "hand",
        "bought",
        "price_table",
        "trades_left",
        "placed",
        "head",
        "chain_closed",
        "branch_used",
        "picks",
        "keep_left",
        "pending",
        "preview",
        "_estimates",
    )
    rng: Rng
    # The archipelago: a boat colour per spot (-1 free); per island a culture kind (-1 none), a building
    # code (board.py: seat 0-3, Torii, Palace, Sacred Ground; -1 none) and the tile built there.
    spot_boat: list[int]
    island_token: list[int]
    island_building: list[int]
    island_tile: list[int]
    mountain: tuple[bool, ...]
    reserve: list[int]
    sacred_left: int
    # Fleet track positions 1-10 (0 = taken this round); positions 1-5 are face up. Face-down tiles
    # carry the batch they were laid in: only which tiles a batch holds is public.
    fleet_track: list[int]
    fleet_batch: list[int]
    next_batch: int
    # Building row (-1 = empty slot), decks with their top at the end, how many top deck tiles each
    # seat knows in order from a preview, and which tiles someone knows to lie near the top (deck.py).
    row: list[int]
    _deck: list[int]
    _deck_shuffle: Redraw | None
    known_top: list[int]
    deck_within: Facts
    spec_track: list[int]
    spec_coins: list[int]
    _spec_deck: list[int]
    _spec_shuffle: Redraw | None
    # Mats, per seat; culture (6 kinds) and harbour (5 colours) are flat lists, built/reserved tiles
    # and specialists are bit masks.
    coins: list[int]
    pp_tokens: list[int]
    culture: list[int]
    harbour: list[int]
    discarded: list[int]
    pieces: list[int]
    built: list[int]
    reserved: list[int]
    specs: list[int]
    # The round: seats in turn order (one entry per meeple), whose turn it is, fleet tiles taken so
    # far, the order of the round last played (tie-break, R47) and the end trigger.
    round_no: int
    order: list[int]
    turn: int
    turn_fleets: list[int]
    final_order: list[int]
    end_a: bool
    end_reason: str
    # The turn in progress: phase (and the phase a power interrupted), fleet tile and power state,
    # boats in hand, trade state, this turn's placed boats (current spots) and chain end, Collect
    # picks, harbour room left, a pending choice (first target, recruit slot or preview size).
    phase: int
    resume: int
    to_move: int
    tile: int
    power_ready: bool
    minus_one: bool
    hand: list[int]
    bought: list[int]
    price_table: tuple[tuple[int, ...], tuple[int, ...]]
    trades_left: int
    placed: list[int]
    head: int
    chain_closed: bool
    branch_used: bool
    picks: list[int]
    keep_left: int
    pending: int
    preview: list[int]
    # Every seat's estimated final PP (heuristic.py) in this position: search asks the heuristic of
    # each seat in turn, and they all need every estimate. Like `_legal`, dropped by every move.
    _estimates: list[float] | None

    # --- the decks, shuffled when first read ---------------------------------------------------

    # A determinization re-draws the order of both decks, yet most are searched only a few moves
    # deep and never draw a tile or a specialist. So `determinize` only notes each shuffle (see
    # `deck.redraw_later`) and the deck is re-drawn the first time it is read, into the very order
    # an immediate re-draw would have given.

    @property
    def deck(self) -> list[int]:
        """Building tiles face down, top at the end."""
        if self._deck_shuffle is not None:
            redraw_now(self._deck, self._deck_shuffle)
            self._deck_shuffle = None
        return self._deck

    @deck.setter
    def deck(self, tiles: list[int]) -> None:
        self._deck, self._deck_shuffle = tiles, None

    @property
    def spec_deck(self) -> list[int]:
        """Specialists face down, top at the end."""
        if self._spec_shuffle is not None:
            redraw_now(self._spec_deck, self._spec_shuffle)
            self._spec_shuffle = None
        return self._spec_deck

    @spec_deck.setter
    def spec_deck(self, specialists: list[int]) -> None:
        self._spec_deck, self._spec_shuffle = specialists, None

    # --- set-up ------------------------------------------------------------------------------

    @classmethod
    def set_up(cls, game: Yamatai, seed: int) -> Self:
        """Rulebook set-up: shuffled decks, five of each on show, culture tokens and mountains, meeples."""
        state = cls.__new__(cls)
        State.__init__(state, game, seed)
        parts = game.components
        n = game.num_players
        rng = Rng(seed)
        state.rng = rng
        state.spec_deck = list(range(len(parts.specialists)))
        rng.shuffle(state.spec_deck)
        state.spec_track = [state.spec_deck.pop() for _ in range(SLOTS)]
        state.spec_coins = [0] * SLOTS
        state.deck = list(range(len(parts.buildings)))
        rng.shuffle(state.deck)
        state.row = [state.deck.pop() for _ in range(SLOTS)]
        state.known_top = [0] * n
        state.deck_within = ()
        fleet = list(range(1, 11))
        rng.shuffle(fleet)
        state.fleet_track = fleet
        state.fleet_batch = [-1] * SLOTS + [0] * SLOTS
        state.next_batch = 1
        tokens = [(k, m < kind.mountains) for k, kind in enumerate(parts.culture) for m in range(kind.count)]
        rng.shuffle(tokens)
        blank = len(parts.culture) - 1
        state.island_token = [NO_TOKEN if kind == blank else kind for kind, _ in tokens]
        state.mountain = tuple(mountain for _, mountain in tokens)
        state.island_building = [geo.NO_BUILDING] * N_ISLANDS
        state.island_tile = [-1] * N_ISLANDS
        state.spot_boat = [-1] * N_SPOTS
        state.reserve = list(parts.boat_stock)
        state.sacred_left = SACRED_GROUND_TOKENS
        state.coins = [STARTING_COINS] * n
        state.pp_tokens = [0] * n
        state.culture = [0] * (6 * n)
        state.harbour = [0] * (5 * n)
        state.discarded = [0] * n
        state.pieces = [BUILDINGS_PER_PLAYER[n]] * n
        state.built = [0] * n
        state.reserved = [0] * n
        state.specs = [0] * n
        meeples = list(range(n))
        rng.shuffle(meeples)
        state.order = meeples * 2 if n == 2 else meeples
        state.round_no = 1
        state.final_order = state.order[:]
        state.end_a = False
        state.end_reason = ""
        state._estimates = None
        state._start_turn(0)
        state._advance()
        return state

    # --- protocol ----------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # --- turn flow ---------------------------------------------------------------------------

    # --- legal actions -----------------------------------------------------------------------

    def _has(self, power: str) -> bool:
        return self.specs[self.to_move] & self.game.spec_bit[power] != 0

    def has_power(self, seat: int, power: str) -> bool:
        """Whether `seat` has recruited the specialist with this power."""
        return bool(self.specs[seat] >> self.game.spec_of[power] & 1)

    def coin_rate(self, seat: int) -> int:
        """Coins per PP at the end for `seat` (R25; the Tax Collector lowers it)."""
        if self.has_power(seat, "coin_rate"):
            return int(self.game.components.specialists[self.game.spec_of["coin_rate"]].params["coins_per_pp"])
        return 5

    def _spec_param(self, power: str, name: str) -> int:
        return int(self.game.components.specialists[self.game.spec_of[power]].params[name])

    # --- phase I: fleet tile ----------------------------------------------------------------

    # --- phase II: trade ---------------------------------------------------------------------

    # --- phase IIIA: place boats ---------------------------------------------------------------

    # --- phase IIIB: collect or build ----------------------------------------------------------

    # --- phase IV: harbour -------------------------------------------------------------------

    # --- phase V: recruit ----------------------------------------------------------------------

    # --- results -------------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        parts = self.game.components
        result = []
        for seat in range(self.game.num_players):
            specs = [s for s in parts.specialists if self.specs[seat] >> s.index & 1]
            built = [t.pp for t in parts.buildings if self.built[seat] >> t.index & 1]
            unused = self.discarded[seat] + sum(self.harbour[5 * seat : 5 * seat + 5])
            result.append(
                player_score(
                    self.coins[seat],
                    self.pp_tokens[seat],
                    built,
                    specs,
                    sum(self.culture[6 * seat : 6 * seat + 6]),
                    bin(self.reserved[seat]).count("1"),
                    unused,
                    (self.final_order if self.phase == OVER else self.order).index(seat),
                )
            )
        return result

    def winners(self) -> list[int]:
        return best_players(self.scores())

    # --- copies and views ----------------------------------------------------------------------

    def _who(self) -> str:
        return f"seat {self.to_move} ({self.game.colours[self.to_move]})"

    # --- where one step hands over to another (each is resolved in its own module) ---------

    def _start_turn(self, turn: int) -> None:
        """The turn of the `turn`-th meeple in the order begins (turn.py)."""
        raise NotImplementedError

    def _advance(self) -> Event | None:
        """Resolve the steps that need no decision up to the next one (state.py)."""
        raise NotImplementedError

    def _enter_harbour(self) -> None:
        """Phase IV begins (recruit.py); phase IIIB ends by calling it."""
        raise NotImplementedError
