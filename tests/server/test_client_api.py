"""The browser client's read-only API: rules, component data, hints, the game log and replays."""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.records import replay

from .conftest import LiveServer, play_to_end, wait_until


def test_component_data_comes_as_json(server: LiveServer) -> None:
    rows = server.http.get("/api/games/hatflings/data/components.csv")
    assert rows.status_code == 200 and isinstance(rows.json(), list) and rows.json()
    scene = server.http.get("/api/games/hatflings/data/scene_default.toml")
    assert scene.status_code == 200 and isinstance(scene.json(), dict)
    missing = server.http.get("/api/games/hatflings/data/nothing.csv")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_file"
    sneaky = server.http.get("/api/games/hatflings/data/..%2Fgame.py")
    assert sneaky.status_code in (404, 422)
    unknown = server.http.get("/api/games/chess/data/board.toml")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"


def test_rules_of_a_game_without_a_rules_doc_are_refused(server: LiveServer) -> None:
    answer = server.http.get("/api/games/nim/rules")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_rules"


def test_hint_only_for_the_seat_to_move(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], seed=5)
    ann = server.join(table["id"], "Ann")
    bob = server.join(table["id"], "Bob")
    to_move = server.table(table["id"])["to_move"]
    mover, other = (ann, bob) if to_move == ann["seat"] else (bob, ann)
    answer = server.http.post(f"/api/tables/{table['id']}/hint", headers={"Authorization": f"Bearer {mover['token']}"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["action"]["label"] in body["text"]
    refused = server.http.post(f"/api/tables/{table['id']}/hint", headers={"Authorization": f"Bearer {other['token']}"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_your_turn"
    anonymous = server.http.post(f"/api/tables/{table['id']}/hint")
    assert anonymous.status_code == 401


def test_log_and_replay_of_a_finished_game(serve: Callable[..., LiveServer]) -> None:
    server = serve(rate=10_000.0, burst=10_000)
    table = server.create("nim", ["human", "random"], seed=3)
    seat = server.join(table["id"], "Ann")
    player = server.connect(table["id"], seat["token"])
    refused = server.http.get(f"/api/tables/{table['id']}/replay/0")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_finished"
    last = play_to_end(player, seed=1)
    wait_until(lambda: server.table(table["id"])["status"] == "finished")
    log = server.http.get(f"/api/tables/{table['id']}/log").json()
    assert len(log["steps"]) == last["version"]
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert [step["label"] for step in log["steps"]] == record["labels"]
    middle = len(record["actions"]) // 2
    position = server.http.get(f"/api/tables/{table['id']}/replay/{middle}").json()
    expected = replay({**record, "labels": None, "actions": record["actions"][:middle]})
    assert position["view"] == expected.view(None) and position["plies"] == len(record["actions"])
    beyond = server.http.get(f"/api/tables/{table['id']}/replay/{len(record['actions']) + 1}")
    assert beyond.status_code == 422
    player.close()


def test_why_a_move_is_refused(server: LiveServer) -> None:
    table = server.create("nim", ["human", "human"], seed=5)
    ann = server.join(table["id"], "Ann")
    bob = server.join(table["id"], "Bob")
    to_move = server.table(table["id"])["to_move"]
    mover, other = (ann, bob) if to_move == ann["seat"] else (bob, ann)
    url = f"/api/tables/{table['id']}/why"
    unknown = server.http.post(url, json={"action": "fly away"}, headers={"Authorization": f"Bearer {mover['token']}"})
    assert unknown.json()["legal"] is False and "fly away" in unknown.json()["reason"]
    waiting = server.http.post(url, json={"action": 0}, headers={"Authorization": f"Bearer {other['token']}"})
    assert waiting.json() == {"legal": False, "reason": "it is not your turn"}
    position = server.http.get(
        f"/api/tables/{table['id']}/state", headers={"Authorization": f"Bearer {mover['token']}"}
    )
    legal = position.json()["legal"][0]["id"]
    fine = server.http.post(url, json={"action": legal}, headers={"Authorization": f"Bearer {mover['token']}"})
    assert fine.json() == {"legal": True, "reason": None}
