"""Guards for tests of faults: a hard timeout (a hang fails the test) and the set of child processes."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

HARD_TIMEOUT_S = 90  # far above the seconds these tests take; only a hang reaches it


def children_of(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``, read from /proc."""
    pids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            pids.add(int(stat.parent.name))
    return pids


def child_pids() -> set[int]:
    """The live (not zombie) processes whose parent is this one."""
    return children_of(os.getpid())


@contextlib.contextmanager
def hard_timeout(seconds: int = HARD_TIMEOUT_S) -> Iterator[None]:
    """Raise TimeoutError in the main thread if the block runs past ``seconds`` (a hang fails instead of hanging)."""

    def on_alarm(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: it hung")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def no_process_left(seconds: int = HARD_TIMEOUT_S) -> Iterator[None]:
    """Under a hard timeout; afterwards no process started in the block may be left running."""
    before = child_pids()
    with hard_timeout(seconds):
        yield
    left = child_pids() - before
    assert left == set(), f"processes left running: {sorted(left)}"
