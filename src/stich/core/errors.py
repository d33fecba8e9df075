"""Moved to :mod:`stich.errors` (issue 39: ``stich.cards`` and ``stich.core`` no longer import each other).

Kept only so that branches written before the move still import; new code imports :mod:`stich.errors`.
Delete once no module imports ``stich.core.errors``.
"""

from stich.errors import LINE_BREAKS, IllegalActionError, NotationError, OptionError, RecordError, StichError, one_line

__all__ = ["LINE_BREAKS", "IllegalActionError", "NotationError", "OptionError", "RecordError", "StichError", "one_line"]
