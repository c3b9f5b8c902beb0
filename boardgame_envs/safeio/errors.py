"""The two errors of the loading layer: a file refused for what it holds, a disk too full to write on.

Both say, on one line that starts with the path, what is wrong, so every caller (a policy spec, the
CLI, a trainer resuming) can pass the message on as it is. :func:`excerpt` is how any error line quotes
what a file holds: never more than a short piece of it.
"""

from __future__ import annotations

import errno as errno_codes
import os
from pathlib import Path


class FileRefusedError(ValueError):
    """A file the package will not read: too large, not UTF-8, not JSON, not tensors only, outside its folder.

    The message is one line, ``"<path>: <what is wrong>"``.
    """

    def __init__(self, path: str | os.PathLike, why: str) -> None:
        self.path = os.fspath(path)
        self.why = " ".join(why.split())
        super().__init__(f"{self.path}: {self.why}")


DISK_FULL = (errno_codes.ENOSPC, errno_codes.EDQUOT)


class DiskFullError(OSError):
    """A write that found no room (``ENOSPC``, ``EDQUOT``): the path, the disk (its mount point) and its free bytes.

    ``str()`` is one line starting with the path; ``strerror`` and ``filename`` carry the same, for
    handlers that print ``"<filename>: <strerror>"`` (the CLI does).
    """

    def __init__(self, path: str | os.PathLike, code: int = errno_codes.ENOSPC) -> None:
        folder = Path(path).parent
        disk, free = mount_of(folder), free_bytes(folder)
        room = "no room" if code == errno_codes.ENOSPC else "the disk quota is used up"
        free_text = "" if free is None else f" ({free:,} bytes free)"
        why = f"{room} on the disk at {disk}{free_text}"
        super().__init__(code, why, os.fspath(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def mount_of(folder: str | os.PathLike) -> str:
    """The mount point holding ``folder`` (its nearest existing ancestor's)."""
    here = Path(os.path.abspath(folder))
    while not here.exists() and here != here.parent:
        here = here.parent
    while not os.path.ismount(here) and here != here.parent:
        here = here.parent
    return str(here)


def free_bytes(folder: str | os.PathLike) -> int | None:
    """Bytes free to an unprivileged writer on the disk of ``folder`` (None where the system does not say)."""
    here = Path(os.path.abspath(folder))
    while not here.exists() and here != here.parent:
        here = here.parent
    try:
        stats = os.statvfs(here)
    except (OSError, AttributeError):
        return None
    return stats.f_bavail * stats.f_frsize


#: The most characters of a file's content an error line quotes.
EXCERPT_CHARS = 80


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` as an error line may quote it: whole if short, else its first ``limit`` characters and how many
    more there are, so a 16 MB line of a file costs one short line of stderr, not 16 MB."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"
