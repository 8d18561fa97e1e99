"""Hanbok Runway view -> tensor, from the observing seat's side: per colour its trophies and the
tokens still in its queue (face up, who knows it, the value when known); per designer (self first)
the tableau, hand size and every set with its token; then decks, discards,
the cards being discarded at a Pass step and the phase."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from parlour.engine.game import Game
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.view import PHASE_NAMES
from parlour.interop.features import Features, Vocabulary

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
