"""Yamataï as a state machine: set-up, the five phases of a turn, fleet powers, specialists, the end.

A turn runs through phases I (fleet tile) → II (trade) → IIIA (place boats) → IIIB (collect or
build) → IV (harbour) → V (recruit), then an end-of-turn step that exists only while the fleet
power is still usable (R35, R41). Phases that offer their player nothing are skipped (R36). The
fleet power is one "use the fleet power" action at every decision point between steps; its
targets are then chosen in sub-phases of their own.
"""

from __future__ import annotations

import functools
from typing import Any

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State
from parlour.games.yamatai import board as geo
from parlour.games.yamatai import powers
from parlour.games.yamatai.actions import KIND_PAIRS, KIND_TRIPLES, N_ISLANDS, N_SPOTS, N_TILES, Ids, build_actions
from parlour.games.yamatai.components import (
    BAMBOO,
    BUILDINGS_PER_PLAYER,
    GOLD,
    PLAYERS_BY_COUNT,
    RESOURCES,
    SACRED_GROUND_TOKENS,
    SLOTS,
    STARTING_COINS,
    Components,
    components,
)
from parlour.games.yamatai.deck import Facts, Redraw, after_draw, kept_for, known_to, redraw_later, redraw_now
from parlour.games.yamatai.phases import (
    CHOOSE,
    COLLECT,
    END,
    END_REASONS,
    FLEET,
    HARBOUR,
    NO_TOKEN,
    OVER,
    PAY,
    PLACE,
    RECRUIT,
    TRADE,
)
from parlour.games.yamatai.scoring import player_score
from parlour.games.yamatai.scoring import winners as best_players


class Yamatai(Game):
    name = "yamatai"
    title = "Yamataï"
    summary = "draft fleets, chain boats through the archipelago, build the capital and recruit specialists"
    perfect_information = False
    max_game_length = 8_000
    revealing_events = frozenset({"preview", "round", "game_over"})
    """Steps that may show a seat building tiles or specialists drawn from a deck it could not know
    in order (a preview, the refills at the end of a round), even tiles it has seen before."""
    options_spec = (
        Option("players", int, 4, "number of players", choices=(2, 3, 4)),
        Option(
            "max_rounds",
            int,
            30,
            "safeguard: the game ends after this many rounds (0: no limit)",
            minimum=0,
            maximum=99,
        ),
    )
    parts: Components

    def __init__(self, **options: Any) -> None:
        self.parts = components()
        super().__init__(**options)
        self.colours = PLAYERS_BY_COUNT[self.num_players]
        self.power_keys = tuple(tile.power for tile in self.parts.fleet)
        self.subs_by_spec = {
            s.index: (RESOURCES.index(s.params["from"]), RESOURCES.index(s.params["to"]))
            for s in self.parts.specialists
            if s.power == "substitute_colour"
        }
        self.spec_of = {s.power: s.index for s in self.parts.specialists if s.power != "substitute_colour"}
        self.spec_bit = {power: 1 << index for power, index in self.spec_of.items()}
        self.tile_needs = tuple(t.needs for t in self.parts.buildings)
        self.tile_total = tuple(sum(t.needs) for t in self.parts.buildings)
        self.price_cache: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # States pickle their game; rebuilding it from its options keeps that small.
        return (_rebuild, (tuple(sorted(self.options.items())),))

    def _build_actions(self) -> list[Action]:
        return build_actions(components())

    def new_state(self, seed: int = 0) -> YamataiState:
        return YamataiState.set_up(self, seed)


@functools.lru_cache(maxsize=16)
def _rebuild(options: tuple[tuple[str, Any], ...]) -> Yamatai:
    """The game with these options, shared by every state unpickled with them."""
    return Yamatai(**dict(options))


