"""Table chat: messages from the seats to everybody at the table (seats and spectators), stored,
limited in length and in rate per seat, over the websocket (`chat` messages) and HTTP.

A message is plain text: the server keeps and sends exactly what was written (control and
bidirectional-control characters are refused by the input guard, like everywhere), and clients
show it as text, never as HTML. Muting is each reader's own choice, made in the client.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import Field
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from parlour.server.authority.events import NoticeHeard
from parlour.server.authority.hub import Hub
from parlour.server.authority.table import LiveTable
from parlour.server.db.models import ChatRow, now
from parlour.server.db.store import Store
from parlour.server.edge.errors import ServerError
from parlour.server.edge.quotas import Buckets
from parlour.server.edge.requests import Strict, bearer, hub_of
from parlour.server.edge.text import check_visible
from parlour.server.features.safety import Safety
from parlour.server.settings import Settings

router = APIRouter()


def _json(table_id: str, row: ChatRow) -> dict[str, Any]:
    sent = row.sent_at if row.sent_at.tzinfo else row.sent_at.replace(tzinfo=UTC)
    return {
        "type": "chat",
        "table": table_id,
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "sent_at": sent.isoformat(),
    }


class ChatStore:
    def __init__(self, engine: Engine, store: Store | None = None) -> None:
        self.engine = engine
        self.store = store  # announces each message to the other processes (server/cluster.py)

    def add(self, table_id: str, seat: int, name: str | None, text: str, sent_at: datetime) -> dict[str, Any]:
        row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, sent_at=sent_at)
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.add(row)
            if self.store is not None and self.store.channel is not None:
                session.flush()
                self.store.announce(session.connection(), [f"c {self.store.origin} {table_id} {row.id}"])
        return _json(table_id, row)

    def one(self, table_id: str, message_id: int) -> dict[str, Any] | None:
        with Session(self.engine) as session:
            row = session.get(ChatRow, message_id)
            return None if row is None or row.table_id != table_id else _json(table_id, row)

    def recent(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        """The table's last `limit` messages, oldest first."""
        with Session(self.engine) as session:
            rows = list(
                session.scalars(
                    select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit)
                )
            )
            return [_json(table_id, row) for row in reversed(rows)]


class Chat:
    """The chat of every table of one server."""

    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = ChatStore(hub.store.engine, hub.store)
        self.by_seat = Buckets(settings.chat_rate, settings.chat_burst)
        # Refused words and blocks (server/safety.py); the app shares one with its routes.
        self.safety: Safety = Safety(settings, hub)
        hub.events.subscribe(NoticeHeard, self._heard)

    def _heard(self, event: NoticeHeard) -> None:
        """A message written on another process: sent to this process's clients of the table."""
        notice = event.notice
        if notice.kind != "c":
            return
        table = self.hub.tables.get(notice.table_id) or self.hub.held.get(notice.table_id)
        if table is None or not table.clients or notice.number is None or self.hub.cluster is None:
            return
        number = notice.number

        async def send() -> None:
            message = await self.db.run(self.store.one, table.id, number)
            if message is not None:
                _send_all(table, message, await self.safety.hidden_from(table, message["seat"]))

        self.hub.cluster.soon("c", f"{table.id}/{number}", send)

    async def say(self, table: LiveTable, seat: int, text: str) -> dict[str, Any]:
        """Store a seat's message and send it to every client of the table; refused (and nothing
        stored or sent) when empty, too long, or over the seat's rate."""
        text = text.strip()
        if not text:
            raise ServerError("empty_chat", "a chat message needs some text", 422)
        check_visible(text, "a chat message")
        if table.seats[seat].is_bot:
            raise ServerError("bot_seat", f"seat {seat} is played by a bot now; it says nothing", 409)
        most = self.settings.chat_max_chars
        if len(text) > most:
            raise ServerError(
                "chat_too_long", f"a chat message has at most {most} characters, this one {len(text)}", 422
            )
        await self.safety.check_chat(text)
        if not self.by_seat.take(f"{table.id}/{seat}"):
            raise ServerError("rate_limited", f"too many chat messages from your seat: {self.by_seat.pace()}", 429)
        name = table.seats[seat].name
        message: dict[str, Any] = await self.db.run(self.store.add, table.id, seat, name, text, now())
        _send_all(table, message, await self.safety.hidden_from(table, seat))
        return message

    async def history(self, table: LiveTable) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = await self.db.run(self.store.recent, table.id, self.settings.chat_history)
        return messages


def _send_all(table: LiveTable, message: dict[str, Any], hidden: set[int]) -> None:
    """Send to every client of the table but those of the seats that block the author."""
    encoded = json.dumps(message)
    for client in list(table.clients):
        if client.seat is None or client.seat not in hidden:
            client.send_text(encoded)


def chat_of(request: Any) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


class ChatMessage(Strict):
    text: str = Field(max_length=4000, description="the message, plain text (shown as text, never as HTML)")


@router.get("/api/tables/{table_id}/chat", tags=["chat"])
async def chat_history(request: Request, table_id: str) -> dict[str, Any]:
    """The table's latest chat messages (chat_history of them), oldest first; public to the table's
    audience like the table itself."""
    table = await hub_of(request).table(table_id)
    messages = await chat_of(request).history(table)
    return {"table": table.id, "messages": await chat_of(request).safety.visible(request, table.id, messages)}


@router.post("/api/tables/{table_id}/chat", status_code=201, tags=["chat"])
async def chat_say(
    request: Request, table_id: str, body: ChatMessage, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Say something to the table from the token's seat (the websocket's `chat` message does the same)."""
    table = await hub_of(request).table(table_id)
    holder = table.seat_with_token(bearer(authorization))
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    return await chat_of(request).say(table, holder.index, body.text)
