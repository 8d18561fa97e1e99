"""Administration over HTTP, for the accounts holding the admin role: accounts (list and find,
disable and enable, export and delete, password-reset codes, the role itself), tables (list,
close, export), chat messages (remove), the reports' queue, the refused words, and the audit log
in which every one of these actions is written.

Every route of `router` requires a signed-in admin (and, for a change, the session's CSRF token):
the check is the router's own dependency, so no route can be added without it. The first admin is
granted on the server's machine (`parlour admin grant NAME`, `grant_from_command_line`), where
whoever runs the command can reach the database anyway.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from parlour.agents import make_agent
from parlour.server.authority.events import SeatsChanged
from parlour.server.authority.hub import Hub
from parlour.server.authority.table import FINISHED, LiveTable, hash_token
from parlour.server.db.community_store import CommunityStore
from parlour.server.db.models import now
from parlour.server.edge.errors import ServerError, not_found
from parlour.server.edge.logs import log
from parlour.server.edge.requests import Strict
from parlour.server.features.accounts import (
    CsrfHeader,
    SignedIn,
    accounts_of,
    check_csrf,
)
from parlour.server.features.safety import normal_word, safety_of
from parlour.server.features.timers import TimerStore

SEATS_TO_BOT, SEATS_KEPT = "bot", "keep"
SeatsChoice = Literal["bot", "keep"]


async def require_admin(request: Request, csrf: CsrfHeader = None) -> SignedIn:
    """The signed-in admin making the request: 401 without a session, 403 for an account without
    the role, and 403 for a change without the session's CSRF token."""
    account = await accounts_of(request).signed_in(request)
    if account is None:
        raise ServerError("not_signed_in", "sign in first (no valid session cookie was sent)", 401)
    admin = admin_of(request)
    if not await admin.db.run(admin.store.is_admin, account.user.id):
        raise ServerError("not_admin", "this needs an account with the admin role", 403)
    if request.method not in ("GET", "HEAD"):
        check_csrf(account, csrf)
    return account


router = APIRouter(prefix="/api/admin", tags=["admin"], dependencies=[Depends(require_admin)])
AdminAccount = Annotated[SignedIn, Depends(require_admin)]
Limit = Annotated[int | None, Query(ge=1, description="the most rows answered (settings bound it)")]


class Admin:
    """What the admin routes do, for one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = CommunityStore(hub.store.engine)

    async def audit(self, admin: str, action: str, target: str, **detail: Any) -> None:
        await self.db.run(self.store.audit, admin, action, target, detail)
        log.info("admin action", extra={"event": f"admin_{action}", "user": admin, "target": target})

    async def user_id(self, name: str) -> int:
        user_id: int | None = await self.db.run(self.store.user_id, name[:64])
        if user_id is None:
            raise ServerError("no_account", f"there is no account named {name[:64]!r}", 404)
        return user_id

    async def refuse_disabled(self, user_id: int) -> None:
        """A disabled account does not sign in (checked after its password, so that the answer
        tells nothing to whoever does not know it)."""
        if await self.db.run(self.store.is_disabled, user_id):
            raise ServerError("account_disabled", "this account is disabled; ask the server's admins", 403)

    def limit(self, asked: int | None) -> int:
        most: int = self.hub.settings.admin_list_limit
        return most if asked is None else min(asked, most)

    # --- seats taken from a person ----------------------------------------------------------------

    async def hand_to_bot(self, table_id: str, seat_index: int, reason: str) -> None:
        """The seat is played by the timeout bot from now on (as a forfeited seat is): its token
        holds nothing any more and its clients are told why."""
        spec = self.hub.settings.timeout_agent
        await self.db.run(TimerStore(self.hub.store.engine).forfeit, table_id, seat_index, spec)
        await self.hub.announce_seats(table_id)
        table = self._loaded(table_id)
        if table is None:
            return  # rebuilt from the database, bot and all, when next needed
        seat = table.seats[seat_index]
        seat.agent_spec, seat.token_hash = spec, None
        seat.agent = make_agent(spec, LiveTable._bot_seed(table.state.seed, table.deal, seat.index))
        self.hub.drop_tentative(table, seat_index)
        self._close_seat(table, seat_index, 4004, reason)
        self.hub.events.publish(SeatsChanged(table))
        table.broadcast_sync()
        self.hub.wake_bots(table)

    async def lock_seat(self, table_id: str, seat_index: int, reason: str) -> None:
        """The seat stays the account's, but no token it holds works until it resumes the game."""
        locked = hash_token(secrets.token_urlsafe(24))
        await self.db.run(self.store.lock_seat, table_id, seat_index, locked)
        await self.hub.announce_seats(table_id)
        table = self._loaded(table_id)
        if table is not None:
            table.seats[seat_index].token_hash = locked
            self._close_seat(table, seat_index, 4003, reason)

    def _loaded(self, table_id: str) -> LiveTable | None:
        return self.hub.tables.get(table_id) or self.hub.held.get(table_id)

    @staticmethod
    def _close_seat(table: LiveTable, seat: int, code: int, reason: str) -> None:
        for client in list(table.clients):
            if client.seat == seat:
                client.close(code, reason)

    async def take_seats(self, user_id: int, seats: str, reason: str) -> list[dict[str, Any]]:
        """Every unfinished seat of the account, handed to the bot or kept locked."""
        taken = await self.db.run(self.store.unfinished_seats, user_id)
        for table_id, seat in taken:
            if seats == SEATS_TO_BOT:
                await self.hand_to_bot(table_id, seat, reason)
            else:
                await self.lock_seat(table_id, seat, reason)
        return [{"table": table_id, "seat": seat} for table_id, seat in taken]


