"""Players' safety: blocking a player, reporting a player or a chat message to the admins, and the
server-wide list of refused words for names and chat.

A block is one account's choice about another: the blocked account's chat is not sent to the
blocker's seats nor shown in the chat history the blocker reads, and the blocked account cannot
join a table the blocker opened (signed in). Guests and spectators have no account, so a block
reaches them only where they are signed in. A report copies the message and the chat around it,
so that removing the message keeps the evidence for the admins.
"""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from parlour.server.authority.hub import Hub
from parlour.server.authority.table import LiveTable
from parlour.server.db.community_store import CommunityStore
from parlour.server.edge.errors import ServerError
from parlour.server.edge.quotas import Buckets
from parlour.server.edge.requests import Strict
from parlour.server.features.accounts import CsrfHeader, SignedIn, accounts_of, check_csrf
from parlour.server.settings import Settings

router = APIRouter()

WORD_PATTERN = re.compile(r"[^\W_]+(?:[-' ][^\W_]+)*")
WORD_RULE = "1 to 64 letters or digits (words may be joined by a space, '-' or an apostrophe)"


def normal_word(word: str) -> str:
    """A refused word as it is kept: lower case, trimmed; ServerError if it is not a word."""
    word = " ".join(word.split()).lower()
    if not 1 <= len(word) <= 64 or not WORD_PATTERN.fullmatch(word):
        raise ServerError("bad_word", f"a refused word is {WORD_RULE}, got {word[:70]!r}", 422)
    return word


def refused_in(text: str, words: list[str], whole_words: bool) -> bool:
    """Whether `text` holds a refused word: anywhere in a name (names have no spaces to hide
    behind), as a whole word in chat (so that a refused word inside an innocent one is no match)."""
    lowered = text.lower()
    if not whole_words:
        return any(word in lowered for word in words)
    return any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", lowered) for word in words)


