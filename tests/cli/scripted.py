"""A person at the terminal, played by a list of entries."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def typed(entries: Iterable[str]) -> Callable[[str], str]:
    """An `ask` function that answers with `entries` in turn, then ends the input (EOFError)."""
    feed = iter(entries)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask
