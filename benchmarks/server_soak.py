"""Soak benchmark of the game server (not a test): is memory flat while games come and go?

Starts `parlour serve` on a free 127.0.0.1 port with a new SQLite file and runs N websocket
clients for a bounded time; each opens a table against a bot, plays it to the end with random
legal moves, and opens the next. Every `--every` seconds it samples the server's resident memory
(VmRSS) and the games finished so far, and reports the growth per finished game after the warm-up
(the first quarter of the run), and how many tables the server still holds in memory at the end.

    .venv/bin/python benchmarks/server_soak.py --clients 50 --seconds 90
    .venv/bin/python benchmarks/server_soak.py --server-options ""   # a server without these options

`--server-options` is passed to `parlour serve`; by default the limits per client address (tables,
websockets) are lifted (every client here shares 127.0.0.1) and idle tables leave memory after 5 s.

Only ever talks to 127.0.0.1; every loop is bounded by `--seconds`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
DEFAULT_OPTIONS = "--tables-per-client 0 --table-rate 0 --websockets-per-client 1000 --idle-seconds 5"


@dataclass
class Tally:
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    samples: list[tuple[float, int, float]] = field(default_factory=list)  # (seconds, games, RSS MB)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_server(db: str, port: int, log: Path, options: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "parlour.cli", "serve", "--host", HOST, "--port", str(port), "--db", db]
    command += ["--bot-delay", "0", "--log-level", "warning", *shlex.split(options)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://{HOST}:{port}/health", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start within 120 s")


async def play_one(http: httpx.AsyncClient, ws_base: str, args: argparse.Namespace, rng: random.Random) -> bool:
    """Open a table against a bot, play it to the end; whether it finished before the time was up."""
    created = await http.post("/api/tables", json={"game": args.game, "seats": ["human", args.bots]})
    created.raise_for_status()
    table = created.json()["id"]
    joined = await http.post(f"/api/tables/{table}/join", json={"name": "soak"})
    joined.raise_for_status()
    async with connect(f"{ws_base}/api/tables/{table}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": joined.json()["token"]}))
        acted: set[int] = set()
        while (left := args.until - time.monotonic()) > 0:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
            except TimeoutError:
                return False
            if message["type"] not in ("sync", "update"):
                continue
            if message["status"] == "finished":
                return True
            if message["legal"] and message["version"] not in acted:
                acted.add(message["version"])
                choice = rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "act", "action": choice["id"], "version": message["version"]}))
    return False


async def client(number: int, base: str, args: argparse.Namespace, tally: Tally) -> None:
    rng = random.Random(args.seed * 1000 + number)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < args.until:
            try:
                if await play_one(http, base.replace("http://", "ws://"), args, rng):
                    tally.games += 1
            except (ConnectionClosed, httpx.HTTPError, OSError) as error:
                tally.errors[type(error).__name__] = tally.errors.get(type(error).__name__, 0) + 1
                await asyncio.sleep(0.5)


async def sample(pid: int, args: argparse.Namespace, tally: Tally, started: float) -> None:
    while time.monotonic() < args.until:
        tally.samples.append((round(time.monotonic() - started, 1), tally.games, round(resident_mb(pid), 1)))
        await asyncio.sleep(min(args.every, max(0.0, args.until - time.monotonic())))
    tally.samples.append((round(time.monotonic() - started, 1), tally.games, round(resident_mb(pid), 1)))


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    tally = Tally()
    started = time.monotonic()
    args.until = started + args.seconds
    clients = [client(n, base, args, tally) for n in range(args.clients)]
    await asyncio.gather(sample(pid, args, tally, started), *clients)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        in_memory = (await http.get("/health")).json()["tables"]
    warm = next(s for s in tally.samples if s[0] >= args.seconds / 4)
    last = tally.samples[-1]
    games = last[1] - warm[1]
    return {
        "clients": args.clients,
        "game": args.game,
        "seconds": args.seconds,
        "server_options": args.server_options,
        "games_finished": tally.games,
        "rss_mb": {"start": tally.samples[0][2], "after_warm_up": warm[2], "end": last[2]},
        "growth_kb_per_game": round(1024 * (last[2] - warm[2]) / games, 1) if games else None,
        "tables_in_memory_at_end": in_memory,
        "samples": tally.samples,
        "errors": tally.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--seconds", type=float, default=90.0, help="how long to play (default 90)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between memory samples (default 5)")
    parser.add_argument("--game", default="hatflings", help="game to play (default hatflings)")
    parser.add_argument("--bots", default="random", help="agent spec of the bot seat (default random)")
    parser.add_argument("--server-options", default=DEFAULT_OPTIONS, help=f"for parlour serve ({DEFAULT_OPTIONS!r})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or not 0 < args.clients <= 500:
        parser.error("keep runs bounded: 0 < seconds <= 600, 0 < clients <= 500")
    with tempfile.TemporaryDirectory() as scratch:
        port, folder = free_port(), Path(scratch)
        server = start_server(str(folder / "soak.sqlite"), port, folder / "server.log", args.server_options)
        try:
            result = asyncio.run(run(args, f"http://{HOST}:{port}", server.pid))
        finally:
            server.terminate()
            server.wait(30)
    if args.json:
        print(json.dumps(result))
        return
    rss = result["rss_mb"]
    print(
        f"{result['clients']} clients, {result['game']} vs {args.bots}, {result['seconds']:g} s: "
        f"{result['games_finished']} games finished; errors: {result['errors'] or 'none'}\n"
        f"resident memory: {rss['start']} MB at the start, {rss['after_warm_up']} MB after the warm-up,"
        f" {rss['end']} MB at the end: {result['growth_kb_per_game']} KB per game finished after the warm-up;"
        f" {result['tables_in_memory_at_end']} tables in memory at the end\n"
        f"samples (s, games, MB): {result['samples']}"
    )


if __name__ == "__main__":
    main()
