"""Messages to a table's clients: encoded once per audience, then queued to each client.

An audience is a seat (every device playing it gets the same text) or the spectators (who all
share one): a message is built and encoded once for each audience present, never once per
client, and never shared between two audiences, since each seat's view hides different things.

The text is compact JSON from orjson, several times quicker than the standard library's encoder
on a position. It decodes to the very value `json.dumps` would have written, keys in the same
order; only the spacing differs, and text outside ASCII is sent as UTF-8 instead of `\\u`
escapes (a websocket text frame is UTF-8 either way). A value orjson cannot write (an integer
past 64 bits) falls back to the standard library with the same compact form.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from parlour.server.clients import Client

# Integer keys are written as strings, as json.dumps does ({"1": ...}).
_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text a client receives."""
    try:
        return orjson.dumps(message, option=_OPTIONS).decode("utf-8")
    except orjson.JSONEncodeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def to_audiences(clients: Iterable[Client], message_for: Callable[[int | None], dict[str, Any]]) -> None:
    """Send every client the message of its audience (`message_for(seat)`, None for a
    spectator), each built and encoded once however many clients share it."""
    encoded: dict[int | None, str] = {}
    for client in list(clients):
        seat = client.seat
        text = encoded.get(seat)
        if text is None:
            text = encoded[seat] = encode(message_for(seat))
        client.send_text(text)
