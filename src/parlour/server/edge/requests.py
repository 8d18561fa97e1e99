"""What every router shares: the strict request body base, and how a request finds its hub,
settings and seat."""

from __future__ import annotations

from fastapi import Request, WebSocket
from pydantic import BaseModel, ConfigDict

from parlour.server.authority.hub import Hub
from parlour.server.authority.table import LiveTable
from parlour.server.edge.errors import ServerError
from parlour.server.settings import Settings


class Strict(BaseModel):
    """A request body: no unknown fields, and every value of the JSON type declared (strict:
    "2" is not a number and true is not 1, as on the websocket)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def settings_of(request: Request | WebSocket) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def base_url(request: Request) -> str:
    """Where this server is reached: the configured public URL, else the request's own."""
    return (settings_of(request).public_url or str(request.base_url)).rstrip("/")


def invite(request: Request, table: LiveTable) -> str:
    return f"{base_url(request)}/invite/{table.id}"


def bearer(authorization: str | None) -> str:
    if not authorization:
        raise ServerError("no_token", "send your seat token as 'Authorization: Bearer <token>'", 401)
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError("no_token", "send your seat token as 'Authorization: Bearer <token>'", 401)
    return token.strip()
