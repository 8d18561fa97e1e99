"""Hanbok Runway property tests: protocol conformance, and hidden information kept hidden.

Over random seeds and random play: no view (seat or spectator) ever holds a token value its
viewer does not know according to the token's knowledge set, nor any deck order; secret events
reach only the seats that learn the secret; determinize keeps the seat's view, re-draws what that
seat does not know within the component counts, and the determinized state plays to its end.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from parlour.engine import Rng, load_game
from parlour.engine.conformance import check_game, finish_randomly
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.state import HanbokRunwayState

GAME = load_game("hanbok_runway")
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
COLOURS = list(GAME.components.colours)  # type: ignore[attr-defined]
T = GAME.components.tokens_per_colour  # type: ignore[attr-defined]


def random_states(seed: int, game: Any = GAME) -> Iterator[tuple[HanbokRunwayState, list[Any]]]:
    """Every state of one random game, with the events of the action that led to it."""
    state = game.new_state(seed=seed)
    rng = Rng(seed)
    events: list[Any] = []
    while True:
        yield state, events
        if state.is_terminal():
            return
        events = state.apply(rng.choice(state.legal_actions()))


def shown_tokens(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for colour in view["colours"]:
        yield from colour["queue"]
    for player in view["players"]:
        for made in player["sets"]:
            yield made["token"]


def check_knowledge(state: HanbokRunwayState) -> None:
    for viewer in (None, 0, 1):
        view = state.view(viewer)
        seen = set()
        for tok in shown_tokens(view):
            t = COLOURS.index(tok["colour"]) * T + tok["position"] - 1
            seen.add(t)
            knows = state.face_up[t] if viewer is None else bool(state.known[t] >> viewer & 1)
            assert (tok["value"] is not None) == knows, (viewer, tok, state.known[t])
            if knows:
                assert tok["value"] == state.value[t]
            assert tok["known_by"] == [s for s in (0, 1) if state.known[t] >> s & 1]
            assert tok["face_up"] == state.face_up[t]
        # every token is shown exactly once: in its queue or on its set
        assert seen == set(range(len(COLOURS) * T))
        # decks appear only as sizes
        assert isinstance(view["style_deck"], int) and isinstance(view["fabric_deck"], int)


def check_events(state: HanbokRunwayState, events: list[Any]) -> None:
    for event in events:
        if "value" not in event.data or "position" not in event.data:
            continue
        t = COLOURS.index(event.data["colour"]) * T + event.data["position"] - 1
        for viewer in (None, 0, 1):
            if event.visible_to(viewer):
                knows = state.face_up[t] if viewer is None else bool(state.known[t] >> viewer & 1)
                assert knows, (viewer, event)


@settings(max_examples=4, deadline=None)
@given(SEEDS, st.sampled_from([0, 1]), st.integers(min_value=1, max_value=12))
def test_conformance_with_options(seed: int, start: int, cap: int) -> None:
    check_game(load_game("hanbok_runway", start_player=start, safety_turn_cap=cap), seed)


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_no_view_or_event_shows_what_its_viewer_does_not_know(seed: int) -> None:
    for state, events in random_states(seed):
        check_knowledge(state)
        check_events(state, events)


class KnowledgeFromMoves:
    """Who knows each token, worked out from the moves alone (not from the state's own bookkeeping).

    Face-up queue positions are public from the start; a seat learns the face-down token it earns
    and the queue token it peeks at; a flip makes a token public; the final scoring reveals all.
    """

    def __init__(self) -> None:
        comps = GAME.components  # type: ignore[attr-defined]
        self.taken = dict.fromkeys(COLOURS, 0)
        self.public = {c * T + p for c in range(len(COLOURS)) for p in range(T) if comps.queue_face_up[p]}
        self.seen: list[set[int]] = [set(), set()]

    def follow(self, seat: int, action: Any) -> None:
        if action.kind == "set":
            colour = action.param("colour")
            self.seen[seat].add(COLOURS.index(colour) * T + self.taken[colour])
            self.taken[colour] += 1
        elif action.kind in ("peek", "flip"):
            t = COLOURS.index(action.param("colour")) * T + action.param("position") - 1
            (self.seen[seat] if action.kind == "peek" else self.public).add(t)

    def knows(self, viewer: int | None, t: int, over: bool) -> bool:
        return over or t in self.public or (viewer is not None and t in self.seen[viewer])


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_views_show_exactly_the_values_the_moves_revealed(seed: int) -> None:
    state = GAME.new_state(seed=seed)
    rng = Rng(seed)
    tracker = KnowledgeFromMoves()
    while True:
        for viewer in (None, 0, 1):
            for tok in shown_tokens(state.view(viewer)):
                t = COLOURS.index(tok["colour"]) * T + tok["position"] - 1
                knows = tracker.knows(viewer, t, state.is_terminal())
                assert (tok["value"] is not None) == knows, (viewer, tok)
                if viewer is None:
                    assert tok["face_up"] == knows
        if state.is_terminal():
            return
        action = rng.choice(state.legal_actions())
        tracker.follow(state.current_player(), action)
        state.apply(action)


def _unknown_values(state: HanbokRunwayState, seat: int) -> list[int]:
    return [state.value[t] for t in range(len(state.value)) if not state.known[t] >> seat & 1]


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_determinize_keeps_the_view_and_redraws_the_unknown(seed: int) -> None:
    changed = 0
    checked = 0
    for step, (state, _) in enumerate(random_states(seed)):
        if state.is_terminal() or step % 7:
            continue
        for seat in (0, 1):
            view = json.dumps(state.view(seat), sort_keys=True)
            samples = [state.determinize(seat, Rng(seed * 31 + step * 2 + k)) for k in range(3)]
            for det in samples:
                assert json.dumps(det.view(seat), sort_keys=True) == view
                assert json.dumps(state.view(seat), sort_keys=True) == view  # the original is untouched
                for t, bits in enumerate(state.known):
                    if bits >> seat & 1:
                        assert det.value[t] == state.value[t]
                for c in range(len(COLOURS)):  # the component counts hold in every colour
                    assert Counter(det.value[c * T : c * T + T]) == Counter(state.value[c * T : c * T + T])
                assert Counter(det.style_deck) == Counter(state.style_deck)
                assert Counter(det.fabric_deck) == Counter(state.fabric_deck)
                assert det.rng.state != state.rng.state
            checked += 1
            hidden = len(set(_unknown_values(state, seat))) > 1 or len(set(state.fabric_deck)) > 1
            if hidden and any(
                (d.value, d.style_deck, d.fabric_deck) != (state.value, state.style_deck, state.fabric_deck)
                for d in samples
            ):
                changed += 1
    assert checked and changed >= checked // 2


@settings(max_examples=6, deadline=None)
@given(SEEDS)
def test_determinized_states_play_to_the_end(seed: int) -> None:
    for step, (state, _) in enumerate(random_states(seed)):
        if state.is_terminal():
            return
        if step % 11 == 5:
            det = state.determinize(state.current_player(), Rng(seed + step))
            returns = finish_randomly(det, seed + step)
            assert det.is_terminal() and len(returns) == 2
            assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@settings(max_examples=8, deadline=None)
@given(SEEDS)
@example(69)  # a style deck runs out and a Pass step's discards follow
def test_invariants_of_section_10(seed: int) -> None:
    comps = GAME.components  # type: ignore[attr-defined]
    for state, _ in random_states(seed):
        owned = sum(len(tokens) for tokens in state.set_tokens)
        assert owned + sum(T - n for n in state.taken) == len(COLOURS) * T  # each token in one place
        assert all(len(tokens) <= comps.max_sets_per_player for tokens in state.set_tokens)
        assert state.sets_this_turn <= comps.max_sets_per_turn
        assert state.supply + sum(state.additional) == comps.additional_vp_supply
        cards = (
            len(state.style_deck)
            + sum(state.style_discard)
            + sum(sum(t) for t in state.tableau_style)
            + sum(len(s) for s in state.set_symbols)
            + sum(1 for card in state.discarding if card < len(SYMBOLS))
        )
        assert cards == len(comps.style_cards)
        fabrics = (
            len(state.fabric_deck)
            + sum(state.fabric_discard)
            + sum(sum(t) for t in state.tableau_fabric)
            + sum(len(k) for k in state.set_kinds)
            + sum(1 for card in state.discarding if card >= len(SYMBOLS))
        )
        assert fabrics == len(comps.fabric_cards)
        # R9: a deck is never left empty while its discard pile holds cards (between actions)
        assert state.style_deck or not any(state.style_discard)
        assert state.fabric_deck or not any(state.fabric_discard)
        if state.phase <= 1 and state.turns_played:  # after a Pass the tableau is within the limit
            assert state._hand_size(1 - state.to_move) <= comps.hand_limit
        assert -1.0 <= state.heuristic(0) <= 1.0
        if state.is_terminal():  # R16: the start player went first, so an even count means equal turns
            assert state.turns_played % 2 == 0
