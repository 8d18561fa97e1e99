"""The server's limits on tables, bots, hints and memory: no client can stall or bloat a server.

Each limit is set small in the test's Settings, so that it is reached in a few requests.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from parlour.agents import Agent, Thought, register_agent
from parlour.agents import base as agents_base
from parlour.engine.actions import Action
from parlour.engine.game import State
from parlour.server.authority import bots as hub_module
from parlour.server.authority.hub import Hub
from parlour.server.edge.quotas import Buckets, TurnQueue
from parlour.server.settings import Settings

from .conftest import LiveServer, Player, play_to_end, wait_until

NEVER = 1e-9  # a rate at which a spent bucket does not refill within a test


def hub_of(server: LiveServer) -> Hub:
    hub: Hub = server.app.state.hub
    return hub


def seated(server: LiveServer, seats: list[str], **extra: Any) -> tuple[dict[str, Any], list[str]]:
    """A nim table with a person in every 'human' seat; the table and the people's tokens."""
    table = server.create("nim", seats, **extra)
    tokens = [server.join(table["id"], f"P{seat}", seat)["token"] for seat, kind in enumerate(seats) if kind == "human"]
    return table, tokens


# --- bots ----------------------------------------------------------------------------------------

GATE = threading.Event()
DECIDED_EARLY = threading.Event()


class Pondering(Thought):
    """Thinks, a slice at a time, until the test opens the gate; made to decide, it takes the last move."""

    def __init__(self, state: State) -> None:
        self.legal = state.legal_actions()

    def advance(self, seconds: float) -> Action | None:
        return self.legal[0] if GATE.wait(seconds) else None

    def conclude(self) -> Action:
        DECIDED_EARLY.set()
        return self.legal[-1]


class PonderingAgent(Agent):
    def act(self, state: State) -> Action:
        # Without slices, the whole move is one wait: a bot that thinks for as long as it likes.
        if not GATE.wait(60):
            raise RuntimeError("the gate was never opened")
        return state.legal_actions()[0]

    def think(self, state: State) -> Thought:
        return Pondering(state)


@pytest.fixture
def ponder() -> Iterator[None]:
    """The `ponder` agent kind, registered for one test only (other tests list every kind)."""
    register_agent("ponder", "thinks until the test lets it decide")(lambda params, seed: PonderingAgent())
    GATE.clear()
    DECIDED_EARLY.clear()
    yield
    GATE.set()
    agents_base._KINDS.pop("ponder", None)


def test_a_bot_asking_for_more_than_the_cap_is_refused(serve: Callable[..., LiveServer]) -> None:
    server = serve(bot_seconds=2.0, bot_iterations=500)
    cases = [
        ("mcts:seconds=3600", "seat 1: the bot 'mcts:seconds=3600' may think 3600 s a move", "at most 2 s"),
        ("mcts:iterations=100000", "asks for 100,000 iterations a move", "at most 500"),
        ("mcts:iterations=400,seconds=2.5", "may think 2.5 s a move", "at most 2 s"),
        ("greedy:samples=501", "asks for 501 iterations a move", "at most 500"),
    ]
    for spec, asked, cap in cases:
        response = server.http.post("/api/tables", json={"game": "nim", "seats": ["human", spec]})
        assert response.status_code == 422, spec
        error = response.json()["error"]
        assert error["code"] == "bad_seats" and asked in error["message"] and cap in error["message"], error
    assert server.http.get("/api/tables").json() == []
    for spec in ("mcts:seconds=2", "mcts:iterations=500", "greedy:samples=500", "random"):
        server.create("nim", ["human", spec])


@pytest.mark.usefixtures("ponder")
def test_a_long_search_yields_the_only_bot_thread_to_other_tables(serve: Callable[..., LiveServer]) -> None:
    server = serve(bot_threads=1, bot_slice=0.01, bot_seconds=600.0)
    slow, (ann,) = seated(server, ["human", "ponder"], options={"stones": 20})
    slow_player = server.connect(slow["id"], ann)
    slow_player.send(type="act", action="take 1", version=0)
    assert slow_player.until(lambda m: m["type"] == "update")["to_move"] == 1
    # The pondering bot now thinks on the one bot thread, a slice at a time, for as long as it
    # likes; between its slices the other table's bot gets the thread.
    fast, (bo,) = seated(server, ["human", "random"])
    assert play_to_end(server.connect(fast["id"], bo), seed=4)["status"] == "finished"
    assert server.table(slow["id"])["version"] == 1
    GATE.set()
    moved = slow_player.until(lambda m: m["type"] == "update")
    assert moved["version"] == 2 and moved["actor"] == 1
    assert not DECIDED_EARLY.is_set()


