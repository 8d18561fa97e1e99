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

from typing import TYPE_CHECKING, Any

from parlour.engine import Action, Event, Rng
from parlour.engine.hidden import Deck, Generator, Rule
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import (
    ALL_SEATS,
    DISCARD,
    DISCARD_STYLE,
    DRAW,
    DRAW_SPLIT,
    FLIP,
    MAKE_SET,
    OVAL_CHOICE,
    PASS,
    PEEK,
    SETS,
)

if TYPE_CHECKING:
    pass


from parlour.games.hanbok_runway.turn import Turn


class HanbokRunwayState(Turn):
    """A Hanbok Runway position with its turn (turn.py) and the engine protocol."""

    __slots__ = ()

    # The generator's future; the decks' order (the discard piles, tableaux and sets are public, so
    # each deck's contents are known); the values of the tokens the seat does not know.
    hidden = (Generator(), Deck("style_deck", "fabric_deck", sparingly=True), Rule("_redraw_token_values"))

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
            self.tableau_style[self.to_move][first] -= 1
            self.discarding.append(first)
            return self._discarded(SYMBOLS[first])
        self.tableau_fabric[self.to_move][first] -= 1
        self.discarding.append(len(SYMBOLS) + first)
        return self._discarded(self.game.components.kind_label(first))

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
            seat = self.to_move
            base = moves.discard_style_base
            legal = [actions[base + s] for s, n in enumerate(self.tableau_style[seat]) if n]
            base = moves.discard_fabric_base
            return legal + [actions[base + k] for k, n in enumerate(self.tableau_fabric[seat]) if n]
        return []

    def why_illegal(self, action: Action) -> str:
        from parlour.games.hanbok_runway.reasons import why_illegal

        return why_illegal(self, action)

    def view(self, seat: int | None) -> dict[str, Any]:
        from parlour.games.hanbok_runway.view import view

        return view(self, seat)

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
        twin.to_move = self.to_move
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

    def _redraw_token_values(self, seat: int, rng: Rng) -> None:
        """Within each colour the VP tokens `seat` does not know swap values among themselves: the
        values a colour's tokens carry stay exactly its component values, and every value `seat`
        knows stays put. Sorted before they are shuffled, so the copy depends only on what `seat`
        sees and on `rng`."""
        per_colour = self.game.components.tokens_per_colour
        bit = 1 << seat
        for first in range(0, len(self.value), per_colour):
            unknown = [t for t in range(first, first + per_colour) if not self.known[t] & bit]
            values = sorted(self.value[t] for t in unknown)
            rng.shuffle_sparingly(values)
            for token, value in zip(unknown, values, strict=True):
                self.value[token] = value
