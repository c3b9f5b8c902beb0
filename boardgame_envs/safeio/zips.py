"""Zip archives read by their declared sizes: the count of entries and each entry's inflated size are
checked against caps before a byte is inflated, so a small archive cannot unpack into gigabytes."""

from __future__ import annotations

import os
import zipfile
from typing import BinaryIO

from boardgame_envs.safeio.errors import FileRefusedError

#: The most entries a zip the package reads (an SB3 model, a torch file) may list.
ZIP_ENTRIES_LIMIT = 1_000


def open_zip(path: str | os.PathLike | BinaryIO, *, total_limit: int, what: str = "zip file",
             where: str | os.PathLike | None = None) -> zipfile.ZipFile:  # fmt: skip
    """The archive at ``path`` (a path or an open binary file), its entries counted and their declared inflated
    sizes summed against ``total_limit`` before anything is read; :class:`FileRefusedError` naming ``where``
    (default: ``path``) for a damaged archive or one past the caps."""
    where = os.fspath(where if where is not None else path)  # type: ignore[arg-type]
    try:
        archive = zipfile.ZipFile(path if hasattr(path, "read") else os.fspath(path))  # type: ignore[arg-type]
    except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError) as exc:
        raise FileRefusedError(where, f"the {what} is damaged or cut short (not a readable zip: {_first_line(exc)})") from None
    entries = archive.infolist()
    if len(entries) > ZIP_ENTRIES_LIMIT:
        archive.close()
        raise FileRefusedError(where, f"the {what} lists {len(entries):,} entries, over the limit of {ZIP_ENTRIES_LIMIT:,}")
    total = sum(entry.file_size for entry in entries)
    if total > total_limit:
        archive.close()
        raise FileRefusedError(where, f"the {what}'s entries unpack to {total:,} bytes, over the {total_limit:,}-byte limit")
    return archive


def read_member(archive: zipfile.ZipFile, name: str, *, limit: int, what: str = "zip file") -> bytes:
    """The bytes of entry ``name``, refused by its declared inflated size before it is read (and cut off past
    ``limit`` whatever it declared); :class:`FileRefusedError` naming the archive and the entry."""
    where = archive.filename or "the zip"
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise FileRefusedError(where, f"the {what} has no {name!r} entry") from None
    if info.file_size > limit:
        raise FileRefusedError(where, f"its {name!r} entry unpacks to {info.file_size:,} bytes, over the {limit:,}-byte limit")
    try:
        with archive.open(info) as f:
            data = f.read(limit + 1)
    except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError, RuntimeError) as exc:
        raise FileRefusedError(where, f"its {name!r} entry is damaged ({_first_line(exc)})") from None
    if len(data) > limit:
        raise FileRefusedError(where, f"its {name!r} entry unpacks past the {limit:,}-byte limit")
    return data


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
