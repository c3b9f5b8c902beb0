"""Text and JSON from files, bounded: at most ``limit`` bytes are ever read, whatever the path is.

Only a regular file is read (:func:`~boardgame_envs.safeio.files.open_regular`: a FIFO, a device or a
socket is refused in one line, before anything waits on it); one larger than the limit is refused from
its size alone, and one that grows while it is read is cut off past the limit, so no file costs more
memory than the limit. The text must be UTF-8; JSON nested deeper than the parser goes is refused like
any other damage, in one line naming the file.
"""

from __future__ import annotations

import json
import os
from typing import Any

from boardgame_envs.safeio.errors import FileRefusedError
from boardgame_envs.safeio.files import open_regular

#: The most bytes any text file (openings, ladder tables, curves, run settings, SB3 ``data``) may hold: 16 MiB.
#: The package's largest text files (ladder tables, opening sets) are under 1 MiB.
TEXT_LIMIT = 16 * 1024 * 1024
_CHUNK = 1 << 20


def read_bytes(path: str | os.PathLike, *, limit: int = TEXT_LIMIT, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; :class:`FileRefusedError` past the
    limit or for anything but a regular file.

    A missing file raises the usual ``FileNotFoundError``, a folder ``IsADirectoryError`` (and other
    ``OSError``s as the system gives them).
    """
    where = os.fspath(path)
    fd = open_regular(where, what)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise FileRefusedError(where, f"the {what} is {size:,} bytes, over the {limit:,}-byte limit")
        chunks, total = [], 0
        while total <= limit:  # a file growing as it is read (a log being written) is cut off past the limit
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
