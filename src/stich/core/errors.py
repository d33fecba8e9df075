"""Exceptions that name what went wrong, so a user's mistake never ends in a traceback."""

from __future__ import annotations


class StichError(Exception):
    """Base class of every error stich raises on purpose."""


class NotationError(StichError, ValueError):
    """Text that is not valid card, hand or action notation."""


class OptionError(StichError, ValueError):
    """An unknown game, preset or option, or a value of the wrong type."""


class IllegalActionError(StichError, ValueError):
    """An action the rules do not allow now; ``rule`` names the rule it breaks.

    The state that rejected the action is unchanged.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.rule = rule


class RecordError(StichError, ValueError):
    """A malformed record, or one whose actions or result do not replay.

    ``where`` names the field or the position (e.g. ``actions[17]``).
    """

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
