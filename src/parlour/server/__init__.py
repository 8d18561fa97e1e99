"""The game server: lobby, tables, seats, live play over websockets, and durable storage.

Needs the `server` extra (`pip install parlour[server]`). Start it with `parlour serve`.
"""

from typing import TYPE_CHECKING, Any

from parlour.server.settings import Settings

if TYPE_CHECKING:
    from parlour.server.app import create_app

__all__ = ["Settings", "create_app", "run"]


def __getattr__(name: str) -> Any:
    # The app (FastAPI and the rest of the server extra) is imported when first asked for, so that
    # the settings, from which `parlour serve` builds its options, are read without the extra.
    if name == "create_app":
        from parlour.server.app import create_app

        return create_app
    raise AttributeError(f"module 'parlour.server' has no attribute {name!r}")


def run(
    settings: Settings,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    workers: int = 1,
    log_format: str = "json",
    log_file: str | None = None,
) -> None:
    """Serve until interrupted: logs on stderr or in `log_file` (JSON lines, or short text lines for a
    person at a terminal), the settings' limits on connections and frames.

    With `workers` above 1 (PostgreSQL only), that many processes share the listening socket."""
    import uvicorn

    from parlour.server import workers as several
    from parlour.server.db.store import check_database
    from parlour.server.edge import collector, logs
    from parlour.server.edge.guard import uvicorn_options

    check_database(settings.url)
    logs.configure(log_level, log_format, log_file)
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_config": None,
        "access_log": False,
        **uvicorn_options(settings),
        # Positions are a few kilobytes: compressing them costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }
    if workers > 1:
        several.pass_on(settings, {"level": log_level, "format": log_format, "file": log_file})
        several.share_metrics()
        options["http"] = "parlour.server.workers:WorkerH11"
        uvicorn.run("parlour.server.workers:worker_app", factory=True, workers=workers, **options)
        return
    from parlour.server.app import create_app

    app = create_app(settings)
    collector.tune(settings.gc_threshold)
    uvicorn.run(app, **options)
