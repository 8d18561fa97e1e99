"""What a move sends to a table's clients: one encoding per audience, and the same JSON as before.

The text comes from orjson (server/authority/broadcast.py): it must decode to the very value, keys in the
same order, that the standard library's `json.dumps` writes, for every message of whole games of
every game; and each audience (a seat, or the spectators) must get its own message alone.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from parlour.engine.registry import load_game
from parlour.server.authority.broadcast import encode, to_audiences
from parlour.server.authority.table import LiveTable, Move, Seat

from .conftest import all_games

GAMES = all_games()


def ordered(text: str) -> Any:
    """The JSON value of `text` with every object as its list of (key, value) pairs, in order."""
    return json.loads(text, object_pairs_hook=list)


class Listener:
    """A client as the table sees it: its seat, and the texts queued to it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[str] = []

    def send_text(self, text: str) -> None:
        self.texts.append(text)


def seated_table(game_name: str, seed: int) -> LiveTable:
    """A table of the game with its default options, a person in every seat."""
    state = load_game(game_name).new_state(seed=seed)
    seats = [Seat(n, None, f"p{n}", f"hash{n}") for n in range(state.game.num_players)]
    return LiveTable.seated("t1", state, seats, datetime.now(UTC))


def play_one(table: LiveTable, rng: random.Random) -> Move:
    """A random legal move, applied to the table."""
    successor = table.state.clone()
    seat = successor.current_player()
    action = rng.choice(successor.legal_actions())
    events = successor.apply(action)
    table.state = successor
    return Move(len(successor.history), seat, action, events)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_message_of_a_game_decodes_as_the_standard_encoder_wrote_it(game_name: str) -> None:
    table = seated_table(game_name, seed=5)
    rng = random.Random(5)
    audiences: list[int | None] = [*range(len(table.seats)), None]
    checked = 0
    while not table.state.is_terminal():  # the whole game
        move = play_one(table, rng)
        for audience in audiences:
            for message in (table.update_message(move, audience), table.sync_message(audience)):
                assert ordered(encode(message)) == ordered(json.dumps(message))
                checked += 1
    assert checked > 0


def test_values_orjson_cannot_write_fall_back_to_the_same_compact_json() -> None:
    message = {"type": "update", "big": 2**70, "small": -(2**70), "keys": {1: "one", 2: [True, None]}}
    text = encode(message)
    assert json.loads(text) == {
        "type": "update",
        "big": 2**70,
        "small": -(2**70),
        "keys": {"1": "one", "2": [True, None]},
    }
    assert ", " not in text and ": " not in text


def test_integer_keys_and_text_outside_ascii_decode_as_before() -> None:
    message = {"names": {0: "Zoë", 1: "新"}, "text": 'say "hi"\n', "score": 1.5}
    text = encode(message)
    assert ordered(text) == ordered(json.dumps(message))
    assert "Zoë" in text  # UTF-8 in the text frame, not a \\u escape


def test_each_audience_is_built_and_encoded_once_and_goes_to_its_own_clients_alone() -> None:
    clients = [Listener(0), Listener(1), Listener(0), Listener(None), Listener(None), Listener(2)]
    built: list[int | None] = []

    def message_for(seat: int | None) -> dict[str, Any]:
        built.append(seat)
        return {"type": "update", "seat": seat, "view": {"hand": f"only seat {seat} sees this"}}

    to_audiences(clients, message_for)
    assert sorted(built, key=str) == sorted([0, 1, None, 2], key=str)  # once per audience present
    for client in clients:
        assert [json.loads(text) for text in client.texts] == [message_for(client.seat)]


@pytest.mark.parametrize("game_name", GAMES)
def test_a_move_sends_every_client_exactly_its_own_seats_update(game_name: str) -> None:
    """Hidden information: a seat's clients get `update_message(move, seat)` and nothing built for
    another seat, spectators the spectators' message, through the table's own broadcast."""
    table = seated_table(game_name, seed=11)
    listeners = [Listener(seat) for seat in [*range(len(table.seats)), None, 0, None]]
    table.clients.update(listeners)  # type: ignore[arg-type]
    rng = random.Random(11)
    for _ in range(30):
        if table.state.is_terminal():
            break
        move = play_one(table, rng)
        table.broadcast_move(move)
        for listener in listeners:
            assert json.loads(listener.texts[-1]) == json.loads(json.dumps(table.update_message(move, listener.seat)))
    for listener in listeners:
        assert len(listener.texts) == len(table.state.history)
