"""Yamataï as a state machine: set-up, the five phases of a turn, fleet powers, specialists, the end.

A turn runs through phases I (fleet tile) → II (trade) → IIIA (place boats) → IIIB (collect or
build) → IV (harbour) → V (recruit), then an end-of-turn step that exists only while the fleet
power is still usable (R35, R41). Phases that offer their player nothing are skipped (R36). The
fleet power is one "use the fleet power" action at every decision point between steps; its
targets are then chosen in sub-phases of their own.

`YamataiState` joins the steps of a turn (turn.py, trade.py, placement.py, building.py,
recruit.py; the fleet powers in powers.py) over the position's fields (position.py) and answers
the engine protocol: which step decides next and its legal actions (`_decision`), what an action
does, copies and determinizations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.engine import Action, Event, Rng, State
from parlour.engine.hidden import Generator, Rule
from parlour.games.yamatai import powers
from parlour.games.yamatai.actions import N_ISLANDS, N_SPOTS, Ids
from parlour.games.yamatai.components import (
    SLOTS,
)
from parlour.games.yamatai.constants import CHOOSE, COLLECT, END, FLEET, HARBOUR, OVER, PAY, PLACE, RECRUIT, TRADE
from parlour.games.yamatai.deck import kept_for, known_to, redraw_later, redraw_now

if TYPE_CHECKING:
    pass


from parlour.games.yamatai.turn import TurnFlow


class YamataiState(TurnFlow):  # TurnFlow < Trade < Placement < Building < Recruit < YamataiPosition
    __slots__ = ()

    # The generator's future, the decks' order, the face-down fleet tiles. The copy depends only on
    # what `seat` knows and on `rng`: hidden items are put in a canonical order before they are
    # re-drawn, and every fact `seat` holds about the building deck holds in the copy too.
    hidden = (Generator(), Rule("_redraw_decks"), Rule("_redraw_fleet"))
    # The mats' estimates and a re-draw still pending are replaced whole, never changed in place.
    clone_shares = State.clone_shares | {"_estimates", "_deck_shuffle", "_spec_shuffle"}

    def _legal_now(self) -> list[Action]:
        actions = self.game.actions
        return [actions[i] for i in self._decision() or ()]

    def _apply(self, action: Action) -> list[Event]:
        self._estimates = None
        a = action.id
        if Ids.PLACE <= a < Ids.STOP_PLACING:
            events = self._place(*divmod(a - Ids.PLACE, N_SPOTS))
        elif a < Ids.BUY:
            events = self._take_fleet(a - Ids.FLEET + 1)
        elif a < Ids.END_TRADE:
            events = self._trade(a)
        elif a == Ids.END_TRADE:
            events = self._end_trade()
        elif a == Ids.STOP_PLACING:
            events = self._stop_placing()
        elif a < Ids.STOP_COLLECTING:
            events = self._collect(a - Ids.COLLECT)
        elif a == Ids.STOP_COLLECTING:
            events = self._stop_collecting()
        elif a < Ids.SKIP_IIIB:
            events = self._build(*divmod(a - Ids.BUILD, N_ISLANDS))
        elif a == Ids.SKIP_IIIB:
            self._enter_harbour()
            events = [Event("skip", f"{self._who()} neither collects nor builds", {"seat": self.to_move})]
        elif a < Ids.RECRUIT:
            events = self._keep(a - Ids.KEEP)
        elif a < Ids.NO_RECRUIT:
            events = self._choose_recruit(a - Ids.RECRUIT)
        elif a == Ids.NO_RECRUIT:
            events = self._no_recruit()
        elif a < Ids.END_TURN:
            events = self._pay(a)
        elif a == Ids.END_TURN:
            events = self._end_turn()
        elif a == Ids.USE_POWER:
            events = powers.start(self)
        else:
            events = powers.choose(self, a)
        happened = self._advance()
        if happened is not None:
            events.append(happened)
        return events

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
        twin.to_move = self.to_move
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
        twin._estimates = self._estimates  # from the mats, which are public: determinize keeps them
        return twin

    def _redraw_decks(self, seat: int, rng: Rng) -> None:
        """Re-draw the specialist and building decks' order, keeping every fact `seat` holds about
        the building deck (the tiles it knows in order on top, the tiles it knows to lie near the
        top). The generator's draws stay in this order: the specialists, then the deck (reading a
        deck does any re-draw still pending from an earlier determinization first)."""
        self._spec_shuffle = redraw_later(rng, len(self.spec_deck), {})
        if self.preview and self.to_move != seat:
            self._redraw_preview(seat, rng)
            self._legal = None  # the preview's choices name the re-drawn tiles
        else:
            # the tiles `seat` sees (on top, or in its hand while it previews) stay put
            known = self.known_top[seat]
            deck = self.deck
            near_top: dict[int, int] = {}
            if self.deck_within:
                seen = set(deck[len(deck) - known :]).union(self.preview)
                above = len(self.preview) + known  # depths count from above the tiles in hand
                facts = known_to(self.deck_within, seat).items()
                near_top = {t: depth - above for t, depth in facts if t not in seen}
            self._deck_shuffle = redraw_later(rng, len(deck) - known, near_top)
        if self.deck_within:
            # Other seats' private facts name tiles `seat` cannot know; how many tiles each knows
            # in order on top is public, and in the copy they know the copy's tiles.
            self.deck_within = kept_for(self.deck_within, seat)

    def _redraw_fleet(self, seat: int, rng: Rng) -> None:
        """Re-draw the face-down fleet tiles: only which tiles each batch holds is known.

        The legal moves (kept by clone) stand: they read only the public parts, the decks' sizes
        and the face-up fleet tiles, so search needs not work them out again."""
        track, batches = self.fleet_track, self.fleet_batch
        face_down = range(SLOTS, len(track))
        for batch in sorted({batches[p] for p in face_down if track[p]}):
            where = [p for p in face_down if batches[p] == batch]
            tiles = sorted(track[p] for p in where)
            rng.shuffle(tiles)
            for p, t in zip(where, tiles, strict=True):
                track[p] = t

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
        from parlour.games.yamatai.view import view

        return view(self, seat)

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

    def _advance(self) -> Event | None:
        """Resolve every phase that offers its player no choice of its own (R36) up to the next decision.

        Returns the event of a round (or game) that ended on the way, if any.
        """
        happened = None
        while True:
            ids = self._decision()
            if ids is not None:
                self._cache_legal(ids)  # worked out here anyway: the next legal_actions() reads it
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

    def _pause(self, pass_id: int) -> list[int] | None:
        """A step with nothing to do still waits when the fleet power could open it (R41).

        The power may be used between any two steps, so a player may first use it to make the step
        possible (move a boat next to a token, free a spot for the chain, bring a tile into the row,
        find the coins for a purchase); otherwise the step is skipped (R36).
        """
        if self.power_ready and powers.could_open(self) and powers.usable(self):
            return [pass_id, Ids.USE_POWER]
        return None