class YamataiState(State):
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
        "seat",
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
        "_legal",
        "_estimates",
    )
    game: Yamatai
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
    seat: int
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
    _legal: list[Action] | None
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
    def set_up(cls, game: Yamatai, seed: int) -> YamataiState:
        """Rulebook set-up: shuffled decks, five of each on show, culture tokens and mountains, meeples."""
        state = cls.__new__(cls)
        State.__init__(state, game, seed)
        parts = game.parts
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
        return TERMINAL if self.phase == OVER else self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            actions = self.game.actions
            legal = self._legal = [actions[i] for i in self._decision() or ()]
        return legal

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        self._estimates = None
        a = action.id
        if Ids.PLACE <= a < Ids.STOP_PLACING:
            events = self._place(*divmod(a - Ids.PLACE, N_SPOTS))
        elif a < Ids.BUY:
            events = self._take_fleet(a - Ids.FLEET + 1)
        elif a < Ids.END_TRADE:
            events = self._trade(a)
        elif a == Ids.END_TRADE:
            self.trades_left = 0
            events = []
        elif a == Ids.STOP_PLACING:
            self.chain_closed = True
            events = []
        elif a < Ids.STOP_COLLECTING:
            events = self._collect(a - Ids.COLLECT)
        elif a == Ids.STOP_COLLECTING:
            self._enter_harbour()
            events = []
        elif a < Ids.SKIP_IIIB:
            events = self._build(*divmod(a - Ids.BUILD, N_ISLANDS))
        elif a == Ids.SKIP_IIIB:
            self._enter_harbour()
            events = [Event("skip", f"{self._who()} neither collects nor builds", {"seat": self.seat})]
        elif a < Ids.RECRUIT:
            events = self._keep(a - Ids.KEEP)
        elif a < Ids.NO_RECRUIT:
            self.pending = self.spec_track.index(a - Ids.RECRUIT)
            self.phase = PAY
            events = []
        elif a == Ids.NO_RECRUIT:
            self.phase = END
            events = []
        elif a < Ids.END_TURN:
            events = self._pay(a)
        elif a == Ids.END_TURN:
            self.power_ready = False
            events = []
        elif a == Ids.USE_POWER:
            events = powers.start(self)
        else:
            events = powers.choose(self, a)
        happened = self._advance()
        if happened is not None:
            events.append(happened)
        return events

    # --- turn flow ---------------------------------------------------------------------------

    def _start_turn(self, turn: int) -> None:
        self.turn = turn
        self.seat = self.order[turn]
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
        self._legal = None

    def _advance(self) -> Event | None:
        """Resolve every phase that offers its player no choice of its own (R36) up to the next decision.

        Returns the event of a round (or game) that ended on the way, if any.
        """
        happened = None
        while True:
            ids = self._decision()
            if ids is not None:
                actions = self.game.actions
                self._legal = [actions[i] for i in ids]
                return happened
            phase = self.phase
            if phase == TRADE:
                self.phase = PLACE
            elif phase == PLACE:
                self.phase = CHOOSE
            elif phase in (CHOOSE, COLLECT):
                self._enter_harbour()
            elif phase == HARBOUR:
                self._close_harbour()
                self.phase = RECRUIT
            elif phase == RECRUIT:
                self.phase = END
            elif self.turn + 1 < len(self.order):
                self._start_turn(self.turn + 1)
            else:
                happened = self._end_round()

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
        self.seat = TERMINAL
        totals = [score.total for score in self.scores()]
        text = f"the game ends: {END_REASONS[reason]}"
        return Event("game_over", text, {"reason": reason, "scores": totals, "winners": self.winners()})

    # --- legal actions -----------------------------------------------------------------------

    def _decision(self) -> list[int] | None:
        """The legal action ids when the current phase is a decision point, else None."""
        phase = self.phase
        if phase == PLACE:
            ids = self._place_ids()
            if not ids:
                return self._pause(Ids.STOP_PLACING) if not self.chain_closed and any(self.hand) else None
            ids.append(Ids.STOP_PLACING)
        elif phase == FLEET:
            track = self.fleet_track
            return [Ids.FLEET + track[p] - 1 for p in range(SLOTS) if track[p]]
        elif phase == TRADE:
            if self.trades_left <= 0:
                return None
            ids = self._trade_ids()
            if not ids:
                return self._pause(Ids.END_TRADE)
            ids.append(Ids.END_TRADE)
        elif phase == CHOOSE:
            ids, mandatory = self._choose_ids()
            if not ids:
                return self._pause(Ids.SKIP_IIIB) if self.placed else None
            if not mandatory:
                ids.append(Ids.SKIP_IIIB)
        elif phase == COLLECT:
            ids = self._collect_ids(self.picks)
            if not ids:
                return None
            ids.append(Ids.STOP_COLLECTING)
            return ids
        elif phase == HARBOUR:
            ids = self._harbour_ids()
            if not ids:
                return None
            if self.keep_left < self._harbour_capacity():
                return ids  # the power never interrupts one harbour choice (R41)
        elif phase == RECRUIT:
            ids = self._recruit_ids()
            if not ids:
                return None
            ids.append(Ids.NO_RECRUIT)
        elif phase == PAY:
            return self._payments()
        elif phase == END:
            return [Ids.END_TURN, Ids.USE_POWER] if self.power_ready and powers.usable(self) else None
        elif phase == OVER:
            return []
        else:
            return powers.target_ids(self)
        if self.power_ready and powers.usable(self):
            ids.append(Ids.USE_POWER)
        return ids

    def _pause(self, pass_id: int) -> list[int] | None:
        """A step with nothing to do still waits when the fleet power could open it (R41).

        The power may be used between any two steps, so a player may first use it to make the step
        possible (move a boat next to a token, free a spot for the chain, bring a tile into the row,
        find the coins for a purchase); otherwise the step is skipped (R36).
        """
        if self.power_ready and powers.could_open(self) and powers.usable(self):
            return [pass_id, Ids.USE_POWER]
        return None

    def _has(self, power: str) -> bool:
        return self.specs[self.seat] & self.game.spec_bit[power] != 0

    def has_power(self, seat: int, power: str) -> bool:
        """Whether `seat` has recruited the specialist with this power."""
        return bool(self.specs[seat] >> self.game.spec_of[power] & 1)

    def coin_rate(self, seat: int) -> int:
        """Coins per PP at the end for `seat` (R25; the Tax Collector lowers it)."""
        if self.has_power(seat, "coin_rate"):
            return int(self.game.parts.specialists[self.game.spec_of["coin_rate"]].params["coins_per_pp"])
        return 5

    def _spec_param(self, power: str, name: str) -> int:
        return int(self.game.parts.specialists[self.game.spec_of[power]].params[name])

    # --- phase I: fleet tile ----------------------------------------------------------------

    def _take_fleet(self, number: int) -> list[Event]:
        seat = self.seat
        self.fleet_track[self.fleet_track.index(number)] = 0
        self.turn_fleets.append(number)
        self.tile = number
        self.minus_one = self.game.power_keys[number - 1] == "build_minus_one"
        self.power_ready = not self.minus_one  # build_minus_one is part of the Build it relaxes (R41)
        hand = self.hand
        base = 5 * seat
        for c in range(5):
            hand[c] = self.harbour[base + c]
            self.harbour[base + c] = 0
        got = [0] * 5
        for c, wanted in enumerate(self.game.parts.fleet[number - 1].boats):
            take = min(wanted, self.reserve[c])  # an exhausted colour gives nothing (R3)
            got[c] = take
        if self._has("bonus_boat"):
            got[BAMBOO] += 1 if self.reserve[BAMBOO] > got[BAMBOO] else 0  # Shipwright (R46)
        for c in range(5):
            hand[c] += got[c]
            self.reserve[c] -= got[c]
        self.trades_left = self._spec_param("extra_trades", "transactions") if self._has("extra_trades") else 1
        mask = self.specs[seat]
        table = self.game.price_cache.get(mask)
        if table is None:  # prices depend only on the specialists held
            prices = [self._prices(c) for c in range(5)]
            table = self.game.price_cache[mask] = (tuple(p[0] for p in prices), tuple(p[1] for p in prices))
        self.price_table = table
        self.phase = TRADE
        boats = ", ".join(f"{n} {RESOURCES[c]}" for c, n in enumerate(got) if n) or "no boats"
        return [Event("fleet", f"{self._who()} takes fleet tile {number} ({boats})", {"seat": seat, "tile": number})]

    # --- phase II: trade ---------------------------------------------------------------------

    def _prices(self, colour: int) -> tuple[int, int]:
        """Buy and sell price of a colour for the player to move; (0, 0) when it cannot be traded."""
        parts = self.game.parts
        if colour == GOLD:
            if not self._has("trade_gold"):
                return 0, 0
            buy, sell = self._spec_param("trade_gold", "buy"), self._spec_param("trade_gold", "sell")
        else:
            buy, sell = parts.buy_price[colour], parts.sell_price[colour]
        if self._has("trade_discount"):  # Haggler; modifiers add up (R45c)
            buy = max(1, buy + self._spec_param("trade_discount", "buy_delta"))
            sell += self._spec_param("trade_discount", "sell_delta")
        return buy, sell

    def _trade_ids(self) -> list[int]:
        coins = self.coins[self.seat]
        buy, sell = self.price_table
        reserve, hand, bought = self.reserve, self.hand, self.bought
        ids = [Ids.BUY + c for c in range(5) if buy[c] and reserve[c] and coins >= buy[c]]
        # a bought boat cannot be told from another of its colour: no resale of that colour (R45b)
        ids.extend(Ids.SELL + c for c in range(5) if sell[c] and hand[c] and not bought[c])
        return ids

    def _trade(self, a: int) -> list[Event]:
        seat = self.seat
        self.trades_left -= 1
        if a < Ids.SELL:
            c = a - Ids.BUY
            price = self.price_table[0][c]
            self.coins[seat] -= price
            self.reserve[c] -= 1
            self.hand[c] += 1
            self.bought[c] += 1
            verb = "buys"
        else:
            c = a - Ids.SELL
            price = self.price_table[1][c]
            self.coins[seat] += price
            self.reserve[c] += 1  # a sold boat returns to the reserve (R45e)
            self.hand[c] -= 1
            verb = "sells"
        text = f"{self._who()} {verb} a {RESOURCES[c]} boat for {price} coins"
        return [Event("trade", text, {"seat": seat, "resource": RESOURCES[c], "price": price})]

    # --- phase IIIA: place boats ---------------------------------------------------------------

    def _place_ids(self) -> list[int]:
        if self.chain_closed:
            return []
        hand = self.hand
        colours = [c for c in range(5) if hand[c]]
        if not colours:
            return []
        boats = self.spot_boat
        neighbours = self.game.parts.board.spot_neighbours
        if self.head < 0:
            return self._first_boat_ids(colours)
        spots = {t for t in neighbours[self.head] if boats[t] < 0}
        if not self.branch_used and self._has("branch_once"):  # Navigator
            for s in self.placed:
                spots.update(t for t in neighbours[s] if boats[t] < 0)
        ordered = sorted(spots)
        return [Ids.PLACE + c * N_SPOTS + s for c in colours for s in ordered]

    def _first_boat_ids(self, colours: list[int]) -> list[int]:
        """First boat: an empty entry spot, or an empty spot next to a boat of its colour (Pilot: any)."""
        board = self.game.parts.board
        boats = self.spot_boat
        neighbours = board.spot_neighbours
        pilot = self._has("free_first_boat")
        wanted = [pilot] * 5
        for c in colours:
            wanted[c] = True
        by_colour: list[list[int]] = [[], [], [], [], []]
        for s, b in enumerate(boats):
            if b >= 0 and wanted[b]:
                by_colour[b].extend(neighbours[s])
        entries = {s for s in board.entry_spots if boats[s] < 0}
        if pilot:  # the Pilot's first boat may go next to a boat of any colour
            for near in by_colour:
                entries.update(t for t in near if boats[t] < 0)
        ids: list[int] = []
        for c in colours:
            base = Ids.PLACE + c * N_SPOTS
            ids.extend(base + s for s in sorted(entries.union(t for t in by_colour[c] if boats[t] < 0)))
        return ids

    def _place(self, colour: int, spot: int) -> list[Event]:
        if self.head >= 0 and spot not in self.game.parts.board.spot_neighbours[self.head]:
            self.branch_used = True  # only the Navigator makes such a spot legal
        self.spot_boat[spot] = colour
        self.hand[colour] -= 1
        self.placed.append(spot)
        self.head = spot
        name = self.game.parts.board.spot_ids[spot]
        return [
            Event(
                "place",
                f"{self._who()} places a {RESOURCES[colour]} boat at {name}",
                {"seat": self.seat, "resource": RESOURCES[colour], "spot": name},
            )
        ]

    # --- phase IIIB: collect or build ----------------------------------------------------------

    def _near_islands(self) -> set[int]:
        spot_islands = self.game.parts.board.spot_islands
        near: set[int] = set()
        for s in self.placed:
            near.update(spot_islands[s])
        return near

    def _substitutions(self) -> list[tuple[int, int]]:
        mask = self.specs[self.seat]
        return [sub for index, sub in self.game.subs_by_spec.items() if mask >> index & 1]

    def _build_options(self) -> tuple[list[int], bool]:
        """Legal Build ids, and whether one of them needs no power's help (R9, R46)."""
        seat = self.seat
        game = self.game
        board = game.parts.board
        tiles = [t for t in self.row if t >= 0]
        reserved = self.reserved[seat]
        if reserved:
            tiles.extend(t for t in range(N_TILES) if reserved >> t & 1)
        if self.pieces[seat] == 0:
            tiles = [t for t in tiles if not game.parts.buildings[t].standard]  # R11
        if not tiles:
            return [], False
        master = self._has("build_on_token")
        subs = self._substitutions()
        minus = 1 if self.minus_one else 0
        ids: list[int] = []
        plain = False
        boats = self.spot_boat
        totals, needs_of = game.tile_total, game.tile_needs
        for i in sorted(self._near_islands()):
            if self.island_building[i] != geo.NO_BUILDING:
                continue
            has_token = self.island_token[i] != NO_TOKEN
            if has_token and not master:
                continue
            have = [0, 0, 0, 0, 0]
            around = 0
            for s in board.island_spots[i]:
                if boats[s] >= 0:
                    have[boats[s]] += 1
                    around += 1
            for t in tiles:
                if totals[t] > around + minus:
                    continue  # too few boats around, whatever the relaxations
                needs = needs_of[t]
                short = 0
                for c in range(5):
                    if needs[c] > have[c]:
                        short += needs[c] - have[c]
                if short == 0:
                    plain = plain or not has_token
                elif short > minus + len(subs) or geo.missing_boats(needs, have, subs) > minus:
                    continue
                ids.append(Ids.BUILD + t * N_ISLANDS + i)
        return ids, plain

    def _choose_ids(self) -> tuple[list[int], bool]:
        tokens = self.island_token
        collect = [Ids.COLLECT + i for i in sorted(self._near_islands()) if tokens[i] != NO_TOKEN]
        builds, plain = self._build_options()
        return collect + builds, bool(collect) or plain

    def _collect_ids(self, picks: list[int]) -> list[int]:
        tokens = self.island_token
        extra = 1 if self._has("extra_collect") else 0  # Land Clearer
        spot_islands = self.game.parts.board.spot_islands
        ids = []
        for i in sorted(self._near_islands()):
            if tokens[i] != NO_TOKEN:
                trial = [*picks, i]
                if geo.max_matching(trial, self.placed, spot_islands) + extra >= len(trial):
                    ids.append(Ids.COLLECT + i)
        return ids

    def _collect(self, island: int) -> list[Event]:
        seat = self.seat
        kind = self.island_token[island]
        self.island_token[island] = NO_TOKEN
        self.culture[6 * seat + kind] += 1
        self.picks.append(island)
        self.phase = COLLECT
        name = self.game.parts.board.island_ids[island]
        colour = self.game.parts.culture_colours[kind]
        text = f"{self._who()} collects the {colour} token on {name}"
        return [Event("collect", text, {"seat": seat, "island": name, "token": colour})]

    def _build(self, tile: int, island: int) -> list[Event]:
        seat = self.seat
        game = self.game
        parts = game.parts
        board = parts.board
        spec = parts.buildings[tile]
        data: dict[str, Any] = {"seat": seat, "tile": spec.code, "island": board.island_ids[island]}
        took = self.island_token[island]
        if took != NO_TOKEN:  # Master Builder: take the token first (R46)
            self.culture[6 * seat + took] += 1
            self.island_token[island] = NO_TOKEN
            data["token"] = parts.culture_colours[took]
        have = [0, 0, 0, 0, 0]
        for s in board.island_spots[island]:
            if self.spot_boat[s] >= 0:
                have[self.spot_boat[s]] += 1
        if geo.missing_boats(spec.needs, have, self._substitutions()):
            self.minus_one = False  # the build_minus_one power is spent on this Build (R31)
            data["minus_one"] = True
        if tile in self.row:
            self.row[self.row.index(tile)] = -1  # the slot stays empty until the end of the round (R12)
        else:
            self.reserved[seat] &= ~(1 << tile)
        self.built[seat] |= 1 << tile
        self.island_tile[island] = tile
        text = f"{self._who()} builds {spec.code} ({spec.kind}, {spec.pp} PP) on {board.island_ids[island]}"
        if spec.standard:
            self.island_building[island] = seat
            self.pieces[seat] -= 1
            pp, coins = self._standard_bonus(island)
            self.pp_tokens[seat] += pp
            self.coins[seat] += coins
            data["pp_tokens"], data["coins"] = pp, coins
            text += f": +{pp} PP tokens, +{coins} coins"
            if self.pieces[seat] == 0:
                self.end_a = True  # trigger A: the round is played out, then scoring (R23)
        else:
            self.island_building[island] = geo.TORII if spec.kind == "torii" else geo.PALACE
        self._enter_harbour()
        return [Event("build", text, data)]

    def _standard_bonus(self, island: int) -> tuple[int, int]:
        """PP tokens and coins for a Standard Building just built on `island` (8.3, R13-R15, R46)."""
        borders = self.game.parts.board.island_borders
        pp = coins = 0
        near = geo.prestige_neighbours(self.island_building, borders, island)
        if near:
            pp += near
            if self._has("prestige_neighbour_bonus"):
                pp += self._spec_param("prestige_neighbour_bonus", "extra_pp_tokens")
        if self.mountain[island]:
            pp += 1
            if self._has("mountain_bonus"):
                pp += self._spec_param("mountain_bonus", "extra_pp_tokens")
        group = geo.group_size(self.island_building, borders, island, self.seat)
        if group >= 2:
            coins += group
            if self._has("group_bonus"):
                coins += self._spec_param("group_bonus", "extra_coins")
        return pp, coins

    # --- phase IV: harbour -------------------------------------------------------------------

    def _harbour_capacity(self) -> int:
        return self._spec_param("harbour_capacity", "capacity") if self._has("harbour_capacity") else 1

    def _enter_harbour(self) -> None:
        self.phase = HARBOUR
        self.keep_left = self._harbour_capacity()

    def _harbour_ids(self) -> list[int]:
        """Which colour to keep next; empty when the choice is forced (the harbour fills as far as it can)."""
        hand = self.hand
        colours = [c for c in range(5) if hand[c]]
        if self.keep_left == 0 or len(colours) < 2 or sum(hand) <= self.keep_left:
            return []
        return [Ids.KEEP + c for c in colours]

    def _keep(self, colour: int) -> list[Event]:
        self.hand[colour] -= 1
        self.harbour[5 * self.seat + colour] += 1
        self.keep_left -= 1
        return [Event("keep", f"{self._who()} keeps a {RESOURCES[colour]} boat", {"seat": self.seat})]

    def _close_harbour(self) -> None:
        """Forced part of phase IV: keep what still fits, discard the rest for good (R17)."""
        hand = self.hand
        base = 5 * self.seat
        room = self.keep_left
        for c in range(5):
            keep = min(room, hand[c])
            self.harbour[base + c] += keep
            room -= keep
            self.discarded[self.seat] += hand[c] - keep
            hand[c] = 0
        self.keep_left = 0

    # --- phase V: recruit ----------------------------------------------------------------------

    def _payments(self) -> list[int]:
        held = self.culture[6 * self.seat : 6 * self.seat + 6]
        ids = [Ids.PAY_SAME + k for k in range(6) if held[k] >= 2]
        ids.extend(Ids.PAY_THREE + n for n, (a, b, c) in enumerate(KIND_TRIPLES) if held[a] and held[b] and held[c])
        if self._has("cheap_recruit"):  # Envoy
            ids.extend(Ids.PAY_TWO + n for n, (a, b) in enumerate(KIND_PAIRS) if held[a] and held[b])
        return ids

    def _recruit_ids(self) -> list[int]:
        held = self.culture[6 * self.seat : 6 * self.seat + 6]
        kinds = sum(1 for k in held if k)
        can_pay = max(held) >= 2 or kinds >= 3 or (kinds >= 2 and self._has("cheap_recruit"))
        if not can_pay:
            return []
        return sorted(Ids.RECRUIT + s for s in self.spec_track if s >= 0)

    def _pay(self, a: int) -> list[Event]:
        seat = self.seat
        base = 6 * seat
        if a < Ids.PAY_THREE:
            paid: tuple[int, ...] = (a - Ids.PAY_SAME,) * 2
        elif a < Ids.PAY_TWO:
            paid = KIND_TRIPLES[a - Ids.PAY_THREE]
        else:
            paid = KIND_PAIRS[a - Ids.PAY_TWO]
        for k in paid:
            self.culture[base + k] -= 1  # spent tokens leave the game (R18)
        slot = self.pending
        specialist = self.spec_track[slot]
        coins = self.spec_coins[slot]
        self.coins[seat] += coins
        self.specs[seat] |= 1 << specialist
        self.spec_track[slot] = -1
        self.spec_coins[slot] = 0
        self.pending = -1
        self.phase = END
        name = self.game.parts.specialists[specialist].name
        return [
            Event(
                "recruit",
                f"{self._who()} recruits the {name} and takes {coins} coins",
                {"seat": seat, "specialist": name, "coins": coins},
            )
        ]

    # --- results -------------------------------------------------------------------------------

    def scores(self) -> list[Score]:
        parts = self.game.parts
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

    def clone(self) -> YamataiState:
        twin = YamataiState.__new__(YamataiState)
        self._copy_base_into(twin)
        twin.rng = self.rng.clone()
        twin.spot_boat = self.spot_boat[:]
        twin.island_token = self.island_token[:]
        twin.island_building = self.island_building[:]
        twin.island_tile = self.island_tile[:]
        twin.mountain = self.mountain
        twin.reserve = self.reserve[:]
        twin.sacred_left = self.sacred_left
        twin.fleet_track = self.fleet_track[:]
        twin.fleet_batch = self.fleet_batch[:]
        twin.next_batch = self.next_batch
        twin.row = self.row[:]
        twin._deck = self._deck[:]  # a shuffle still pending is copied as pending (it never changes)
        twin._deck_shuffle = self._deck_shuffle
        twin.known_top = self.known_top[:]
        twin.deck_within = self.deck_within  # a tuple: replaced, never changed in place
        twin.spec_track = self.spec_track[:]
        twin.spec_coins = self.spec_coins[:]
        twin._spec_deck = self._spec_deck[:]
        twin._spec_shuffle = self._spec_shuffle
        twin.coins = self.coins[:]
        twin.pp_tokens = self.pp_tokens[:]
        twin.culture = self.culture[:]
        twin.harbour = self.harbour[:]
        twin.discarded = self.discarded[:]
        twin.pieces = self.pieces[:]
        twin.built = self.built[:]
        twin.reserved = self.reserved[:]
        twin.specs = self.specs[:]
        twin.round_no = self.round_no
        twin.order = self.order[:]
        twin.turn = self.turn
        twin.turn_fleets = self.turn_fleets[:]
        twin.final_order = self.final_order[:]
        twin.end_a = self.end_a
        twin.end_reason = self.end_reason
        twin.phase = self.phase
        twin.resume = self.resume
        twin.seat = self.seat
        twin.tile = self.tile
        twin.power_ready = self.power_ready
        twin.minus_one = self.minus_one
        twin.hand = self.hand[:]
        twin.bought = self.bought[:]
        twin.price_table = self.price_table
        twin.trades_left = self.trades_left
        twin.placed = self.placed[:]
        twin.head = self.head
        twin.chain_closed = self.chain_closed
        twin.branch_used = self.branch_used
        twin.picks = self.picks[:]
        twin.keep_left = self.keep_left
        twin.pending = self.pending
        twin.preview = self.preview[:]
        twin._legal = self._legal
        twin._estimates = self._estimates  # from the mats, which are public: determinize keeps them
        return twin

    def determinize(self, seat: int, rng: Rng) -> YamataiState:
        """Re-draw what `seat` cannot see: deck orders, face-down fleet tiles, future shuffles.

        The copy depends only on what `seat` knows and on `rng`: hidden items are put in a
        canonical order before they are re-drawn, and every fact `seat` holds about the building
        deck (the tiles it knows in order on top, the tiles it knows to lie near the top) holds in
        the copy too.
        """
        twin = self.clone()
        twin.rng = Rng(rng.next64())
        # The generator's draws stay in this order: the specialists, the deck, the fleet batches.
        # (reading a deck does any re-draw still pending from an earlier determinization first)
        twin._spec_shuffle = redraw_later(rng, len(twin.spec_deck), {})
        if twin.preview and twin.seat != seat:
            twin._redraw_preview(seat, rng)
            twin._legal = None  # the preview's choices name the re-drawn tiles
        else:
            # the tiles `seat` sees (on top, or in its hand while it previews) stay put
            known = twin.known_top[seat]
            deck = twin.deck
            near_top: dict[int, int] = {}
            if twin.deck_within:
                seen = set(deck[len(deck) - known :]).union(twin.preview)
                above = len(twin.preview) + known  # depths count from above the tiles in hand
                facts = known_to(twin.deck_within, seat).items()
                near_top = {t: depth - above for t, depth in facts if t not in seen}
            twin._deck_shuffle = redraw_later(rng, len(deck) - known, near_top)
        if twin.deck_within:
            # Other seats' private facts name tiles `seat` cannot know; how many tiles each knows
            # in order on top is public, and in the copy they know the copy's tiles.
            twin.deck_within = kept_for(twin.deck_within, seat)
        track, batches = twin.fleet_track, twin.fleet_batch
        face_down = range(SLOTS, len(track))
        for batch in sorted({batches[p] for p in face_down if track[p]}):
            where = [p for p in face_down if batches[p] == batch]
            tiles = sorted(track[p] for p in where)  # only which tiles a batch holds is known
            rng.shuffle(tiles)
            for p, t in zip(where, tiles, strict=True):
                track[p] = t
        # Otherwise the legal moves (kept by clone) stand: they read only the public parts, the
        # decks' sizes and the face-up fleet tiles, so search needs not work them out again.
        return twin

    def _redraw_preview(self, seat: int, rng: Rng) -> None:
        """Someone else is previewing: re-draw the deck and the tiles in their hand together (R43).

        The looked-at tiles, in the previewer's hand or already put back, are the top ones of the
        deck with the hand on it; `seat` knows only what lies among them (the row tile exchanged
        in front of everyone, the tiles it knew on top before), never which are still in hand.
        """
        hand = len(self.preview)
        tiles = self.deck + self.preview
        pending = redraw_later(rng, len(tiles), known_to(self.deck_within, seat))
        if pending is not None:
            redraw_now(tiles, pending)
        self.deck, self.preview = tiles[: len(tiles) - hand], tiles[len(tiles) - hand :]

    def view(self, seat: int | None) -> dict[str, Any]:
        from parlour.games.yamatai.view import observe

        return observe(self, seat)

    def render(self, seat: int | None = None) -> str:
        from parlour.games.yamatai.render import render

        return render(self, seat)

    def heuristic(self, seat: int) -> float:
        from parlour.games.yamatai.heuristic import estimates, evaluate

        if self._estimates is None and self.phase != OVER:
            self._estimates = estimates(self)
        return evaluate(self, seat, self._estimates)

    def why_illegal(self, action: Action) -> str:
        from parlour.games.yamatai.reasons import why_illegal

        return why_illegal(self, action)

    def _who(self) -> str:
        return f"seat {self.seat} ({self.game.colours[self.seat]})"
