"""Load benchmark of the game server (not a test): N concurrent websocket clients on loopback.

Starts `parlour serve` on a free 127.0.0.1 port with a fresh database, then runs N clients at once.
Each client opens a table with one person's seat (itself) and bots in the others, joins it, and
plays random legal moves over the websocket as soon as it is its turn (after `--think` seconds),
table after table, until the time is up. It measures, for every move it submits, the time from
sending the action to receiving the broadcast of that very action (submit-to-broadcast latency),
and reports moves/s, the table's actions/s (people's and bots') and latency percentiles. A step
the server holds back for undo (the seat's turn goes on: Hatflings!' pig after a landing) is
broadcast only with the turn's last step, so its answer is the position sent to the seat alone,
and that is what its latency is measured to (`held_steps` counts them).

    .venv/bin/python benchmarks/server_load.py --clients 200 --seconds 30
    .venv/bin/python benchmarks/server_load.py --clients 200 --seconds 30 --db postgresql://user:pw@127.0.0.1/db

With `--processes N` (PostgreSQL only) it starts N server processes on N ports sharing the
database, and client n talks to process n mod N: its tables are opened, played and their bots
run there, the others hear of every move (docs/server.md, "Several server processes").

    .venv/bin/python benchmarks/server_load.py --clients 200 --processes 2 --db postgresql://user:pw@127.0.0.1/db

With `--workers N` it starts one `parlour serve --workers N` instead: N processes sharing one port,
each client landing on whichever the kernel hands its connection to, as a deployment runs.

    .venv/bin/python benchmarks/server_load.py --clients 1000 --think 1 --workers 2 --db postgresql://user:pw@127.0.0.1/db

On PostgreSQL every run plays in a new schema of the database, dropped at the end. The server's
CPU time is read from /proc (its processes and their children), split into the event loop's thread
and the others (the database's worker threads). `--profile FILE` (one process) runs cProfile on
the event loop's thread over the measured window alone and writes its statistics to FILE
(`python -m pstats FILE`; benchmarks/profiled_serve.py).

Only ever talks to 127.0.0.1; every loop is bounded by `--seconds`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"

try:  # the clients' process shares the machine with the servers: decode as cheaply as they encode
    from orjson import loads as decode
except ImportError:  # pragma: no cover - orjson comes with the server extra
    decode = json.loads


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0  # every action the clients saw applied, bots' included
    held: int = 0  # the clients' steps the server held back for undo, answered to the seat alone
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(
    db: str,
    port: int,
    log: Path,
    wait: bool = True,
    workers: int = 1,
    profile: Path | None = None,
    settings: tuple[str, ...] = (),
) -> subprocess.Popen[bytes]:
    if profile is None:
        command = [sys.executable, "-m", "parlour.cli"]
    else:
        command = [sys.executable, str(Path(__file__).with_name("profiled_serve.py"))]
    command += ["serve", "--host", HOST, "--port", str(port), "--db", db, "--workers", str(workers)]
    command += ["--bot-delay", "0", "--log-level", "warning"]
    # Every client opens its tables from 127.0.0.1: the limits per client address would stop them.
    command += ["--tables-per-client", "0", "--table-rate", "0"]
    command += ["--websockets-per-client", "4000", "--max-websockets", "4000"]
    for setting in settings:
        command += ["--set", setting]
    environment = dict(os.environ, PARLOUR_PROFILE_OUT=str(profile or ""))
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("wb"), env=environment)
    if wait:
        wait_for(process, port, log)
    return process


def wait_for(process: subprocess.Popen[bytes], port: int, log: Path) -> subprocess.Popen[bytes]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://{HOST}:{port}/health", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start within 60 s")


async def open_table(http: httpx.AsyncClient, args: argparse.Namespace, rng: random.Random) -> tuple[str, str]:
    """A new table with this client in seat 0 and bots in the others: (table id, seat token)."""
    seats = ["human"] + [args.bots] * (args.players - 1)
    created = await http.post("/api/tables", json={"game": args.game, "seats": seats, "seed": rng.randrange(2**31)})
    created.raise_for_status()
    table = created.json()["id"]
    joined = await http.post(f"/api/tables/{table}/join", json={"name": "load"})
    joined.raise_for_status()
    return table, joined.json()["token"]


async def play_table(
    ws_base: str, table: tuple[str, str], args: argparse.Namespace, rng: random.Random, tally: Tally, clock: Clock
) -> None:
    """Play seat 0 of a table until the game ends or the time is up."""
    async with connect(f"{ws_base}/api/tables/{table[0]}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table[1]}))
        await clock.started.wait()
        pending: dict[int, float] = {}  # version acted on -> when the action was sent
        acted: set[int] = set()
        committed: int | None = None  # the table's version as the last update (or first sync) showed it
        while (left := clock.until - time.monotonic()) > 0:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                return
            message = decode(text)
            kind = message["type"]
            if kind == "error":
                tally.error(message["code"])
                continue
            if kind not in ("sync", "update"):
                continue
            version = message["version"]
            sent = pending.pop(version - 1, None)
            if kind == "update":
                tally.actions += version - committed if committed is not None else 0
                committed = version
                if sent is not None and message["actor"] == 0:
                    tally.latencies.append(time.perf_counter() - sent)
            else:
                committed = version if committed is None else committed
                if sent is not None:
                    # A step held back for undo (its turn goes on): the server answers the seat alone
                    # with its position, and broadcasts the turn when its last step comes.
                    tally.latencies.append(time.perf_counter() - sent)
                    tally.held += 1
            if message["status"] == "finished":
                tally.games += 1
                return
            if message["legal"] and version not in acted:
                acted.add(version)
                if args.think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
                choice = rng.choice(message["legal"])
                pending[version] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": choice["id"], "version": version}))


@dataclass
class Clock:
    """Clients set up their first table before the clock starts; only play is measured."""

    started: asyncio.Event
    until: float = float("inf")
    ready: int = 0


async def client(number: int, base: str, args: argparse.Namespace, tally: Tally, clock: Clock) -> None:
    rng = random.Random(args.seed * 1000 + number)
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        table = await first_table(http, args, rng, tally)
        clock.ready += 1
        if table is None:
            return
        while time.monotonic() < clock.until:
            try:
                await play_table(ws_base, table, args, rng, tally, clock)
                if time.monotonic() < clock.until:
                    table = await open_table(http, args, rng)
            except (ConnectionClosed, httpx.HTTPError, OSError) as error:
                tally.error(type(error).__name__)
                await asyncio.sleep(0.5)


def _stat(path: Path) -> list[str]:
    """The fields of a /proc stat file after the command's name (which may hold spaces)."""
    return path.read_text().rsplit(")", 1)[1].split()


