"""GET /metrics: the Prometheus text format, read back with the Prometheus client's own parser;
actions by people and bots, the submit-to-broadcast and commit histograms, bots' thinking, tables
in memory, websockets and refused sign-ins; and with --workers, every process's values summed
whichever process answers."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from parlour.server.edge.metrics import Metrics

from .conftest import POSTGRES_URL, LiveServer, wait_until
from .test_cluster import schema_db  # noqa: F401 - the fixture of a schema for server processes
from .test_restart import ServerProcess

TAKE_ONE = 0


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample by name and labels, parsed as Prometheus parses it."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = httpx.get(f"{url}/metrics", timeout=10)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain; version=")
    return samples(answer.text)


def test_metrics_count_what_the_server_did(serve: Callable[..., LiveServer]) -> None:
    server = serve(password_time_cost=1, password_memory_kib=1024)
    before = scrape(server.url)
    assert before[("parlour_actions_total", (("by", "person"),))] == 0
    bots = server.create("nim", ["random", "random"], options={"stones": 10})
    wait_until(lambda: server.table(bots["id"])["status"] == "finished")
    played_by_bots = server.table(bots["id"])["version"]
    table = server.create("nim", ["human", "random"], options={"stones": 9})
    seat = server.join(table["id"], "Ann")
    watcher = server.connect(table["id"])
    for _ in range(2):
        version = watcher.version()
        moved = server.http.post(
            f"/api/tables/{table['id']}/actions",
            json={"action": TAKE_ONE, "version": version},
            headers={"Authorization": f"Bearer {seat['token']}"},
        )
        assert moved.status_code == 200, moved.text
        wait_until(lambda v=version: watcher.version() == v + 2)  # the bot answered
    server.http.post("/api/account/signin", json={"name": "nobody", "password": "wrong password"})
    after = scrape(server.url)
    assert after[("parlour_actions_total", (("by", "person"),))] == 2
    assert after[("parlour_actions_total", (("by", "bot"),))] == played_by_bots + 2
    moves = 2 + played_by_bots + 2
    assert after[("parlour_submit_to_broadcast_seconds_count", ())] == moves
    assert after[("parlour_submit_to_broadcast_seconds_bucket", (("le", "+Inf"),))] == moves
    assert after[("parlour_bot_think_seconds_count", ())] == played_by_bots + 2
    assert 1 <= after[("parlour_db_commit_seconds_count", ())] <= moves  # commits may batch actions
    assert after[("parlour_signin_failures_total", ())] == 1
    assert after[("parlour_websockets", ())] == 1
    assert after[("parlour_tables_in_memory", ())] == 2
    assert after[("parlour_bot_queue", ())] == 0
    assert after[("process_cpu_seconds_total", ())] > 0
    watcher.close()
    wait_until(lambda: scrape(server.url)[("parlour_websockets", ())] == 0)


def test_health_stays_small(server: LiveServer) -> None:
    assert set(server.http.get("/health").json()) == {"status", "database", "backend", "tables", "process"}


@pytest.mark.skipif(not POSTGRES_URL, reason="needs PARLOUR_TEST_POSTGRES_URL")
@pytest.mark.postgres
def test_workers_share_their_metrics(schema_db: str, tmp_path: Path) -> None:  # noqa: F811
    node = ServerProcess(schema_db, tmp_path / "workers.log", ("--workers", "2"))
    try:
        created = node.http.post("/api/tables", json={"game": "hatflings", "seats": ["random", "random"]})
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        wait_until(lambda: node.http.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=120)
        played = node.http.get(f"/api/tables/{table_id}").json()["version"]
        deadline = time.monotonic() + 30
        processes: set[str] = set()
        while len(processes) < 2 and time.monotonic() < deadline:
            # A new connection each time: either process may answer, and each tells the same totals.
            found = scrape(node.url)
            assert found[("parlour_actions_total", (("by", "bot"),))] == played
            processes |= {dict(labels)["pid"] for name, labels in found if name == "parlour_tables_in_memory"}
            time.sleep(0.2)
        assert len(processes) == 2  # one gauge per process
    finally:
        node.stop()


def test_the_grafana_dashboard_asks_only_for_series_the_server_gives() -> None:
    dashboard = json.loads((Path(__file__).parents[2] / "docs" / "grafana-dashboard.json").read_text())
    asked = {
        re.sub(r"_(bucket|count|sum)$", "", name)
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"parlour_\w+", target["expr"])
    }
    given = {
        sample.name.removesuffix("_total") if family.type == "counter" else family.name
        for family in text_string_to_metric_families(Metrics().exposition().decode())
        for sample in family.samples
    }
    given |= {name + "_total" for name in given}
    assert asked and asked <= given, asked - given
    assert len(dashboard["panels"]) == 6
