"""One process at a time on a shared resource (a training run, a ladder's game log): a pid lock file.

:class:`PidLock` creates its file with ``O_EXCL`` and writes its process id in it. A second
process that finds the file held by a live process is refused with :class:`InUseError`, one
line naming that process (``pid N``); a file left by a process that is gone (killed before it
could let go) is taken over, with a line on stderr saying so; a file of this same process is
taken again (an object rebuilt on its own resource, as tests and notebooks do). A pid names a
process on this machine only: two machines sharing a folder over the network are not held apart.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


class InUseError(ValueError):
    """Another live process holds the lock; the message names it."""


class PidLock:
    """A lock file at ``path`` holding its owner's pid; :meth:`acquire`, :meth:`release`, or ``with``.

    Args:
        path: the lock file (its folder is created).
        subject: what the lock guards, as messages name it (a folder, a log file).
        holder: what holds it, as in "in use by another <holder>".
        advice: what the refused user can do, ending the refusal's line.
    """

    error: type[InUseError] = InUseError  # raised on refusal (a subclass may name its own)

    def __init__(self, path: str | os.PathLike, subject: str, holder: str, advice: str) -> None:
        self.path = Path(path)
        self.subject, self.holder, self.advice = subject, holder, advice
        self.held = False

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(2):  # the second try follows the removal of a stale lock
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                owner = self.owner()
                if owner is not None and owner != os.getpid() and alive(owner):
                    raise self.error(f"{self.subject} is in use by another {self.holder} (pid {owner}); "
                                     f"{self.advice}") from None  # fmt: skip
                if owner != os.getpid():
                    what = f"pid {owner}, no longer running" if owner is not None else "unreadable"
                    print(f"taking over the lock of {self.subject} ({what})", file=sys.stderr)
                self.path.unlink(missing_ok=True)
                continue
            with os.fdopen(fd, "w") as f:
                f.write(f"{os.getpid()}\n")
            self.held = True
            return
        raise self.error(f"cannot lock {self.subject}: another {self.holder} took it at the same moment")

    def owner(self) -> int | None:
        """The pid written in the lock file; None if there is none or it cannot be read."""
        try:
            pid = int(self.path.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if pid > 0 else None  # (kill(0) and kill(-1) would reach whole groups, not a process)

    def release(self) -> None:
        if self.held and self.owner() == os.getpid():
            self.path.unlink(missing_ok=True)
        self.held = False

    def __enter__(self) -> PidLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (under any user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True
