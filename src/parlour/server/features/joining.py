"""Who a seat is taken for: a guest, or the signed-in account the seat then belongs to."""

from __future__ import annotations

from fastapi import Request

from parlour.server.authority.table import hash_token
from parlour.server.features.accounts import SignedIn, accounts_of, check_csrf


async def joining_account(request: Request, csrf: str | None) -> SignedIn | None:
    """The account a join is made for: None for a guest. A signed-in join gives the seat to the
    account, so it must carry the CSRF token like any other request the cookie authorises."""
    account = await accounts_of(request).signed_in(request)
    if account is not None:
        check_csrf(account, csrf)
    return account


def seat_owner(account: SignedIn | None, rated: bool) -> tuple[int | None, bool, str | None]:
    """The `user_id, rated, session_hash` of Hub.join for a join by `account` (None: a guest): the
    seat is the account's from the same transaction that takes it."""
    if account is None:
        return None, False, None
    return account.user.id, rated, hash_token(account.token)
