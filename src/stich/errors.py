"""Exceptions that name what went wrong, so a user's mistake never ends in a traceback."""

from __future__ import annotations

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character at which ``str.splitlines`` breaks a line."""


def _unprintable(char: str) -> bool:
    """A line break, or a lone surrogate (which no terminal can be sent as UTF-8)."""
    return char in LINE_BREAKS or "\ud800" <= char <= "\udfff"


def one_line(text: str) -> str:
    """``text`` with every line break and lone surrogate written as its escape (``\\n``, ``\\u2028``...): one printable line."""
    if not any(_unprintable(char) for char in text):
        return text
    return "".join(char.encode("unicode_escape").decode("ascii") if _unprintable(char) else char for char in text)


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

    ``where`` names the field or the position (e.g. ``actions[17]``),
    ``reason`` says what is wrong with it; the text is ``where: reason``.
    Both are kept to one line (a record's own text, quoted in a message,
    may hold line breaks), so that a command prints one line per problem.
    """

    def __init__(self, message: str, where: str = "") -> None:
        self.reason = one_line(message)
        self.where = one_line(where)
        super().__init__(f"{self.where}: {self.reason}" if self.where else self.reason)
