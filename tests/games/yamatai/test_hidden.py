"""Hidden information: deck orders and face-down fleet tiles never show; determinize keeps each view."""

from __future__ import annotations

import json

from parlour.engine import Rng
from parlour.games.yamatai import rules as r
from parlour.games.yamatai.phases import PREVIEW_ORDER

from .positions import bare, fresh, play, tile, turn


def _dump(view: dict[str, object]) -> str:
    return json.dumps(view, sort_keys=True)


def test_views_hide_both_decks_and_the_face_down_fleet() -> None:
    state = fresh(4, seed=21)
    codes = [t.code for t in state.game.parts.buildings]
    names = [s.name for s in state.game.parts.specialists]
    for seat in (None, 0, 1, 2, 3):
        text = _dump(state.view(seat))
        assert not any(f'"{codes[t]}"' in text for t in state.deck)
        assert not any(f'"{names[s]}"' in text for s in state.spec_deck)
        track = state.view(seat)["fleet_track"]
        assert all(entry["tile"] is None for entry in track[5:])  # type: ignore[index]


def test_determinize_redraws_hidden_parts_and_keeps_the_view() -> None:
    state = fresh(4, seed=21)
    seat = state.current_player()
    seen_decks = set()
    for k in range(8):
        twin = state.determinize(seat, Rng(k))
        assert _dump(twin.view(seat)) == _dump(state.view(seat))
        assert sorted(twin.deck) == sorted(state.deck) and sorted(twin.spec_deck) == sorted(state.spec_deck)
        assert sorted(twin.fleet_track[5:]) == sorted(state.fleet_track[5:])
        seen_decks.add((tuple(twin.deck), tuple(twin.spec_deck), tuple(twin.fleet_track)))
    assert len(seen_decks) == 8


def test_determinized_decks_are_shuffled_as_if_at_once() -> None:
    # determinize only notes the deck shuffles and does them when a deck is first read, from
    # any copy; the orders and the generator's draws are those of shuffling straight away.
    state = fresh(3, seed=4)
    state.known_top[0] = 2  # seat 0 knows the two top tiles
    for k in range(6):
        twin = state.determinize(0, Rng(k))
        early, late = twin.clone(), twin.clone()
        play(late, *[a.label for a in late.legal_actions()[:1]])
        drawn = Rng(k)
        drawn.next64()  # the twin's own generator
        specialists, unknown = state.spec_deck[:], state.deck[:-2]
        drawn.shuffle(specialists)
        drawn.shuffle(unknown)
        assert early.spec_deck == late.spec_deck == twin.spec_deck == specialists
        assert early.deck == late.deck == twin.deck == unknown + state.deck[-2:]
        assert state.determinize(0, Rng(k)).deck == twin.deck  # again, read at once


def test_determinized_worlds_keep_legal_moves_that_are_still_right() -> None:
    # determinize hands on the legal list it cloned; it must be what the re-drawn world offers.
    rng = Rng(8)
    for players in (2, 4):
        state = fresh(players, seed=players)
        while not state.is_terminal():
            for seat in range(players):
                twin = state.determinize(seat, rng.spawn())
                kept = [a.id for a in twin.legal_actions()]
                twin._legal = None
                assert kept == [a.id for a in twin.legal_actions()]
            state.apply(rng.choice(state.legal_actions()))


