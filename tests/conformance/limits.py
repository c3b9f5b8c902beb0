"""The kit's time limit: each of its tests fails, in one line, once it runs past :data:`KIT_TIME_LIMIT_S`.

A broken game can loop for ever where the kit's own loops cannot see it (a
search over a game whose moves never end it, a ``legal_mask`` that never
returns): the test fails at the limit, and the suite goes on. The kit's play
loops stop far sooner, at ``checks.MAX_PLIES``, with a message of their own.
pytest-timeout is not a dependency of the package; this is SIGALRM's interval
timer, in the main thread, where POSIX has one (elsewhere the tests run
without a limit). The failure is pytest's own (``pytest.fail``, a
``BaseException``), so no ``except Exception`` in the code under test can
swallow it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

import pytest

# Far above what a kit test takes on a loaded 2-core machine (the slowest, the first to import torch, ~50 s);
# only a game that never ends, or a search that never returns, reaches it.
KIT_TIME_LIMIT_S = 180.0


@contextlib.contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Fail the running test in one line (``what`` ran past ``seconds``) if the block has not ended by then."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        pytest.fail(f"{what} ran past the kit's time limit of {seconds:g} s: a game that never ends, or a "
                    "search that never returns?", pytrace=False)  # fmt: skip

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
