"""Hanbok Runway's turn: the draw split (R8, the initial draw R6), up to two sets and the colour each
earns (R10-R11), the oval's peek or flip (R12), passing, the discards down to the hand limit (R15),
the deck rebuilt from its discard pile (R9) and the end of the game (R17)."""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Any

from parlour.engine import Action, Event, secret
from parlour.games.hanbok_runway.components import MANNEQUIN, OVAL, SYMBOLS
from parlour.games.hanbok_runway.constants import (
    ALL_SEATS,
    DISCARD,
    DRAW,
    INITIAL_DRAW,
    OVAL_CHOICE,
    OVER,
    SETS,
)

if TYPE_CHECKING:
    pass


from parlour.games.hanbok_runway.position import HanbokRunwayPosition


class Turn(HanbokRunwayPosition):
    __slots__ = ()

    def _draw_target(self) -> tuple[int, int, int]:
        """(cards to draw, style cards available, fabric cards available) for the draw step (R8)."""
        comps = self.game.components
        wanted = comps.initial_draw if self.phase == INITIAL_DRAW else comps.draw_per_turn
        styles = len(self.style_deck) + sum(self.style_discard)
        fabrics = len(self.fabric_deck) + sum(self.fabric_discard)
        return min(wanted, styles + fabrics), styles, fabrics

    def _may_make_set(self) -> bool:
        comps = self.game.components
        return (
            self.sets_this_turn < comps.max_sets_per_turn
            and len(self.set_tokens[self.to_move]) < comps.max_sets_per_player
        )

    def _set_actions(self) -> list[Action]:
        game = self.game
        per_colour = game.components.tokens_per_colour
        taken = self.taken
        offers = game.moves.kind_offers
        offered = [
            pair
            for kind in compress(game.kind_range, self.tableau_fabric[self.to_move])
            for pair, colour in offers[kind]
            if taken[colour] < per_colour
        ]
        if not offered:
            return []
        by_symbol = game.moves.set_actions
        return [
            by_symbol[symbol][pair]
            for symbol in compress(game.symbol_range, self.tableau_style[self.to_move])
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
        return [t for t in self.set_tokens[1 - self.to_move] if t // per_colour == self.oval_colour and not face_up[t]]

    def _draw_step(self, styles: int, fabrics: int) -> list[Event]:
        seat = self.to_move
        events = self._draw_cards(seat, styles, fabrics)
        if self.phase == INITIAL_DRAW:
            if seat == self.start:
                self.to_move = 1 - seat
            else:
                self.to_move = self.start
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
        seat = self.to_move
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
        value = self.value[token]
        return secret(
            seat,
            Event("earn", f"{what} (face-down: {value:+d})", {**data, "value": value}),
            Event("earn", f"{what} (face-down)", {**data, "redacted": True}),
        )

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
        seat = self.to_move
        comps = self.game.components
        colour, position = divmod(token, comps.tokens_per_colour)
        self.known[token] |= 1 << seat
        self.phase = SETS
        self.oval_colour = -1
        name = comps.colours[colour]
        data: dict[str, Any] = {"seat": seat, "colour": name, "position": position + 1}
        text = f"seat {seat} peeks at {name} {position + 1} in the queue"
        value = self.value[token]
        return secret(
            seat,
            Event("peek", f"{text}: {value:+d}", {**data, "value": value}),
            Event("peek", text, {**data, "redacted": True}),
        )

    def _flip(self, token: int) -> list[Event]:
        seat = self.to_move
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
        seat = self.to_move
        events = [Event("pass", f"seat {seat} passes", {"seat": seat})]
        if self._hand_size(seat) > self.game.components.hand_limit:
            self.phase = DISCARD  # R15: the player names the cards to discard, one at a time
            return events
        return events + self._end_turn()

    def _discarded(self, card: str) -> list[Event]:
        seat = self.to_move
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
        if self.triggered and self.to_move != self.start:
            return events + self._finish()
        self.to_move = 1 - self.to_move
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


def _reshuffle_event(deck: str, size: int) -> Event:
    return Event(
        "reshuffle",
        f"the {deck} discard pile ({size} cards) is shuffled into a new deck",
        {"deck": deck, "cards": size},
    )
