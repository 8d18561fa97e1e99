"""Who reads an event: everyone, some seats alone, or everyone but some seats (spectators included).

A secret shown to one seat goes out as a pair (`secret`): the full event for that seat, and its
redacted counterpart for everyone else, so that each viewer reads the move exactly once.
"""

from __future__ import annotations

import json

import pytest

from parlour.engine import Event, State, secret
from tests.games.hanbok_runway import positions as hanbok
from tests.games.hatairo import positions as hatairo
from tests.games.yamatai import positions as yamatai

VIEWERS = (None, 0, 1, 2)


def test_an_event_for_everyone_is_seen_by_every_seat_and_spectator() -> None:
    event = Event("pass", "Red passes")
    assert event.public and all(event.visible_to(viewer) for viewer in VIEWERS)


def test_an_event_for_listed_seats_is_hidden_from_the_others_and_spectators() -> None:
    event = Event("peek", "you see +3", audience=(1,))
    assert [viewer for viewer in VIEWERS if event.visible_to(viewer)] == [1]
    assert not event.public


def test_an_event_for_everyone_but_listed_seats_reaches_spectators() -> None:
    event = Event("keep_hidden", "Red keeps a card", excluded=(0, 2))
    assert [viewer for viewer in VIEWERS if event.visible_to(viewer)] == [None, 1]
    assert not event.public


def test_an_event_cannot_both_list_and_exclude_seats() -> None:
    with pytest.raises(ValueError, match="both its audience and the seats excluded"):
        Event("peek", "?", audience=(0,), excluded=(1,))


def test_secret_pairs_the_full_event_with_its_counterpart() -> None:
    mine, theirs = secret(1, Event("draw", "you draw the 7"), Event("draw", "Blue draws a card"))
    assert (mine.audience, mine.excluded, theirs.audience, theirs.excluded) == ((1,), (), None, (1,))
    for viewer in VIEWERS:
        assert [e.text for e in (mine, theirs) if e.visible_to(viewer)] == (
            ["you draw the 7"] if viewer == 1 else ["Blue draws a card"]
        )


def seen(events: list[Event], viewer: int | None, kinds: set[str]) -> list[str]:
    return [e.text for e in events if e.visible_to(viewer) and e.kind in kinds]


def assert_one_line_each(
    state: State, events: list[Event], actor: int, kinds: set[str], mine: str, theirs: str
) -> None:
    """The actor reads one line, `mine`; every other seat and a spectator one line, `theirs`, not `mine`."""
    for viewer in (None, *range(state.game.num_players)):
        lines = seen(events, viewer, kinds)
        if viewer == actor:
            assert len(lines) == 1 and mine in lines[0], (viewer, lines)
        else:
            assert len(lines) == 1 and theirs in lines[0] and mine not in lines[0], (viewer, lines)


def test_hatairo_keeping_a_card_reads_once_for_the_keeper_and_once_for_the_rest() -> None:
    state = hatairo.new(3)
    events = state.apply(state.legal_actions()[0])
    assert_one_line_each(state, events, 0, {"keep", "keep_hidden"}, "you keep", "Red keeps a card")


def test_hatairo_drafting_a_card_reads_once_for_the_drafter_and_once_for_the_rest() -> None:
    state = hatairo.new(2, variant="drafting")
    events = state.apply(state.legal_actions()[0])
    assert_one_line_each(state, events, 0, {"draft", "draft_hidden"}, "you draft", "Red drafts a card")


def test_yamatai_preview_and_its_returns_read_once_per_viewer() -> None:
    state = yamatai.bare()
    state.deck = [yamatai.tile(code) for code in ("B01", "B05", "P02", "B20")]
    yamatai.turn(state, seat=2, fleet=3, hand={}, phase=yamatai.r.RECRUIT)
    events = state.apply("use the fleet power")
    assert_one_line_each(state, events, 2, {"preview"}, "looks at B20, P02, B05", "looks at the top 3")
    events = state.apply("leave the building row as it is") + state.apply("put B05 back on top of the deck")
    returned = [e for e in events if e.kind == "preview_return"]
    assert_one_line_each(state, returned, 2, {"preview_return"}, "puts B05 back", "puts a looked-at tile back")


def test_hanbok_face_down_token_reads_with_its_value_for_the_earner_alone() -> None:
    state = hanbok.turn_position()
    hanbok.give(state, 0, "oval", "green/red")
    hanbok.put_first(state, "green", 3)
    events = state.apply("set oval + green/red, earn green")
    assert_one_line_each(state, events, 0, {"earn"}, "earns green 1 (face-down: +3)", "earns green 1 (face-down)")
    events = state.apply("peek at green 2")
    value = state.value[hanbok.token("green", 2)]
    assert_one_line_each(state, events, 0, {"peek"}, f"green 2 in the queue: {value:+d}", "peeks at green 2")


def test_hatairo_laying_a_topography_tile_reads_once_for_its_player_and_once_for_the_rest() -> None:
    state = hatairo.new(3)
    for _ in range(3):
        state.apply(state.legal_actions()[0])  # Red keeps her three cards
    laid = [action for action in state.legal_actions() if action.kind == "topography"]
    # Which tile and which column: the others read the same line whatever she chose (R5, P5).
    told = set()
    for action in (laid[0], laid[-1]):
        trial = state.clone()
        events = trial.apply(action)
        tile, column = action.label.removeprefix("topography ").split(" under column ")
        mine = f"you put your {tile} tile under column {column}"
        assert_one_line_each(trial, events, 0, {"topography", "topography_hidden"}, mine, "Red lays a topography tile")
        told.add(tuple(json.dumps(e.to_json(), sort_keys=True) for e in events if e.visible_to(1)))
    assert len(told) == 1 and laid[0].label != laid[-1].label


def test_hatairo_every_set_up_decision_of_a_player_is_told_to_the_others() -> None:
    state = hatairo.new(2)
    while not state.revealed:
        seat = state.current_player()
        events = state.apply(state.legal_actions()[-1])
        if not state.revealed:
            assert any(e.visible_to(1 - seat) and e.visible_to(None) for e in events), events