class Safety:
    """Blocks, reports and refused words for one server process."""

    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = CommunityStore(hub.store.engine)
        self.reports_by_account = Buckets(settings.report_rate, settings.report_burst)
        self._words: list[str] = []
        self._words_read = -float("inf")

    # --- refused words --------------------------------------------------------------------------

    async def words(self) -> list[str]:
        """The refused words, read again from the database after refused_words_seconds."""
        if time.monotonic() - self._words_read >= self.settings.refused_words_seconds:
            self._words = await self.db.run(self.store.refused_words)
            self._words_read = time.monotonic()
        return self._words

    def forget_words(self) -> None:
        """The list was just edited here: read it again at the next check."""
        self._words_read = -float("inf")

    async def check_name(self, name: str, what: str) -> None:
        if refused_in(name, await self.words(), whole_words=False):
            raise ServerError("refused_word", f"this {what} holds a word this server refuses; choose another", 422)

    async def check_chat(self, text: str) -> None:
        if refused_in(text, await self.words(), whole_words=True):
            raise ServerError("refused_word", "this message holds a word this server refuses; nothing was sent", 422)

    # --- blocks ---------------------------------------------------------------------------------

    async def hidden_from(self, table: LiveTable, author_seat: int) -> set[int]:
        """The seats of the table whose accounts block the account of `author_seat`."""
        accounts: dict[int, int] = await self.db.run(self.store.seat_accounts, table.id)
        author = accounts.get(author_seat)
        if author is None or len(accounts) < 2:
            return set()
        pairs = await self.db.run(self.store.blocks_among, list(set(accounts.values())))
        blockers = {blocker for blocker, blocked in pairs if blocked == author}
        return {seat for seat, account in accounts.items() if account in blockers}

    async def visible(self, request: Request, table_id: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The chat messages the request's signed-in account has not hidden by a block."""
        account = await accounts_of(request).signed_in(request)
        if account is None or not messages:
            return messages
        accounts: dict[int, int] = await self.db.run(self.store.seat_accounts, table_id)
        me = account.user.id
        pairs = await self.db.run(self.store.blocks_among, list({me, *accounts.values()}))
        blocked = {b for a, b in pairs if a == me}
        return [message for message in messages if accounts.get(message["seat"]) not in blocked]

    async def opener(self, request: Request, csrf: str | None) -> int | None:
        """The account opening a table: the signed-in one if the request carries its CSRF token
        (a wrong token is refused before anything is opened), else None (nobody's table)."""
        account = await accounts_of(request).signed_in(request)
        if account is None or csrf is None:
            return None
        check_csrf(account, csrf)
        return account.user.id

    async def record_owner(self, table_id: str, user_id: int | None) -> None:
        """Remember who opened the table, so that the accounts it blocks cannot join."""
        if user_id is not None:
            await self.db.run(self.store.set_owner, table_id, user_id)

    async def may_join(self, table_id: str, account: SignedIn | None) -> None:
        if account is not None and await self.db.run(self.store.owner_blocks, table_id, account.user.id):
            raise ServerError("blocked", "the player who opened this table has blocked you", 403)

    async def account_named(self, name: str) -> int:
        user_id: int | None = await self.db.run(self.store.user_id, name[:64])
        if user_id is None:
            raise ServerError("no_account", f"there is no account named {name[:64]!r}", 404)
        return user_id


def safety_of(request: Any) -> Safety:
    safety: Safety = request.app.state.safety
    return safety


class BlockBody(Strict):
    name: str = Field(min_length=1, max_length=40, description="the account to block")


class ReportBody(Strict):
    reason: str = Field(min_length=1, max_length=1000, description="what is wrong, in a few words")
    player: str | None = Field(default=None, max_length=40, description="the account reported")
    table: str | None = Field(default=None, max_length=32, description="the table of the reported message")
    message: int | None = Field(default=None, ge=1, description="the chat message reported (its id)")


@router.get("/api/account/blocks", tags=["safety"])
async def blocks(request: Request) -> dict[str, Any]:
    """The accounts the signed-in account blocks."""
    account = await accounts_of(request).signed_in(request)
    if account is None:
        raise ServerError("not_signed_in", "sign in first (no valid session cookie was sent)", 401)
    safety = safety_of(request)
    return {"blocked": await safety.db.run(safety.store.blocked_names, account.user.id)}


@router.post("/api/account/blocks", status_code=201, tags=["safety"])
async def block(request: Request, body: BlockBody, csrf: CsrfHeader = None) -> dict[str, Any]:
    """Block a player: their chat is hidden from you, and they cannot join a table you open."""
    account = await accounts_of(request).authorise(request, csrf)
    safety = safety_of(request)
    blocked = await safety.account_named(body.name)
    if blocked == account.user.id:
        raise ServerError("bad_block", "you cannot block yourself", 422)
    added = await safety.db.run(safety.store.block, account.user.id, blocked)
    return {"blocked": body.name, "already": not added}


@router.delete("/api/account/blocks/{name}", tags=["safety"])
async def unblock(request: Request, name: str, csrf: CsrfHeader = None) -> dict[str, Any]:
    account = await accounts_of(request).authorise(request, csrf)
    safety = safety_of(request)
    blocked = await safety.account_named(name)
    if not await safety.db.run(safety.store.unblock, account.user.id, blocked):
        raise ServerError("not_blocked", f"you do not block {name[:40]!r}", 404)
    return {"unblocked": name}


@router.post("/api/reports", status_code=201, tags=["safety"])
async def report(request: Request, body: ReportBody, csrf: CsrfHeader = None) -> dict[str, Any]:
    """Report a player, or a chat message (with its table), to the admins."""
    account = await accounts_of(request).authorise(request, csrf)
    safety = safety_of(request)
    if body.player is None and body.message is None:
        raise ServerError("bad_report", "name the player or the chat message (with its table) you report", 422)
    if (body.message is None) != (body.table is None):
        raise ServerError("bad_report", "a reported message is given by its table and its id, both", 422)
    if body.player is not None:
        await safety.account_named(body.player)
    context: list[dict[str, Any]] = []
    if body.table is not None and body.message is not None:
        found = await safety.db.run(safety.store.chat_around, body.table, body.message, safety.settings.report_context)
        if found is None:
            raise ServerError("no_message", f"table {body.table!r} has no chat message {body.message}", 404)
        context = found
    if not safety.reports_by_account.take(account.user.name.lower()):
        raise ServerError(
            "rate_limited", f"too many reports from your account: {safety.reports_by_account.pace()}", 429
        )
    number = await safety.db.run(
        safety.store.report, account.user.name, body.player, body.table, body.message, body.reason, context
    )
    return {"report": number}
