"""The commitment to a table's deal, and how anybody checks it once the game is over.

A table's seed decides every hidden card, token and draw. When a table is created the server
publishes `commitment = SHA-256(salt ":" seed)`, where `salt` is 32 secret random bytes; seed and
salt are revealed only when the game is over. Whoever kept the commitment can then check that the
deal was fixed before the first move and never changed, and replay the game from the seed.

The exact bytes hashed (format `COMMITMENT_FORMAT`): the ASCII text made of the salt as 64
lowercase hexadecimal digits, one colon, and the seed in decimal (no sign, no leading zeros):

    hashlib.sha256(f"{salt}:{seed}".encode("ascii")).hexdigest() == commitment

Standard library only: `parlour verify-deal` runs without the server's extra.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import ParlourError

COMMITMENT_FORMAT = "sha256(salt:seed)"
SALT_BYTES = 32
# The server draws seeds below this bound (the seed a table's creator may give has the same bound).
MAX_SEED = 2**62
_HEX64 = re.compile(r"[0-9a-f]{64}")
_TABLE_PATHS = (
    re.compile(r"^/invite/([A-Za-z0-9_-]{1,32})$"),
    re.compile(r"^/api/tables/([A-Za-z0-9_-]{1,32})(?:/.*)?$"),
)


class DealError(ParlourError):
    """A deal that cannot be checked (malformed values, a table that cannot be read) or that fails."""


def new_seed() -> int:
    return secrets.randbelow(MAX_SEED)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def preimage(seed: int, salt: str) -> bytes:
    """The exact bytes the commitment hashes."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DealError(f"a seed is a whole number from 0, not {seed!r}")
    if not isinstance(salt, str) or not _HEX64.fullmatch(salt):
        raise DealError("a salt is 64 lowercase hexadecimal digits")
    return f"{salt}:{seed}".encode("ascii")


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(preimage(seed, salt)).hexdigest()


def matches(seed: int, salt: str, published: str) -> bool:
    return hmac.compare_digest(commitment(seed, salt), published.strip().lower())


def bot_seed(seed: int, salt: str, seat: int) -> int:
    """A bot's own seed on a table whose deal the server drew: derived from the salt as well, so
    that a bot's moves tell nothing about the table's seed (a bot seeded from the seed alone would
    let somebody who watches it search for the seed). Reproducible once both are revealed."""
    digest = hashlib.sha256(b"bot:" + preimage(seed, salt) + f":{seat}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 2


@dataclass(frozen=True)
class Deal:
    """What a table publishes about its deal. `salt` and `commitment` are None for a table created
    before deals were committed; `fixed` is True when the table's creator chose the seed."""

    salt: str | None
    commitment: str | None
    fixed: bool = False

    @classmethod
    def drawn(cls, seed: int, fixed: bool) -> Deal:
        salt = new_salt()
        return cls(salt, commitment(seed, salt), fixed)

    def to_json(self, seed: int, revealed: bool) -> dict[str, Any]:
        """The deal as every client is shown it; seed and salt only once `revealed` (the game is over).

        The seed is given as a decimal string: the commitment hashes its exact digits, and a
        JavaScript number loses digits above 2**53."""
        return {
            "fixed": self.fixed,
            "format": COMMITMENT_FORMAT if self.commitment else None,
            "commitment": self.commitment,
            "seed": str(seed) if revealed else None,
            "salt": self.salt if revealed else None,
        }


# --- checking a finished table from outside (`parlour verify-deal`) --------------------------------


def check(seed: int, salt: str, published: str) -> str:
    """The commitment of `seed` and `salt` if it is `published`; raises DealError if not."""
    if not _HEX64.fullmatch(published.strip().lower()):
        raise DealError("a commitment is 64 hexadecimal digits")
    computed = commitment(seed, salt)
    if not matches(seed, salt, published):
        raise DealError(f"the deal does not match: sha256(salt:seed) is {computed}, the commitment is {published}")
    return computed


def api_base_and_table(url: str) -> tuple[str, str]:
    """The server's base URL and the table id of an invite link, a table or replay page, or an API URL."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise DealError(f"give the table's address, such as http://127.0.0.1:8000/invite/ID, not {url!r}")
    base = f"{parts.scheme}://{parts.netloc}"
    query = urllib.parse.parse_qs(parts.query)
    for key in ("table", "replay"):
        if query.get(key):
            return base, query[key][0]
    for pattern in _TABLE_PATHS:
        found = pattern.match(parts.path)
        if found:
            return base, found.group(1)
    raise DealError(f"{url} names no table: expected /invite/ID, /?table=ID, /?replay=ID or /api/tables/ID")


def _get_json(url: str, timeout: float) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read().decode("utf-8"))["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = f"{error.code} {error.reason}"
        raise DealError(f"{url}: {message}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise DealError(f"cannot read {url}: {getattr(error, 'reason', error)}") from None


@dataclass(frozen=True)
class Verified:
    table: str
    seed: int
    salt: str
    commitment: str
    fixed: bool
    actions: int


def verify_table(url: str, expected: str | None = None, timeout: float = 30.0) -> Verified:
    """Check a finished table: its revealed seed and salt hash to its commitment (and to `expected`,
    the commitment noted while the game was on, when given), and its record replays from that seed
    to the published result. Raises DealError saying what fails."""
    from parlour.engine.errors import RecordError
    from parlour.engine.records import verify

    base, table_id = api_base_and_table(url)
    quoted = urllib.parse.quote(table_id, safe="")
    summary = _get_json(f"{base}/api/tables/{quoted}", timeout)
    deal = summary.get("deal") if isinstance(summary, dict) else None
    if not isinstance(deal, dict) or not deal.get("commitment"):
        raise DealError(f"table {table_id} published no commitment to its deal (it predates commitments)")
    if summary.get("status") != "finished" or deal.get("seed") is None:
        raise DealError(f"table {table_id} is not finished: seed and salt are revealed when the game is over")
    if expected is not None and expected.strip().lower() != deal["commitment"]:
        raise DealError(f"the table now shows the commitment {deal['commitment']}, not the {expected} you noted")
    try:
        seed = int(deal["seed"])
    except (TypeError, ValueError):
        raise DealError(f"the revealed seed {deal['seed']!r} is not a whole number") from None
    check(seed, deal["salt"], deal["commitment"])
    record = _get_json(f"{base}/api/tables/{quoted}/record", timeout)
    if record.get("seed") != seed:
        raise DealError(f"the game's record was played from seed {record.get('seed')}, not the revealed {seed}")
    try:
        final = verify(record)
    except RecordError as error:
        raise DealError(f"the record does not replay from the revealed seed: {error}") from None
    if summary.get("result") and final.winners() != summary["result"]["winners"]:
        raise DealError(f"replayed winners {final.winners()} differ from the table's {summary['result']['winners']}")
    return Verified(table_id, seed, deal["salt"], deal["commitment"], bool(deal.get("fixed")), len(final.history))
