"""What one server process is configured with: its database, its limits and its pace."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import parlour

# PostgreSQL's longest notice payload (server/cluster/fanout.py says what a notice carries).
PAYLOAD_LIMIT = 7999

DEFAULT_DB = "parlour.sqlite"
WEB_DIR = Path(parlour.__file__).resolve().parent / "web"


def database_url(db: str) -> str:
    """A SQLAlchemy URL for what `--db` gives: a PostgreSQL or SQLite URL, or a plain file path.

    `postgresql://` is sent through psycopg 3 (the driver the `server` extra installs), so the
    usual URL a PostgreSQL admin hands out works as it is.
    """
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return "sqlite:///" + str(Path(db).expanduser().resolve())


SAME = object()  # an option whose default is the setting's


@dataclass(frozen=True)
class Option:
    """How a setting appears as an option of `parlour serve`: the one place its help, its bounds
    and its flag are written (the command's options are generated from these)."""

    help: str
    low: float | None = None
    flag: str | None = None  # the option's spelling when it is not --the-setting-name
    serve_default: Any = SAME  # `parlour serve`'s default when it differs from the setting's

    def flags(self, name: str) -> list[str]:
        return [self.flag] if self.flag else [f"--{name.replace('_', '-')}"]


def option(default: Any, help: str, **how: Any) -> Any:
    """A setting that is also an option of `parlour serve` (every other one is given with --set)."""
    return field(default=default, metadata={"option": Option(help, **how)})


def serve_options() -> dict[str, Option]:
    """The settings `parlour serve` has an option for, in declaration order."""
    return {item.name: item.metadata["option"] for item in fields(Settings) if "option" in item.metadata}


@dataclass(frozen=True)
class Settings:
    db: str = option(DEFAULT_DB, "SQLite file (created if new) or postgresql://user:pass@host/db")
    # Biggest websocket text message the server reads; larger ones get an error and are dropped.
    max_message_bytes: int = 4096
    # Token bucket per websocket connection: `rate` messages a second on average, bursts of `burst`.
    rate: float = 50.0
    burst: int = 100
    # Pause before each bot move so that people can follow the game; 0 for tests and benchmarks.
    bot_delay: float = option(0.0, "seconds a bot waits before each move", low=0, serve_default=0.5)
    # Bot moves computed at the same time, each in a worker thread, so the event loop stays free.
    bot_threads: int = option(4, "bot moves worked out at once", low=1)
    # How long a new websocket may take to send its `hello`.
    hello_timeout: float = 10.0
    # Messages queued for one slow client before it is disconnected (it resyncs on reconnect).
    send_queue: int = 256
    # --- Limits on requests and messages (docs/server.md has the section of that name) ---
    # Biggest HTTP request body, counted as it arrives (chunked bodies included).
    max_body_bytes: int = option(64 * 1024, "biggest HTTP request body", low=1)
    # Deepest nesting of JSON arrays and objects, in request bodies and websocket messages.
    max_json_depth: int = option(8, "deepest JSON nesting in bodies and messages", low=1)
    # Biggest request line and headers (h11's `max_incomplete_event_size`).
    max_header_bytes: int = option(16 * 1024, "biggest request line and headers", low=1024)
    # Seconds a request's headers may take to arrive, from its first byte (or the connection's opening).
    header_timeout: float = option(10.0, "seconds a request's headers may take", low=0.1)
    # Seconds a request's body may take to arrive once its headers are in.
    body_timeout: float = option(10.0, "seconds a request's body may take", low=0.1)
    # Seconds an idle keep-alive connection is kept open between requests (uvicorn's `timeout_keep_alive`).
    keep_alive_timeout: int = option(5, "seconds an idle connection stays open", low=1)
    # --- Limits on tables, bots and memory (docs/server.md has the section of that name) ---
    # The most a bot may spend on one move: seconds of thought (a search still going then decides
    # with what it has) and iterations (MCTS simulations, greedy's samples). A seat whose bot asks
    # for more is refused when the table is opened.
    bot_seconds: float = option(5.0, "most seconds a bot may think per move", low=0.01)
    bot_iterations: int = option(20_000, "most iterations a bot may ask for per move", low=1)
    # Seconds a bot thinks on a thread before the next table waiting for a bot gets it.
    bot_slice: float = 0.05
    # Hints have threads of their own, a budget each, and a rate per seat and per client address
    # (`rate` a second on average, bursts of `burst`); at most `hint_queue` wait for a thread.
    hint_threads: int = 1
    hint_seconds: float = option(2.0, "most seconds one hint may take", low=0.01)
    hint_iterations: int = option(1000, "simulations of one hint", low=1)
    hint_rate: float = option(0.2, "hints a second per seat (0: no limit)", low=0)
    hint_burst: int = 3
    hint_client_rate: float = 1.0
    hint_client_burst: int = 10
    hint_queue: int = 8
    # Game logs (each replays the table's whole record) per client address: `rate` a second on
    # average, bursts of `burst`; 0 is no limit.
    log_rate: float = 2.0
    log_burst: int = 20
    # Unfinished tables one client address may have opened, and how fast it may open tables
    # (a second on average, bursts); 0 is no limit.
    tables_per_client: int = option(50, "unfinished tables per address (0: no limit)", low=0)
    table_rate: float = option(1.0, "new tables a second per address (0: no limit)", low=0)
    table_burst: int = 30
    # Websockets open at once from one client address, and in all, in this process (each process
    # of several counts its own); at least 1 each.
    websockets_per_client: int = option(32, "websockets open at once per address, in each server process", low=1)
    max_websockets: int = option(2000, "websockets open at once in each server process", low=1)
    # Games (a game's rules with one set of options) kept for new tables and rebuilds.
    game_cache: int = option(16, "games (rules with options) kept in memory", low=1)
    # Allocations between two passes of the garbage collector over young objects in a `parlour
    # serve` process (Python's own: 700), which also freezes what it built at start-up; 0 leaves
    # the collector as Python sets it (server/edge/collector.py).
    gc_threshold: int = 10_000
    # Seconds after which a table with no connected client and no bot to move leaves memory;
    # it is rebuilt from the database when next asked for.
    idle_seconds: float = option(300.0, "seconds before an idle table leaves memory", low=0)
    # Seconds after which an unfinished table without a clock where nobody moved or sat down ends
    # as expired (docs/server.md, "Leaving and ending"); 0: tables never expire.
    table_expiry_seconds: float = option(
        86400.0, "seconds without a move before a table without a clock expires (0: never)", low=0
    )
    # --- Accounts (docs/server.md, "Accounts") ---
    # Days a sign-in lasts; the session cookie's Secure flag: None follows the request (https) or public_url.
    session_days: float = option(30.0, "days a sign-in lasts", low=0.01)
    secure_cookies: bool | None = option(
        None,
        "session cookies only over https (default: when served over https)",
        flag="--secure-cookies/--no-secure-cookies",
    )
    # Sign-in limits: failed attempts per account name and client address pair (`signin_rate` a
    # second on average, bursts of `signin_burst`); failed attempts per account name from anywhere,
    # slower (a correct password from a device that signed in to the account before passes it);
    # every attempt (and sign-up) per client address.
    signin_rate: float = 1 / 60
    signin_burst: int = option(5, "failed sign-ins an account may have at once", low=1, flag="--signin-failures")
    signin_account_rate: float = 1 / 600
    signin_account_burst: int = 30
    signin_client_rate: float = 0.2
    signin_client_burst: int = 20
    # Argon2id's cost (argon2-cffi's defaults, RFC 9106's low-memory choice); tests lower it.
    password_time_cost: int = 3
    password_memory_kib: int = 64 * 1024
    # Password hashings at once (each takes password_memory_kib of memory while it runs: at most
    # password_hashings x password_memory_kib in all), and how many more may wait for one (503 beyond).
    password_hashings: int = 4
    password_queue: int = 64
    # --- Table chat (docs/server.md, "Table chat") ---
    # Longest message in characters; messages a second per seat on average, bursts; messages a
    # table's history shows (older ones stay stored).
    chat_max_chars: int = 500
    chat_rate: float = 0.5
    chat_burst: int = 5
    chat_history: int = 100
    # --- Turn-based tables (docs/server.md, "Turn-based tables") ---
    # Bounds of a table's time per move; how often the clocks are looked at; the bot that plays a
    # timed-out turn (or a forfeited seat).
    min_move_seconds: float = 60.0
    max_move_seconds: float = 7 * 86400.0
    timer_poll: float = 1.0
    timeout_agent: str = "greedy"
    # --- Ratings (docs/server.md, "Ratings") ---
    # A live rated table opened without a clock gets a time bank of this many seconds per seat; a
    # seat whose bank runs out forfeits (and ranks last), so that leaving a lost game loses it.
    rated_time_bank_seconds: float = 1800.0
    # --- Quick play (docs/server.md, "Quick play") ---
    # The longest a player may ask to wait for other people before bots take the free seats; the
    # time per move of a turn-based table quick play opens.
    quick_max_wait_seconds: float = 120.0
    quick_move_seconds: float = 86400.0
    # --- Undo (docs/server.md, "Undo") ---
    # Whether a person's steps within a turn are held tentative, for them alone, so that they may
    # take them back until the turn passes or a step shows something hidden.
    undo: bool = option(
        True, "let a person take back the steps of a turn until it is committed", flag="--undo/--no-undo"
    )
    # --- Several server processes on one PostgreSQL database (docs/server.md, "Several server
    # processes") ---
    # Seconds a table's lease (which process runs its bots and clock) lasts unless renewed; it is
    # renewed every third of that. A process that dies hands its tables over at once (its
    # database session ends), or, if its machine vanishes, after this long.
    lease_seconds: float = option(10.0, "seconds a table's bots and clock stay with a vanished process", low=1.0)
    # The most tables one process takes over in one round (a third of lease_seconds), so that
    # the survivors of a dead process share its tables rather than the first one taking all.
    lease_take: int = 100
    # The longest move notice, in bytes, that carries the committed actions themselves (the other
    # processes apply them without reading them back); a batch of a table's actions that would
    # make it longer is announced without them and read back. At most 7999 (PostgreSQL refuses
    # 8000 and more); 0: never carry them.
    notice_bytes: int = 7999
    # --- Running a community (docs/server.md, "Running a community") ---
    # Hours a password-reset code works; messages before and after a reported one copied into the
    # report; seconds each process keeps the refused-words list before reading it again (an edit
    # on another process is seen within that); reports a second per account on average, bursts;
    # the most rows an admin listing answers with.
    reset_code_hours: float = 24.0
    report_context: int = 5
    refused_words_seconds: float = 10.0
    report_rate: float = 1 / 60
    report_burst: int = 5
    admin_list_limit: int = 500
    # --- Reviews of finished tables (docs/server.md, "Reviews") ---
    # Seconds one review's searches may take in all, and the search's iterations per decision;
    # reviews computed at once (each on a thread), and how many more may wait (503 beyond); reviews
    # kept in memory once done; the costliest moves a review names.
    review_seconds: float = 60.0
    review_iterations: int = 300
    review_threads: int = 1
    review_queue: int = 4
    review_cache: int = 64
    review_top: int = 8
    # Base of invite links; taken from each request when not set.
    public_url: str | None = None
    web_dir: Path | None = field(default_factory=lambda: WEB_DIR if WEB_DIR.is_dir() else None)

    def __post_init__(self) -> None:
        for name in (
            "websockets_per_client",
            "max_websockets",
            "password_hashings",
            "review_threads",
            "review_iterations",
            "review_cache",
            "review_top",
            "send_queue",
        ):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        if type(self.notice_bytes) is not int or not 0 <= self.notice_bytes <= PAYLOAD_LIMIT:
            shown = repr(self.notice_bytes)
            raise ValueError(f"notice_bytes must be a whole number from 0 to {PAYLOAD_LIMIT}, got {shown}")
        if not self.review_seconds > 0:
            raise ValueError(f"review_seconds must be more than 0, got {self.review_seconds!r}")

    @property
    def url(self) -> str:
        return database_url(self.db)


def named_settings(pairs: list[str], own_options: set[str]) -> dict[str, Any]:
    """`parlour serve --set NAME=VALUE`: any setting above by its name, its value read by the
    setting's type; a setting that has an option of its own is refused (use that option).
    Raises ValueError naming what is wrong."""
    kinds = {item.name: str(item.type) for item in fields(Settings) if item.name not in ("db", "web_dir")}
    options = serve_options()
    chosen: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not equals:
            raise ValueError(f"--set takes NAME=VALUE, got {pair!r}")
        if name not in kinds:
            raise ValueError(f"--set: no setting called {name!r} (settings: {', '.join(sorted(kinds))})")
        if name in own_options or name in options:
            flag = options[name].flags(name)[0].split("/")[0] if name in options else f"--{name.replace('_', '-')}"
            raise ValueError(f"--set {name}: use {flag} instead")
        if name in chosen:
            raise ValueError(f"--set {name} is given twice")
        chosen[name] = _setting_value(name, kinds[name], text.strip())
    return chosen


def _setting_value(name: str, kind: str, text: str) -> Any:
    if kind.endswith("| None") and text.lower() in ("", "none"):
        return None
    kind = kind.removesuffix(" | None")
    if kind == "bool":
        if text.lower() in ("true", "yes", "1", "on"):
            return True
        if text.lower() in ("false", "no", "0", "off"):
            return False
        raise ValueError(f"--set {name} takes true or false, got {text!r}")
    if kind == "str":
        return text
    try:
        value: float = int(text) if kind == "int" else float(text)
    except ValueError:
        what = "a whole number" if kind == "int" else "a number"
        raise ValueError(f"--set {name} takes {what}, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"--set {name} takes a finite number of at least 0, got {text!r}")
    return value