def admin_of(request: Request) -> Admin:
    admin: Admin = request.app.state.admin
    return admin


class DisableBody(Strict):
    reason: str = Field(min_length=1, max_length=500, description="why, for the audit log and the account's owner")
    seats: SeatsChoice = Field(
        default="bot", description="the account's unfinished seats: 'bot' plays them out, 'keep' holds them locked"
    )


class RoleBody(Strict):
    admin: bool = Field(description="whether the account holds the admin role")


class CloseBody(Strict):
    reason: str = Field(min_length=1, max_length=500, description="why, for the audit log and the table's clients")


class WordBody(Strict):
    word: str = Field(min_length=1, max_length=64, description="a word refused in names and chat")


class ResolveBody(Strict):
    resolution: str = Field(min_length=1, max_length=1000, description="what was done about it")


# --- accounts ---------------------------------------------------------------------------------------


@router.get("/accounts")
async def accounts(
    request: Request, find: Annotated[str | None, Query(max_length=40)] = None, limit: Limit = None
) -> dict[str, Any]:
    """Accounts by name, those whose name contains `find` (in any case) if given."""
    admin = admin_of(request)
    return {"accounts": await admin.db.run(admin.store.accounts, find, admin.limit(limit))}


@router.post("/accounts/{name}/disable")
async def disable(request: Request, name: str, body: DisableBody, me: AdminAccount) -> dict[str, Any]:
    """Disable an account: its sessions end, it cannot sign in, and its unfinished seats are
    played out by the timeout bot or kept (locked until it is enabled and resumes them)."""
    admin = admin_of(request)
    user_id = await admin.user_id(name)
    if user_id == me.user.id:
        raise ServerError("bad_request", "an admin cannot disable their own account", 422)
    if not await admin.db.run(admin.store.disable, user_id, body.reason):
        raise ServerError("already_disabled", f"the account {name!r} is disabled already", 409)
    seats = await admin.take_seats(user_id, body.seats, "this account was disabled")
    await admin.audit(me.user.name, "disable", name, reason=body.reason, seats=body.seats, tables=seats)
    return {"disabled": name, "seats": body.seats, "tables": seats}


@router.post("/accounts/{name}/enable")
async def enable(request: Request, name: str, me: AdminAccount) -> dict[str, Any]:
    admin = admin_of(request)
    if not await admin.db.run(admin.store.enable, await admin.user_id(name)):
        raise ServerError("not_disabled", f"the account {name!r} is not disabled", 409)
    await admin.audit(me.user.name, "enable", name)
    return {"enabled": name}


