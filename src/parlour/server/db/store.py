"""The database behind the server: schema migrations and the few reads and writes it makes.

Every method here is blocking (SQLAlchemy's synchronous API) and is called from worker threads
by the hub, never on the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, insert, make_url, select, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from parlour.deal import Deal
from parlour.engine.errors import ParlourError
from parlour.server.cluster.fanout import move_notices, notify
from parlour.server.db.models import ActionRow, SeatRow, TableRow, now
from parlour.server.settings import PAYLOAD_LIMIT

# The key of the advisory lock under which a PostgreSQL schema is migrated: processes starting
# together migrate one after another.
MIGRATION_LOCK = 0x7061726C  # "parl"


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    agent: str | None
    name: str | None
    token_hash: str | None


@dataclass(frozen=True)
class StoredTable:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    created_at: datetime
    finished_at: datetime | None
    seats: list[StoredSeat]
    actions: list[tuple[int, int]]  # (action id, seat) in order
    # The deal's commitment (parlour.deal); None on tables from before deals were committed.
    salt: str | None = None
    commitment: str | None = None
    fixed_deal: bool = False
    # How the table ended when its game did not ('expired', 'conceded N'); None otherwise.
    ended: str | None = None


@dataclass(frozen=True)
class NewAction:
    table_id: str
    ply: int
    action_id: int
    seat: int
    finishes: bool


class SameAccount(ParlourError):
    """An account asked for a second seat of a rated table."""


class DatabaseUnavailable(ParlourError):
    """The database named by `--db` cannot be opened."""


def check_database(url: str) -> None:
    """Connect once before serving, so that a wrong `--db` is one clear error, not a traceback."""
    store = Store(url)
    try:
        store.ping()
    except (SQLAlchemyError, OSError) as error:
        shown = make_url(url).render_as_string(hide_password=True)
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise DatabaseUnavailable(f"cannot open the database {shown}: {reason}") from None
    finally:
        store.close()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets the lobby read while an action commits; FULL syncs every commit to disk, so an
    # action the server has broadcast survives even a power cut.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        connect_args: dict[str, Any] = {"check_same_thread": False} if self.is_sqlite else {}
        self.engine: Engine = create_engine(url, connect_args=connect_args, pool_pre_ping=not self.is_sqlite)
        # Set when other processes share the database (PostgreSQL): the channel every commit they
        # must hear of is announced on, and this process's name in those notices (server/fanout.py).
        self.channel: str | None = None
        self.origin = ""
        self.notice_bytes = PAYLOAD_LIMIT  # the longest move notice carrying its actions (Settings)
        # The INSERT of a batch of actions, in the driver's parameter style (SQLite's ?, psycopg's
        # %s), and the stored form of its time, as SQLAlchemy writes it (text on SQLite).
        marks = ", ".join([{"qmark": "?", "format": "%s", "pyformat": "%s"}[self.engine.dialect.paramstyle]] * 5)
        self.insert_actions = f"INSERT INTO actions (table_id, ply, action_id, seat, played_at) VALUES ({marks})"
        stored = ActionRow.__table__.c.played_at.type.dialect_impl(self.engine.dialect)
        self.played_at = stored.bind_processor(self.engine.dialect) or (lambda moment: moment)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            database = self.engine.url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema to the newest revision (creates it on a new database)."""
        config = Config()
        config.set_main_option("script_location", str(resources.files("parlour.server.db") / "migrations"))
        with self.engine.begin() as connection:
            if not self.is_sqlite:
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def ping(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def close(self) -> None:
        self.engine.dispose()

    # --- writes ------------------------------------------------------------------------------

    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        seed: int,
        agents: list[str | None],
        deal: Deal | None = None,
    ) -> datetime:
        created = now()
        deal = deal or Deal(None, None)
        row = {"id": table_id, "game": game, "options": options, "seed": seed, "created_at": created}
        row.update(salt=deal.salt, commitment=deal.commitment, fixed_deal=deal.fixed)
        # Core, not ORM objects: the ORM's unit of work took 1.1 ms of CPU for this, Core 0.3 ms.
        with self.engine.begin() as connection:
            connection.execute(insert(TableRow), [row])
            connection.execute(
                insert(SeatRow), [{"table_id": table_id, "seat": n, "agent": a} for n, a in enumerate(agents)]
            )
        return created

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        user_id: int | None = None,
        rated: bool = False,
        session_hash: str | None = None,
    ) -> bool:
        """Give a free person's seat to `name` (and to the account `user_id`, in the same statement);
        False if somebody took it first. At a rated table the seats' unique index on (table,
        account) refuses a second seat to one account: SameAccount, and nothing changes."""
        try:
            with self.engine.begin() as connection:
                result = connection.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.table_id == table_id,
                        SeatRow.seat == seat,
                        SeatRow.agent.is_(None),
                        SeatRow.token_hash.is_(None),
                    )
                    .values(
                        name=name,
                        token_hash=token_hash,
                        joined_at=now(),
                        user_id=user_id,
                        rated_user_id=user_id if rated else None,
                        token_session=session_hash if user_id is not None else None,
                    )
                )
                claimed = bool(getattr(result, "rowcount", 0) == 1)
                if claimed:
                    self.announce(connection, [f"s {self.origin} {table_id}"])
                return claimed
        except IntegrityError:
            if rated and user_id is not None:
                raise SameAccount(f"account {user_id} already holds a seat at table {table_id}") from None
            raise

    def announce(self, connection: Any, notices: list[str]) -> None:
        """Tell the other processes, when this transaction commits (nothing without a channel)."""
        if self.channel is not None:
            notify(connection, self.channel, notices)

    def announce_now(self, notices: list[str]) -> None:
        """Tell the other processes of something already committed (a seat changed elsewhere)."""
        if self.channel is not None:
            with self.engine.begin() as connection:
                notify(connection, self.channel, notices)

    def append_actions(self, batch: list[NewAction]) -> None:
        """Commit a batch of actions (of any tables) in one transaction."""
        # One INSERT for all the rows in the driver's own SQL: the ORM's unit of work, and then
        # SQLAlchemy's compiling and typing of each statement, cost as much CPU again per batch.
        played = self.played_at(now())
        committed = [(a.table_id, a.ply, a.action_id, a.seat) for a in batch]
        with self.engine.begin() as connection:
            connection.exec_driver_sql(self.insert_actions, [(*row, played) for row in committed])
            finished = [a.table_id for a in batch if a.finishes]
            if finished:
                connection.execute(update(TableRow).where(TableRow.id.in_(finished)).values(finished_at=now()))
            if self.channel is not None:
                self.announce(connection, move_notices(self.origin, committed, self.notice_bytes))

    # --- reads -------------------------------------------------------------------------------

    def _load(self, session: Session, rows: list[TableRow]) -> list[StoredTable]:
        ids = [row.id for row in rows]
        seats: dict[str, list[StoredSeat]] = {table_id: [] for table_id in ids}
        actions: dict[str, list[tuple[int, int]]] = {table_id: [] for table_id in ids}
        # Plain rows rather than ORM objects: a restart reads every unfinished table's actions.
        seat_columns = (SeatRow.table_id, SeatRow.seat, SeatRow.agent, SeatRow.name, SeatRow.token_hash)
        action_columns = (ActionRow.table_id, ActionRow.action_id, ActionRow.seat)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            chosen = select(*seat_columns).where(SeatRow.table_id.in_(chunk)).order_by(SeatRow.seat)
            for table_id, seat, agent, name, token_hash in session.execute(chosen):
                seats[table_id].append(StoredSeat(seat, agent, name, token_hash))
            played = select(*action_columns).where(ActionRow.table_id.in_(chunk))
            for table_id, action_id, seat in session.execute(played.order_by(ActionRow.table_id, ActionRow.ply)):
                actions[table_id].append((action_id, seat))
        return [
            StoredTable(
                row.id,
                row.game,
                dict(row.options),
                row.seed,
                row.created_at,
                row.finished_at,
                seats[row.id],
                actions[row.id],
                row.salt,
                row.commitment,
                bool(row.fixed_deal),
                row.ended,
            )
            for row in rows
        ]

    def unfinished_tables(self) -> list[StoredTable]:
        with Session(self.engine) as session:
            rows = list(
                session.scalars(select(TableRow).where(TableRow.finished_at.is_(None)).order_by(TableRow.created_at))
            )
            return self._load(session, rows)

    def finished_tables(self, limit: int) -> list[StoredTable]:
        """The most recently finished tables, newest first (without their actions' details)."""
        with Session(self.engine) as session:
            rows = list(
                session.scalars(
                    select(TableRow)
                    .where(TableRow.finished_at.is_not(None))
                    .order_by(TableRow.finished_at.desc())
                    .limit(limit)
                )
            )
            return self._load(session, rows)

    def table(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            return None if row is None else self._load(session, [row])[0]

    # --- tables that end before their game does (docs/server.md, "Leaving and ending") ----------

    @staticmethod
    def _quiet_since(cutoff: datetime) -> Any:
        """Unfinished tables without a clock where nothing happened since `cutoff`: opened before
        it, no move and no seat taken after it. (A table with a clock is never idle: its clock
        plays or forfeits the turn of whoever does not move.)"""
        moved = select(ActionRow.ply).where(ActionRow.table_id == TableRow.id, ActionRow.played_at >= cutoff)
        joined = select(SeatRow.seat).where(SeatRow.table_id == TableRow.id, SeatRow.joined_at >= cutoff)
        return (
            TableRow.finished_at.is_(None),
            TableRow.mode == "live",
            TableRow.time_banks.is_(None),
            TableRow.created_at < cutoff,
            ~moved.exists(),
            ~joined.exists(),
        )

    def idle_tables(self, cutoff: datetime) -> list[str]:
        """The unfinished tables idle since `cutoff` (see _quiet_since)."""
        with Session(self.engine) as session:
            return list(session.scalars(select(TableRow.id).where(*self._quiet_since(cutoff))))

    def expire(self, table_id: str, cutoff: datetime) -> bool:
        """End the table as expired if it is still idle since `cutoff` (checked in the same
        statement, so a move committed meanwhile keeps it going); whether it was."""
        with Session(self.engine) as session, session.begin():
            chosen = update(TableRow).where(TableRow.id == table_id, *self._quiet_since(cutoff))
            return bool(getattr(session.execute(chosen.values(finished_at=now(), ended="expired")), "rowcount", 0))

    def give_up(self, table_id: str, seat: int, agent: str | None, ended: str | None, forfeited: bool) -> bool:
        """`seat` stops playing, in one transaction: handed to the bot `agent` if given, marked
        forfeited if it conceded (a rated table ranks it last), and with `ended` the unfinished
        table ends so. Whether the table was unfinished (nothing changes if not)."""
        with Session(self.engine) as session, session.begin():
            if ended is not None:
                chosen = update(TableRow).where(TableRow.id == table_id, TableRow.finished_at.is_(None))
                if not getattr(session.execute(chosen.values(finished_at=now(), ended=ended)), "rowcount", 0):
                    return False
            # A seat handed to a bot keeps no token; one at a table that ends keeps its view.
            given: dict[str, Any] = {"forfeited": True} if forfeited else {}
            if agent is not None:
                given.update(agent=agent, token_hash=None)
            if given:
                chosen_seat = update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                session.execute(chosen_seat.values(**given))
            return True

    def free_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """A person leaves a table whose game has not started: the seat is free again (if still theirs)."""
        with Session(self.engine) as session, session.begin():
            chosen = update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token_hash == token_hash
            )
            cleared = {"name": None, "token_hash": None, "joined_at": None, "user_id": None}
            cleared |= {"rated_user_id": None, "token_session": None}
            return bool(getattr(session.execute(chosen.values(**cleared)), "rowcount", 0))

    # --- reads for processes sharing the database ----------------------------------------------

    def actions_from(self, table_id: str, ply: int) -> list[tuple[int, int]]:
        """The table's actions (action id, seat) from `ply` on, in order."""
        with Session(self.engine) as session:
            chosen = (
                select(ActionRow.action_id, ActionRow.seat)
                .where(ActionRow.table_id == table_id, ActionRow.ply >= ply)
                .order_by(ActionRow.ply)
            )
            return [(action_id, seat) for action_id, seat in session.execute(chosen)]

    def seats(self, table_id: str) -> list[StoredSeat]:
        with Session(self.engine) as session:
            chosen = (
                select(SeatRow.seat, SeatRow.agent, SeatRow.name, SeatRow.token_hash)
                .where(SeatRow.table_id == table_id)
                .order_by(SeatRow.seat)
            )
            return [
                StoredSeat(seat, agent, name, token_hash) for seat, agent, name, token_hash in session.execute(chosen)
            ]

    def marks(self, table_ids: list[str] | None) -> dict[str, tuple[Any, ...]]:
        """What a table's lobby summary depends on, per table: its actions' count, whether it is
        finished, and each seat's occupant. None: every unfinished table."""
        with Session(self.engine) as session:
            played = (
                select(TableRow.id, TableRow.finished_at.is_not(None), func.count(ActionRow.ply))
                .outerjoin(ActionRow, ActionRow.table_id == TableRow.id)
                .group_by(TableRow.id)
            )
            played = (
                played.where(TableRow.finished_at.is_(None))
                if table_ids is None
                else played.where(TableRow.id.in_(table_ids))
            )
            marks: dict[str, list[Any]] = {t: [count, finished] for t, finished, count in session.execute(played)}
            seated = select(SeatRow.table_id, SeatRow.agent, SeatRow.name, SeatRow.token_hash).order_by(
                SeatRow.table_id, SeatRow.seat
            )
            seated = seated.where(SeatRow.table_id.in_(list(marks)))
            for table_id, agent, name, token_hash in session.execute(seated):
                marks[table_id].append((agent, name, token_hash))
            return {table_id: tuple(mark) for table_id, mark in marks.items()}
