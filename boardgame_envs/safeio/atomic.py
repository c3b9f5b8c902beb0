"""Writing that never leaves half a file: a temporary file beside the target, flushed to disk, renamed over it.

A kill at any moment leaves the old file or the new one under the name, never part of one; a full
disk raises :class:`~boardgame_envs.safeio.errors.DiskFullError` naming the disk, with the temporary
file removed. Temporary names are ``.<name>.<pid>.<random>.tmp`` in the target's folder, ``<pid>`` the
writer's: :func:`stale_temporaries` finds those a killed writer left, and
:func:`remove_stale_temporaries` removes those whose writer is gone, never one a live writer is writing. :func:`atomic_write_new` never replaces
anything: it claims the first free name, so writers in several processes never write over each other.
"""

from __future__ import annotations

import errno as errno_codes
import io
import itertools
import os
import tempfile
from io import FileIO
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from boardgame_envs.safeio.errors import DISK_FULL, DiskFullError


def atomic_write(path: str | os.PathLike, write: Callable[[IO[bytes]], Any]) -> Path:
    """Call ``write(f)`` on a temporary binary file beside ``path``, then put it in place; the path written.

    The folder is made if missing. An ``OSError`` of a full disk or quota becomes :class:`DiskFullError`;
    any failure removes the temporary file and leaves ``path`` as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_temporary_prefix(path), suffix=".tmp")
    _plain_mode(fd)
    f = _Recording(FileIO(fd, "wb"))
    try:
        with f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        # A writer may turn the OSError of a full disk into its own error (torch.save: "unexpected pos 704 vs
        # 598"); the file saw the OSError all the same.
        code = exc.errno if isinstance(exc, OSError) else getattr(f.error, "errno", None)
        if code in DISK_FULL:
            raise DiskFullError(path, code) from None
        raise
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()  # what open() gives a new file; mkstemp's files are the owner's alone (0o600)


def _plain_mode(fd: int) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, _MODE)


class _Recording(io.BufferedWriter):
    """A binary file that keeps the first OSError its writes met (``error``), whatever the caller made of it."""

    error: OSError | None = None

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except OSError as exc:
            self.error = self.error or exc
            raise

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as exc:
            self.error = self.error or exc
            raise


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (see the module docstring)."""
    return atomic_write(path, lambda f: f.write(data))


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` as UTF-8 to ``path`` atomically, its line ends as given."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_save_tensors(obj: Any, path: str | os.PathLike) -> Path:
    """``torch.save(obj)`` to ``path`` atomically; ``obj`` should hold tensors and plain values only, so that
    :func:`~boardgame_envs.safeio.tensors.load_tensors` reads it back."""
    import torch

    return atomic_write(path, lambda f: torch.save(obj, f))


def atomic_write_new(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to a new file: ``path``, or if that name is taken ``<stem>-2<suffix>``, ``<stem>-3<suffix>``,
    ...; the path written. The file is written whole under a temporary name, then linked to the first free
    name (``os.link`` fails rather than replace), so processes saving into one folder at once each keep
    every file they write. Where the file system has no hard links, the name is claimed with ``O_EXCL``
    and the whole file renamed onto it. A full disk is :class:`DiskFullError`; nothing is left behind.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_temporary_prefix(path), suffix=".tmp")
    _plain_mode(fd)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        for number in itertools.count(1):
            target = path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")
            try:
                os.link(tmp, target)
            except FileExistsError:
                continue
            except OSError as exc:
                if exc.errno not in NO_LINKS:
                    raise
                try:  # no hard links here: claim the name, then put the whole file on it
                    os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                except FileExistsError:
                    continue
                os.replace(tmp, target)
            return target
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise DiskFullError(path, exc.errno) from None
        raise
    finally:
        Path(tmp).unlink(missing_ok=True)
    raise AssertionError("unreachable")  # (itertools.count never ends)


NO_LINKS = (errno_codes.EPERM, errno_codes.ENOTSUP, errno_codes.EOPNOTSUPP, errno_codes.ENOSYS, errno_codes.EMLINK)


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}.{os.getpid()}."


def remove_stale_temporaries(folder: str | os.PathLike, pattern: str = "*") -> list[Path]:
    """Remove the temporary files in ``folder`` (for targets matching ``pattern``) whose writer is no longer running
    (killed mid-write: ``kill -9`` gives no chance to clean up); the paths removed. A temporary file of a live
    process (another writer in the same folder) is left alone, and so is one whose name holds no writer."""
    removed = []
    for path in stale_temporaries(folder, pattern):
        writer = path.name[: -len(".tmp")].rsplit(".", 2)[-2]
        if writer.isdigit() and not _running(int(writer)):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    if pid <= 0:
        return True  # (not a process's pid: leave the file)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's process; a number too large to be a pid
        return True
    return True


def stale_temporaries(folder: str | os.PathLike, pattern: str = "*") -> list[Path]:
    """Temporary files that a writer killed mid-write left in ``folder`` (for targets matching ``pattern``)."""
    return sorted(Path(folder).glob(f".{pattern}.*.tmp"))
