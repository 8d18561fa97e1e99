"""Accounts over HTTP: sign up, sign in, sign out (here or everywhere), change password, and a
guest's seat claimed into an account.

A signed-in browser holds a session cookie (HttpOnly, SameSite=Lax, Secure behind https) with a
random token whose SHA-256 alone is stored. Every state-changing request that the cookie authorises
must also carry the session's CSRF token in the `X-CSRF-Token` header: a page of another site can
make the browser send the cookie, but cannot read the token (it is answered only to this site's
pages and derived from the cookie's secret). Passwords are hashed with Argon2id (argon2-cffi) and
are never stored, logged or echoed in an error. Guests keep playing by seat token as before.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Header, Request, Response
from pydantic import Field

from parlour.server.authority.hub import Hub
from parlour.server.authority.table import hash_token
from parlour.server.db.account_store import AccountStore, User
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log
from parlour.server.edge.quotas import Buckets, client_address
from parlour.server.edge.requests import Strict, bearer, hub_of
from parlour.server.settings import Settings

SESSION_COOKIE = "parlour_session"
# A browser that has signed in to an account with its password: it passes the slower per-account
# sign-in limit with the right password, so guessing from elsewhere cannot lock the owner out.
DEVICE_COOKIE = "parlour_device"
DEVICE_DAYS = 365
CSRF_HEADER = "X-CSRF-Token"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{2,39}")  # "\-": also valid in an HTML pattern
NAME_RULE = "3 to 40 letters, digits, '_', '.' or '-' (from A-Z, a-z, 0-9), starting with a letter or digit"
PASSWORD_MIN, PASSWORD_MAX = 8, 200

router = APIRouter()
T = TypeVar("T")


@dataclass(frozen=True)
class SignedIn:
    """The account a request's session cookie signs in, and that session's token."""

    user: User
    token: str

    @property
    def csrf(self) -> str:
        return csrf_token(self.token)


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: derived from the cookie's secret, so nothing more is stored,
    and unknowable to a page that cannot read the cookie (HttpOnly)."""
    return hmac.new(session_token.encode(), b"parlour csrf", hashlib.sha256).hexdigest()


