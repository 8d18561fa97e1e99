"""Hanbok Runway's position and rules as a state machine (spec rulings R1-R21 are cited where they apply).

A turn is split into the player's own decisions, each a normal action: the draw split (R8), then
up to two sets (style symbol + fabric card + the colour to earn), the oval's peek or flip when a
set has one (R12), "pass", and at the Pass step one discard at a time down to the hand limit (R15).

Fabric tokens are physical things with a fixed id: colour c, queue position p (0-based) is token
c * T + p, where T is the tokens per colour. A token keeps its id when it moves into a set, so its
face (up or down) and who knows its value (`known`, a bitmask of seats: the knowledge set) belong
to the token, while `value` holds what is printed on it. `determinize` shuffles the values of the
tokens a seat does not know among themselves, which keeps every count and every known value.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Any

from parlour.engine import TERMINAL, Action, Event, Rng, Score, State
from parlour.games.hanbok_runway import scoring
from parlour.games.hanbok_runway.components import MANNEQUIN, OVAL, SYMBOLS
from parlour.games.hanbok_runway.constants import (
    ALL_SEATS,
    DISCARD,
    DISCARD_STYLE,
    DRAW,
    DRAW_SPLIT,
    FLIP,
    INITIAL_DRAW,
    MAKE_SET,
    OVAL_CHOICE,
    OVER,
    PASS,
    PEEK,
    SETS,
)

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.game import HanbokRunway


class HanbokRunwayState(State):
    """One position. Lists are flat and small so that `clone` is a handful of list copies."""

    __slots__ = (
        "phase",
        "active",
        "start",
        "turns_played",
        "sets_this_turn",
        "oval_colour",
        "triggered",
        "style_deck",
        "fabric_deck",
        "style_discard",
        "fabric_discard",
        "discarding",
        "tableau_style",
        "tableau_fabric",
        "set_symbols",
        "set_kinds",
        "set_tokens",
        "taken",
        "value",
        "face_up",
        "known",
        "owner",
        "additional",
        "supply",
        "rng",
    )
    game: HanbokRunway

    def __init__(self, game: HanbokRunway, seed: int) -> None:
        super().__init__(game, seed)
        comps = game.components
        colours = len(comps.colours)
        tokens = colours * comps.tokens_per_colour
        self.phase = INITIAL_DRAW
        self.active = 0
        self.start = 0
        self.turns_played = 0
        self.sets_this_turn = 0
        self.oval_colour = -1
        self.triggered = False
        self.style_deck: list[int] = []  # symbols; the top card is the last
        self.fabric_deck: list[int] = []  # fabric kinds; the top card is the last
        self.style_discard = [0] * len(SYMBOLS)  # counts per symbol (face-up piles, R9)
        self.fabric_discard = [0] * len(comps.fabric_kinds)
        # the cards named so far at a Pass step, set aside until the batch lands together (R20):
        # a symbol s is s, a fabric kind k is len(SYMBOLS) + k
        self.discarding: list[int] = []
        self.tableau_style = [[0] * len(SYMBOLS) for _ in range(2)]  # counts per symbol, public (R7)
        self.tableau_fabric = [[0] * len(comps.fabric_kinds) for _ in range(2)]
        self.set_symbols: list[list[int]] = [[], []]
        self.set_kinds: list[list[int]] = [[], []]
        self.set_tokens: list[list[int]] = [[], []]
        self.taken = [0] * colours  # tokens taken from each queue = index of its next position
        self.value = [0] * tokens
        self.face_up = [False] * tokens
        self.known = [0] * tokens  # bit s set: seat s knows the token's value
        self.owner = [-1] * tokens  # -1: still in the queue
        self.additional = [0] * colours  # additional VP tokens lying next to each VP token
        self.supply = comps.additional_vp_supply
        self.rng = Rng(seed)

    @classmethod
    def setup(cls, game: HanbokRunway, seed: int) -> HanbokRunwayState:
        """Shuffle both decks and every queue from the seed, and choose the start player."""
        state = cls(game, seed)
        comps = game.components
        rng = state.rng
        chosen = game.options["start_player"]
        state.start = state.active = rng.randrange(2) if chosen < 0 else chosen
        state.style_deck = list(comps.style_cards)
        state.fabric_deck = list(comps.fabric_cards)
        rng.shuffle_sparingly(state.style_deck)
        rng.shuffle_sparingly(state.fabric_deck)
        per_colour = comps.tokens_per_colour
        for colour, values in enumerate(comps.token_values):
            row = list(values)
            rng.shuffle_sparingly(row)
            state.value[colour * per_colour : (colour + 1) * per_colour] = row
            for position, up in enumerate(comps.queue_face_up):
                token = colour * per_colour + position
                state.face_up[token] = up
                state.known[token] = ALL_SEATS if up else 0
        return state

    # --- the protocol -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.active

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _apply(self, action: Action) -> list[Event]:
        effect, first, second, third = self.game.effects[action.id]
        if effect == DRAW_SPLIT:
            return self._draw_step(first, second)
        if effect == MAKE_SET:
            return self._make_set(first, second, third)
        if effect == PASS:
            return self._pass()
        if effect == PEEK:
            return self._peek(first)
        if effect == FLIP:
            return self._flip(first)
        if effect == DISCARD_STYLE:
            self.tableau_style[self.active][first] -= 1
            self.discarding.append(first)
            return self._discarded(SYMBOLS[first])
        self.tableau_fabric[self.active][first] -= 1
        self.discarding.append(len(SYMBOLS) + first)
        return self._discarded(self.game.components.kind_label(first))

    # --- legal actions -----------------------------------------------------------------

    def _draw_target(self) -> tuple[int, int, int]:
        """(cards to draw, style cards available, fabric cards available) for the draw step (R8)."""
        comps = self.game.components
        wanted = comps.initial_draw if self.phase == INITIAL_DRAW else comps.draw_per_turn
        styles = len(self.style_deck) + sum(self.style_discard)
        fabrics = len(self.fabric_deck) + sum(self.fabric_discard)
        return min(wanted, styles + fabrics), styles, fabrics

    def _legal_now(self) -> list[Action]:
        phase = self.phase
        game = self.game
        moves = game.moves
        if phase == SETS:
            legal = self._set_actions() if self._may_make_set() else []
            legal.append(game.actions[moves.pass_id])
            return legal
        actions = game.actions
        if phase <= DRAW:
            total, styles, fabrics = self._draw_target()
            if styles >= total and fabrics >= total:
                return moves.draw_menus[total]  # the usual case, shared (never changed in place)
            row = moves.draw_ids
            return [actions[row[s][total - s]] for s in range(min(styles, total), max(0, total - fabrics) - 1, -1)]
        if phase == OVAL_CHOICE:
            return [actions[moves.peek_base + t] for t in self._peekable()] + [
                actions[moves.flip_base + t] for t in self._flippable()
            ]
        if phase == DISCARD:
            seat = self.active
            base = moves.discard_style_base
            legal = [actions[base + s] for s, n in enumerate(self.tableau_style[seat]) if n]
            base = moves.discard_fabric_base
            return legal + [actions[base + k] for k, n in enumerate(self.tableau_fabric[seat]) if n]
        return []

    def _may_make_set(self) -> bool:
        comps = self.game.components
        return (
            self.sets_this_turn < comps.max_sets_per_turn
            and len(self.set_tokens[self.active]) < comps.max_sets_per_player
        )

    def _set_actions(self) -> list[Action]:
        game = self.game
        per_colour = game.components.tokens_per_colour
        taken = self.taken
        offers = game.moves.kind_offers
        offered = [
            pair
            for kind in compress(game.kind_range, self.tableau_fabric[self.active])
            for pair, colour in offers[kind]
            if taken[colour] < per_colour
        ]
        if not offered:
            return []
        by_symbol = game.moves.set_actions
        return [
            by_symbol[symbol][pair]
            for symbol in compress(game.symbol_range, self.tableau_style[self.active])
            for pair in offered
        ]

    def _peekable(self) -> list[int]:
        """Face-down tokens still in the oval colour's queue (R12a; already-seen ones too, R21)."""
        per_colour = self.game.components.tokens_per_colour
        first = self.oval_colour * per_colour
        return [t for t in range(first + self.taken[self.oval_colour], first + per_colour) if not self.face_up[t]]

    def _flippable(self) -> list[int]:
        """The opponent's face-down tokens of the oval colour (R12b)."""
        per_colour = self.game.components.tokens_per_colour
        face_up = self.face_up
        return [t for t in self.set_tokens[1 - self.active] if t // per_colour == self.oval_colour and not face_up[t]]

    # --- resolving actions ---------------------------------------------------------------

    def _draw_step(self, styles: int, fabrics: int) -> list[Event]:
        seat = self.active
        events = self._draw_cards(seat, styles, fabrics)
        if self.phase == INITIAL_DRAW:
            if seat == self.start:
                self.active = 1 - seat
            else:
                self.active = self.start
                self.phase = DRAW
        else:
            self.phase = SETS
            self.sets_this_turn = 0
        return events

    def _draw_cards(self, seat: int, styles: int, fabrics: int) -> list[Event]:
        """All cards of a split drawn together; the R9 reshuffle check runs after every card."""
        events: list[Event] = []
        drawn_styles: list[str] = []
        drawn_fabrics: list[str] = []
        tableau = self.tableau_style[seat]
        for _ in range(styles):
            symbol = self.style_deck.pop()
            tableau[symbol] += 1
            drawn_styles.append(SYMBOLS[symbol])
            if not self.style_deck:
                events += self._rebuild_decks()
        tableau = self.tableau_fabric[seat]
        kind_labels = self.game.components.kind_labels
        for _ in range(fabrics):
            kind = self.fabric_deck.pop()
            tableau[kind] += 1
            drawn_fabrics.append(kind_labels[kind])
            if not self.fabric_deck:
                events += self._rebuild_decks()
        # drawn cards go face-up in front of their owner (R7), so the draw is public
        cards = ", ".join(drawn_styles + drawn_fabrics) or "nothing"
        events.insert(
            0,
            Event("draw", f"seat {seat} draws {cards}", {"seat": seat, "style": drawn_styles, "fabric": drawn_fabrics}),
        )
        return events

    def _rebuild_decks(self) -> list[Event]:
        """R9: an empty deck whose discard pile holds cards is rebuilt from that pile, shuffled."""
        events = []
        if not self.style_deck and any(self.style_discard):
            self.style_deck = [s for s, n in enumerate(self.style_discard) for _ in range(n)]
            self.style_discard = [0] * len(self.style_discard)
            self.rng.shuffle_sparingly(self.style_deck)
            events.append(_reshuffle_event("style", len(self.style_deck)))
        if not self.fabric_deck and any(self.fabric_discard):
            self.fabric_deck = [k for k, n in enumerate(self.fabric_discard) for _ in range(n)]
            self.fabric_discard = [0] * len(self.fabric_discard)
            self.rng.shuffle_sparingly(self.fabric_deck)
            events.append(_reshuffle_event("fabric", len(self.fabric_deck)))
        return events

    def _make_set(self, symbol: int, kind: int, colour: int) -> list[Event]:
        """Section 5: the two cards become a set, earn the queue's first token, resolve the symbol."""
        seat = self.active
        comps = self.game.components
        self.tableau_style[seat][symbol] -= 1
        self.tableau_fabric[seat][kind] -= 1
        token = colour * comps.tokens_per_colour + self.taken[colour]
        self.taken[colour] += 1
        self.owner[token] = seat
        self.known[token] |= 1 << seat
        self.set_symbols[seat].append(symbol)
        self.set_kinds[seat].append(kind)
        self.set_tokens[seat].append(token)
        self.sets_this_turn += 1
        events = self._earn_events(seat, symbol, kind, token)
        events += self._resolve_symbol(seat, symbol, colour)
        if not self.triggered and self._end_condition():
            self.triggered = True
            events.append(Event("end triggered", f"the end is triggered on seat {seat}'s turn", {"seat": seat}))
        return events

    def _earn_events(self, seat: int, symbol: int, kind: int, token: int) -> list[Event]:
        comps = self.game.components
        colour, position = divmod(token, comps.tokens_per_colour)
        earned = f"{comps.colours[colour]} {position + 1}"
        fabric = comps.kind_labels[kind]
        what = f"seat {seat} sets {SYMBOLS[symbol]} + {fabric} and earns {earned}"
        data: dict[str, Any] = {
            "seat": seat,
            "style": SYMBOLS[symbol],
            "fabric": fabric,
            "colour": comps.colours[colour],
            "position": position + 1,
            "face_up": self.face_up[token],
        }
        if self.face_up[token]:
            return [Event("earn", f"{what} ({self.value[token]:+d})", {**data, "value": self.value[token]})]
        # a face-down token: everybody sees it taken, only its new owner sees the front (R21)
        return [
            Event("earn", f"{what} (face-down)", {**data, "redacted": True}),
            _secret("earn", seat, earned, self.value[token], data),
        ]

    def _resolve_symbol(self, seat: int, symbol: int, colour: int) -> list[Event]:
        name = self.game.components.colours[colour]
        if symbol == OVAL:
            self.oval_colour = colour
            if self._peekable() or self._flippable():
                self.phase = OVAL_CHOICE  # R12: must be used when possible; the player picks how
                return []
            self.oval_colour = -1
            return [Event("oval", f"the oval finds no face-down {name} token", {"seat": seat, "colour": name})]
        if symbol == MANNEQUIN:
            if not self.supply:  # R14: nothing happens once the supply is empty
                return [Event("mannequin", "no additional VP token is left", {"seat": seat, "colour": name})]
            self.supply -= 1
            self.additional[colour] += 1
            return [
                Event(
                    "mannequin",
                    f"an additional VP token goes next to {name}'s VP token ({self.additional[colour]} there)",
                    {"seat": seat, "colour": name, "pile": self.additional[colour]},
                )
            ]
        # R13: triangle, bell and trapezoid act only at scoring; nothing is revealed now
        return []

    def _end_condition(self) -> bool:
        """R16: two colours' queues are empty, or a player owns the maximum number of sets."""
        comps = self.game.components
        empty = sum(1 for n in self.taken if n == comps.tokens_per_colour)
        most_sets = max(len(self.set_tokens[0]), len(self.set_tokens[1]))
        return empty >= comps.end_trigger_empty_colours or most_sets >= comps.end_trigger_sets

    def _peek(self, token: int) -> list[Event]:
        seat = self.active
        comps = self.game.components
        colour, position = divmod(token, comps.tokens_per_colour)
        self.known[token] |= 1 << seat
        self.phase = SETS
        self.oval_colour = -1
        name = comps.colours[colour]
        data: dict[str, Any] = {"seat": seat, "colour": name, "position": position + 1}
        text = f"seat {seat} peeks at {name} {position + 1} in the queue"
        return [
            Event("peek", text, {**data, "redacted": True}),
            _secret("peek", seat, f"{name} {position + 1}", self.value[token], data),
        ]

    def _flip(self, token: int) -> list[Event]:
        seat = self.active
        comps = self.game.components
        colour, position = divmod(token, comps.tokens_per_colour)
        self.face_up[token] = True
        self.known[token] = ALL_SEATS
        self.phase = SETS
        self.oval_colour = -1
        name = comps.colours[colour]
        return [
            Event(
                "flip",
                f"seat {seat} flips the opponent's {name} {position + 1} face-up: {self.value[token]:+d}",
                {"seat": seat, "colour": name, "position": position + 1, "value": self.value[token]},
            )
        ]

    def _pass(self) -> list[Event]:
        seat = self.active
        events = [Event("pass", f"seat {seat} passes", {"seat": seat})]
        if self._hand_size(seat) > self.game.components.hand_limit:
            self.phase = DISCARD  # R15: the player names the cards to discard, one at a time
            return events
        return events + self._end_turn()

    def _discarded(self, card: str) -> list[Event]:
        seat = self.active
        events = [Event("discard", f"seat {seat} discards {card}", {"seat": seat, "card": card})]
        if self._hand_size(seat) > self.game.components.hand_limit:
            return events
        # R20: the discards of one Pass step land on their piles together; the R9 check runs once, now
        styles = len(SYMBOLS)
        for pending in self.discarding:
            if pending < styles:
                self.style_discard[pending] += 1
            else:
                self.fabric_discard[pending - styles] += 1
        self.discarding = []
        return events + self._rebuild_decks() + self._end_turn()

    def _end_turn(self) -> list[Event]:
        """Step E (R16, R17): end the game after the second player's turn once triggered."""
        events: list[Event] = []
        self.turns_played += 1
        cap = self.game.options["safety_turn_cap"]
        if not self.triggered and cap and self.turns_played >= cap:
            self.triggered = True
            events.append(Event("end triggered", f"the safety cap of {cap} turns is reached", {"cap": cap}))
        if self.triggered and self.active != self.start:
            return events + self._finish()
        self.active = 1 - self.active
        self.phase = DRAW
        self.sets_this_turn = 0
        return events

    def _finish(self) -> list[Event]:
        """Scoring step 1: every token is revealed, the earned ones and those left in the queues."""
        self.phase = OVER
        tokens = len(self.value)
        self.face_up = [True] * tokens
        self.known = [ALL_SEATS] * tokens
        totals = [score.total for score in self.scores()]
        return [
            Event(
                "game over",
                f"the game ends: trophies {totals[0]:g} to {totals[1]:g}",
                {"trophies": totals, "winners": self.winners()},
            )
        ]

    def _hand_size(self, seat: int) -> int:
        return sum(self.tableau_style[seat]) + sum(self.tableau_fabric[seat])

    # --- why not -----------------------------------------------------------------------

    def why_illegal(self, action: Action) -> str:
        from parlour.games.hanbok_runway.reasons import why_illegal

        return why_illegal(self, action)

    # --- scoring ------------------------------------------------------------------------

    def influences(self, public_only: bool = False) -> list[list[int]]:
        """Each seat's influence per colour: the modified values of its tokens (section 8, R13).

        With `public_only`, only face-up tokens count: that is what anybody may know mid-game.
        """
        comps = self.game.components
        per_colour = comps.tokens_per_colour
        result = [[0] * len(comps.colours) for _ in range(2)]
        for seat in (0, 1):
            for symbol, token in zip(self.set_symbols[seat], self.set_tokens[seat], strict=True):
                if public_only and not self.face_up[token]:
                    continue
                result[seat][token // per_colour] += scoring.modified_value(symbol, self.value[token], comps)
        return result

    def scores(self) -> list[Score]:
        """Trophies per colour. Mid-game only face-up tokens count, so the scores never leak a secret."""
        comps = self.game.components
        influences = self.influences(public_only=True)
        won = scoring.trophies_won(influences, self.additional, comps)
        result = []
        for seat in (0, 1):
            breakdown: dict[str, float] = {}
            for colour, name in enumerate(comps.colours):
                breakdown[name] = won[seat][colour]
                breakdown[f"{name} influence"] = influences[seat][colour]
            result.append(Score(float(sum(won[seat])), breakdown, (-float(len(self.set_tokens[seat])),)))
        return result

    def winners(self) -> list[int]:
        totals = [int(score.total) for score in self.scores()]
        return scoring.winners(totals, [len(self.set_tokens[0]), len(self.set_tokens[1])])

    # --- information ----------------------------------------------------------------------

    def knows(self, seat: int | None, token: int) -> bool:
        """Whether `seat` knows the token's value; a spectator (None) knows only face-up tokens."""
        if seat is None:
            return self.face_up[token]
        return bool(self.known[token] >> seat & 1)

    def view(self, seat: int | None) -> dict[str, Any]:
        from parlour.games.hanbok_runway.view import build_view

        return build_view(self, seat)

    def render(self, seat: int | None = None) -> str:
        from parlour.games.hanbok_runway.render import render

        return render(self, seat)

    def reveal(self) -> None:
        """Both seats know every token: the heuristic then reads a determinization's drawn values."""
        self.known = [ALL_SEATS] * len(self.known)

    def heuristic(self, seat: int) -> float:
        from parlour.games.hanbok_runway.heuristic import evaluate

        return evaluate(self, seat)

    def clone(self) -> HanbokRunwayState:
        twin = HanbokRunwayState.__new__(HanbokRunwayState)
        self._copy_base_into(twin)
        twin.phase = self.phase
        twin.active = self.active
        twin.start = self.start
        twin.turns_played = self.turns_played
        twin.sets_this_turn = self.sets_this_turn
        twin.oval_colour = self.oval_colour
        twin.triggered = self.triggered
        twin.style_deck = self.style_deck.copy()
        twin.fabric_deck = self.fabric_deck.copy()
        twin.style_discard = self.style_discard.copy()
        twin.fabric_discard = self.fabric_discard.copy()
        twin.discarding = self.discarding.copy()
        twin.tableau_style = [self.tableau_style[0].copy(), self.tableau_style[1].copy()]
        twin.tableau_fabric = [self.tableau_fabric[0].copy(), self.tableau_fabric[1].copy()]
        twin.set_symbols = [self.set_symbols[0].copy(), self.set_symbols[1].copy()]
        twin.set_kinds = [self.set_kinds[0].copy(), self.set_kinds[1].copy()]
        twin.set_tokens = [self.set_tokens[0].copy(), self.set_tokens[1].copy()]
        twin.taken = self.taken.copy()
        twin.value = self.value.copy()
        twin.face_up = self.face_up.copy()
        twin.known = self.known.copy()
        twin.owner = self.owner.copy()
        twin.additional = self.additional.copy()
        twin.supply = self.supply
        twin.rng = self.rng.clone()
        return twin

    def determinize(self, seat: int, rng: Rng) -> HanbokRunwayState:
        """A copy with deck order, the values `seat` does not know and the generator's future re-drawn.

        Within each colour the unknown tokens swap values among themselves: the values a colour's
        tokens carry stay exactly its component values, and every value `seat` knows stays put.
        The discard piles, tableaux and sets are public, so each deck's contents are fixed; only
        their order is hidden.
        """
        twin = self.clone()
        twin.rng = rng.spawn()
        # Hidden things are sorted before they are shuffled, so the copy depends only on what
        # `seat` sees and on `rng`, never on the order the hidden cards happen to lie in.
        twin.style_deck.sort()
        twin.fabric_deck.sort()
        rng.shuffle_sparingly(twin.style_deck)
        rng.shuffle_sparingly(twin.fabric_deck)
        per_colour = self.game.components.tokens_per_colour
        bit = 1 << seat
        for first in range(0, len(twin.value), per_colour):
            unknown = [t for t in range(first, first + per_colour) if not self.known[t] & bit]
            values = sorted(twin.value[t] for t in unknown)
            rng.shuffle_sparingly(values)
            for token, value in zip(unknown, values, strict=True):
                twin.value[token] = value
        return twin


def _secret(kind: str, seat: int, token: str, value: int, data: dict[str, Any]) -> Event:
    """The private half of a public event: the value only `seat` learns."""
    return Event(kind, f"seat {seat} sees {token}: {value:+d}", {**data, "value": value}, (seat,))


def _reshuffle_event(deck: str, size: int) -> Event:
    return Event(
        "reshuffle",
        f"the {deck} discard pile ({size} cards) is shuffled into a new deck",
        {"deck": deck, "cards": size},
    )
