"""`parlour admin` and `parlour db`: running a community's server from the command line.

`parlour admin grant` works on the database itself (the first admin is granted on the server's
machine); every other admin command signs in to the running server as an admin and calls its
admin API, so it acts as the API does. `parlour db` backs up, restores, upgrades and checks the
database. docs/server.md, "Running a community", describes both.
"""

from __future__ import annotations

import getpass
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from parlour.engine.errors import ParlourError

if TYPE_CHECKING:
    from parlour.server.features.admin_client import AdminClient

console = Console(soft_wrap=True)


class CommandError(ParlourError):
    """A refused command line: `parlour` prints it as its one error line."""


admin_app = typer.Typer(
    help="Administer a running server as an admin: accounts, tables, chat, reports, refused words, the audit log.",
    no_args_is_help=True,
)
db_app = typer.Typer(help="The server's database: backup, restore, upgrade (migrations), check.", no_args_is_help=True)

Db = Annotated[str, typer.Option(help="SQLite file or postgresql://user:pass@host/db (as for parlour serve)")]
Server = Annotated[str, typer.Option(envvar="PARLOUR_SERVER", help="the server's address")]
User = Annotated[str, typer.Option("--user", envvar="PARLOUR_ADMIN", help="your admin account's name")]
PASSWORD_VARIABLE = "PARLOUR_ADMIN_PASSWORD"
LOCAL = "http://127.0.0.1:8000"


def _server_modules() -> None:
    try:
        import parlour.server  # noqa: F401
    except ImportError as error:
        raise CommandError(f"this needs the server extra (pip install 'parlour[server]'): {error}") from None


def _client(server: str, user: str) -> AdminClient:
    """Signed in as the admin: the password from PARLOUR_ADMIN_PASSWORD, or asked for."""
    _server_modules()
    from parlour.server.features.admin_client import AdminClient

    password = os.environ.get(PASSWORD_VARIABLE) or getpass.getpass(f"password of {user}: ")
    return AdminClient(server, user, password)


def _ask(server: str, user: str, method: str, path: str, body: dict[str, Any] | None = None, **params: Any) -> Any:
    """One call of the admin API (`path` below /api/admin), signed in as `user`."""
    with _client(server, user) as client:
        return client.call(method, path, body, params)


def _show(answer: Any) -> None:
    console.print_json(json.dumps(answer))


def _write_new(path: Path, answer: Any) -> None:
    if path.exists():
        raise CommandError(f"{path} exists already; give a new file")
    path.write_text(json.dumps(answer, indent=2) + "\n", encoding="utf-8")


# --- parlour admin ----------------------------------------------------------------------------------


@admin_app.command()
def grant(
    name: Annotated[str, typer.Argument(help="the account to make an admin")],
    db: Db = "parlour.sqlite",
    revoke: Annotated[bool, typer.Option(help="take the role away instead")] = False,
) -> None:
    """Grant the admin role straight in the database (on the server's machine): how the first admin is made."""
    _server_modules()
    from parlour.server.features.admin_recovery import grant_from_command_line
    from parlour.server.settings import database_url

    try:
        changed = grant_from_command_line(database_url(db), name, not revoke)
    except LookupError as error:
        raise CommandError(str(error.args[0])) from None
    role = "no longer an admin" if revoke else "an admin"
    console.print(f"{name} is {role}" + ("" if changed else " (already so)"), highlight=False)


@admin_app.command()
def accounts(
    user: User,
    find: Annotated[str | None, typer.Option(help="only names containing this (any case)")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="the most accounts listed")] = None,
    server: Server = LOCAL,
) -> None:
    """List or find accounts, with their role and whether they are disabled."""
    _show(_ask(server, user, "GET", "/accounts", find=find, limit=limit))


