"""Opening what a user names: regular files only, and never a wait.

A named pipe with no writer blocks ``open()`` forever, one whose writer stays silent blocks ``read()``
forever, and a device (``/dev/zero``, ``/dev/urandom``) never ends. So every file the package reads
is opened here: the path is looked at first (``stat``, following links) and anything but a regular
file is refused before it is opened; then it is opened with ``O_NONBLOCK`` (a FIFO swapped in
meanwhile cannot make the open wait) and looked at again through the open descriptor (``fstat``),
which is what is read. Invariant: every descriptor this module hands back is a regular file's, in
blocking mode, so reading it ends at the file's end.
"""

from __future__ import annotations

import errno as errno_codes
import os
import stat
from typing import IO, Any, BinaryIO

from boardgame_envs.safeio.errors import FileRefusedError

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a named pipe (FIFO)", "a character device", ...)."""
    return next((words for test, words in _KINDS if test(mode)), "of another kind")


def refuse_irregular(path: str | os.PathLike, mode: int, what: str = "file") -> None:
    """Raise for a folder (``IsADirectoryError``, as ``open`` does) or anything else not a regular file
    (:class:`FileRefusedError`, one line naming ``path`` and what it is)."""
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno_codes.EISDIR, "Is a directory", os.fspath(path))
    if not stat.S_ISREG(mode):
        raise FileRefusedError(path, f"the {what} is {kind_of(mode)}, not a regular file")


def open_regular(path: str | os.PathLike, what: str = "file") -> int:
    """A read-only descriptor of the regular file at ``path`` (close it); nothing else is opened or waited on.

    A missing file raises ``FileNotFoundError`` and a folder ``IsADirectoryError``, as ``open`` would;
    a FIFO, a device or a socket, :class:`FileRefusedError` in one line naming ``path``.
    """
    where = os.fspath(path)
    refuse_irregular(where, os.stat(where).st_mode, what)  # before opening: a device is never even opened
    try:
        # O_NONBLOCK: a FIFO put in the file's place since the stat cannot make the open wait for a writer.
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno_codes.ENXIO:  # a socket (or a FIFO opened for writing): never a regular file
            raise FileRefusedError(where, f"the {what} is a socket, not a regular file") from None
        raise
    try:
        refuse_irregular(where, os.fstat(fd).st_mode, what)  # what is open now is what is read
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular_file(path: str | os.PathLike, what: str = "file") -> BinaryIO:
    """:func:`open_regular` as a binary file object (``with open_regular_file(p) as f: ...``)."""
    return os.fdopen(open_regular(path, what), "rb")


def open_append(path: str | os.PathLike, what: str = "file", **text: str) -> IO[Any]:
    """The regular file at ``path`` opened to append text (created if missing), as ``open(path, "a", **text)``.

    Opening a FIFO to write waits for a reader: here it is refused in one line (:class:`FileRefusedError`), as is a
    device or a socket, whether or not a reader is there.
    """
    where = os.fspath(path)
    try:
        fd = os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0), 0o666)  # fmt: skip
    except OSError as exc:
        if exc.errno == errno_codes.ENXIO:  # a FIFO with no reader, or a socket
            raise FileRefusedError(where, f"the {what} is not a regular file") from None
        raise
    try:
        refuse_irregular(where, os.fstat(fd).st_mode, what)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, "a", **text)  # noqa: SIM115 (the caller closes it)
    except BaseException:
        os.close(fd)
        raise
