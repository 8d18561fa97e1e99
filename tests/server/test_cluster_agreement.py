"""Several server processes agree on seats, tokens, rematches and races (docs/server.md, "Several
server processes"): two `parlour serve` processes on one PostgreSQL schema, driven by concurrent
requests through both; and held (undo) steps committed when their seat connects elsewhere."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from .conftest import POSTGRES_URL, LiveServer, wait_until
from .test_accounts import PASSWORD
from .test_cluster import Node, schema_db  # noqa: F401 - the module's schema, as a fixture
from .test_undo import act, steps_game, two_people  # noqa: F401 - the Steps game, as a fixture

postgres = pytest.mark.skipif(not POSTGRES_URL, reason="needs PARLOUR_TEST_POSTGRES_URL (make test starts PostgreSQL)")


@pytest.fixture(scope="module")
def pair(schema_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Node, Node]]:  # noqa: F811
    logs = tmp_path_factory.mktemp("agreement")
    started: list[Node] = []
    try:
        for index in range(2):
            started.append(Node(schema_db, logs / f"node{index}.log"))
        yield started[0], started[1]
    finally:
        for node in started:
            if node.process.poll() is None:
                node.stop()


def at_once(*jobs: Callable[[], Any]) -> list[Any]:
    """Run the jobs in threads started together; their results in order."""
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []
    start = threading.Barrier(len(jobs))

    def run(index: int) -> None:
        try:
            start.wait(10)
            results[index] = jobs[index]()
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    return results


def open_table(node: Node, game: str, **extra: Any) -> str:
    created = node.http.post("/api/tables", json={"game": game, **extra})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def state(node: Node, table_id: str, token: str) -> int:
    return node.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"}).status_code


def joining(node: Node, table_id: str, name: str, seat: int) -> Callable[[], httpx.Response]:
    return lambda: node.http.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})


@postgres
@pytest.mark.postgres
def test_a_process_that_accepted_a_join_keeps_the_seat_taken_and_its_token_working(pair: tuple[Node, Node]) -> None:
    first, second = pair
    for _ in range(3):
        table_id = open_table(first, "yamatai", seats=["human"] * 4)
        through = [first, first, second, second]
        answers = at_once(*(joining(node, table_id, f"P{seat}", seat) for seat, node in enumerate(through)))
        assert [answer.status_code for answer in answers] == [200] * 4, [answer.text for answer in answers]
        for seat, (node, answer) in enumerate(zip(through, answers, strict=True)):
            token = answer.json()["token"]
            # The process that accepted the join knows the seat at once, and for good.
            assert state(node, table_id, token) == 200
            assert node.http.get(f"/api/tables/{table_id}").json()["seats"][seat]["taken"] is True
            other = second if node is first else first
            wait_until(lambda other=other, token=token, table_id=table_id: state(other, table_id, token) == 200)  # type: ignore[misc]
        time.sleep(0.3)  # whatever notices were still on their way
        for node, answer in zip(through, answers, strict=True):
            for anyone in pair:
                assert state(anyone, table_id, answer.json()["token"]) == 200
            assert node.http.get(f"/api/tables/{table_id}").json()["status"] == "running"


def signed_in(node: Node, name: str) -> tuple[httpx.Client, dict[str, str]]:
    client = httpx.Client(base_url=node.url, timeout=30)
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    if answer.status_code == 409:
        answer = client.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    return client, {"X-CSRF-Token": answer.json()["csrf_token"]}


@postgres
@pytest.mark.postgres
def test_after_resumes_on_two_processes_exactly_the_last_token_works_on_both(pair: tuple[Node, Node]) -> None:
    first, second = pair
    here, headers = signed_in(first, "alice")
    there = httpx.Client(base_url=second.url, cookies=here.cookies, timeout=30)  # the same account elsewhere
    try:
        table_id = open_table(first, "hatflings", seats=["human", "human"])
        joined = here.post(f"/api/tables/{table_id}/join", json={"name": "alice"}, headers=headers)
        assert joined.status_code == 200, joined.text
        second.http.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
        for _ in range(6):
            answers = at_once(
                lambda: here.post(f"/api/account/tables/{table_id}/resume", headers=headers),
                lambda: there.post(f"/api/account/tables/{table_id}/resume", headers=headers),
            )
            tokens = [answer.json()["token"] for answer in answers]

            def agreed(tokens: list[str] = tokens) -> bool:
                working = [token for token in tokens if all(state(node, table_id, token) == 200 for node in pair)]
                refused = [token for token in tokens if all(state(node, table_id, token) == 403 for node in pair)]
                return len(working) == 1 and len(refused) == 1

            wait_until(agreed)
            time.sleep(0.3)
            assert agreed()  # and it stays so: a revoked token never works again
    finally:
        here.close()
        there.close()


def play_out(nodes: list[Node], table_id: str, tokens: list[str]) -> None:
    """Play a short table to its end, each seat through its own process."""
    while True:
        position = nodes[0].http.get(f"/api/tables/{table_id}/state").json()
        if position["status"] == "finished":
            return
        seat = position["to_move"]
        mine = (
            nodes[seat]
            .http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {tokens[seat]}"})
            .json()
        )
        if not mine["legal"] or mine["version"] != position["version"]:
            time.sleep(0.02)  # the seat's process has not heard of the last move yet
            continue
        nodes[seat].http.post(
            f"/api/tables/{table_id}/actions",
            json={"action": mine["legal"][0]["id"], "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )


@postgres
@pytest.mark.postgres
def test_both_players_asking_for_a_rematch_on_two_processes_get_one_table(pair: tuple[Node, Node]) -> None:
    first, second = pair
    for _ in range(4):
        table_id = open_table(first, "hatflings", seats=["human", "human"], options={"max_turns": 1})
        ann = first.http.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}).json()["token"]
        bob = second.http.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()["token"]
        wait_until(lambda table_id=table_id, bob=bob: state(first, table_id, bob) == 200)  # type: ignore[misc]
        wait_until(lambda table_id=table_id, ann=ann: state(second, table_id, ann) == 200)  # type: ignore[misc]
        play_out([first, second], table_id, [ann, bob])
        wait_until(lambda table_id=table_id: second.http.get(f"/api/tables/{table_id}").json()["status"] == "finished")  # type: ignore[misc]
        answers = at_once(
            *(
                lambda node=node, token=token, table_id=table_id: node.http.post(
                    f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token}"}
                )
                for node, token in ((first, ann), (second, bob))
            )
        )
        assert [answer.status_code for answer in answers] == [200, 200], [answer.text for answer in answers]
        rematches = {answer.json()["table"] for answer in answers}
        assert len(rematches) == 1
        # A rematch moves each player one seat on, so that the first player alternates.
        assert [answer.json()["seat"] for answer in answers] == [1, 0]


@postgres
@pytest.mark.postgres
def test_the_process_that_loses_a_same_move_race_answers_409(pair: tuple[Node, Node]) -> None:
    first, second = pair
    for _ in range(5):
        table_id = open_table(first, "hatflings", seats=["human", "human"])
        ann = first.http.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}).json()["token"]
        second.http.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
        wait_until(lambda table_id=table_id, ann=ann: state(second, table_id, ann) == 200)  # type: ignore[misc]
        for node in pair:
            wait_until(
                lambda node=node, table_id=table_id: (
                    node.http.get(f"/api/tables/{table_id}").json()["status"]  # type: ignore[misc]
                    == "running"
                )
            )
        legal = first.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {ann}"}).json()
        body = {"action": legal["legal"][0]["id"], "version": 0}
        headers = {"Authorization": f"Bearer {ann}"}
        answers = at_once(
            *(
                lambda node=node, table_id=table_id, body=body, headers=headers: node.http.post(
                    f"/api/tables/{table_id}/actions", json=body, headers=headers
                )
                for node in (first, second)
            )
        )
        assert sorted(answer.status_code for answer in answers) == [200, 409], [answer.text for answer in answers]
        assert first.http.get(f"/api/tables/{table_id}").json()["version"] == 1


@postgres
@pytest.mark.postgres
@pytest.mark.parametrize("db", ["postgresql"], indirect=True)  # several processes share PostgreSQL only
def test_held_steps_are_committed_when_their_seat_connects_to_another_process(
    serve: Callable[..., LiveServer], db: str
) -> None:
    server = serve(undo=True)
    table_id, ann, bo, _ = two_people(server)
    marked = act(ann, "mark")
    assert marked["type"] == "sync" and marked["undoable"] == 1 and server.table(table_id)["version"] == 0
    # Ann's seat says hello to another process: this one commits what it held for her.
    server.app.state.hub.store.announce_now([f"h elsewhere {table_id} 0"])
    update = bo.until(lambda m: m["type"] == "update" and m["version"] == 1)
    assert update["view"]["marks"] == [1, 0]
    wait_until(lambda: server.table(table_id)["version"] == 1)
    assert ann.until(lambda m: m["type"] == "update" and m["version"] == 1)["undoable"] == 0
