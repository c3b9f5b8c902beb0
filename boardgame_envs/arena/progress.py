"""Progress bars that suit where they are written: one redrawn line on a terminal, plain lines in a file.

tqdm redraws its bar by writing a carriage return before each update. A terminal shows
one line that changes; a log file or a pipe (``nohup``, ``> log``, a CI job) gets every
update on one ever-growing line, unreadable and, over a training run, megabytes long.
:func:`progress_bar` makes every bar of the package: on a terminal (or in a notebook,
where tqdm draws a widget) tqdm's own bar as it is, elsewhere one plain line per update,
at most one every :data:`LOG_EVERY_S` seconds, and the last state on a line at the end.

The invariant: whatever a bar writes where no terminal reads it ends in a newline and
holds no carriage return or cursor movement.
"""

from __future__ import annotations

import re
import sys
import time
from typing import IO, Any

from tqdm.auto import tqdm as auto_tqdm
from tqdm.std import tqdm as std_tqdm

LOG_EVERY_S = 30.0  # a bar in a file writes at most one line this often (and its start and end)
_CONTROL = re.compile(r"\r|\x1b\[[0-9;]*[A-Za-z]")  # carriage returns, cursor moves (nested bars)


class LineWriter:
    """A file-like object for tqdm: each status it writes becomes one line of ``stream``; the carriage
    returns, padding and cursor moves meant for a terminal are dropped, and so is a clearing write."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        for part in _CONTROL.sub("\n", str(text)).split("\n"):
            if part.strip():
                self.stream.write(part.rstrip() + "\n")
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False


class LogBar(std_tqdm):
    """tqdm for a log: every redraw (an update, ``set_postfix``, ``set_description``) prints at most once
    per ``mininterval``, the first at once; closing prints the last state whenever it comes."""

    _log_t: float | None = None

    def refresh(self, nolock: bool = False, lock_args: Any = None) -> bool | None:
        if self.disable:  # a disabled bar has no interval (tqdm stops setting it up)
            return super().refresh(nolock=nolock, lock_args=lock_args)
        now = time.time()
        if self._log_t is not None and now - self._log_t < self.mininterval:
            return False
        self._log_t = now
        return super().refresh(nolock=nolock, lock_args=lock_args)


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a closed or odd stream counts as not one)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _in_notebook() -> bool:
    """tqdm.auto picked the notebook widget, which draws in place wherever the stream goes."""
    return any(cls.__module__ == "tqdm.notebook" for cls in auto_tqdm.__mro__)


def progress_bar(*, file: IO[str] | None = None, **kwargs: Any) -> std_tqdm:
    """A tqdm bar (any of tqdm's keyword arguments) on ``file`` (default stderr), chosen by where it goes.

    On a terminal or in a notebook: ``tqdm.auto.tqdm(**kwargs)``. Elsewhere: plain ASCII lines through a
    :class:`LineWriter`, at most one every :data:`LOG_EVERY_S` seconds, and the bar's last state kept at
    the end (``leave=True``) so the log says where it stopped.
    """
    stream = sys.stderr if file is None else file
    if _in_notebook() or is_terminal(stream):
        return auto_tqdm(file=file, **kwargs)
    kwargs.update(file=LineWriter(stream), mininterval=LOG_EVERY_S, maxinterval=LOG_EVERY_S, ascii=True, leave=True)
    kwargs.pop("dynamic_ncols", None)
    return LogBar(**kwargs)
