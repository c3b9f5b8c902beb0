"""Real holders of a lock in other processes, for tests of the lock's users: a lock is a kernel ``flock``, so a
file holding a pid is not a holder; a process that took the lock (and is still alive, or was killed) is.

The holders are forked from the test's process (cheap: the package is imported already).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Iterator

from boardgame_envs.arena.lock import PidLock

FORK = multiprocessing.get_context("fork")


def _hold(path: str, conn) -> None:
    lock = PidLock(path, "the resource", "test holder", "wait")
    lock.acquire()
    conn.send("held")
    try:
        conn.recv()  # until the test says so (a pipe: a kill of this process leaves nothing locked)
    except EOFError:
        pass
    lock.release()


@contextlib.contextmanager
def held_elsewhere(path: str | os.PathLike) -> Iterator[multiprocessing.process.BaseProcess]:
    """A live process holding the lock at ``path`` for the block (its ``pid``); it lets go when the block ends."""
    ours, theirs = FORK.Pipe()
    holder = FORK.Process(target=_hold, args=(os.fspath(path), theirs))
    holder.start()
    theirs.close()
    try:
        assert ours.poll(30) and ours.recv() == "held", "the holder did not take the lock"
        yield holder
    finally:
        if holder.is_alive():
            ours.send("let go")  # (a message: the child's inherited copy of our end keeps a close from reaching it)
        ours.close()
        holder.join(30)
        if holder.is_alive():
            holder.kill()
            holder.join()


def left_by_a_killed_holder(path: str | os.PathLike) -> int:
    """Take the lock at ``path`` in a process, ``kill -9`` it, and return its pid: its lock file is left behind."""
    with held_elsewhere(path) as holder:
        holder.kill()
        holder.join()
        return holder.pid