def _cpu(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def with_children(pids: list[int]) -> list[int]:
    """These processes and all their descendants (`--workers` starts its processes as children)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(_stat(entry / "stat")[1])
            except (OSError, IndexError, ValueError):
                continue
    found = list(pids)
    for pid in found:
        found += [child for child, parent in parents.items() if parent == pid and child not in found]
    return found


async def first_table(
    http: httpx.AsyncClient, args: argparse.Namespace, rng: random.Random, tally: Tally
) -> tuple[str, str] | None:
    """The client's first table, asked for again after a refused or dropped request (a thousand
    clients opening tables at once on a busy machine); None, and the client sits out, after 5 failures."""
    for attempt in range(5):
        try:
            return await open_table(http, args, rng)
        except (httpx.HTTPError, OSError) as error:
            tally.error(f"setup {type(error).__name__}")
            await asyncio.sleep(0.5 * (attempt + 1))
    return None


def cpu_seconds(pids: list[int]) -> dict[str, float] | None:
    """User and system CPU the server processes have used (Linux's /proc; None elsewhere): in
    all, and in each process's first thread (the event loop; the rest are worker threads)."""
    total = loop = 0.0
    for pid in with_children(pids):
        try:
            total += _cpu(_stat(Path(f"/proc/{pid}/stat")))
            loop += _cpu(_stat(Path(f"/proc/{pid}/task/{pid}/stat")))
        except (OSError, IndexError):
            return None
    return {"total": total, "loop": loop}


async def commits(bases: list[str]) -> int:
    """Batches of actions committed so far, read from the servers' /metrics (with `--workers`
    one answer counts every process of a server, so each server is asked once)."""
    total = 0
    async with httpx.AsyncClient(timeout=30) as http:
        for base in bases:
            text = (await http.get(f"{base}/metrics")).text
            for family in text_string_to_metric_families(text):
                if family.name == "parlour_db_commit_seconds":
                    total += int(sum(s.value for s in family.samples if s.name.endswith("_count")))
    return total


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(
    args: argparse.Namespace, bases: list[str], pids: list[int] | None = None, profiled: int | None = None
) -> dict[str, Any]:
    tally = Tally()
    clock = Clock(asyncio.Event())
    clients = [asyncio.create_task(client(n, bases[n % len(bases)], args, tally, clock)) for n in range(args.clients)]
    setup_deadline = time.monotonic() + 300
    while clock.ready < args.clients and time.monotonic() < setup_deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # let the last hellos be answered
    started = time.monotonic()
    cpu_before = cpu_seconds(pids or [])
    commits_before = await commits(bases)
    clients_before = time.process_time()
    if profiled is not None:
        os.kill(profiled, signal.SIGUSR1)
    clock.until = started + args.seconds
    clock.started.set()
    await asyncio.gather(*clients)
    elapsed = time.monotonic() - started
    # The clients' own process competes with the servers for the cores: how much of one it used.
    clients_share = round((time.process_time() - clients_before) / elapsed, 2)
    if profiled is not None:
        os.kill(profiled, signal.SIGUSR2)
    cpu_after = cpu_seconds(pids or [])
    committed = await commits(bases) - commits_before
    # The servers' own CPU per action (a busy machine slows them, but does not change this much).
    cpu_ms = loop_ms = None
    if pids and cpu_before is not None and cpu_after is not None and tally.actions:
        cpu_ms = round(1000 * (cpu_after["total"] - cpu_before["total"]) / tally.actions, 3)
        loop_ms = round(1000 * (cpu_after["loop"] - cpu_before["loop"]) / tally.actions, 3)
    latencies = tally.latencies or [float("nan")]
    return {
        "clients": args.clients,
        "processes": len(bases) * args.workers,
        "game": args.game,
        "bots": args.bots,
        "think_s": args.think,
        "seconds": round(elapsed, 1),
        "moves": len(tally.latencies),
        "held_steps": tally.held,
        "moves_per_s": round(len(tally.latencies) / elapsed, 1),
        "actions_per_s": round(tally.actions / elapsed, 1),
        "games_finished": tally.games,
        # Transactions that saved actions (each a batch of the actions that waited for it).
        "commits": committed,
        "actions_per_commit": round(tally.actions / committed, 1) if committed else None,
        "server_cpu_ms_per_action": cpu_ms,
        "event_loop_cpu_ms_per_action": loop_ms,
        "clients_cpu_cores": clients_share,
        "clients_loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
        "load_average": os.getloadavg(),
        "latency_ms": {
            "p50": round(1000 * statistics.median(latencies), 1),
            "p90": round(1000 * percentile(latencies, 0.90), 1),
            "p99": round(1000 * percentile(latencies, 0.99), 1),
            "max": round(1000 * max(latencies), 1),
        },
        "errors": tally.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="concurrent websocket clients (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to play (default 30)")
    parser.add_argument("--game", default="hatflings", help="game to play (default hatflings)")
    parser.add_argument("--players", type=int, default=2, help="seats per table: 1 client + bots (default 2)")
    parser.add_argument("--bots", default="random", help="agent spec of the bots (default random)")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a client waits before moving")
    parser.add_argument("--db", default="", help="database URL or file (default: a new SQLite file)")
    parser.add_argument("--port", type=int, default=0, help="use a server already running on 127.0.0.1:PORT")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes sharing the database (more than 1: PostgreSQL)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="one `parlour serve --workers N` (more than 1: PostgreSQL)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the servers started (parlour serve --set), e.g. commit_linger=0.002; repeatable",
    )
    parser.add_argument("--profile", type=Path, help="write a cProfile of the measured window to this file")
    parser.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the clients' event loop (default uvloop, as the server's; asyncio where uvloop is missing)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or not 0 < args.clients <= 2000:
        parser.error("keep runs bounded: 0 < seconds <= 600, 0 < clients <= 2000")
    if not 1 <= args.processes <= 16:
        parser.error("--processes is from 1 to 16")
    postgres = args.db.startswith(("postgresql://", "postgres://"))
    if not 1 <= args.workers <= 16:
        parser.error("--workers is from 1 to 16")
    if (args.processes > 1 or args.workers > 1) and not postgres:
        parser.error("--processes or --workers above 1 needs --db postgresql://...: SQLite means one process")
    if args.processes > 1 and args.workers > 1:
        parser.error("give --processes (several ports) or --workers (one port), not both")
    if args.profile is not None and (args.processes > 1 or args.workers > 1 or args.port):
        parser.error("--profile profiles the one server process this benchmark starts")
    if args.port:
        result = play(run(args, [f"http://{HOST}:{args.port}"]), args.loop)
        report(result, args.json)
        return
    with tempfile.TemporaryDirectory() as scratch, fresh_schema(args.db) as db:
        db = db or str(Path(scratch) / "load.sqlite")
        ports = [free_port() for _ in range(args.processes)]
        logs = [Path(scratch) / f"server{n}.log" for n in range(args.processes)]
        servers = [
            start_server(
                db, port, log, wait=False, workers=args.workers, profile=args.profile, settings=tuple(args.set)
            )
            for port, log in zip(ports, logs, strict=True)
        ]
        try:
            for server, port, log in zip(servers, ports, logs, strict=True):
                wait_for(server, port, log)
            bases = [f"http://{HOST}:{port}" for port in ports]
            profiled = servers[0].pid if args.profile is not None else None
            if args.profile is not None:
                args.profile.unlink(missing_ok=True)
            result = play(run(args, bases, [server.pid for server in servers], profiled), args.loop)
            if args.profile is not None:
                wait_for_file(args.profile)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
    report(result, args.json)