@admin_app.command()
def disable(
    name: Annotated[str, typer.Argument(help="the account to disable")],
    user: User,
    reason: Annotated[str, typer.Option(help="why (kept in the audit log)")],
    seats: Annotated[str, typer.Option(help="its unfinished seats: 'bot' plays them out, 'keep' locks them")] = "bot",
    server: Server = LOCAL,
) -> None:
    """Disable an account: its sessions end, it cannot sign in, its seats go to the bot or are kept."""
    if seats not in ("bot", "keep"):
        raise CommandError(f"--seats is 'bot' or 'keep', got {seats!r}")
    _show(_ask(server, user, "POST", f"/accounts/{name}/disable", {"reason": reason, "seats": seats}))


@admin_app.command()
def enable(
    name: Annotated[str, typer.Argument(help="the account to enable again")],
    user: User,
    server: Server = LOCAL,
) -> None:
    """Enable a disabled account (kept seats are taken back with Resume in its games)."""
    _show(_ask(server, user, "POST", f"/accounts/{name}/enable"))


@admin_app.command()
def export(
    name: Annotated[str, typer.Argument(help="the account whose data to export")],
    file: Annotated[Path, typer.Argument(help="the JSON file to write (must be new)")],
    user: User,
    server: Server = LOCAL,
) -> None:
    """Write everything stored about an account to a JSON file."""
    if file.exists():
        raise CommandError(f"{file} exists already; give a new file")
    _write_new(file, _ask(server, user, "GET", f"/accounts/{name}/export"))
    console.print(f"wrote the data of {name} to {file}", highlight=False)


@admin_app.command()
def delete(
    name: Annotated[str, typer.Argument(help="the account to delete")],
    file: Annotated[Path, typer.Option("--export", help="the JSON file its data is written to first (must be new)")],
    user: User,
    server: Server = LOCAL,
) -> None:
    """Delete an account, its data written to a JSON file first; its unfinished seats go to the bot."""
    if file.exists():
        raise CommandError(f"{file} exists already; give a new file")
    answer = _ask(server, user, "DELETE", f"/accounts/{name}")
    _write_new(file, answer["export"])
    console.print(f"deleted {name}; its data is in {file}", highlight=False)


@admin_app.command("reset-code")
def reset_code(
    name: Annotated[str, typer.Argument(help="the account whose password is to be reset")],
    user: User,
    server: Server = LOCAL,
) -> None:
    """Issue a one-time password-reset code to hand to the account's owner."""
    _show(_ask(server, user, "POST", f"/accounts/{name}/reset-code"))


@admin_app.command()
def tables(
    user: User,
    status: Annotated[str | None, typer.Option(help="finished or unfinished (default: both)")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="the most tables listed")] = None,
    server: Server = LOCAL,
) -> None:
    """List tables, newest first."""
    if status not in (None, "finished", "unfinished"):
        raise CommandError(f"--status is 'finished' or 'unfinished', got {status!r}")
    _show(_ask(server, user, "GET", "/tables", status=status, limit=limit))


@admin_app.command("close-table")
def close_table(
    table: Annotated[str, typer.Argument(help="the table's id")],
    user: User,
    reason: Annotated[str, typer.Option(help="why (told to the table, kept in the audit log)")],
    server: Server = LOCAL,
) -> None:
    """Close an unfinished table: the timeout bot plays every person's seat to the end."""
    _show(_ask(server, user, "POST", f"/tables/{table}/close", {"reason": reason}))


@admin_app.command("export-table")
def export_table(
    table: Annotated[str, typer.Argument(help="the table's id")],
    file: Annotated[Path, typer.Argument(help="the JSON file to write (must be new)")],
    user: User,
    server: Server = LOCAL,
) -> None:
    """Write a table's record to a JSON file (its seed only once the game is over)."""
    if file.exists():
        raise CommandError(f"{file} exists already; give a new file")
    _write_new(file, _ask(server, user, "GET", f"/tables/{table}/export"))
    console.print(f"wrote table {table} to {file}", highlight=False)


@admin_app.command("remove-message")
def remove_message(
    table: Annotated[str, typer.Argument(help="the table's id")],
    message: Annotated[int, typer.Argument(help="the chat message's id")],
    user: User,
    server: Server = LOCAL,
) -> None:
    """Remove a chat message (the table's screens drop it)."""
    _show(_ask(server, user, "DELETE", f"/tables/{table}/chat/{message}"))


@admin_app.command()
def reports(
    user: User,
    resolved: Annotated[bool, typer.Option(help="list the resolved reports too")] = False,
    server: Server = LOCAL,
) -> None:
    """The reports' queue, oldest first, each with its message and context."""
    _show(_ask(server, user, "GET", "/reports", resolved=resolved or None))


@admin_app.command()
def resolve(
    report: Annotated[int, typer.Argument(help="the report's number")],
    user: User,
    resolution: Annotated[str, typer.Option(help="what was done about it")],
    server: Server = LOCAL,
) -> None:
    """Close a report with what was done about it."""
    _show(_ask(server, user, "POST", f"/reports/{report}/resolve", {"resolution": resolution}))


@admin_app.command()
def words(
    user: User,
    add: Annotated[list[str] | None, typer.Option(help="a word to refuse (repeat for more)")] = None,
    remove: Annotated[list[str] | None, typer.Option(help="a word to refuse no more (repeat for more)")] = None,
    server: Server = LOCAL,
) -> None:
    """Show, and with --add/--remove edit, the words refused in names and chat."""
    with _client(server, user) as client:
        for word in add or []:
            client.call("POST", "/refused-words", {"word": word})
        for word in remove or []:
            client.call("DELETE", f"/refused-words/{word}")
        _show(client.call("GET", "/refused-words"))


@admin_app.command()
def audit(
    user: User,
    action: Annotated[str | None, typer.Option(help="only actions of this kind, e.g. disable")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="the most actions listed")] = None,
    server: Server = LOCAL,
) -> None:
    """The audit log: every admin action, newest first."""
    _show(_ask(server, user, "GET", "/audit", action=action, limit=limit))


# --- parlour db -------------------------------------------------------------------------------------


def _url(db: str) -> str:
    _server_modules()
    from parlour.server.settings import database_url

    return database_url(db)


@db_app.command("backup")
def db_backup(file: Annotated[Path, typer.Argument(help="the new backup file")], db: Db = "parlour.sqlite") -> None:
    """Back a SQLite database up to a new file, safely while the server runs (PostgreSQL: pg_dump, see the docs)."""
    from parlour.server.db.backups import backup

    games = backup(_url(db), file)
    console.print(f"backed up {games} tables to {file}", highlight=False)


@db_app.command("restore")
def db_restore(
    file: Annotated[Path, typer.Argument(help="a backup made by parlour db backup")],
    db: Db = "parlour.sqlite",
    replace: Annotated[bool, typer.Option(help="overwrite a database that exists (stop the server first)")] = False,
) -> None:
    """Restore a SQLite database from a backup, then bring it to the newest schema (PostgreSQL: pg_restore)."""
    from parlour.server.db.backups import restore, upgrade

    url = _url(db)
    games = restore(url, file, replace)
    upgrade(url)
    console.print(f"restored {games} tables from {file}", highlight=False)


@db_app.command("upgrade")
def db_upgrade(db: Db = "parlour.sqlite") -> None:
    """Bring the database's schema to the newest migration (the server also does so when it starts)."""
    from parlour.server.db.backups import upgrade

    before, after = upgrade(_url(db))
    if before == after:
        console.print(f"the schema is up to date (revision {after})", highlight=False)
    else:
        console.print(f"upgraded the schema from revision {before or 'none'} to {after}", highlight=False)


@db_app.command("check")
def db_check(db: Db = "parlour.sqlite") -> None:
    """Replay every stored table and report those that do not replay to what is stored (exit 1 if any)."""
    from parlour.server.db.backups import check

    checked = check(_url(db))
    for problem in checked.problems:
        Console(stderr=True, soft_wrap=True).print(problem, highlight=False, markup=False)
    console.print(
        f"{checked.tables} tables checked ({checked.finished} finished): {len(checked.problems)} problems",
        highlight=False,
    )
    if checked.problems:
        raise typer.Exit(1)
