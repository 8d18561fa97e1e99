"""Structured logs: one JSON object a line, with the fields of each event beside its message."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger("parlour.server")

# Attributes every LogRecord has; anything else was passed through `extra=` and is a field.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    """One short line for a person at a terminal: the level and the message, no JSON."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"parlour: {record.levelname.lower()}: {record.getMessage()}"
        if record.exc_info:
            text += " (" + self.formatException(record.exc_info).strip().splitlines()[-1] + ")"
        return text


def configure(level: str = "info", log_format: str = "json", log_file: str | None = None) -> None:
    """Send the server's and uvicorn's logs to stderr, or to `log_file`, as JSON or short text lines."""
    handler: logging.Handler
    if log_file is not None:
        handler = logging.FileHandler(log_file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(TextFormatter() if log_format == "text" else JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
