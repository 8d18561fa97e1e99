"""Hanbok Runway view -> tensor, from the observing seat's side: per colour its trophies and the
tokens still in its queue (face up, who knows it, the value when known); per designer (self first)
the tableau, hand size and every set with its token; then decks, discards,
the cards being discarded at a Pass step and the phase."""

from __future__ import annotations

import array
import functools
from collections.abc import Mapping, MutableSequence
from typing import TYPE_CHECKING, Any

from parlour.engine.game import Game
from parlour.engine.tensor import Features, Vocabulary
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import PHASE_NAMES

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.state import HanbokRunwayState

VALUE_SCALE = 5.0


@functools.cache
def _names(game: Game) -> tuple[Vocabulary, Vocabulary]:
    """The game's colours and fabric kinds (built once per game)."""
    comps = game.components  # type: ignore[attr-defined]
    return Vocabulary(comps.colours), Vocabulary(comps.kind_labels)


def _token(features: Features, token: Mapping[str, Any] | None, me: int, colours: Vocabulary) -> None:
    """A token's block: present, its colour, position, face up, known to me, known to the other,
    its value known, the value. Written by position, as there are many tokens (the same values
    as one flag, one-hot and number call each)."""
    count = len(colours)
    at = features.reserve(count + 7)
    features.quantities.append((at + 1 + count, 1, False))
    features.quantities.append((at + 6 + count, 1, False))
    if token is None:
        return
    nonzero = features.nonzero
    nonzero[at] = 1.0
    colour = token.get("colour")
    if colour is not None and colour in colours.slots:
        nonzero[at + 1 + colours.slots[colour]] = 1.0
    position = token.get("position")
    if position:
        nonzero[at + 1 + count] = float(position) / 6
    if token.get("face_up"):
        nonzero[at + 2 + count] = 1.0
    known_by = token.get("known_by", [])
    if me in known_by:
        nonzero[at + 3 + count] = 1.0
    if 1 - me in known_by:
        nonzero[at + 4 + count] = 1.0
    value = token.get("value")
    if value is not None:
        nonzero[at + 5 + count] = 1.0
    if value:
        nonzero[at + 6 + count] = float(value) / VALUE_SCALE


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    comps = game.components  # type: ignore[attr-defined]
    colours, kinds = _names(game)
    features = Features()
    features.section("per colour: trophies, additional VP, its queue of tokens")
    for colour in view["colours"]:
        features.number(colour["vp_trophies"], 5)
        features.number(colour["additional_vp"], 3)
        queue = {token["position"]: token for token in colour["queue"]}
        for position in range(1, comps.tokens_per_colour + 1):
            _token(features, queue.get(position), me, colours)
    features.section("per designer, me first: tableau, hand size, sets with their tokens")
    for player in (view["players"][me], view["players"][1 - me]):
        features.counts(player["tableau"]["style"], SYMBOLS, 5)
        features.counts(player["tableau"]["fabric"], kinds, 5)
        features.number(player["cards"], comps.hand_limit)
        sets = player["sets"]
        for index in range(comps.max_sets_per_player):
            made = sets[index] if index < len(sets) else None
            features.one_hot(made and made["style"], SYMBOLS)
            features.one_hot(made and made["fabric"], kinds)
            _token(features, made and made["token"], me, colours)
    features.section("phase, turn, end trigger, oval, decks, discards, cards being discarded, VP supply")
    features.one_hot(view["phase"], PHASE_NAMES)
    features.flag(view["to_move"] == me)
    features.flag(view["start_player"] == me)
    features.number(view["turns_played"], 40)
    features.number(view["sets_this_turn"], comps.max_sets_per_turn)
    features.flag(view["end_triggered"])
    features.one_hot(view["oval_colour"], colours)
    features.number(view["style_deck"], 30)
    features.number(view["fabric_deck"], 30)
    features.counts(view["style_discard"], SYMBOLS, 10)
    features.counts(view["fabric_discard"], kinds, 5)
    features.counts(view["discarding"]["style"], SYMBOLS, 2)
    features.counts(view["discarding"]["fabric"], kinds, 2)
    features.number(view["additional_vp_supply"], comps.additional_vp_supply)
    return features


# --- the same tensor read from the position itself ------------------------------------------------
# `encode` above is the reference: it reads the view, so it shows exactly what the view shows.
# `write` gives the same values without building the view (tests/interop/test_fast_encoders.py
# compares the two over many random positions), for adapters that want a tensor at every step.


class _Plan:
    """The layout `encode` builds, for one game (built once): block sizes of a token, a colour and
    a designer, where the designers start, each fabric kind's slot, each token's position value
    (position / 6), and per colour its whole queue's blocks with only what never changes while a
    token waits there (present, colour, position), copied in one slice for the tokens left."""

    def __init__(self, game: Game) -> None:
        comps = game.components  # type: ignore[attr-defined]
        colours, kinds = _names(game)
        count, per_colour = len(colours), comps.tokens_per_colour
        self.token = count + 7
        self.colour = 2 + per_colour * self.token
        self.designer = (
            len(SYMBOLS) + len(kinds) + 1 + comps.max_sets_per_player * (len(SYMBOLS) + len(kinds) + self.token)
        )
        self.designers_at = len(comps.colours) * self.colour
        self.kind_slots = tuple(kinds.slots[label] for label in comps.kind_labels)
        self.positions = tuple((token % per_colour + 1) / 6 for token in range(len(comps.colours) * per_colour))
        self.queues: list[array.array[float]] = []
        for colour in range(len(comps.colours)):
            queue = array.array("f", bytes(4 * per_colour * self.token))
            for position in range(per_colour):
                at = position * self.token
                queue[at] = 1.0
                queue[at + 1 + colour] = 1.0
                queue[at + 1 + count] = (position + 1) / 6
            self.queues.append(queue)