@pytest.mark.usefixtures("ponder")
def test_a_bot_decides_with_what_it_has_once_its_time_is_up(serve: Callable[..., LiveServer]) -> None:
    server = serve(bot_seconds=0.05, bot_slice=0.01)
    table, (ann,) = seated(server, ["human", "ponder"], options={"stones": 20})
    player = server.connect(table["id"], ann)
    player.send(type="act", action="take 1", version=0)
    player.until(lambda m: m["type"] == "update" and m["actor"] == 0)
    moved = player.until(lambda m: m["type"] == "update")
    # The gate never opened: the bot was made to decide, and took its last legal move (take 3).
    assert moved["actor"] == 1 and DECIDED_EARLY.is_set()
    assert moved["view"] != player.position["view"] and moved["version"] == 2
    assert [event["stones"] for event in moved["events"]] == [3]


def test_bot_turns_go_round_every_waiting_table() -> None:
    async def tables() -> list[str]:
        queue = TurnQueue(1)
        order: list[str] = []

        async def table(name: str, turns: int) -> None:
            for _ in range(turns):
                async with queue.turn():
                    order.append(name)
                    await asyncio.sleep(0)

        await asyncio.gather(table("long", 3), table("a", 1), table("b", 1))
        return order

    # The table that needs three turns takes its second only after each table waiting has had one.
    assert asyncio.run(tables()) == ["long", "a", "b", "long", "long"]


def test_a_cancelled_wait_for_a_bot_turn_passes_the_turn_on() -> None:
    async def scenario() -> list[str]:
        queue = TurnQueue(1)
        order: list[str] = []
        holder = asyncio.Event()

        async def hold() -> None:
            async with queue.turn():
                holder.set()
                await asyncio.sleep(0.01)

        async def wait(name: str) -> None:
            async with queue.turn():
                order.append(name)

        first = asyncio.create_task(hold())
        await holder.wait()
        cancelled, second = asyncio.create_task(wait("cancelled")), asyncio.create_task(wait("second"))
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.gather(first, second)
        assert queue.free == 1 and not queue.waiting
        return order

    assert asyncio.run(scenario()) == ["second"]


# --- hints ---------------------------------------------------------------------------------------

HINT_STARTED, HINT_GATE = threading.Event(), threading.Event()


def gated_hint(state: State, *args: Any, **kwargs: Any) -> tuple[Action, str]:
    HINT_STARTED.set()
    if not HINT_GATE.wait(60):
        raise RuntimeError("the hint gate was never opened")
    return state.legal_actions()[0], "a hint that waited for the test"