def test_determinize_keeps_what_a_preview_showed() -> None:
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20", "B21", "B07")]
    turn(state, seat=1, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    for seat in (1, 0):  # the previewer and someone who did not look
        twin = state.determinize(seat, Rng(5))
        assert _dump(twin.view(seat)) == _dump(state.view(seat))
    assert state.view(1)["turn"]["preview"] == ["B07", "B21", "B20"]  # type: ignore[index]
    assert state.view(0)["turn"]["preview"] == {"count": 3}  # type: ignore[index]
    play(state, "leave the building row as it is", "put B20 back on top of the deck", "put B21 back on top of the deck")
    top = state.view(1)["known_deck_top"]
    assert top == ["B07", "B21", "B20"]
    for k in range(5):
        twin = state.determinize(1, Rng(k))
        assert twin.deck[-3:] == state.deck[-3:] and _dump(twin.view(1)) == _dump(state.view(1))


def test_known_top_shrinks_as_tiles_are_drawn() -> None:
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20")]
    state.known_top[2] = 3
    state.row[0] = -1
    state.turn_fleets = [1, 2, 3, 4]
    state.fleet_track[:4] = [0, 0, 0, 0]
    state._end_round()
    assert state.row[0] == tile("B20") and state.view(2)["known_deck_top"] == ["P02", "B05"]


def test_face_down_fleet_batches_are_public_as_sets_only() -> None:
    state = fresh(3, seed=4)
    taken = state.fleet_track[:3]
    for n in taken:
        state.fleet_track[state.fleet_track.index(n)] = 0
    state.turn_fleets = taken
    state._end_round()
    batches = state.view(0)["fleet_face_down"]
    assert [b["positions"] for b in batches] == [[6, 7], [8, 9, 10]]  # type: ignore[index]
    for k in range(6):
        twin = state.determinize(0, Rng(k))
        assert twin.fleet_track[:5] == state.fleet_track[:5]
        assert sorted(twin.fleet_track[5:7]) == sorted(state.fleet_track[5:7])
        assert sorted(twin.fleet_track[7:]) == sorted(taken)


def test_determinize_mid_preview_keeps_the_tiles_already_put_back() -> None:
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20", "B21", "B07")]
    turn(state, seat=3, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "leave the building row as it is", "put B21 back on top of the deck")
    assert state.view(3)["known_deck_top"] == ["B21"] and state.phase == PREVIEW_ORDER
    for k in range(4):
        twin = state.determinize(3, Rng(k))
        assert twin.deck[-1] == tile("B21") and twin.preview == state.preview
        assert _dump(twin.view(3)) == _dump(state.view(3))


def test_states_pickle_and_deepcopy_to_the_same_views() -> None:
    import copy
    import pickle

    state = fresh(3, seed=2)
    rng = Rng(4)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
        assert all(_dump(twin.view(s)) == _dump(state.view(s)) for s in (None, 0, 1, 2))
        assert [a.id for a in twin.legal_actions()] == [a.id for a in state.legal_actions()]
    assert len(pickle.dumps(state)) < 20_000


def test_putting_tiles_back_names_them_to_the_previewer_only() -> None:
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20")]
    turn(state, seat=2, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power")
    events = state.apply("leave the building row as it is") + state.apply("put B05 back on top of the deck")
    events += state.apply("put P02 back on top of the deck")  # B20 then goes back by itself
    returns = [e for e in events if e.kind == "preview_return"]
    private = [e.data["tile"] for e in returns if e.audience == (2,)]
    assert private == ["B05", "P02", "B20"]
    public = [e for e in returns if e.audience is None]
    assert len(public) == 3 and not any(code in e.text for e in public for code in ("B05", "P02", "B20"))
    assert not any(e.visible_to(0) and "B05" in e.text for e in events)


def test_determinize_keeps_the_exchanged_row_tile_among_the_looked_at_tiles() -> None:
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20", "B21", "B07", "B08", "B09")]
    state.row = [tile("B02"), tile("B03"), tile("B04"), tile("B06"), tile("B10")]
    turn(state, seat=1, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "put B08 in the row instead of B03")  # everyone saw B03 leave the row
    for returned in (0, 1):
        for k in range(12):
            twin = state.determinize(0, Rng(k))
            looked_at = twin.preview + twin.deck[len(twin.deck) - returned :]
            assert tile("B03") in looked_at and len(twin.preview) == len(state.preview)
            assert sorted(twin.deck + twin.preview) == sorted(state.deck + state.preview)
            assert _dump(twin.view(0)) == _dump(state.view(0))
        if not returned:
            play(state, "put B03 back on top of the deck")