@functools.lru_cache(maxsize=64)
def _plan(game: Game) -> _Plan:
    return _Plan(game)


def _write_tokens(
    state: HanbokRunwayState,
    seat: int | None,
    placed: list[tuple[int, int]],
    out: MutableSequence[float],
    queued: bool = False,
) -> None:
    """The block `_token` writes for each (token, where its block starts), as the view shows the
    token to `seat`: who knows it is public, its value only to those who know it (a spectator:
    face-up values only). `queued`: the blocks' present, colour and position are written already."""
    comps = state.game.components
    count = len(comps.colours)
    per_colour = comps.tokens_per_colour
    positions = _plan(state.game).positions
    me = 0 if seat is None else seat
    other = 1 - me
    face_up, known, value = state.face_up, state.known, state.value
    for token, at in placed:
        if not queued:
            out[at] = 1.0
            out[at + 1 + token // per_colour] = 1.0
            out[at + 1 + count] = positions[token]
        up, knowers = face_up[token], known[token]
        if not up and not knowers:
            continue  # face down and known to no one, as most waiting tokens are: nothing more to show
        if up:
            out[at + 2 + count] = 1.0
        if knowers >> me & 1:
            out[at + 3 + count] = 1.0
        if knowers >> other & 1:
            out[at + 4 + count] = 1.0
        if up if seat is None else knowers >> seat & 1:
            out[at + 5 + count] = 1.0
            if value[token]:
                out[at + 6 + count] = value[token] / VALUE_SCALE


def write(state: HanbokRunwayState, seat: int | None, out: MutableSequence[float]) -> None:
    """`encode(state.view(seat), seat, game)` written into `out` (all zeros, of the tensor's
    length), read from the position directly."""
    game = state.game
    me = 0 if seat is None else seat
    comps = game.components
    plan = _plan(game)
    token_size, at, kind_slots = plan.token, plan.designers_at, plan.kind_slots
    per_colour = comps.tokens_per_colour
    symbols, kinds = len(SYMBOLS), len(kind_slots)
    queued: list[tuple[int, int]] = []  # (token, where its block starts) of the tokens in the queues
    for colour, trophies in enumerate(comps.vp_trophies):
        start = colour * plan.colour
        if trophies:
            out[start] = trophies / 5
        if state.additional[colour]:
            out[start + 1] = state.additional[colour] / 3
        taken, first = state.taken[colour], colour * per_colour
        if taken < per_colour:
            out[start + 2 + taken * token_size : start + 2 + per_colour * token_size] = plan.queues[colour][
                taken * token_size :
            ]
        for position in range(taken, per_colour):
            queued.append((first + position, start + 2 + position * token_size))
    _write_tokens(state, seat, queued, out, queued=True)
    made_sets: list[tuple[int, int]] = []  # the same for the tokens in the sets
    for player in (me, 1 - me):
        for symbol, count in enumerate(state.tableau_style[player]):
            if count:
                out[at + symbol] = count / 5
        for kind, count in enumerate(state.tableau_fabric[player]):
            if count:
                out[at + symbols + kind_slots[kind]] = count / 5
        cards = state._hand_size(player)
        if cards:
            out[at + symbols + kinds] = cards / comps.hand_limit
        made = at + symbols + kinds + 1
        for symbol, kind, token in zip(
            state.set_symbols[player], state.set_kinds[player], state.set_tokens[player], strict=True
        ):
            out[made + symbol] = 1.0
            out[made + symbols + kind_slots[kind]] = 1.0
            made_sets.append((token, made + symbols + kinds))
            made += symbols + kinds + token_size
        at += plan.designer
    _write_tokens(state, seat, made_sets, out)
    out[at + state.phase] = 1.0
    at += len(PHASE_NAMES)
    if state.current_player() == me:
        out[at] = 1.0
    if state.start == me:
        out[at + 1] = 1.0
    if state.turns_played:
        out[at + 2] = state.turns_played / 40
    if state.sets_this_turn:
        out[at + 3] = state.sets_this_turn / comps.max_sets_per_turn
    if state.triggered:
        out[at + 4] = 1.0
    if state.oval_colour >= 0:
        out[at + 5 + state.oval_colour] = 1.0
    at += 5 + len(comps.colours)
    if state.style_deck:
        out[at] = len(state.style_deck) / 30
    if state.fabric_deck:
        out[at + 1] = len(state.fabric_deck) / 30
    at += 2
    for symbol, count in enumerate(state.style_discard):
        if count:
            out[at + symbol] = count / 10
    at += symbols
    for kind, count in enumerate(state.fabric_discard):
        if count:
            out[at + kind_slots[kind]] = count / 5
    at += kinds
    for card in state.discarding:
        # a style card is its symbol, a fabric card len(SYMBOLS) + its kind (position.py)
        slot = at + card if card < symbols else at + symbols + kind_slots[card - symbols]
        out[slot] += 0.5
    at += symbols + kinds
    if state.supply:
        out[at] = state.supply / comps.additional_vp_supply
