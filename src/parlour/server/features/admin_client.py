"""The admin API from the command line: signs in to a running server as an admin and calls its
/api/admin routes, so that a command acts exactly as the same action in the API does (the
server's tables in memory, its clients and its audit log included)."""

from __future__ import annotations

from types import TracebackType
from typing import Any

import httpx

from parlour.engine.errors import ParlourError


class AdminCallError(ParlourError):
    """The server refused or could not be reached; the message says which and why."""


class AdminClient:
    def __init__(self, server: str, name: str, password: str, timeout: float = 30.0) -> None:
        self.http = httpx.Client(base_url=server.rstrip("/"), timeout=timeout)
        answer = self._send("POST", "/api/account/signin", {"name": name, "password": password}, None)
        self.csrf = str(answer["csrf_token"])

    def __enter__(self) -> AdminClient:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.http.close()

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, params: dict[str, Any] | None = None
    ) -> Any:
        """One admin route (`path` below /api/admin); query parameters given as None are left out."""
        chosen = {key: value for key, value in (params or {}).items() if value is not None}
        if method == "POST" and body is None:
            body = {}
        return self._send(method, f"/api/admin{path}", body, chosen)

    def _send(self, method: str, path: str, body: dict[str, Any] | None, params: dict[str, Any] | None) -> Any:
        headers = {"X-CSRF-Token": self.csrf} if method != "GET" and hasattr(self, "csrf") else {}
        try:
            answer = self.http.request(method, path, json=body, params=params, headers=headers)
        except httpx.HTTPError as error:
            raise AdminCallError(f"cannot reach the server at {self.http.base_url}: {error}") from None
        try:
            found = answer.json()
        except ValueError:
            raise AdminCallError(f"the server answered {answer.status_code} without JSON to {method} {path}") from None
        if answer.status_code >= 400:
            problem = found.get("error", {}) if isinstance(found, dict) else {}
            code, message = problem.get("code", "error"), problem.get("message", answer.text[:200])
            raise AdminCallError(f"{code}: {message}")
        return found
