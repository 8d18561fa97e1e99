"""The one error type the server answers with: a stable code for programs, a sentence for people."""

from __future__ import annotations

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
