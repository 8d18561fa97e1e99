"""What a server process measures, for Prometheus at GET /metrics (its text format, through the
standard client library, prometheus_client).

Actions committed (by people and by bots: their rate is the moves per second), the time from a
move's arrival to its broadcast, the database's commit time, tables in memory, websockets open,
bots waiting for a thread and their thinking time, and refused sign-ins.

One process (the default) answers with its own registry, the standard process metrics (CPU
seconds, memory) included. Several processes (`parlour serve --workers N`) use the client's
multiprocess mode: `run` points PROMETHEUS_MULTIPROC_DIR at a folder of its own before the
workers start, each worker writes its values there, and whichever worker answers a scrape reads
them all: counters and histograms summed over the processes, gauges one series per process
(labelled `pid`). docs/server.md, "Metrics", lists the series; docs/grafana-dashboard.json is a
dashboard of them.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
    multiprocess,
)

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
# Latencies from a tenth of a millisecond to ten seconds.
LATENCY_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


def multiprocess_mode() -> bool:
    return bool(os.environ.get(MULTIPROCESS_VARIABLE))


class Metrics:
    """The metrics of one server process."""

    def __init__(self) -> None:
        self.several = multiprocess_mode()
        self.registry = CollectorRegistry()
        if self.several:
            multiprocess.MultiProcessCollector(self.registry)  # type: ignore[no-untyped-call]
        else:
            ProcessCollector(registry=self.registry)
        # In multiprocess mode the collector reads the files: the metrics themselves stay unregistered.
        own = None if self.several else self.registry
        self.actions = Counter("parlour_actions", "Actions committed, by who played them", ["by"], registry=own)
        self.broadcast = Histogram(
            "parlour_submit_to_broadcast_seconds",
            "From a move's arrival to its broadcast to the table's clients (committed moves)",
            buckets=LATENCY_BUCKETS,
            registry=own,
        )
        self.commit = Histogram(
            "parlour_db_commit_seconds",
            "Time to commit one batch of actions to the database",
            buckets=LATENCY_BUCKETS,
            registry=own,
        )
        self.bot_think = Histogram(
            "parlour_bot_think_seconds",
            "A bot's time for one move, waiting for a bot thread included",
            buckets=THINK_BUCKETS,
            registry=own,
        )
        self.signin_failures = Counter(
            "parlour_signin_failures", "Sign-ins refused for a wrong name, password or reset code", registry=own
        )
        self.tables = Gauge(
            "parlour_tables_in_memory", "Tables held in memory", registry=own, multiprocess_mode="liveall"
        )
        self.websockets = Gauge("parlour_websockets", "Websockets open", registry=own, multiprocess_mode="liveall")
        self.bot_queue = Gauge(
            "parlour_bot_queue", "Tables waiting for a bot thread", registry=own, multiprocess_mode="liveall"
        )
        # Present at zero from the start; looked up once, not at every action.
        self.actions_by = {by_bot: self.actions.labels(by="bot" if by_bot else "person") for by_bot in (False, True)}

    def acted(self, by_bot: bool) -> None:
        self.actions_by[by_bot].inc()

    def set_gauges(self, tables: int, websockets: int, bot_queue: int) -> None:
        self.tables.set(tables)
        self.websockets.set(websockets)
        self.bot_queue.set(bot_queue)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def process_ended(self) -> None:
        """In multiprocess mode, this process's gauges leave the sums (its files stay for the counters)."""
        if self.several:
            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]
