"""What a string and a JSON text from a client may hold, wherever they come in: HTTP bodies
(server/edge/guard.py), websocket messages (server/features/ws.py), names and chat.

`read_json` reads JSON nested at most `max_json_depth` deep whose every string (keys too) is free
of control and bidirectional-control characters; `check_text`, `check_visible` and
`check_display_name` judge one string. docs/server.md, "Limits on requests and messages", says
what each refuses.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import orjson

from parlour.server.edge.errors import ServerError

# Characters refused in every string a client sends: C0 and C1 controls (NUL, tab, new line, ESC
# …, category Cc), the bidirectional controls that make a name display as something else (U+061C,
# U+200E/F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators. No name, label,
# token or agent spec needs them, and each can forge what other players read.
REFUSED = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _character(char: str) -> str:
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character')})"


def check_text(text: str, where: str) -> None:
    """Refuse a string holding a control or bidirectional-control character."""
    found = REFUSED.search(text)
    if found is not None:
        raise ServerError(
            "bad_text",
            f"{where}: the character {_character(found.group())} is not allowed "
            "(control and bidirectional-control characters are refused)",
            422,
        )


# Characters that show nothing: the Hangul and Braille blanks and fillers, beside every format
# character (category Cf: zero-width space, joiners, word joiner, soft hyphen …), space (Zs) and
# combining mark (Mn, Me) with nothing to combine with.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
# Scripts whose letters look like each other's (Cyrillic а and Latin a): a name mixing two of them
# reads as another name. A name may still mix a script with others (Latin with Han, say).
LOOKALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")


def _invisible(char: str) -> bool:
    return char in BLANKS or unicodedata.category(char) in ("Cf", "Zs", "Mn", "Me")


def check_visible(text: str, where: str) -> None:
    """Refuse a text (a display name, a chat message) made only of characters that show nothing."""
    if text and all(_invisible(char) for char in text):
        raise ServerError(
            "bad_text",
            f"{where} shows nothing: it is made only of invisible characters such as {_character(text[0])}",
            422,
        )


def _script(char: str) -> str | None:
    """The look-alike script of a letter (its Unicode name's first word), None for any other."""
    if not unicodedata.category(char).startswith("L"):
        return None
    first = unicodedata.name(char, "").split(" ", 1)[0]
    return first if first in LOOKALIKE_SCRIPTS else None


def check_display_name(name: str) -> None:
    """Refuse a display name that shows nothing, that hides characters inside (a zero-width space
    makes "Ann" of "An\u200bn") or that mixes look-alike scripts (Cyrillic letters in a Latin name)."""
    check_text(name, "name")
    check_visible(name, "the name")
    hidden = next((char for char in name if char in BLANKS or unicodedata.category(char) == "Cf"), None)
    if hidden is not None and hidden != "\u200d":  # the joiner of emoji sequences shows as one emoji
        raise ServerError(
            "bad_text", f"name: the invisible character {_character(hidden)} is not allowed in a name", 422
        )
    first: str | None = None
    for char in name:
        script = _script(char)
        if script is None:
            continue
        if first is None:
            first = script
        elif script != first:
            raise ServerError(
                "bad_text",
                f"name: the character {_character(char)} mixes {script.title()} into a {first.title()} name; "
                "write a name in one script, so that it cannot pass for another player's",
                422,
            )


def too_deep(max_depth: int) -> ServerError:
    return ServerError("too_deep", f"JSON nested more than {max_depth} levels deep is refused")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_LONG_DIGITS = re.compile(r"[0-9]{19}")
# One decoder for every read: json.loads with an argument builds a new one each call.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def read_json(text: str, max_depth: int) -> Any:
    """The JSON value of `text`, or a ServerError: bad_json, too_deep or bad_text."""
    # orjson first (every move's message comes this way): it reads valid JSON to the same value,
    # except an integer past 64 bits, which it makes a float, so a text with a run of 19 digits
    # or more goes to the standard library. So does whatever orjson refuses: the standard library
    # says what is wrong in the words of the errors below.
    if _LONG_DIGITS.search(text) is not None:
        value = _standard_read(text, max_depth)
    else:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            value = _standard_read(text, max_depth)
    # Walked unless the text itself shows the value passes (a move's message, every time): with no
    # backslash every decoded string stands in the text as it is, and no more brackets, no deeper.
    if "\\" in text or REFUSED.search(text) or text.count("{") + text.count("[") > max_depth:
        _check_value(value, max_depth)
    return value


def _standard_read(text: str, max_depth: int) -> Any:
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise ServerError("bad_json", f"not valid JSON: {error.msg} at character {error.pos}") from None
    except RecursionError:
        # Nesting far past the limit exhausts the decoder's own recursion bound first.
        raise too_deep(max_depth) from None
    except ValueError as error:  # NaN, Infinity, an integer of more than 4300 digits
        raise ServerError("bad_json", f"not valid JSON: {error}") from None


def _check_value(value: Any, max_depth: int) -> None:
    """Walk the decoded value without recursion: its depth, and the characters of its strings."""
    pending: list[tuple[Any, int, str]] = [(value, 0, "")]
    while pending:
        item, depth, where = pending.pop()
        if isinstance(item, str):
            check_text(item, where or "the message")
            continue
        if isinstance(item, dict):
            children = list(item.items())
        elif isinstance(item, list):
            children = list(enumerate(item))
        else:
            continue
        if depth >= max_depth:
            raise too_deep(max_depth)
        for key, child in children:
            if isinstance(key, str):
                # repr: the name is shown with the refused character escaped, never as it is.
                check_text(key, f"the field name {key[:40]!r}" + (f" in {where}" if where else ""))
                place = f"{where}.{key}" if where else key
            else:
                place = f"{where}[{key}]"
            pending.append((child, depth + 1, place))
