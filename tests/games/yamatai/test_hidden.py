"""Hidden information: deck orders and face-down fleet tiles never show; determinize keeps each view."""

from __future__ import annotations

import json
import re

from parlour.engine import Rng
from parlour.games.yamatai import constants as r
from parlour.games.yamatai.constants import PREVIEW_ORDER
from parlour.games.yamatai.state import YamataiState

from .positions import bare, fresh, play, tile, turn


def _dump(view: dict[str, object]) -> str:
    return json.dumps(view, sort_keys=True)


def test_views_hide_both_decks_and_the_face_down_fleet() -> None:
    state = fresh(4, seed=21)
    codes = [t.code for t in state.game.components.buildings]
    names = [s.name for s in state.game.components.specialists]
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
    # any copy; the orders and the generator's draws are those of shuffling straight away (the
    # unseen tiles put in their canonical order first).
    state = fresh(3, seed=4)
    state.known_top[0] = 2  # seat 0 knows the two top tiles
    for k in range(6):
        twin = state.determinize(0, Rng(k))
        early, late = twin.clone(), twin.clone()
        play(late, *[a.label for a in late.legal_actions()[:1]])
        drawn = Rng(k)
        drawn.next64()  # the twin's own generator
        specialists, unknown = sorted(state.spec_deck), sorted(state.deck[:-2])
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


# --- what a seat knows about the deck lasts past the preview, and only that knowledge counts ----


def _depth(deck: list[int], code: str) -> int:
    """How far from the top (1 = the top tile) a building tile lies in a deck."""
    return len(deck) - deck.index(tile(code))


def _near_top(state: YamataiState, seat: int | None) -> dict[str, int]:
    """What the view says `seat` knows lies near the deck's top (tile code -> within the top N)."""
    facts = state.view(seat).get("deck_known_within", [])
    return {fact["tile"]: fact["within"] for fact in facts}  # type: ignore[index]


def _exchange_in_front_of_everyone() -> YamataiState:
    """2 players, seed 0: seat 1 previews, puts B11 in the row instead of B21, and puts the tiles back."""
    state = fresh(2, seed=0)
    play(state, "take fleet tile 3", "use the fleet power", "put B11 in the row instead of B21")
    while state.preview:
        state.apply(state.legal_actions()[0])
    assert state.to_move == 1 and state.phase != PREVIEW_ORDER
    return state


def test_the_exchanged_row_tile_stays_in_the_top_after_the_preview() -> None:
    state = _exchange_in_front_of_everyone()
    assert _depth(state.deck, "B21") <= 3
    for seat in (0, 1):
        for k in range(200):
            twin = state.determinize(seat, Rng(k))
            assert _depth(twin.deck, "B21") <= 3, f"seat {seat}, rng {k}"
            assert _dump(twin.view(seat)) == _dump(state.view(seat))
    assert _near_top(state, 0) == _near_top(state, None) == {"B21": 3}  # spectators saw the exchange too
    assert _near_top(state, 1) == {}  # seat 1 knows the exact order
    assert "known to lie in the deck's top 3: B21" in state.render(0)
    previewer = state.render(1)
    assert "you know the deck's top: " in previewer and "known to lie" not in previewer


def test_the_exchanged_tile_rises_with_each_draw_until_it_is_drawn() -> None:
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20", "P01", "B09", "B07", "B08")]
    state.row = [tile(c) for c in ("B02", "B03", "B04", "B06", "B10")]
    turn(state, seat=1, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "put B08 in the row instead of B03")
    play(state, "put B03 back on top of the deck", "put B07 back on top of the deck")  # B09 goes back last
    assert state.deck[-3:] == [tile("B03"), tile("B07"), tile("B09")]
    spread = set()
    for k in range(300):
        spread.add(_depth(state.determinize(2, Rng(k)).deck, "B03"))
    assert spread == {1, 2, 3}  # anywhere among the looked-at tiles, nowhere else
    assert _near_top(state, 0) == {"B03": 3}
    state.row[1] = -1  # one row slot to refill at the end of the round: B09 is drawn
    state.turn_fleets = [3, 1, 2, 4]
    state.fleet_track = [0 if t in state.turn_fleets else t for t in state.fleet_track]
    state._end_round()
    assert state.row[1] == tile("B09")
    assert {_depth(state.determinize(0, Rng(k)).deck, "B03") for k in range(200)} == {1, 2}
    assert _near_top(state, 0) == {"B03": 2}
    state.row[1] = state.row[2] = -1  # two more draws: B07, then B03 itself comes face up
    state.turn_fleets = [t for t in state.fleet_track[:4] if t]
    state.fleet_track = [0 if t in state.turn_fleets else t for t in state.fleet_track]
    state._end_round()
    assert tile("B03") in state.row and _near_top(state, 0) == {} and state.deck_within == ()


