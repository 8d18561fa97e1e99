"""Hanbok Runway's position: its fields, the set-up, the scores, and what the turn reads (spec rulings
R1-R21 are cited where they apply); the turn itself is in turn.py, and state.py puts them together.

Fabric tokens are physical things with a fixed id: colour c, queue position p (0-based) is token
c * T + p, where T is the tokens per colour. A token keeps its id when it moves into a set, so its
face (up or down) and who knows its value (`known`, a bitmask of seats: the knowledge set) belong
to the token, while `value` holds what is printed on it. `determinize` shuffles the values of the
tokens a seat does not know among themselves, which keeps every count and every known value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from parlour.engine import TERMINAL, Rng, Score, State
from parlour.engine.compile_hints import mypyc_attr
from parlour.games.hanbok_runway import scoring
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import (
    ALL_SEATS,
    INITIAL_DRAW,
    OVER,
)

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.game import HanbokRunway


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)  # it has an __init__: see compile_hints
class HanbokRunwayPosition(State["HanbokRunway"]):
    """The fields of a position, the set-up and the scores; `HanbokRunwayState` adds the turn
    (turn.py) and the engine protocol. Lists are flat and small so that `clone` is a handful of
    list copies."""

    __slots__ = (
        "phase",
        "to_move",
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

    def __init__(self, game: HanbokRunway, seed: int) -> None:
        super().__init__(game, seed)
        comps = game.components
        colours = len(comps.colours)
        tokens = colours * comps.tokens_per_colour
        self.phase = INITIAL_DRAW
        self.to_move = 0
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
    def set_up(cls, game: HanbokRunway, seed: int) -> Self:
        """Shuffle both decks and every queue from the seed, and choose the start player."""
        state = cls(game, seed)
        comps = game.components
        rng = state.rng
        chosen = game.options["start_player"]
        state.start = state.to_move = rng.randrange(2) if chosen < 0 else chosen
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
        return TERMINAL if self.phase == OVER else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # --- legal actions -----------------------------------------------------------------

    # --- resolving actions ---------------------------------------------------------------

    def _hand_size(self, seat: int) -> int:
        return sum(self.tableau_style[seat]) + sum(self.tableau_fabric[seat])

    # --- why not -----------------------------------------------------------------------

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
