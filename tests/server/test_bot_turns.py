"""The random bot decides on the event loop, without a bot thread: when a slow bot holds the only
bot thread, tables of random bots still play on."""

from __future__ import annotations

from collections.abc import Callable

from . import test_bots
from .conftest import LiveServer, play_to_end

gated = test_bots.gated  # the `gated` agent kind: thinks on a bot thread until the test opens its gate


def test_a_random_bot_needs_no_bot_thread(serve: Callable[..., LiveServer], gated: None) -> None:
    server = serve(bot_threads=1)
    slow = server.create("nim", ["human", "gated"], options={"stones": 20}, seed=1)
    slow_player = server.connect(slow["id"], server.join(slow["id"], "Ann")["token"])
    slow_player.send(type="act", action="take 1", version=0)
    assert slow_player.until(lambda m: m["type"] == "update")["to_move"] == 1  # the gated bot holds the thread
    fast = server.create("nim", ["human", "random"], seed=2)
    fast_player = server.connect(fast["id"], server.join(fast["id"], "Bo")["token"])
    assert play_to_end(fast_player, seed=1)["status"] == "finished"
    assert server.table(slow["id"])["version"] == 1
    test_bots.GATE.set()
    assert slow_player.until(lambda m: m["type"] == "update")["version"] == 2