def _seat_1_knows_the_top_then_seat_2_looks() -> YamataiState:
    """Seat 1 previews and knows the top three in order; then seat 2 looks at them and exchanges one."""
    state = bare()
    state.deck = [tile(c) for c in ("B01", "B05", "P02", "B20", "B21", "B07")]
    state.row = [tile(c) for c in ("B02", "B03", "B04", "B06", "B10")]
    turn(state, seat=1, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "leave the building row as it is")
    play(state, "put B20 back on top of the deck", "put B21 back on top of the deck")
    assert state.view(1)["known_deck_top"] == ["B07", "B21", "B20"]
    turn(state, seat=2, fleet=3, hand={}, phase=r.RECRUIT)
    play(state, "use the fleet power", "put B21 in the row instead of B04")
    return state


def test_a_seat_still_knows_its_tiles_are_among_those_someone_else_looked_at() -> None:
    state = _seat_1_knows_the_top_then_seat_2_looks()
    # seat 1 knew B07 and B20 lay on top: they are in seat 2's hand or already back on top
    for k in range(100):
        twin = state.determinize(1, Rng(k))
        assert set(twin.preview) == {tile("B04"), tile("B07"), tile("B20")}
        assert _dump(twin.view(1)) == _dump(state.view(1))
    hands = {frozenset(state.determinize(0, Rng(k)).preview) for k in range(100)}
    assert all(tile("B04") in hand for hand in hands) and len(hands) > 1  # seat 0 knew nothing else
    assert _near_top(state, 1) == {"B04": 3, "B07": 3, "B20": 3}
    assert _near_top(state, 0) == _near_top(state, None) == {"B04": 3}
    play(state, "put B04 back on top of the deck")
    for k in range(100):
        twin = state.determinize(1, Rng(k))
        looked_at = set(twin.preview) | set(twin.deck[-1:])
        assert looked_at == {tile("B04"), tile("B07"), tile("B20")}
    play(state, "put B07 back on top of the deck")  # B20 goes back by itself
    for k in range(100):
        assert set(state.determinize(1, Rng(k)).deck[-3:]) == {tile("B04"), tile("B07"), tile("B20")}
        assert tile("B04") in state.determinize(0, Rng(k)).deck[-3:]
        assert state.determinize(2, Rng(k)).deck[-3:] == state.deck[-3:]
    assert _near_top(state, 1) == {"B04": 3, "B07": 3, "B20": 3}
    assert state.view(2)["known_deck_top"] == ["B20", "B07", "B04"]


def test_every_fact_a_view_states_is_true_in_random_games_and_in_their_determinizations() -> None:
    # what any seat (or a spectator) is told it knows about the deck is true, all game long, and
    # stays true in every world re-drawn for that seat
    rng = Rng(17)
    facts_seen = 0
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        state = fresh(players, seed)
        while not state.is_terminal():
            for seat in (None, *range(players)):
                facts = _near_top(state, seat)
                worlds = [state] if seat is None else [state, state.determinize(seat, rng.spawn())]
                for world in worlds:
                    looked_at = world.deck + world.preview  # the tiles in hand all go back on top
                    for code, within in facts.items():
                        facts_seen += 1
                        assert _depth(looked_at, code) <= within, (len(state.history), seat, code, within)
            state.apply(rng.choice(state.legal_actions()))
    assert facts_seen > 100


def _hidden_twin(state: YamataiState, seat: int, rng: Rng) -> YamataiState:
    """The real position with everything `seat` cannot see put in another order.

    The building tiles `seat` knows nothing about change places (those it knows lie near the top,
    or exactly where, stay put), and so do the specialists in their deck, the face-down fleet
    tiles within each batch and the generator's future. `seat` cannot tell this world from the real one.
    """
    world = state.clone()
    others_preview = bool(world.preview) and world.to_move != seat
    tiles = world.deck + (world.preview if others_preview else [])
    near = {tile(code) for code in _near_top(state, seat)}
    free = [i for i in range(len(tiles) - world.known_top[seat]) if tiles[i] not in near]
    moved = [tiles[i] for i in free]
    while len(moved) > 1 and moved == [tiles[i] for i in free]:
        rng.shuffle(moved)  # until the order really differs
    for i, t in zip(free, moved, strict=True):
        tiles[i] = t
    hand = len(world.preview) if others_preview else 0
    world.deck = tiles[: len(tiles) - hand]
    if others_preview:
        world.preview = tiles[len(tiles) - hand :]
    specialists = world.spec_deck[:]
    rng.shuffle(specialists)
    world.spec_deck = specialists
    for batch in set(world.fleet_batch[5:]):
        where = [p for p in range(5, 10) if world.fleet_batch[p] == batch and world.fleet_track[p]]
        numbers = [world.fleet_track[p] for p in where]
        rng.shuffle(numbers)
        for p, number in zip(where, numbers, strict=True):
            world.fleet_track[p] = number
    world.rng = Rng(rng.next64())
    world._legal = None
    assert _dump(world.view(seat)) == _dump(state.view(seat)) and world.render(seat) == state.render(seat)
    assert world.deck + world.preview != state.deck + state.preview or len(free) < 2
    return world


