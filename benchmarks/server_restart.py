"""Restart benchmark of the game server (not a test): how long `parlour serve` takes to come back
with N unfinished tables in its database, and how much memory it holds then.

Fills a new SQLite file with N tables of one game, every seat a person's and every table some
random legal moves into its game (so no table waits on a bot), then starts `parlour serve` on a
free 127.0.0.1 port and measures the time until /health answers and the server's resident memory
(VmRSS; VmHWM, its peak, too). It then asks for `--touch` of the tables (each rebuilt on demand)
and measures again. The same is measured first with an empty database, as the baseline.

With `--vary-options` every table gets options of its own (Hatflings' max_turns, Yamataï's
max_rounds and players), so that no two tables can share a Game.

    .venv/bin/python benchmarks/server_restart.py --tables 1000
    .venv/bin/python benchmarks/server_restart.py --tables 1000 --game hatflings --vary-options

Only ever talks to 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert
from sqlalchemy.orm import Session

from parlour.engine.game import Game
from parlour.engine.registry import game_class
from parlour.server.db.models import ActionRow, SeatRow, TableRow, now
from parlour.server.db.store import Store
from parlour.server.settings import database_url

HOST = "127.0.0.1"
START_TIMEOUT = 600.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def options_for(game: str, number: int, vary: bool) -> dict[str, Any]:
    """The options of table `number`: the same for all, or with --vary-options one set per table."""
    if not vary:
        return {"players": 2}
    if game == "hatflings":
        return {"players": 2, "max_turns": 200 + number}
    if game == "yamatai":
        return {"players": 2 + number % 3, "max_rounds": 1 + number // 3 % 99}
    if game == "hanbok_runway":
        return {"players": 2, "safety_turn_cap": 200 + number}
    raise SystemExit(f"--vary-options knows hatflings, yamatai and hanbok_runway, not {game}")


def unfinished_game(game: Game, number: int, moves: int, rng: random.Random) -> tuple[int, list[tuple[int, int]]]:
    """A seed and `moves` random (action id, seat) pairs from it that do not end the game."""
    for attempt in range(100):
        seed = number + attempt * 1_000_003
        state = game.new_state(seed=seed)
        played: list[tuple[int, int]] = []
        while len(played) < moves and not state.is_terminal():
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            played.append((action.id, seat))
        if not state.is_terminal():
            return seed, played
    raise SystemExit(f"every game of table {number} ended within {moves} moves; use fewer --moves")


def fill(db: str, game_name: str, tables: int, moves: int, vary: bool, seed: int) -> list[str]:
    """N unfinished tables with every seat taken and up to `moves` random moves each; their ids."""
    store = Store(database_url(db))
    store.migrate()
    cls = game_class(game_name)
    rng = random.Random(seed)
    games: dict[str, Game] = {}
    rows: dict[str, list[dict[str, Any]]] = {"tables": [], "seats": [], "actions": []}
    ids = []
    for number in range(tables):
        options = options_for(cls.name, number, vary)
        key = json.dumps(options, sort_keys=True)
        game = games.get(key) or games.setdefault(key, cls(**options))
        if vary:
            games.clear()  # one Game per table: keep none, so that this filling process stays small
        table_id = f"bench{number:05d}"
        ids.append(table_id)
        seed, played = unfinished_game(game, number, moves, rng)
        rows["actions"] += [
            {"table_id": table_id, "ply": ply, "action_id": action_id, "seat": seat, "played_at": now()}
            for ply, (action_id, seat) in enumerate(played)
        ]
        stamp = now()
        rows["tables"].append(
            {"id": table_id, "game": cls.name, "options": dict(game.options), "seed": seed, "created_at": stamp}
        )
        for seat in range(game.num_players):
            token_hash = hashlib.sha256(f"{table_id}/{seat}".encode()).hexdigest()
            rows["seats"].append(
                {"table_id": table_id, "seat": seat, "name": f"P{seat}", "token_hash": token_hash, "joined_at": stamp}
            )
    with Session(store.engine) as session, session.begin():
        session.execute(insert(TableRow), rows["tables"])
        session.execute(insert(SeatRow), rows["seats"])
        for start in range(0, len(rows["actions"]), 5000):
            session.execute(insert(ActionRow), rows["actions"][start : start + 5000])
    store.close()
    return ids


def memory(pid: int) -> dict[str, float]:
    """The process's resident memory now and at its peak, in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields["VmRSS"], "peak_mb": fields["VmHWM"]}


