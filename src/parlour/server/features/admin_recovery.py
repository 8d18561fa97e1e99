"""Getting back in: a new password with the one-time code an admin gave (POST /api/account/reset),
and the first admin granted straight in the database from the command line."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from parlour.server.authority.table import hash_token
from parlour.server.db.community_store import CommunityStore
from parlour.server.db.store import Store
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.quotas import client_address
from parlour.server.edge.requests import Strict
from parlour.server.features.accounts import (
    NAME_RULE,
    PASSWORD_MAX,
    PASSWORD_MIN,
    accounts_of,
)
from parlour.server.features.admin import admin_of

reset_router = APIRouter()


class ResetBody(Strict):
    name: str = Field(min_length=1, max_length=40, description=f"the account's name: {NAME_RULE}")
    code: str = Field(min_length=1, max_length=100, description="the one-time code an admin gave you")
    new_password: str = Field(
        min_length=PASSWORD_MIN, max_length=PASSWORD_MAX, description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters"
    )


@reset_router.post("/api/account/reset", tags=["accounts"])
async def reset_password(request: Request, body: ResetBody) -> dict[str, Any]:
    """Set a new password with a one-time code from an admin. Every session of the account ends;
    sign in with the new password. Attempts count as sign-in attempts."""
    accounts, admin = accounts_of(request), admin_of(request)
    accounts.limit(body.name, client_address(request))
    user_id: int | None = await admin.db.run(admin.store.user_id, body.name)
    hashed = await accounts.hash(body.new_password)
    if user_id is None or not await admin.db.run(admin.store.use_reset_code, user_id, hash_token(body.code), hashed):
        accounts.failed(body.name, client_address(request))
        raise ServerError("bad_code", "this code does not reset this account's password (wrong, used or expired)", 401)
    log.info("password reset", extra={"event": "password_reset", "user": body.name})
    return {"reset": True, "name": body.name}


# --- the first admin, from the command line ------------------------------------------------------------


def grant_from_command_line(url: str, name: str, admin: bool) -> bool:
    """Grant (or revoke) the admin role straight in the database, brought to the newest schema
    first; written to the audit log as done by `command line`. Whether anything changed.
    Raises LookupError for an unknown account."""
    store = Store(url)
    try:
        store.migrate()
        community = CommunityStore(store.engine)
        user_id = community.user_id(name)
        if user_id is None:
            raise LookupError(f"there is no account named {name!r}")
        changed = community.set_admin(user_id, admin)
        if changed:
            community.audit("command line", "grant" if admin else "revoke", name, {})
        return changed
    finally:
        store.close()