def _positions_to_compare() -> list[tuple[YamataiState, int]]:
    """Positions and the seat whose knowledge they test: set-up, after an exchange, mid-preview, mid-game."""
    positions = [(fresh(4, seed=21), 2), (_exchange_in_front_of_everyone(), 0)]
    mid = _seat_1_knows_the_top_then_seat_2_looks()
    positions += [(mid, 1), (mid, 0), (mid, 2)]
    rng = Rng(5)
    state = fresh(3, seed=9)
    for step in range(1, 121):
        state.apply(rng.choice(state.legal_actions()))
        if step % 30 == 0:
            positions.append((state.clone(), step % 3))
    return positions


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    for number, (state, seat) in enumerate(_positions_to_compare()):
        world = _hidden_twin(state, seat, Rng(100 + number))
        for k in range(5):
            mine, theirs = state.determinize(seat, Rng(k)), world.determinize(seat, Rng(k))
            where = f"position {number}, seat {seat}, rng {k}"
            assert mine.deck == theirs.deck and mine.preview == theirs.preview, where
            assert mine.spec_deck == theirs.spec_deck and mine.fleet_track == theirs.fleet_track, where
            for viewer in (None, *range(state.game.num_players)):
                assert _dump(mine.view(viewer)) == _dump(theirs.view(viewer)), f"{where}, viewer {viewer}"
            mine_next, theirs_next = mine.rng.clone(), theirs.rng.clone()
            assert mine_next.next64() == theirs_next.next64(), where
            assert [a.id for a in mine.legal_actions()] == [a.id for a in theirs.legal_actions()], where


def _played(players: int, seed: int, moves: int) -> YamataiState:
    state = fresh(players, seed)
    rng = Rng(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_hint_cannot_tell_worlds_the_seat_cannot_tell_apart() -> None:
    # The server's /hint searches a clone of the table's position, seeded with the table's version,
    # for its settings' iterations (its wall-clock cap is left out: it would make the test depend
    # on the machine's load). A hint that changed with the real order of the hidden tiles would be
    # an oracle on them.
    from parlour.agents.hint import hint
    from parlour.server.settings import Settings

    iterations = Settings().hint_iterations

    for players, seed, moves in ((2, 2, 77), (2, 5, 146)):
        state = _played(players, seed, moves)
        seat = state.current_player()
        version = len(state.history)
        real, text = hint(state.clone(), seed=version, iterations=iterations)
        world = _hidden_twin(state, seat, Rng(0))
        other, other_text = hint(world.clone(), seed=version, iterations=iterations)
        assert other.label == real.label, f"{players} players, seed {seed}, {moves} moves"
        assert re.sub(r"\(\d+\.\d s\)", "", other_text) == re.sub(r"\(\d+\.\d s\)", "", text)


def test_nothing_shown_or_said_to_a_seat_differs_between_worlds_it_cannot_tell_apart() -> None:
    # view, text render, observation tensor, and the refusal reason of every move it may not play
    import numpy as np

    from parlour.interop.encoding import observation_tensor

    for number, (state, seat) in enumerate(_positions_to_compare()):
        world = _hidden_twin(state, seat, Rng(200 + number))
        assert _dump(world.view(seat)) == _dump(state.view(seat)) and world.render(seat) == state.render(seat)
        game = state.game
        mine, theirs = (
            observation_tensor(game, state.view(seat), seat),
            observation_tensor(game, world.view(seat), seat),
        )
        assert np.array_equal(mine, theirs)
        if seat == state.current_player():
            legal = {a.id for a in state.legal_actions()}
            assert legal == {a.id for a in world.legal_actions()}
            for action in game.actions:
                if action.id not in legal:
                    assert world.why_illegal(action) == state.why_illegal(action), (number, action.label)
