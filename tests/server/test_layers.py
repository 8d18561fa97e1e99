"""The server's layers (docs/architecture.md): what may reach what, module sizes, no import cycle,
one way to open a table, and features that react to the authority's events instead of polling."""

from __future__ import annotations

import ast
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from parlour.server.settings import database_url

from .conftest import LiveServer, wait_until
from .test_accounts import FAST_HASH, browser, csrf, sign_up
from .test_ratings import board, play_out, rated_table

SERVER = Path(__file__).resolve().parents[2] / "src" / "parlour" / "server"
LAYERS = ("authority", "db", "cluster", "edge", "features")
# A module longer than this is more than one idea.
MOST_LINES = 400
# No polling for this process's tables: the watch, if any, is an hour away.
NEVER = 3600.0


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        parts = path.relative_to(SERVER).with_suffix("").parts
        if "migrations" in parts:
            continue
        name = ".".join(("parlour", "server", *parts))
        found[name.removesuffix(".__init__")] = path
    return found


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(path: Path, name: str) -> set[str]:
    """The parlour.server modules `path` imports when it runs (not those for type checking only)."""
    known = modules()
    found: set[str] = set()
    tree = ast.parse(path.read_text())
    skipped = {id(inner) for node in ast.walk(tree) if _type_checking_only(node) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            base = node.module
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {module for module in found if module in known and module != name}


def test_no_module_outside_the_authority_touches_a_private_member_of_the_hub() -> None:
    touched = []
    for name, path in modules().items():
        if name.startswith("parlour.server.authority"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            owner = ast.unparse(node.value)
            if owner.endswith("hub") or owner.startswith("hub_of("):
                touched.append(f"{name}: {owner}.{node.attr}")
    assert touched == []


def test_every_server_module_is_in_a_layer_and_short() -> None:
    top = {"parlour.server", "parlour.server.app", "parlour.server.settings", "parlour.server.workers"}
    for name, path in modules().items():
        assert name in top or name.split(".")[2] in LAYERS, name
        lines = len(path.read_text().splitlines())
        assert lines <= MOST_LINES, f"{name} has {lines} lines"


def test_the_server_has_no_import_cycle() -> None:
    graph = {name: imports_of(path, name) for name, path in modules().items()}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, [*path, name])
        done.add(name)

    for name in graph:
        visit(name, [])


def test_the_authority_speaks_neither_http_nor_sql_and_the_cluster_never_reaches_the_hub() -> None:
    for name, path in modules().items():
        source = path.read_text()
        if name.startswith("parlour.server.authority"):
            assert "fastapi" not in source and "sqlalchemy" not in source, name
        if name.startswith("parlour.server.cluster"):
            assert "parlour.server.authority.hub" not in imports_of(path, name), name


def test_every_table_is_opened_through_one_workflow() -> None:
    # Hub.open_table (authority/opening.py) is the only way a feature opens a table.
    for name, path in modules().items():
        if name.startswith(("parlour.server.authority", "parlour.server.db")):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr != "create_table", f"{name} opens a table on its own"


def test_a_turns_deadline_is_set_when_its_move_commits(serve: Callable[..., LiveServer]) -> None:
    server = serve(timer_poll=NEVER)
    table = server.create("nim", ["human", "human"], options={"stones": 9}, mode="turn_based", move_seconds=3600)
    tokens = [server.join(table["id"], name)["token"] for name in ("Ann", "Ben")]
    # No wait anywhere: the seat taken that starts the game, then the move, set the deadline.
    started = server.http.get(f"/api/tables/{table['id']}/clock").json()
    assert started["deadline"] is not None and started["to_move"] == 0
    played = server.http.post(
        f"/api/tables/{table['id']}/actions",
        json={"action": "take 1"},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert played.status_code == 200, played.text
    after = server.http.get(f"/api/tables/{table['id']}/clock").json()
    assert after["to_move"] == 1 and after["deadline"] > started["deadline"]


def _finished_and_rated(db: str, table_id: str) -> tuple[Any, Any]:
    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        finished = connection.execute(text("SELECT finished_at FROM game_tables WHERE id = :t"), {"t": table_id})
        ended = finished.scalar()
        rated = connection.execute(
            text("SELECT MAX(r.updated_at) FROM ratings r JOIN seats s ON s.user_id = r.user_id WHERE s.table_id = :t"),
            {"t": table_id},
        )
        applied = rated.scalar()
    engine.dispose()
    return ended, applied


def test_a_rating_is_applied_as_its_game_finishes(serve: Callable[..., LiveServer]) -> None:
    server = serve(**FAST_HASH, timer_poll=NEVER)
    with browser(server) as alice, browser(server) as bob:
        accounts = sign_up(alice, "alice"), sign_up(bob, "bob")
        table_id = rated_table(server)
        tokens = []
        for client, account in zip((alice, bob), accounts, strict=True):
            joined = client.post(f"/api/tables/{table_id}/join", json={"name": account["name"]}, headers=csrf(account))
            tokens.append(joined.json()["token"])
        play_out(server.http, table_id, tokens, winner=0)
    ended = time.monotonic()
    wait_until(lambda: len(board(server)) == 2, timeout=NEVER / 360)
    # Applied by the GameFinished event, not by a look an hour away.
    assert time.monotonic() - ended < NEVER / 360
    finished_at, applied_at = _finished_and_rated(server.settings.db, table_id)
    assert finished_at is not None and applied_at is not None and applied_at >= finished_at
