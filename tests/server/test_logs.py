"""The server's logs are JSON lines with each event's fields beside the message."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from parlour.server.edge.logs import JsonFormatter, TextFormatter


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


def test_a_text_line_is_short_and_names_the_level() -> None:
    message = "table %s lost its lease"
    record = logging.LogRecord("parlour.server", logging.WARNING, __file__, 1, message, ("abc",), None)
    assert TextFormatter().format(record) == "parlour: warning: table abc lost its lease"
    try:
        raise ValueError("the database went away")
    except ValueError:
        import sys

        record = logging.LogRecord("parlour.server", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    line = TextFormatter().format(record)
    assert line == "parlour: error: failed (ValueError: the database went away)"


def test_serve_with_a_log_file_writes_json_lines_there_and_keeps_the_terminal_quiet(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log_file = tmp_path / "server.log"
    command = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--db", str(tmp_path / "p.sqlite")]
    process = subprocess.Popen(
        [*command, "--log-file", str(log_file), "--log-level", "debug"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not start")
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=30)
    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert lines and all({"time", "level", "message"} <= set(line) for line in lines)
    # The terminal has the one line that says where to go, and no log lines.
    assert "open http://" in stderr.decode() and '"level"' not in stderr.decode()
