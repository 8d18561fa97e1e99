"""No client is ever sent what it may not see.

Every position a seat's client receives must be exactly `state.view(seat)` (a spectator's exactly
`state.view(None)`), every event must be one `visible_to` that seat, and the action itself goes
only to the seat that played it. The tests rebuild each game from its published record, step by
step, and compare every message received against what the engine says that audience may see.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from parlour.engine.actions import Event
from parlour.engine.game import State
from parlour.engine.registry import game_classes, load_game

from .conftest import LiveServer, Player, all_games, play_to_end, wait_until

GAMES = all_games()


def steps(record: dict[str, Any]) -> tuple[list[State], list[list[Event]]]:
    """The state after each number of actions (index = version) and the events of each action."""
    state = load_game(record["game"], **record["options"]).new_state(seed=record["seed"])
    states, events = [state.clone()], [[]]
    for action_id in record["actions"]:
        events.append(state.apply(action_id))
        states.append(state.clone())
    return states, events


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_messages(player: Player, record: dict[str, Any]) -> int:
    """Compare everything `player` received with what its seat may see; returns how many positions."""
    states, events = steps(record)
    seat = player.seat
    checked = 0
    for message in player.messages:
        if message["type"] not in ("sync", "update"):
            continue
        state = states[message["version"]]
        assert message["seat"] == seat
        assert message["view"] == plain(state.view(seat)), f"version {message['version']}: view differs for {seat}"
        mine = seat is not None and state.current_player() == seat and message["status"] == "running"
        assert message["legal"] == (plain([a.to_json() for a in state.legal_actions()]) if mine else [])
        if message["type"] == "update":
            made = events[message["version"]]
            assert message["events"] == plain([e.to_json() for e in made if e.visible_to(seat)])
            actor_is_me = message["actor"] == seat
            played = state.game.actions[record["actions"][message["version"] - 1]]
            assert message["action"] == (plain(played.to_json()) if actor_is_me else None)
        checked += 1
    return checked


@pytest.mark.parametrize("game", GAMES)
def test_each_seat_and_spectator_gets_only_its_own_view(serve: Callable[..., LiveServer], game: str) -> None:
    server = serve(rate=10_000.0, burst=10_000)
    players = min(game_classes()[game].player_counts())
    table = server.create(game, ["human"] + ["random"] * (players - 1), seed=23)
    token = server.join(table["id"], "Ann")["token"]
    watcher = server.connect(table["id"])
    ann = server.connect(table["id"], token)
    final = play_to_end(ann, seed=5)
    watcher.until(lambda m: m.get("version") == final["version"] and m["type"] == "update")
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert check_messages(ann, record) == len([m for m in ann.messages if m["type"] in ("sync", "update")])
    assert check_messages(watcher, record) == final["version"] + 1
    for message in ann.messages + watcher.messages:
        assert token not in json.dumps(message)


def test_a_secret_card_never_reaches_the_other_seat(server: LiveServer) -> None:
    table = server.create("peek", ["human", "human"], seed=4)
    tokens = [server.join(table["id"], name)["token"] for name in ("Ann", "Bo")]
    ann, bo = (server.connect(table["id"], token) for token in tokens)
    watcher = server.connect(table["id"])
    for turn in range(4):
        mover = (ann, bo)[turn % 2]
        mover.send(type="act", action="draw", version=turn)
        for client in (ann, bo, watcher):
            client.until(lambda m, v=turn + 1: m["type"] == "update" and m["version"] == v)
    wait_until(lambda: server.table(table["id"])["status"] == "finished")
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    for client in (ann, bo, watcher):
        check_messages(client, record)
    # Spelled out for this game: before the end, a seat sees its own card and never the other's.
    for client, other in ((ann, 1), (bo, 0)):
        for message in client.messages:
            if message["type"] in ("sync", "update") and message["status"] != "finished":
                assert message["view"]["cards"][other] is None
                assert all(event["seat"] == client.seat for event in message.get("events", []) if "card" in event)
    assert all(m["view"]["cards"] == [None, None] for m in watcher.messages if m.get("status") == "running")
