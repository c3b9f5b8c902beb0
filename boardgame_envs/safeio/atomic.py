"""Writing that never leaves half a file: a temporary file beside the target, flushed to disk, renamed over it.

A kill at any moment leaves the old file or the new one under the name, never part of one; a full
disk raises :class:`~boardgame_envs.safeio.errors.DiskFullError` naming the disk, with the temporary
file removed. Temporary names are ``.<name>.<random>.tmp`` in the target's folder
(:func:`stale_temporaries` finds those a killed writer left).
"""

from __future__ import annotations

import os
import tempfile
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
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        if exc.errno in DISK_FULL:
            raise DiskFullError(path, exc.errno) from None
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


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


def stale_temporaries(folder: str | os.PathLike, pattern: str = "*") -> list[Path]:
    """Temporary files that a writer killed mid-write left in ``folder`` (for targets matching ``pattern``)."""
    return sorted(Path(folder).glob(f".{pattern}.*.tmp"))