class Accounts:
    """Hashing, sessions and the sign-in limits of one server."""

    def __init__(self, settings: Settings, hub: Hub) -> None:
        self.settings = settings
        self.hub = hub
        self.db = hub.db  # the database runner (server/db/runner.py)
        self.store = AccountStore(hub.store.engine)
        self.hasher = PasswordHasher(time_cost=settings.password_time_cost, memory_cost=settings.password_memory_kib)
        # Failed sign-ins per (account name, client address), and per account name from anywhere
        # (slower; a correct password from a known device passes it); every attempt per address.
        self.by_pair = Buckets(settings.signin_rate, settings.signin_burst)
        self.by_account = Buckets(settings.signin_account_rate, settings.signin_account_burst)
        self.by_client = Buckets(settings.signin_client_rate, settings.signin_client_burst)
        # Hashings at once: each holds password_memory_kib while it runs, so this bounds their memory.
        self.hashings = CapacityLimiter(settings.password_hashings)
        self.hashing = 0  # running and waiting
        # Verified against when the name is unknown, so that a wrong name costs the same time as a
        # wrong password and does not tell which names exist.
        self.decoy: str | None = None

    async def _hash_work(self, work: Callable[[], T]) -> T:
        """Run one hashing on a thread, at most `password_hashings` at once; beyond
        `password_queue` waiting, refused with 503 (the memory for hashing stays bounded)."""
        settings = self.settings
        if self.hashing >= settings.password_hashings + settings.password_queue:
            raise ServerError("busy", "the server is checking many passwords at once; try again in a moment", 503)
        self.hashing += 1
        try:
            return await anyio.to_thread.run_sync(work, limiter=self.hashings)
        finally:
            self.hashing -= 1

    async def hash(self, password: str) -> str:
        return await self._hash_work(lambda: str(self.hasher.hash(password)))

    async def verify(self, user: User | None, password: str) -> bool:
        if self.decoy is None:
            self.decoy = await self.hash(secrets.token_urlsafe(16))
        stored = user.password_hash if user is not None else self.decoy

        def check() -> bool:
            try:
                return bool(self.hasher.verify(stored, password))
            except (VerificationError, InvalidHashError):
                return False

        matched = await self._hash_work(check)
        return matched and user is not None

    @staticmethod
    def _pair(name: str, client: str) -> str:
        return f"{name.lower()} {client}"

    def limit(self, name: str, client: str, known_device: bool = False) -> None:
        """Before a password is checked: every attempt counts against the client address; an
        account name that has had `signin_burst` failures from this address lately takes no
        attempt from it, right or wrong; and one that has had `signin_account_burst` failures from
        anywhere takes attempts only from a device that has signed in to it before."""
        if not self.by_client.take(client):
            pace = self.by_client.pace()
            raise ServerError("rate_limited", f"too many sign-in attempts from your address: {pace}", 429)
        failures = self.by_pair.buckets.get(self._pair(name, client))
        if failures is not None and failures.refill() < 1:
            pace = self.by_pair.pace()
            raise ServerError(
                "rate_limited", f"too many failed sign-ins for this account from your address: {pace}", 429
            )
        failures = self.by_account.buckets.get(name.lower())
        if not known_device and failures is not None and failures.refill() < 1:
            pace = self.by_account.pace()
            raise ServerError(
                "rate_limited",
                f"too many failed sign-ins for this account lately: {pace}; a device that has signed in "
                "to it before may still sign in",
                429,
            )

    def failed(self, name: str, client: str) -> None:
        """A wrong password for this account name (known or not) counts against it, from this
        address and from anywhere."""
        self.by_pair.take(self._pair(name, client))
        self.by_account.take(name.lower())
        self.hub.metrics.signin_failures.inc()

    async def known_device(self, request: Request, user: User | None) -> bool:
        """Whether the request's device cookie is one that signed in to `user` with its password."""
        token = request.cookies.get(DEVICE_COOKIE)
        if user is None or not token or len(token) > 100:
            return False
        return bool(await self.db.run(self.store.device_user, hash_token(token)) == user.id)

    async def remember_device(self, request: Request, response: Response, user: User) -> None:
        """After the right password: this browser is a known device of the account from now on."""
        if await self.known_device(request, user):
            return
        token = secrets.token_urlsafe(32)
        await self.db.run(self.store.add_device, hash_token(token), user.id)
        response.set_cookie(
            DEVICE_COOKIE,
            token,
            max_age=DEVICE_DAYS * 86400,
            path="/api/account",
            httponly=True,
            samesite="strict",
            secure=self.secure(request),
        )

    async def open_session(self, request: Request, response: Response, user: User) -> SignedIn:
        token = secrets.token_urlsafe(32)
        lasts = timedelta(days=self.settings.session_days)
        await self.db.run(self.store.open_session, hash_token(token), user.id, lasts)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=int(lasts.total_seconds()),
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.secure(request),
        )
        return SignedIn(user, token)

    def secure(self, request: Request) -> bool:
        if self.settings.secure_cookies is not None:
            return self.settings.secure_cookies
        public = self.settings.public_url or ""
        return request.url.scheme == "https" or public.startswith("https://")

    async def retire_seat_tokens(self, user_id: int, keep: str | None) -> None:
        """The seat tokens handed to the account's sessions but `keep` stop working, here and on
        every other process; a device playing with one is let go of (it resumes when signed in)."""
        retired = await self.db.run(self.store.retire_seat_tokens, user_id, keep)
        for table_id, seat, token_hash in retired:
            table = self.hub.tables.get(table_id) or self.hub.held.get(table_id)
            if table is not None:
                async with table.lock:
                    table.seats[seat].token_hash = token_hash
                for client in list(table.clients):
                    if client.seat == seat:
                        client.close(4003, "this seat's token was retired: sign in and resume the game")
            await self.hub.announce_seats(table_id)
        if retired:
            log.info("seat tokens retired", extra={"event": "seat_tokens_retired", "seats": len(retired)})

    def forget(self, request: Request, response: Response) -> None:
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=self.secure(request))

    async def signed_in(self, request: Request) -> SignedIn | None:
        """The account of the request's session cookie; None without a (valid) one."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 100:
            return None
        user = await self.db.run(self.store.session_user, hash_token(token))
        return None if user is None else SignedIn(user, token)

    async def authorise(self, request: Request, csrf: str | None) -> SignedIn:
        """The signed-in account of a state-changing request, with its CSRF token checked."""
        account = await self.signed_in(request)
        if account is None:
            raise ServerError("not_signed_in", "sign in first (no valid session cookie was sent)", 401)
        check_csrf(account, csrf)
        return account


def check_csrf(account: SignedIn, csrf: str | None) -> None:
    if csrf is None or not hmac.compare_digest(csrf.encode(), account.csrf.encode()):
        raise ServerError(
            "bad_csrf", f"a request signed in by cookie must send the session's {CSRF_HEADER} header", 403
        )


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def account_json(account: SignedIn) -> dict[str, Any]:
    user = account.user
    return {"signed_in": True, "name": user.name, "created_at": user.created_at.isoformat(), "csrf_token": account.csrf}


CsrfHeader = Annotated[str | None, Header(alias=CSRF_HEADER, description="the session's CSRF token")]


class Credentials(Strict):
    name: str = Field(min_length=1, max_length=40, description=f"the account's name: {NAME_RULE}")
    password: str = Field(
        min_length=PASSWORD_MIN, max_length=PASSWORD_MAX, description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters"
    )


class NewPassword(Strict):
    password: str = Field(max_length=PASSWORD_MAX, description="the current password")
    new_password: str = Field(
        min_length=PASSWORD_MIN, max_length=PASSWORD_MAX, description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters"
    )


@router.post("/api/account/signup", status_code=201, tags=["accounts"])
async def sign_up(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    """Open an account and sign in. The answer's csrf_token goes in the X-CSRF-Token header of
    every state-changing request from now on."""
    accounts = accounts_of(request)
    if not NAME_PATTERN.fullmatch(body.name):
        raise ServerError("bad_name", f"an account name is {NAME_RULE}", 422)
    await request.app.state.safety.check_name(body.name, "account name")
    accounts.limit(body.name, client_address(request))
    user = await accounts.db.run(accounts.store.create_user, body.name, await accounts.hash(body.password))
    if user is None:
        raise ServerError("name_taken", f"the name {body.name!r} is taken; choose another", 409)
    log.info("account opened", extra={"event": "signed_up", "user": user.name})
    signed_in = await accounts.open_session(request, response, user)
    await accounts.remember_device(request, response, user)
    return account_json(signed_in)


@router.post("/api/account/signin", tags=["accounts"])
async def sign_in(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    """Sign in with name and password. Attempts are limited per account and per client address."""
    accounts, client = accounts_of(request), client_address(request)
    user = await accounts.db.run(accounts.store.user_named, body.name)
    accounts.limit(body.name, client, await accounts.known_device(request, user))
    if not await accounts.verify(user, body.password) or user is None:
        accounts.failed(body.name, client)
        log.info("sign-in refused", extra={"event": "signin_refused", "user": body.name[:40]})
        raise ServerError("bad_credentials", "no account has this name and password", 401)
    await request.app.state.admin.refuse_disabled(user.id)
    if accounts.hasher.check_needs_rehash(user.password_hash):
        await accounts.db.run(accounts.store.set_password, user.id, await accounts.hash(body.password))
    log.info("signed in", extra={"event": "signed_in", "user": user.name})
    signed_in = await accounts.open_session(request, response, user)
    await accounts.remember_device(request, response, user)
    return account_json(signed_in)


@router.get("/api/account/rules", tags=["accounts"])
async def rules() -> dict[str, Any]:
    """What an account's name and password must be, for a sign-up form to state before a try."""
    return {
        "name": NAME_RULE,
        "name_pattern": NAME_PATTERN.pattern,
        "name_max": 40,
        "password": f"{PASSWORD_MIN} to {PASSWORD_MAX} characters",
        "password_min": PASSWORD_MIN,
        "password_max": PASSWORD_MAX,
    }


