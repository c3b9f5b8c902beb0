"""Text and JSON from files, bounded: at most ``limit`` bytes are ever read, whatever the path is.

A regular file larger than the limit is refused from its size alone; anything else (``/dev/zero``,
a pipe, a symlink to a device) is read in chunks and refused as soon as it passes the limit, so no
file costs more memory than the limit. The text must be UTF-8; JSON nested deeper than the parser
goes is refused like any other damage, in one line naming the file.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from boardgame_envs.safeio.errors import FileRefusedError

#: The most bytes any text file (openings, ladder tables, curves, run settings, SB3 ``data``) may hold: 16 MiB.
#: The package's largest text files (ladder tables, opening sets) are under 1 MiB.
TEXT_LIMIT = 16 * 1024 * 1024
_CHUNK = 1 << 20


def read_bytes(path: str | os.PathLike, *, limit: int = TEXT_LIMIT, what: str = "file") -> bytes:
    """The bytes of ``path``, at most ``limit`` of them; :class:`FileRefusedError` past the limit.

    A missing file raises the usual ``FileNotFoundError`` (and other ``OSError``s as the system gives them).
    """
    where = os.fspath(path)
    # O_NONBLOCK: opening a pipe nobody writes to returns at once (its reads then see the end) instead of waiting.
    fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "Is a directory", where)
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise FileRefusedError(where, f"the {what} is {info.st_size:,} bytes, over the {limit:,}-byte limit")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > limit:
        raise FileRefusedError(where, f"the {what} goes on past the {limit:,}-byte limit")
    return b"".join(chunks)


def read_text(path: str | os.PathLike, *, limit: int = TEXT_LIMIT, what: str = "file", newline: str | None = None) -> str:
    """The UTF-8 text of ``path`` (at most ``limit`` bytes); :class:`FileRefusedError` in one line otherwise.

    ``newline`` as :func:`open`'s: None turns ``\\r\\n`` and ``\\r`` into ``\\n`` (as ``Path.read_text``),
    ``""`` keeps the line ends as written (what the csv module wants).
    """
    data = read_bytes(path, limit=limit, what=what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefusedError(path, f"the {what} is not UTF-8 text (byte {exc.start:,} is {data[exc.start]:#04x})") from None
    if newline is None:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_json(path: str | os.PathLike, *, limit: int = TEXT_LIMIT, what: str = "file") -> Any:
    """The JSON value in ``path`` (through :func:`read_text`); damage of any kind is one :class:`FileRefusedError`."""
    return parse_json(read_text(path, limit=limit, what=what), path, what)


def parse_json(text: str | bytes, path: str | os.PathLike, what: str = "file") -> Any:
    """``json.loads(text)``, its failures (bad syntax, nesting past the parser's depth, a 5,000-digit number)
    as :class:`FileRefusedError` naming ``path``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileRefusedError(path, f"the {what} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise FileRefusedError(path, f"the {what} nests its JSON deeper than the reader goes") from None
    except (ValueError, UnicodeDecodeError) as exc:  # an integer too long to convert; bytes that are not UTF-8
        raise FileRefusedError(path, f"the {what} is not JSON that can be read: {str(exc).splitlines()[0][:120]}") from None