def serve(db: str, log: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    """`parlour serve` on the database, once /health answers; and the seconds that took."""
    port = free_port()
    command = [sys.executable, "-m", "parlour.cli", "serve", "--host", HOST, "--port", str(port), "--db", db]
    command += ["--bot-delay", "0", "--log-level", "warning"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    url = f"http://{HOST}:{port}"
    while time.perf_counter() - started < START_TIMEOUT:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                return process, url, time.perf_counter() - started
        except httpx.TransportError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"the server did not start within {START_TIMEOUT:g} s")


def measure(db: str, scratch: Path, ids: list[str], touch: int) -> dict[str, Any]:
    process, url, seconds = serve(db, scratch / "server.log")
    try:
        result: dict[str, Any] = {"start_s": round(seconds, 2), **memory(process.pid)}
        with httpx.Client(base_url=url, timeout=120) as http:
            result["tables_in_memory"] = http.get("/health").json()["tables"]
            lobby = http.get("/api/tables")
            result["lobby_listed"] = len(lobby.json())
            began = time.perf_counter()
            for table_id in ids[:touch]:
                http.get(f"/api/tables/{table_id}").raise_for_status()
            result["touched"] = min(touch, len(ids))
            result["touch_ms_each"] = round(1000 * (time.perf_counter() - began) / max(1, result["touched"]), 1)
        result["after_touch"] = memory(process.pid)
        return result
    finally:
        process.terminate()
        process.wait(60)


def hub_start_seconds(db: str) -> float:
    """The seconds the server's own start-up (migrations, reading and rebuilding the tables) takes,
    timed in this process: without the interpreter's start and imports, which vary from run to run."""
    from parlour.server.authority.hub import Hub
    from parlour.server.settings import Settings

    async def start() -> float:
        hub = Hub(Settings(db=db, web_dir=None))
        began = time.perf_counter()
        await hub.start()
        seconds = time.perf_counter() - began
        await hub.stop()
        return seconds

    return asyncio.run(start())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="unfinished tables in the database (default 1000)")
    parser.add_argument("--game", default="yamatai", help="the tables' game (default yamatai)")
    parser.add_argument("--moves", type=int, default=30, help="random moves played at each table (default 30)")
    parser.add_argument("--vary-options", action="store_true", help="give every table options of its own")
    parser.add_argument("--touch", type=int, default=100, help="tables asked for after the start (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not 0 < args.tables <= 5000 or not 0 <= args.moves <= 500:
        parser.error("keep runs bounded: 0 < tables <= 5000, 0 <= moves <= 500")
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        measure(str(scratch / "warm.sqlite"), scratch, [], 0)  # a first start warms the file caches
        baseline = measure(str(scratch / "empty.sqlite"), scratch, [], 0)
        began = time.perf_counter()
        db = str(scratch / "restart.sqlite")
        ids = fill(db, args.game, args.tables, args.moves, args.vary_options, args.seed)
        filled = time.perf_counter() - began
        loaded = measure(db, scratch, ids, args.touch)
        loaded["hub_start_s"] = round(hub_start_seconds(db), 2)
    result = {
        "game": args.game,
        "tables": args.tables,
        "moves_each": args.moves,
        "vary_options": args.vary_options,
        "fill_s": round(filled, 1),
        "empty": baseline,
        "with_tables": loaded,
    }
    if args.json:
        print(json.dumps(result))
        return
    empty, full, after = baseline, loaded, loaded["after_touch"]
    print(
        f"{args.tables} unfinished {args.game} tables ({args.moves} moves each"
        f"{', options of their own' if args.vary_options else ', the same options'}):\n"
        f"  empty database: up in {empty['start_s']} s, {empty['rss_mb']} MB resident\n"
        f"  with the tables: up in {full['start_s']} s (the server's own start-up: {full['hub_start_s']} s),"
        f" {full['rss_mb']} MB resident (peak {full['peak_mb']} MB),"
        f" {full['tables_in_memory']} tables in memory, {full['lobby_listed']} in the lobby\n"
        f"  after asking for {full['touched']} of them ({full['touch_ms_each']} ms each):"
        f" {after['rss_mb']} MB resident (peak {after['peak_mb']} MB)"
    )


if __name__ == "__main__":
    main()
