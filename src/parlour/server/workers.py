"""`parlour serve --workers N`: N server processes on one machine sharing one listening socket.

uvicorn's own supervisor opens the socket once and starts N processes that all accept on it (the
kernel hands each new connection to one of them), and starts a new one when one dies. Each
process is a whole server (server/cluster.py says how they play as one on PostgreSQL); they are
given their settings through the environment, since uvicorn starts them afresh.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from parlour.server.edge.metrics import MULTIPROCESS_VARIABLE
from parlour.server.settings import Settings

SETTINGS_VARIABLE = "PARLOUR_SERVER_SETTINGS"
LOG_VARIABLE = "PARLOUR_SERVER_LOG"  # {"level", "format", "file"} as JSON


def sqlite_refusal(url: str, workers: int) -> str | None:
    """Why `workers` processes cannot share this database (None: they can)."""
    if workers <= 1 or not url.startswith("sqlite"):
        return None
    return (
        f"--workers {workers} needs a PostgreSQL database (--db postgresql://user:password@host/db): "
        "SQLite means one process, since only one process may keep a table's moves and only "
        "PostgreSQL tells the others of them. Leave out --workers to serve this SQLite file."
    )


def encode(settings: Settings) -> str:
    values = {name: str(value) if isinstance(value, Path) else value for name, value in asdict(settings).items()}
    return json.dumps(values)


def decode(text: str) -> Settings:
    values: dict[str, Any] = json.loads(text)
    if values.get("web_dir") is not None:
        values["web_dir"] = Path(values["web_dir"])
    return Settings(**values)


def pass_on(settings: Settings, log: dict[str, str | None]) -> None:
    """Put the settings and the log's level, format and file where the worker processes read them."""
    os.environ[SETTINGS_VARIABLE] = encode(settings)
    os.environ[LOG_VARIABLE] = json.dumps(log)


def share_metrics() -> None:
    """The workers' metrics in a folder of their own, read by whichever answers a scrape (the
    Prometheus client's multiprocess mode, server/metrics.py); kept if already set."""
    if not os.environ.get(MULTIPROCESS_VARIABLE):
        os.environ[MULTIPROCESS_VARIABLE] = tempfile.mkdtemp(prefix="parlour-metrics-")


def worker_app() -> FastAPI:
    """The application of one worker process (uvicorn calls this in each, as a factory)."""
    from parlour.server.app import create_app
    from parlour.server.edge import collector, logs

    log = json.loads(os.environ.get(LOG_VARIABLE, "{}"))
    logs.configure(log.get("level", "info"), log.get("format", "json"), log.get("file"))
    # uvicorn silenced its access log before calling this factory; configure() turned it back on.
    logging.getLogger("uvicorn.access").propagate = False
    settings = decode(os.environ[SETTINGS_VARIABLE])
    app = create_app(settings)
    collector.tune(settings.gc_threshold)
    return app


@functools.cache
def worker_protocol() -> type[Any]:
    """The HTTP protocol class carrying the settings' limits, built in each worker: uvicorn sends
    its options to the workers pickled, and a class made at run time cannot be."""
    from parlour.server.edge.guard import http_protocol

    return http_protocol(decode(os.environ[SETTINGS_VARIABLE]))


def __getattr__(name: str) -> Any:
    # uvicorn finds the protocol by its import string, "parlour.server.workers:WorkerH11".
    if name == "WorkerH11":
        return worker_protocol()
    raise AttributeError(name)
