"""The database's care from the command line: a SQLite backup taken while the server plays,
restored into a new database that replays every table (finished and running) and serves them
again; upgrade and check on SQLite and PostgreSQL; and clear refusals of what cannot be done."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.server.settings import database_url

from ..cli.test_main import run
from .conftest import POSTGRES_URL, LiveServer, run_sql, wait_until

STONES = {"stones": 9}


def playing(server: LiveServer) -> tuple[dict[str, str], dict[str, str]]:
    """A finished table of bots and a running table of people with one move played."""
    finished = server.create("nim", ["random", "random"], options={"stones": 12})
    wait_until(lambda: server.table(finished["id"])["status"] == "finished")
    running = server.create("nim", ["human", "human"], options=STONES)
    first = server.join(running["id"], "Ann")
    server.join(running["id"], "Ben")
    played = server.http.post(
        f"/api/tables/{running['id']}/actions",
        json={"action": 0},
        headers={"Authorization": f"Bearer {first['token']}"},
    )
    assert played.status_code == 200, played.text
    return {"id": finished["id"]}, {"id": running["id"], "token": first["token"]}


def test_backup_while_serving_restore_check_and_serve_again(
    capsys: pytest.CaptureFixture[str], serve: Callable[..., LiveServer], tmp_path: Path
) -> None:
    db = str(tmp_path / "live.sqlite")
    server = serve(db=db)
    finished, running = playing(server)
    busy = server.create("nim", ["random", "random"], options={"stones": 99})  # plays on during the backup
    backup = tmp_path / "backup.sqlite"
    code, output = run(capsys, "db", "backup", str(backup), "--db", db)
    assert code == 0 and f"to {backup}" in output, output
    wait_until(lambda: server.table(busy["id"])["status"] == "finished")
    server.stop()
    restored = str(tmp_path / "restored.sqlite")
    code, output = run(capsys, "db", "restore", str(backup), "--db", restored)
    assert code == 0 and "restored 3 tables" in output, output
    code, output = run(capsys, "db", "check", "--db", restored)
    assert code == 0 and "3 tables checked" in output and "0 problems" in output, output
    again = serve(db=restored)
    assert again.table(finished["id"])["status"] == "finished"
    table = again.table(running["id"])
    assert table["status"] == "running" and table["version"] == 1
    # The running game goes on from the backup, with the tokens it had.
    ben = again.connect(running["id"])
    assert ben.position["version"] == 1


def test_check_names_a_table_that_does_not_replay(
    capsys: pytest.CaptureFixture[str], serve: Callable[..., LiveServer], tmp_path: Path
) -> None:
    db = str(tmp_path / "live.sqlite")
    server = serve(db=db)
    finished, running = playing(server)
    server.stop()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE actions SET action_id = 77 WHERE table_id = ?", (running["id"],))
        connection.execute("UPDATE game_tables SET finished_at = NULL WHERE id = ?", (finished["id"],))
    code, output = run(capsys, "db", "check", "--db", db)
    assert code == 1
    assert f"table {running['id']} (nim): step 0 (move 1) does not replay" in output
    assert f"table {finished['id']} (nim): the game is over but not marked finished" in output
    assert "2 problems" in output


def test_bad_backups_and_restores_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    code, output = run(capsys, "db", "backup", str(tmp_path / "b.sqlite"), "--db", str(missing))
    assert code == 2 and "there is no database at" in output
    not_ours = tmp_path / "other.sqlite"
    with sqlite3.connect(not_ours) as connection:
        connection.execute("CREATE TABLE things (x)")
    code, output = run(capsys, "db", "restore", str(not_ours), "--db", str(tmp_path / "new.sqlite"))
    assert code == 2 and "is not a parlour database" in output
    assert not (tmp_path / "new.sqlite").exists()
    text = tmp_path / "notes.txt"
    text.write_text("hello " * 1000)
    code, output = run(capsys, "db", "restore", str(text), "--db", str(tmp_path / "new.sqlite"))
    assert code == 2 and "is not a SQLite database" in output
    code, output = run(capsys, "db", "upgrade", "--db", str(not_ours))
    assert code == 0
    backup = tmp_path / "backup.sqlite"
    assert run(capsys, "db", "backup", str(backup), "--db", str(not_ours))[0] == 0
    code, output = run(capsys, "db", "backup", str(backup), "--db", str(not_ours))
    assert code == 2 and "exists already" in output
    code, output = run(capsys, "db", "restore", str(backup), "--db", str(not_ours))
    assert code == 2 and "add --replace" in output
    assert run(capsys, "db", "restore", str(backup), "--db", str(not_ours), "--replace")[0] == 0
    code, output = run(capsys, "db", "backup", str(tmp_path / "pg.dump"), "--db", "postgresql://u@localhost/x")
    assert code == 2 and "pg_dump --format=custom" in output


def test_upgrade_and_check_on_every_backend(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, output = run(capsys, "db", "upgrade", "--db", db)
    assert code == 0 and "upgraded the schema from revision none to" in output, output
    code, output = run(capsys, "db", "upgrade", "--db", db)
    assert code == 0 and "the schema is up to date" in output
    code, output = run(capsys, "db", "check", "--db", db)
    assert code == 0 and "0 tables checked (0 finished): 0 problems" in output


def test_check_replays_running_and_finished_tables_on_every_backend(
    capsys: pytest.CaptureFixture[str], serve: Callable[..., LiveServer], db: str
) -> None:
    server = serve()
    playing(server)
    code, output = run(capsys, "db", "check", "--db", db)
    assert code == 0 and "2 tables checked (1 finished): 0 problems" in output, output
    assert database_url(db)  # the same --db as parlour serve takes


@pytest.mark.skipif(not POSTGRES_URL or shutil.which("pg_dump") is None, reason="needs PostgreSQL and its tools")
@pytest.mark.postgres
@pytest.mark.parametrize("db", ["postgresql"], indirect=True)  # the PostgreSQL tools are for PostgreSQL
def test_the_postgresql_way_round_trips(
    capsys: pytest.CaptureFixture[str], serve: Callable[..., LiveServer], db: str, tmp_path: Path
) -> None:
    """pg_dump while the server runs, the data lost, pg_restore, check, and serve again (in the
    test's own schema: --schema narrows the documented commands to it)."""
    schema = db.rsplit("search_path%3D", 1)[1]
    server = serve()
    finished, running = playing(server)
    dump = tmp_path / "parlour.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", f"--schema={schema}", POSTGRES_URL], check=True)
    server.stop()
    run_sql(POSTGRES_URL, f"DROP SCHEMA {schema} CASCADE")
    subprocess.run(["pg_restore", "--no-owner", f"--dbname={POSTGRES_URL}", str(dump)], check=True)
    code, output = run(capsys, "db", "check", "--db", db)
    assert code == 0 and "2 tables checked (1 finished): 0 problems" in output, output
    again = serve()
    assert again.table(finished["id"])["status"] == "finished"
    assert again.table(running["id"])["version"] == 1
