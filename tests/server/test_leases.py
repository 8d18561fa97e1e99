"""Leases on PostgreSQL: which process runs a table's bots and clock, renewed, taken over when its
owner's session ends or it expires, at most `lease_take` a round (server/leases.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy import make_url

from parlour.server.cluster.leases import Leases, LeaseStore
from parlour.server.db.store import Store
from parlour.server.settings import database_url

from .conftest import POSTGRES_URL, run_sql, wait_until


@pytest.fixture
def store() -> Iterator[Store]:
    if not POSTGRES_URL:
        pytest.skip("needs PARLOUR_TEST_POSTGRES_URL (make test starts PostgreSQL)")
    schema = f"parlour_leases_{os.getpid()}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    opened = Store(database_url(POSTGRES_URL + f"?options=-csearch_path%3D{schema}"))
    opened.migrate()
    yield opened
    opened.close()
    run_sql(POSTGRES_URL, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def alive(store: Store, owner: str) -> psycopg.Connection[tuple[object, ...]]:
    """A session named after `owner`, as a server process's listening connection is."""
    url = make_url(store.engine.url).set(drivername="postgresql").render_as_string(hide_password=False)
    return psycopg.connect(url, application_name=owner, autocommit=True)


def sessions(store: Store, owner: str) -> int:
    with alive(store, "counting") as connection:
        found = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (owner,))
        row = found.fetchone()
        return int(row[0]) if row is not None else 0


def open_tables(store: Store) -> list[str]:
    """Three tables with a bot and one of people only (which needs no lease), oldest first."""
    ids = []
    for number, agents in enumerate([["random", None], [None, "greedy"], ["random", "random"], [None, None]]):
        store.create_table(f"t{number}", "hatflings", {"players": 2}, number, agents)
        ids.append(f"t{number}")
        time.sleep(0.01)  # distinct creation times: leases are taken oldest first
    return ids


@pytest.mark.postgres
def test_leases_are_renewed_taken_a_few_a_round_and_handed_over_when_the_owner_goes(store: Store) -> None:
    leases = LeaseStore(store.engine)
    tables = open_tables(store)
    with alive(store, "owner-a") as first, alive(store, "owner-b"):
        # At most `most` tables are taken a round; a table of people only is never leased.
        assert leases.round("owner-a", 10, 2) == set(tables[:2])
        assert leases.round("owner-a", 10, 2) == set(tables[:3])
        assert leases.round("owner-a", 10, 2) == set(tables[:3])
        # Held and renewed by a living owner: nobody else gets them.
        assert leases.round("owner-b", 10, 100) == set()
        assert not leases.take("owner-b", tables[0], 10)
        first.close()
        wait_until(lambda: sessions(store, "owner-a") == 0, timeout=10)
        # Its session gone, its leases are taken over at once, long before they expire.
        assert leases.round("owner-b", 10, 100) == set(tables[:3])
        assert leases.round("owner-a", 10, 100) == set()  # the old owner learns it holds nothing


@pytest.mark.postgres
def test_a_lease_not_renewed_expires_though_its_owner_lives(store: Store) -> None:
    leases = LeaseStore(store.engine)
    tables = open_tables(store)
    with alive(store, "owner-c"), alive(store, "owner-d"):
        assert leases.round("owner-c", 0.5, 100) == set(tables[:3])
        assert leases.round("owner-d", 10, 100) == set()
        time.sleep(1.0)
        assert leases.round("owner-d", 10, 100) == set(tables[:3])
        # A clean stop gives every lease up at once.
        leases.release("owner-d")
        assert leases.round("owner-c", 10, 100) == set(tables[:3])


def test_a_holder_stops_trusting_its_leases_when_it_could_not_renew_them() -> None:
    held = Leases(seconds=0.3)
    gained, lost = held.renewed({"t0", "t1"}, time.monotonic())
    assert (gained, lost) == ({"t0", "t1"}, set())
    assert held.holds("t0") and not held.holds("t2")
    time.sleep(0.4)  # no renewal came back in time: its leases may be anybody's now
    assert not held.holds("t0")
    gained, lost = held.renewed({"t1"}, time.monotonic())
    assert (gained, lost) == (set(), {"t0"}) and held.holds("t1")
