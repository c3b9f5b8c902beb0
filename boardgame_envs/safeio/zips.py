"""Zip archives read by their declared sizes: the count of entries and each entry's inflated size are
checked against caps before a byte is inflated, so a small archive cannot unpack into gigabytes.

The count is checked before the archive's directory is parsed, too: ``zipfile`` (and torch's reader)
build an object per entry of the central directory, so 3 million entries cost seconds and gigabytes
before any count could be compared. The end-of-central-directory record (and its zip64 twin) states
how many entries there are and how many bytes the directory spans; both are read from the file's
last bytes and capped first (:data:`ZIP_ENTRIES_LIMIT`, :data:`CENTRAL_DIRECTORY_LIMIT`).
"""

from __future__ import annotations

import os
import struct
import zipfile
from typing import BinaryIO

from boardgame_envs.safeio.errors import FileRefusedError
from boardgame_envs.safeio.files import open_regular_file

#: The most entries a zip the package reads (an SB3 model, a torch file) may list.
ZIP_ENTRIES_LIMIT = 1_000
#: The most bytes a zip's central directory may span: 1 KiB an entry on average (torch's entries take
#: about 130 with their alignment padding, SB3's under 100), so a directory of more entries than the
#: cap, whatever count it states, is refused before it is parsed.
CENTRAL_DIRECTORY_LIMIT = ZIP_ENTRIES_LIMIT * 1024
_END, _END_SIZE = b"PK\x05\x06", 22  # the end-of-central-directory record, at most 64 KiB of comment after it
_LOCATOR, _LOCATOR_SIZE = b"PK\x06\x07", 20  # zip64's locator, just before that record
_END64, _END64_SIZE = b"PK\x06\x06", 56


def declared_directory(f: BinaryIO) -> tuple[int, int] | None:
    """The entries and the central directory's bytes that the archive in ``f`` states in its end records
    (the larger of the classic and the zip64 figures); None if it has no end record (not a zip)."""
    size = f.seek(0, os.SEEK_END)
    start = max(0, size - _END_SIZE - 0xFFFF)
    f.seek(start)
    tail = f.read(size - start)
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < _END_SIZE:
        return None
    entries, directory = struct.unpack("<HI", tail[at + 10 : at + 16])
    locator = start + at - _LOCATOR_SIZE
    if locator >= 0:
        f.seek(locator)
        head = f.read(_LOCATOR_SIZE)
        if head[:4] == _LOCATOR:
            (offset,) = struct.unpack("<Q", head[8:16])
            if offset < size:
                f.seek(offset)
                record = f.read(_END64_SIZE)
                if record[:4] == _END64 and len(record) == _END64_SIZE:
                    entries64, directory64 = struct.unpack("<QQ", record[32:48])
                    entries, directory = max(entries, entries64), max(directory, directory64)
    return entries, directory


class _OwnedZipFile(zipfile.ZipFile):
    """A ``ZipFile`` over a file this module opened (a regular file, checked): closing it closes that file."""

    _owned: BinaryIO | None = None

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._owned is not None:
                self._owned.close()


def open_zip(path: str | os.PathLike | BinaryIO, *, total_limit: int, what: str = "zip file",
             where: str | os.PathLike | None = None) -> zipfile.ZipFile:  # fmt: skip
    """The archive at ``path`` (a path or an open binary file), its entries counted and their declared inflated
    sizes summed against ``total_limit`` before anything is read; :class:`FileRefusedError` naming ``where``
    (default: ``path``) for a damaged archive or one past the caps."""
    where = os.fspath(where if where is not None else path)  # type: ignore[arg-type]
    owned = None if hasattr(path, "read") else open_regular_file(path, what)  # type: ignore[arg-type]
    f = owned if owned is not None else path
    try:
        stated = declared_directory(f)  # type: ignore[arg-type]
        if stated is not None:
            if stated[0] > ZIP_ENTRIES_LIMIT:
                raise FileRefusedError(where, f"the {what} lists {stated[0]:,} entries, over the limit of {ZIP_ENTRIES_LIMIT:,}")
            if stated[1] > CENTRAL_DIRECTORY_LIMIT:
                raise FileRefusedError(where, f"the {what}'s directory of entries spans {stated[1]:,} bytes, over the "
                                              f"{CENTRAL_DIRECTORY_LIMIT:,}-byte limit (more entries than the limit of "
                                              f"{ZIP_ENTRIES_LIMIT:,})")  # fmt: skip
        f.seek(0)  # type: ignore[union-attr]
        try:
            archive = _OwnedZipFile(f) if owned is not None else zipfile.ZipFile(f)  # type: ignore[arg-type]
        except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError) as exc:
            raise FileRefusedError(where, f"the {what} is damaged or cut short (not a readable zip: {_first_line(exc)})") from None
    except BaseException:
        if owned is not None:
            owned.close()
        raise
    if owned is not None:
        archive._owned = owned  # type: ignore[attr-defined]
        archive.filename = where  # (its file object's name is a descriptor number)
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