def play(clients: Coroutine[Any, Any, dict[str, Any]], loop: str) -> dict[str, Any]:
    """Run the clients on the event loop asked for (uvloop, where it is installed, costs the
    clients' process less CPU on a machine whose cores the servers need too)."""
    if loop == "uvloop":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.run(clients)
    return asyncio.run(clients)


def wait_for_file(path: Path) -> None:
    """Wait (at most 30 s) until the server has written its profile."""
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # dump_stats writes it in one go; let it finish


@contextlib.contextmanager
def fresh_schema(db: str) -> Iterator[str]:
    """A PostgreSQL URL in a new schema of `db`, dropped afterwards (anything else as it is)."""
    if not db.startswith(("postgresql://", "postgres://")):
        yield db
        return
    import psycopg

    schema = f"parlour_load_{os.getpid()}"
    with psycopg.connect(db, autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    try:
        yield db + ("&" if "?" in db else "?") + f"options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(db, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def report(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
        return
    lat = result["latency_ms"]
    print(
        f"{result['clients']} clients on {result['processes']} process(es), {result['game']} vs {result['bots']},"
        f" think {result['think_s']} s,"
        f" {result['seconds']} s: {result['moves']} moves ({result['moves_per_s']}/s),"
        f" {result['actions_per_s']} actions/s with bots, {result['games_finished']} games finished,"
        f" server CPU {result['server_cpu_ms_per_action']} ms per action"
        f" ({result['event_loop_cpu_ms_per_action']} ms on the event loop);"
        f" the clients used {result['clients_cpu_cores']} of a core ({result['clients_loop']});"
        f" load average {' '.join(f'{x:.2f}' for x in result['load_average'])}\n"
        f"submit-to-broadcast latency: p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms,"
        f" max {lat['max']} ms; errors: {result['errors'] or 'none'}"
    )


if __name__ == "__main__":
    main()
