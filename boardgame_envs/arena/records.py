"""Game records as files: :func:`save` and :func:`load` write and read one, :func:`save_new` a new one.

A record (:class:`GameRecord`, :mod:`~boardgame_envs.arena.game_record`) is
written as SGF for an m,n,k game (:mod:`~boardgame_envs.arena.sgf`) and as a move
list for any other (:mod:`~boardgame_envs.arena.move_list_records`, with ``.txt``);
:func:`load` tells the two formats apart by their first characters. The invariant:
what is written is never lost or cut. A file is written whole to a temporary
file and renamed, so a crash or a full disk leaves no empty or cut record, and
:func:`save_new` never writes over another file (``game-0001-2.sgf`` when
``game-0001.sgf`` is taken), which ``--save-games`` uses. Reading is bounded: a
file over :data:`MAX_SGF_BYTES` (1 MB) is refused in one line naming it.

The formats' names are here too (``records.to_sgf``, ``records.from_move_list``,
``records.GameRecord``, ...), as they have always been.
"""

from __future__ import annotations

import contextlib
import os

from boardgame_envs.arena.game_record import GameRecord, RecordError, game_parameters, piskvork_moves
from boardgame_envs.arena.move_list_records import from_move_list, to_move_list
from boardgame_envs.arena.sgf import MAX_SGF_BYTES, from_sgf, to_sgf
from boardgame_envs.safeio import (
    FileRefusedError,
    atomic_write_new,
    open_regular_file,
    read_bytes,
    remove_stale_temporaries,
)

__all__ = [
    "MAX_SGF_BYTES", "GameRecord", "RecordError", "from_move_list", "from_sgf", "game_parameters", "games_dir", "is_record", "load",
    "piskvork_moves", "save", "save_new", "to_move_list", "to_sgf",
]  # fmt: skip


def games_dir(path: str | os.PathLike) -> str | os.PathLike:
    """Make the directory ``path`` (and its parents) for saved games; a clear RecordError if it cannot be.

    Records that an arena killed mid-write left as temporary files (``.game-0007.sgf.<pid>.<random>.tmp``) are
    removed here, at the next start in the folder, when their writer is gone; another arena's, still
    writing, are left alone."""
    try:
        os.makedirs(path, exist_ok=True)
        remove_stale_temporaries(path, "game-*")
    except OSError as exc:
        raise RecordError(f"cannot save games in {os.fspath(path)!r}: {exc.strerror}") from None
    return path


def is_record(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` starts as a game record (SGF, or a move-list record's ``game:`` line),
    rather than as a bare list of moves; False if it cannot be read."""
    try:
        with open_regular_file(path, "game record") as f:  # a FIFO or a device is no record, and is not waited on
            head = f.read(64).lstrip()
    except (OSError, FileRefusedError):
        return False
    return head.startswith(b"(") or head.startswith(b"game:")


def save(record: GameRecord, path: str | os.PathLike) -> os.PathLike | str:
    """Write ``record`` to ``path`` as SGF; a game SGF cannot hold goes to ``path`` with ``.txt`` as a move list
    (:func:`to_move_list`), which :func:`load` reads back.

    Returns the path written. The text goes to a temporary file beside ``path``, renamed over it once whole,
    so a full disk or a crash leaves no empty or cut record at ``path``; a failure raises OSError naming
    ``path`` (``[Errno 28] No space left on device: 'games/game-0007.sgf'``).
    """
    path, text = _file_of(record, path)
    partial = f"{os.fspath(path)}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
    return path


def save_new(record: GameRecord, path: str | os.PathLike) -> str:
    """Write ``record`` as :func:`save` does, to a new file: ``path``, or if that name is taken ``game-0001-2.sgf``,
    ``game-0001-3.sgf``, ...; the path written. Never over another file, so several processes saving games into
    one folder (``--save-games``) keep every record each of them writes. A full disk raises
    :class:`~boardgame_envs.safeio.DiskFullError` (an OSError naming the file and its disk), leaving no file.
    """
    path, text = _file_of(record, path)
    return os.fspath(atomic_write_new(path, text.encode("utf-8")))


def _file_of(record: GameRecord, path: str | os.PathLike) -> tuple[str | os.PathLike, str]:
    """Where ``record`` is written when asked for ``path`` (a move list takes ``.txt``), and its text."""
    if record.game:
        return os.path.splitext(os.fspath(path))[0] + ".txt", to_move_list(record)
    return path, to_sgf(record)


def read_record_text(path: str | os.PathLike, limit: int = MAX_SGF_BYTES, what_limit: str = "") -> str:
    """The UTF-8 text of the record file at ``path``, reading at most ``limit`` bytes; :class:`RecordError` in one
    line naming the file otherwise: a file that is not regular (a FIFO, ``/dev/zero``: refused before a read,
    never waited on), over the limit, or not UTF-8. ``what_limit`` names the limit's setting in that error
    (``" (load's limit=)"``)."""
    where = os.fspath(path)
    try:
        data = read_bytes(path, limit=limit, what="game record")
    except OSError as exc:
        raise RecordError(f"cannot read {where!r}: {exc.strerror}") from None
    except FileRefusedError as exc:
        if "limit" not in exc.why:
            raise RecordError(str(exc)) from None
        raise RecordError(f"{where}: over the {limit:,}-byte limit for a game record{what_limit}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where}: not UTF-8 text (byte {exc.start})") from None


def load(path: str | os.PathLike, limit: int = MAX_SGF_BYTES) -> GameRecord:
    """Read the game record at ``path``, SGF or a move list (at most ``limit`` bytes; RecordError beyond)."""
    where = os.fspath(path)
    text = read_record_text(path, limit, " (load's limit=)")
    try:
        return from_move_list(text) if text.lstrip().startswith("game:") else from_sgf(text, limit)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None