@router.get("/api/account", tags=["accounts"])
async def who_am_i(request: Request) -> dict[str, Any]:
    """The signed-in account and its CSRF token, or `{"signed_in": false}` without a valid session
    (an answer, not an error: a guest's page asks this on every load)."""
    account = await accounts_of(request).signed_in(request)
    if account is None:
        return {"signed_in": False}
    return account_json(account)


@router.post("/api/account/signout", tags=["accounts"])
async def sign_out(request: Request, response: Response, csrf: CsrfHeader = None) -> dict[str, Any]:
    """End this browser's session."""
    accounts = accounts_of(request)
    account = await accounts.authorise(request, csrf)
    await accounts.db.run(accounts.store.close_session, hash_token(account.token))
    accounts.forget(request, response)
    return {"signed_out": 1}


@router.post("/api/account/signout-everywhere", tags=["accounts"])
async def sign_out_everywhere(request: Request, response: Response, csrf: CsrfHeader = None) -> dict[str, Any]:
    """End every session of the account, on every device, this one included."""
    accounts = accounts_of(request)
    account = await accounts.authorise(request, csrf)
    ended = await accounts.db.run(accounts.store.close_sessions, account.user.id, None)
    await accounts.retire_seat_tokens(account.user.id, None)
    accounts.forget(request, response)
    log.info("signed out everywhere", extra={"event": "signed_out_everywhere", "user": account.user.name})
    return {"signed_out": ended}


@router.post("/api/account/password", tags=["accounts"])
async def change_password(request: Request, body: NewPassword, csrf: CsrfHeader = None) -> dict[str, Any]:
    """Change the password (the current one is asked again); every other session is signed out."""
    accounts = accounts_of(request)
    account = await accounts.authorise(request, csrf)
    client = client_address(request)
    accounts.limit(account.user.name, client, known_device=True)  # signed in: this device is known
    if not await accounts.verify(account.user, body.password):
        accounts.failed(account.user.name, client)
        raise ServerError("bad_credentials", "the current password is not right", 401)
    await accounts.db.run(accounts.store.set_password, account.user.id, await accounts.hash(body.new_password))
    ended = await accounts.db.run(accounts.store.close_sessions, account.user.id, hash_token(account.token))
    await accounts.retire_seat_tokens(account.user.id, hash_token(account.token))
    log.info("password changed", extra={"event": "password_changed", "user": account.user.name})
    return {"changed": True, "signed_out": ended}


@router.post("/api/tables/{table_id}/claim", tags=["accounts"])
async def claim_seat(
    request: Request,
    table_id: str,
    authorization: Annotated[str | None, Header()] = None,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """Claim the guest seat that the Bearer seat token holds into the signed-in account, so that it
    is listed in the account's games. The token keeps working."""
    accounts = accounts_of(request)
    account = await accounts.authorise(request, csrf)
    token = bearer(authorization)
    table = await hub_of(request).table(table_id)
    holder = table.seat_with_token(token)
    if holder is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    linked = await accounts.db.run(accounts.store.link_seat, table.id, holder.index, hash_token(token), account.user.id)
    if linked is None:
        raise ServerError("bad_token", "this token holds no seat at this table", 403)
    if not linked:
        raise ServerError("seat_claimed", f"seat {holder.index} already belongs to another account", 409)
    return {"table": table.id, "seat": holder.index, "account": account.user.name}
