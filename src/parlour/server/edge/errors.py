"""The one error type the server answers with: a stable code for programs, a sentence for people."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any


class ServerError(Exception):
    """A refused request. Raised before anything changes, so refusing never alters a table."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


def not_found(table_id: str) -> ServerError:
    return ServerError("no_table", f"there is no table {table_id!r}", 404)


def _shown(value: Any) -> str:
    """A value as the client wrote it, in JSON, cut short."""
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def describe_problems(problems: Sequence[Mapping[str, Any]]) -> str:
    """pydantic's validation errors as one sentence per field: `field: what is wrong, got value`."""
    sentences = []
    for problem in problems:
        parts = [part for part in problem["loc"] if part != "body"]
        place = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")
        if problem["type"] == "value_error":
            what = str(problem["ctx"]["error"])
        else:
            what = problem["msg"]
            if problem["type"].endswith("_type") and "input" in problem:
                what += f", got {_shown(problem['input'])}"
        sentences.append(f"{place or 'the body'}: {what}")
    return "; ".join(sentences)
