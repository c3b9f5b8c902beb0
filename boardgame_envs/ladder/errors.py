"""The ladder's error: a game, ladder or level that does not exist, or a table that does not match its ladder.

It lives apart so that the modules raising it (the ladders, the table reader) import it
from below instead of from each other.
"""

from __future__ import annotations


class LadderError(ValueError):
    """An unknown ladder, game or level, or a table that rates other levels than its ladder defines."""
