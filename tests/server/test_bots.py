"""Bots play server-side without holding anything up: a bot that thinks for ever stalls only its table."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from parlour.agents import Agent, register_agent
from parlour.agents import base as agents_base
from parlour.engine.actions import Action
from parlour.engine.game import State

from .conftest import LiveServer, play_to_end

GATE = threading.Event()


class GatedAgent(Agent):
    """Plays the first legal move, but only once the test opens the gate."""

    def act(self, state: State) -> Action:
        if not GATE.wait(60):
            raise RuntimeError("the gate was never opened")
        return state.legal_actions()[0]


@pytest.fixture
def gated() -> Iterator[None]:
    """The `gated` agent kind, registered for one test only (other tests list every kind)."""
    register_agent("gated", "waits for the test, then plays the first legal move")(lambda params, seed: GatedAgent())
    GATE.clear()
    yield
    GATE.set()
    agents_base._KINDS.pop("gated", None)


@pytest.mark.usefixtures("gated")
def test_a_thinking_bot_blocks_no_other_table(server: LiveServer) -> None:
    slow = server.create("nim", ["human", "gated"], options={"stones": 20}, seed=1)
    slow_player = server.connect(slow["id"], server.join(slow["id"], "Ann")["token"])
    slow_player.send(type="act", action="take 1", version=0)
    assert slow_player.until(lambda m: m["type"] == "update")["to_move"] == 1
    # The gated bot is now thinking in a worker thread; everything else goes on.
    fast = server.create("nim", ["human", "random"], seed=2)
    fast_player = server.connect(fast["id"], server.join(fast["id"], "Bo")["token"])
    assert play_to_end(fast_player, seed=1)["status"] == "finished"
    assert server.http.get("/health").json()["status"] == "ok"
    assert server.table(slow["id"])["version"] == 1
    GATE.set()
    moved = slow_player.until(lambda m: m["type"] == "update")
    assert moved["version"] == 2 and moved["actor"] == 1 and moved["legal"]


def test_bots_at_a_table_take_their_turns_in_order(server: LiveServer) -> None:
    table = server.create("peek", ["random", "human"], seed=3)
    token = server.join(table["id"], "Ann")["token"]
    player = server.connect(table["id"], token)
    final = play_to_end(player, seed=2)
    actors = [m["actor"] for m in player.messages if m["type"] == "update"]
    first = player.position["version"]
    assert actors == [(first + n) % 2 for n in range(final["version"] - first)]