@pytest.fixture
def slow_hints(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hints that think until the test lets them answer (wherever the server looks the search up)."""
    HINT_STARTED.clear()
    HINT_GATE.clear()
    monkeypatch.setattr(hub_module, "search_hint", gated_hint, raising=False)
    monkeypatch.setattr(sys.modules["parlour.agents.hint"], "hint", gated_hint)
    yield
    HINT_GATE.set()


def ask_hint(server: LiveServer, table_id: str, token: str) -> httpx.Response:
    return server.http.post(f"/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"})


@pytest.mark.usefixtures("slow_hints")
def test_hints_keep_off_the_bots_threads(serve: Callable[..., LiveServer]) -> None:
    server = serve(bot_threads=1, hint_threads=1, hint_queue=0)
    asked, (ann, _) = seated(server, ["human", "human"], options={"stones": 20})
    answers: list[httpx.Response] = []
    asking = threading.Thread(target=lambda: answers.append(ask_hint(server, asked["id"], ann)))
    asking.start()
    assert HINT_STARTED.wait(20)
    # A hint is thinking on the one hint thread; the one bot thread still plays another table.
    fast, (bo,) = seated(server, ["human", "random"])
    assert play_to_end(server.connect(fast["id"], bo), seed=5)["status"] == "finished"
    # Every hint thread busy and no room to wait: another hint is refused at once, not queued.
    other, (cy, _) = seated(server, ["human", "human"], options={"stones": 20})
    busy = ask_hint(server, other["id"], cy)
    assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
    HINT_GATE.set()
    asking.join(30)
    assert answers[0].status_code == 200 and answers[0].json()["text"] == "a hint that waited for the test"


def test_hints_are_limited_per_seat_and_per_client_address(serve: Callable[..., LiveServer]) -> None:
    server = serve(hint_iterations=20, hint_rate=NEVER, hint_burst=2, hint_client_rate=NEVER, hint_client_burst=3)
    first, (ann, _) = seated(server, ["human", "human"], options={"stones": 20})
    second, (bo, _) = seated(server, ["human", "human"], options={"stones": 20})
    assert [ask_hint(server, first["id"], ann).status_code for _ in range(2)] == [200, 200]
    refused = ask_hint(server, first["id"], ann)
    assert refused.status_code == 429
    assert refused.json()["error"] == {
        "code": "rate_limited",
        "message": f"too many hints for this seat: at most 2 at once, then one every {1 / NEVER:g} s",
    }
    # The other seat has hints left, but the address it asks from has had its three.
    assert ask_hint(server, second["id"], bo).status_code == 200
    refused = ask_hint(server, second["id"], bo)
    assert refused.status_code == 429 and "from your address: at most 3 at once" in refused.json()["error"]["message"]


def test_a_hint_costs_no_more_than_its_budget(serve: Callable[..., LiveServer]) -> None:
    server = serve(hint_iterations=30)
    table, (ann, _) = seated(server, ["human", "human"], options={"stones": 20})
    answer = ask_hint(server, table["id"], ann)
    assert answer.status_code == 200 and "of 30 simulations" in answer.json()["text"]


def test_buckets_forget_clients_whose_bucket_has_refilled() -> None:
    moment = [0.0]
    buckets = Buckets(rate=1.0, burst=2, clock=lambda: moment[0])
    assert buckets.take("a") and buckets.take("b") and buckets.take("b") and not buckets.take("b")
    moment[0] = 1.0  # a is full again, b has one token of two
    buckets.prune()
    assert set(buckets.buckets) == {"b"}
    assert buckets.take("b") and not buckets.take("b")


# --- tables --------------------------------------------------------------------------------------


def test_unfinished_tables_are_limited_per_client_address(serve: Callable[..., LiveServer]) -> None:
    # The bots wait a little before each move, so that their table is still being played when
    # the third one is asked for (without a pause they can finish first on a quick machine).
    server = serve(tables_per_client=2, bot_delay=0.3)
    waiting = server.create("nim", ["human", "human"])
    played = server.create("nim", ["random", "random"], options={"stones": 10})
    refused = server.http.post("/api/tables", json={"game": "nim", "seats": ["human", "human"]})
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "too_many_tables" and "this server allows at most 2" in error["message"]
    assert {t["id"] for t in server.http.get("/api/tables").json()} <= {waiting["id"], played["id"]}
    # A finished game no longer counts: the bots' table frees a place.
    wait_until(lambda: server.table(played["id"])["status"] == "finished")
    server.create("nim", ["human", "human"])
    assert server.http.post("/api/tables", json={"game": "nim", "seats": ["human", "human"]}).status_code == 429


def test_new_tables_are_rate_limited_per_client_address(serve: Callable[..., LiveServer]) -> None:
    server = serve(tables_per_client=0, table_rate=NEVER, table_burst=3)
    for _ in range(3):
        server.create("nim", ["human", "human"])
    refused = server.http.post("/api/tables", json={"game": "nim", "seats": ["human", "human"]})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "too many new tables from your address: at most 3 at once" in refused.json()["error"]["message"]
    assert len(server.http.get("/api/tables").json()) == 3


def test_the_game_cache_keeps_only_the_latest_games(serve: Callable[..., LiveServer]) -> None:
    server = serve(game_cache=2)
    hub = hub_of(server)
    first = server.create("nim", ["human", "human"], options={"stones": 10})
    again = server.create("nim", ["human", "human"], options={"stones": 10, "players": 2})
    assert hub.tables[first["id"]].state.game is hub.tables[again["id"]].state.game
    for stones in (11, 12, 13, 14):
        server.create("nim", ["human", "human"], options={"stones": stones})
    assert len(hub.games) == 2


# --- memory --------------------------------------------------------------------------------------


def test_a_finished_table_leaves_memory_and_is_still_served(serve: Callable[..., LiveServer]) -> None:
    server = serve(idle_seconds=0)
    hub = hub_of(server)
    table = server.create("nim", ["random", "random"], options={"stones": 12})
    wait_until(lambda: table["id"] in {t["id"] for t in server.http.get("/api/tables?status=finished").json()})
    wait_until(lambda: table["id"] not in hub.tables)
    summary = server.table(table["id"])
    assert summary["status"] == "finished" and summary["result"] is not None
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert len(record["actions"]) == summary["version"]
    wait_until(lambda: table["id"] not in hub.tables)
    listed = {t["id"]: t for t in server.http.get("/api/tables?status=finished").json()}
    assert listed[table["id"]] == summary
    # Listing the finished tables brings none of them back into memory.
    assert table["id"] not in hub.tables


def test_an_idle_table_leaves_memory_and_play_goes_on(serve: Callable[..., LiveServer]) -> None:
    server = serve(idle_seconds=0)
    hub = hub_of(server)
    table, (ann, bo) = seated(server, ["human", "human"], options={"stones": 15})
    player = server.connect(table["id"], ann)
    player.send(type="act", action="take 2", version=0)
    moved = player.until(lambda m: m["type"] == "update")
    player.close()
    wait_until(lambda: table["id"] not in hub.tables)
    # The lobby still shows it as it is, without bringing it back.
    listed = {t["id"]: t for t in server.http.get("/api/tables").json()}
    assert listed[table["id"]]["status"] == "running" and listed[table["id"]]["version"] == 1
    assert table["id"] not in hub.tables
    # Coming back to it rebuilds it from the database, exactly as it was.
    other = server.connect(table["id"], bo)
    assert other.position["version"] == 1 and other.position["legal"]
    again = server.connect(table["id"], ann)
    assert again.position["view"] == moved["view"]
    other.send(type="act", action="take 1", version=1)
    assert again.until(lambda m: m["type"] == "update")["version"] == 2


@pytest.mark.usefixtures("ponder")
def test_tables_in_use_stay_in_memory(serve: Callable[..., LiveServer]) -> None:
    server = serve(idle_seconds=0, bot_seconds=600.0)
    hub = hub_of(server)
    watched = server.create("nim", ["human", "human"])
    thinking, (ann,) = seated(server, ["human", "ponder"], options={"stones": 20})
    spectator: Player = server.connect(watched["id"])
    player = server.connect(thinking["id"], ann)
    player.send(type="act", action="take 1", version=0)
    player.until(lambda m: m["type"] == "update")
    swept = hub.sweeps
    wait_until(lambda: hub.sweeps >= swept + 3)
    # Watched by a spectator, or with a bot thinking: neither is idle, so both stay in memory.
    assert watched["id"] in hub.tables and thinking["id"] in hub.tables
    spectator.close()
    wait_until(lambda: watched["id"] not in hub.tables)
    GATE.set()
    player.until(lambda m: m["type"] == "update")


def test_a_table_let_go_of_just_before_a_hello_is_kept_once_the_client_attaches(db: str) -> None:
    """A sweep between a connection finding its table and its hello lets go of the table; the hello
    must bring that very table back, or the sweep, which looks only at tables in memory, never
    sees it in use again."""

    async def scenario() -> None:
        hub = Hub(Settings(db=db, web_dir=None, idle_seconds=0))
        await hub.start()
        try:
            created = await hub.create_table("nim", {"stones": 11}, ["human", "human"], None)
            found = await hub.table(created.id)
            hub.sweep()
            assert found.id not in hub.tables
            hub.keep(found)
            assert hub.tables[found.id] is found and found.id not in hub.resting
        finally:
            await hub.stop()

    asyncio.run(scenario())


def test_a_table_let_go_of_while_held_is_taken_back_not_rebuilt(db: str) -> None:
    """A connection may hold a table (between finding it and its hello) as it leaves memory: the
    table asked for next is that very object, so that nothing is played on a second copy."""

    async def scenario() -> None:
        hub = Hub(Settings(db=db, web_dir=None, idle_seconds=0))
        await hub.start()
        try:
            held = await hub.create_table("nim", {"stones": 11}, ["human", "human"], None)
            hub.sweep()
            assert held.id not in hub.tables and held.id in hub.resting
            assert await hub.table(held.id) is held
            assert held.id in hub.tables and held.id not in hub.resting
            table_id, version = held.id, held.version
            del held
            gc.collect()
            hub.sweep()
            rebuilt = await hub.table(table_id)
            assert rebuilt.id == table_id and rebuilt.version == version
        finally:
            await hub.stop()

    asyncio.run(scenario())
