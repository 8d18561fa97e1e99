"""A batch of actions written in the driver's own SQL (Store.append_actions) reads back as written,
its time in the very form SQLAlchemy stores and compares (text on SQLite), on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from parlour.server.db.models import ActionRow
from parlour.server.db.store import NewAction, Store
from parlour.server.settings import database_url


def test_a_batch_of_actions_reads_back_as_written(db: str) -> None:
    store = Store(database_url(db))
    try:
        store.migrate()
        for table_id in ("a", "b"):
            store.create_table(table_id, "nim", {}, 1, [None, None])
        before = datetime.now(UTC)
        store.append_actions([NewAction("a", 0, 2, 0, False), NewAction("b", 0, 1, 0, False)])
        store.append_actions([NewAction("a", 1, 0, 1, False), NewAction("a", 2, 1, 0, True)])
        assert store.actions_from("a", 0) == [(2, 0), (0, 1), (1, 0)]
        assert store.actions_from("a", 1) == [(0, 1), (1, 0)]
        assert store.actions_from("b", 0) == [(1, 0)]
        record = store.table("a")
        assert record is not None and record.finished_at is not None  # the batch's last action ended it
        with Session(store.engine) as session:
            played = list(session.scalars(select(ActionRow.played_at)))
        for moment in played:
            moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
            assert before - timedelta(seconds=5) <= moment <= datetime.now(UTC) + timedelta(seconds=5)
        # Stored in the very form SQLAlchemy's own INSERT writes (so that it compares as a time).
        with store.engine.begin() as connection:
            connection.execute(insert(ActionRow).values(table_id="b", ply=1, action_id=0, seat=1, played_at=before))
            raw = dict(connection.exec_driver_sql("SELECT ply, played_at FROM actions WHERE table_id = 'b'").all())
        assert type(raw[0]) is type(raw[1])
        if isinstance(raw[0], str):
            assert len(raw[0]) == len(raw[1]) and raw[0][10] == raw[1][10] and raw[0] >= raw[1]
    finally:
        store.close()