@router.post("/accounts/{name}/role")
async def role(request: Request, name: str, body: RoleBody, me: AdminAccount) -> dict[str, Any]:
    """Grant or revoke the admin role."""
    admin = admin_of(request)
    user_id = await admin.user_id(name)
    if user_id == me.user.id and not body.admin:
        raise ServerError("bad_request", "an admin cannot revoke their own role (another admin can)", 422)
    changed = await admin.db.run(admin.store.set_admin, user_id, body.admin)
    if changed:
        await admin.audit(me.user.name, "grant" if body.admin else "revoke", name)
    return {"account": name, "admin": body.admin, "changed": changed}


@router.get("/accounts/{name}/export")
async def export_account(request: Request, name: str, me: AdminAccount) -> dict[str, Any]:
    """Everything stored about the account, as JSON."""
    admin = admin_of(request)
    exported: dict[str, Any] | None = await admin.db.run(admin.store.export, await admin.user_id(name))
    if exported is None:
        raise ServerError("no_account", f"there is no account named {name!r}", 404)
    await admin.audit(me.user.name, "export_account", name)
    return exported


@router.delete("/accounts/{name}")
async def delete_account(request: Request, name: str, me: AdminAccount) -> dict[str, Any]:
    """Delete an account; the answer is its data, exported first. Its unfinished seats are played
    out by the timeout bot; its finished games stay, under the name they were played with."""
    admin = admin_of(request)
    user_id = await admin.user_id(name)
    if user_id == me.user.id:
        raise ServerError("bad_request", "an admin cannot delete their own account", 422)
    exported = await admin.db.run(admin.store.export, user_id)
    seats = await admin.take_seats(user_id, SEATS_TO_BOT, "this account was deleted")
    await admin.db.run(admin.store.delete_user, user_id)
    await admin.audit(me.user.name, "delete_account", name, tables=seats)
    return {"deleted": name, "export": exported}


@router.post("/accounts/{name}/reset-code")
async def reset_code(request: Request, name: str, me: AdminAccount) -> dict[str, Any]:
    """A one-time code with which the account's owner sets a new password (POST
    /api/account/reset); hand it over yourself. An earlier code of the account stops working."""
    admin = admin_of(request)
    user_id = await admin.user_id(name)
    if await admin.db.run(admin.store.is_disabled, user_id):
        raise ServerError("account_disabled", f"the account {name!r} is disabled; enable it first", 409)
    code = secrets.token_urlsafe(12)
    expires = now() + timedelta(hours=admin.hub.settings.reset_code_hours)
    await admin.db.run(admin.store.new_reset_code, user_id, hash_token(code), expires)
    await admin.audit(me.user.name, "reset_code", name, expires_at=expires.isoformat())
    return {"account": name, "code": code, "expires_at": expires.isoformat()}


# --- tables and chat --------------------------------------------------------------------------------


@router.get("/tables")
async def tables(
    request: Request, status: Annotated[Literal["finished", "unfinished"] | None, Query()] = None, limit: Limit = None
) -> dict[str, Any]:
    """Tables newest first, finished or unfinished or both."""
    admin = admin_of(request)
    finished = None if status is None else status == "finished"
    return {"tables": await admin.db.run(admin.store.tables, finished, admin.limit(limit))}


@router.post("/tables/{table_id}/close")
async def close_table(request: Request, table_id: str, body: CloseBody, me: AdminAccount) -> dict[str, Any]:
    """Close a table that is not finished: every person's seat (and every free one) goes to the
    timeout bot, which plays the game to its end; the people at the table are told the reason."""
    admin = admin_of(request)
    table = await admin.hub.table(table_id)
    if table.status == FINISHED:
        raise ServerError("game_over", f"table {table_id} is finished already", 409)
    handed = [seat.index for seat in table.seats if not seat.is_bot]
    for index in handed:
        await admin.hand_to_bot(table.id, index, f"an admin closed this table: {body.reason}")
    await admin.audit(me.user.name, "close_table", table.id, reason=body.reason, seats=handed)
    return {"closed": table.id, "seats_to_bot": handed}


