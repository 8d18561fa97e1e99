"""The server's logs are JSON lines with each event's fields beside the message."""

from __future__ import annotations

import json
import logging

from parlour.server.logs import JsonFormatter


def test_a_log_line_is_one_json_object_with_the_event_fields() -> None:
    record = logging.LogRecord("parlour.server", logging.INFO, __file__, 1, "seat taken", None, None)
    record.__dict__.update({"event": "seat_joined", "table": "abc", "seat": 1})
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "info" and line["logger"] == "parlour.server" and line["message"] == "seat taken"
    assert (line["event"], line["table"], line["seat"]) == ("seat_joined", "abc", 1)
    assert line["time"].endswith("+00:00")


def test_an_exception_is_logged_in_its_line() -> None:
    try:
        raise ValueError("the database went away")
    except ValueError:
        import sys

        record = logging.LogRecord("parlour.server", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    line = json.loads(JsonFormatter().format(record))
    assert "ValueError: the database went away" in line["exception"] and "\n" not in JsonFormatter().format(record)
