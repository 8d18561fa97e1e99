"""The errors every layer of parlour raises: each names the problem in words a player understands."""

from __future__ import annotations


class ParlourError(Exception):
    """Base class of every error parlour raises on purpose."""


class InvalidOption(ParlourError, ValueError):
    """A game name, option or player count that does not exist or does not fit."""


class IllegalAction(ParlourError, ValueError):
    """An action that may not be taken in this state. The state is left untouched."""


class RecordError(ParlourError, ValueError):
    """A game record that is malformed, or that does not replay to what it claims."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


class DataError(ParlourError, ValueError):
    """A component data file that is missing, malformed or inconsistent with the rulebook."""