@router.get("/tables/{table_id}/export")
async def export_table(request: Request, table_id: str, me: AdminAccount) -> dict[str, Any]:
    """A table's record: game, options, seats and actions; the seed only once the game is over
    (until then the deal stays secret, even from admins)."""
    admin = admin_of(request)
    record = await admin.db.run(admin.hub.store.table, table_id[:32])
    if record is None:
        raise not_found(table_id)
    finished = record.finished_at is not None
    await admin.audit(me.user.name, "export_table", record.id)
    return {
        "id": record.id,
        "game": record.game,
        "options": record.options,
        "seed": record.seed if finished else None,
        "commitment": record.commitment,
        "finished": finished,
        "seats": [{"seat": s.seat, "agent": s.agent, "name": s.name} for s in record.seats],
        "actions": [action_id for action_id, _ in record.actions],
    }


@router.delete("/tables/{table_id}/chat/{message_id}")
async def remove_message(request: Request, table_id: str, message_id: int, me: AdminAccount) -> dict[str, Any]:
    """Remove a chat message; the table's connected clients are told to drop it."""
    admin = admin_of(request)
    removed = await admin.db.run(admin.store.remove_message, table_id[:32], message_id)
    if removed is None:
        raise ServerError("no_message", f"table {table_id!r} has no chat message {message_id}", 404)
    table = admin._loaded(table_id)
    if table is not None:
        for client in list(table.clients):
            client.send({"type": "chat_removed", "table": table_id, "id": message_id})
    await admin.audit(me.user.name, "remove_message", f"{table_id}/{message_id}", message=removed)
    return {"removed": removed}


# --- reports, refused words, the audit log ------------------------------------------------------------


@router.get("/reports")
async def reports(
    request: Request,
    resolved: Annotated[bool, Query(description="the resolved reports too")] = False,
    limit: Limit = None,
) -> dict[str, Any]:
    """The reports' queue, oldest first: the open ones, or with `resolved` the resolved ones too."""
    admin = admin_of(request)
    return {"reports": await admin.db.run(admin.store.reports, not resolved, admin.limit(limit))}


@router.post("/reports/{report_id}/resolve")
async def resolve(request: Request, report_id: int, body: ResolveBody, me: AdminAccount) -> dict[str, Any]:
    admin = admin_of(request)
    done = await admin.db.run(admin.store.resolve, report_id, me.user.name, body.resolution)
    if done is None:
        raise ServerError("no_report", f"there is no report {report_id}", 404)
    if not done:
        raise ServerError("already_resolved", f"report {report_id} is resolved already", 409)
    await admin.audit(me.user.name, "resolve_report", str(report_id), resolution=body.resolution)
    return {"resolved": report_id}


@router.get("/refused-words")
async def refused_words(request: Request) -> dict[str, Any]:
    admin = admin_of(request)
    return {"words": await admin.db.run(admin.store.refused_words)}


@router.post("/refused-words", status_code=201)
async def add_word(request: Request, body: WordBody, me: AdminAccount) -> dict[str, Any]:
    """Refuse a word in account names, display names and chat from now on (names already taken
    stay)."""
    admin = admin_of(request)
    word = normal_word(body.word)
    if not await admin.db.run(admin.store.add_word, word):
        raise ServerError("word_listed", f"{word!r} is refused already", 409)
    safety_of(request).forget_words()
    await admin.audit(me.user.name, "add_word", word)
    return {"added": word}


@router.delete("/refused-words/{word}")
async def remove_word(request: Request, word: str, me: AdminAccount) -> dict[str, Any]:
    admin = admin_of(request)
    word = normal_word(word)
    if not await admin.db.run(admin.store.remove_word, word):
        raise ServerError("no_word", f"{word!r} is not refused", 404)
    safety_of(request).forget_words()
    await admin.audit(me.user.name, "remove_word", word)
    return {"removed": word}


@router.get("/audit")
async def audit_log(
    request: Request, action: Annotated[str | None, Query(max_length=40)] = None, limit: Limit = None
) -> dict[str, Any]:
    """The admin actions, newest first (of one kind, if `action` is given)."""
    admin = admin_of(request)
    return {"actions": await admin.db.run(admin.store.audit_log, admin.limit(limit), action)}


# --- the password reset, for the account's owner -------------------------------------------------------
