"""A training recipe's run folder: held by one process at a time, stamped with what made it.

:class:`RunFolder` is what a recipe (``baselines/ppo_selfplay.py``, ``baselines/ppo_sb3_pool.py``)
opens before it reads or writes anything in its ``--out``. The folder carries a stamp, ``run.json``
(``{"recipe": ..., "game": ..., "format": N}``), and a pid lock, ``.run.lock``
(:class:`~boardgame_envs.arena.lock.PidLock`, the kind the AlphaZero trainer holds).

Invariant: a folder this recipe did not make is never written to. A folder stamped by another
recipe or for another game, stamped in a format this code does not read, or not empty and not
stamped (unless the recipe recognises it as its own older format) is refused in one line,
:class:`RunFolderError`, before anything in it is touched, not even the lock file. A second
process on the same folder is refused by the lock (:class:`~boardgame_envs.arena.lock.InUseError`,
naming the first one's pid).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from boardgame_envs.arena.lock import PID_SUFFIX, PidLock
from boardgame_envs.safeio import FileRefusedError, atomic_write_text, read_json

STAMP = "run.json"
LOCK = ".run.lock"
STAMP_LIMIT = 64 * 1024  # a stamp is a few dozen bytes


class RunFolderError(ValueError):
    """A folder a recipe will not run in (another recipe's, another game's, not a run folder); one line."""


class RunFolder:
    """The run folder ``path`` of ``recipe`` on ``game``, in this code's ``format``; see the module docstring.

    Args:
        path: the folder (made if missing).
        recipe, game, format: what the stamp must say.
        older: ``older(path) -> bool``, whether an unstamped, non-empty folder is this recipe's own
            older format (the recipe then reads it, safely, and :meth:`open` stamps it).
    """

    def __init__(self, path: str | os.PathLike, recipe: str, game: str, format: int,
                 older: Callable[[Path], bool] | None = None) -> None:  # fmt: skip
        self.path = Path(path)
        self.recipe, self.game, self.format = recipe, game, format
        self.older = older
        self.lock = PidLock(self.path / LOCK, str(self.path), f"{recipe} run",
                            "wait for it to end, stop it, or pick another --out")  # fmt: skip

    def stamp(self) -> dict[str, object]:
        return {"recipe": self.recipe, "game": self.game, "format": self.format}

    def check(self) -> str:
        """What the folder is, without touching it: ``"new"`` (missing or empty), ``"run"`` (stamped by this
        recipe, game and format) or ``"older"`` (this recipe's older format); :class:`RunFolderError` else."""
        path = self.path
        if not path.exists():
            return "new"
        if not path.is_dir():
            raise RunFolderError(f"{path}: not a folder; give --out a folder for the run")
        # One listing decides: a stamp looked up before the listing could be renamed into place between the two
        # (another process opening the same new folder), and the folder would look foreign.
        names = [p.name for p in path.iterdir()]
        if STAMP in names:
            return self._check_stamp(path / STAMP)
        if all(_leftover(name) for name in names):
            return "new"
        if self.older is not None and self.older(path):
            return "older"
        raise RunFolderError(f"{path}: not empty and not a run folder of {self.recipe} (no {STAMP}); "
                             "it is left as it is: pick a new --out")  # fmt: skip

    def _check_stamp(self, stamp: Path) -> str:
        try:
            data = read_json(stamp, limit=STAMP_LIMIT, what="run stamp")
        except (FileRefusedError, OSError) as exc:
            raise RunFolderError(f"{_one_line(exc, stamp)}; the folder is left as it is") from None
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("recipe", "game")) \
                or type(data.get("format")) is not int:  # fmt: skip
            raise RunFolderError(f"{stamp}: not a run stamp (expected recipe, game and format); the folder is left "
                                 "as it is")  # fmt: skip
        if data["recipe"] != self.recipe:
            raise RunFolderError(f"{self.path}: a run of {data['recipe']}, not of {self.recipe}; it is left as it "
                                 "is: pick another --out")  # fmt: skip
        if data["game"] != self.game:
            raise RunFolderError(f"{self.path}: a {data['game']} run of {self.recipe}, not a {self.game} one; it is "
                                 f"left as it is: resume it with --game {data['game']} or pick another --out")  # fmt: skip
        if data["format"] > self.format:
            raise RunFolderError(f"{self.path}: written in run format {data['format']} by a newer {self.recipe} "
                                 f"(this one reads format {self.format}); resume it with that version")  # fmt: skip
        if data["format"] < self.format:
            return "older"
        return "run"

    def open(self) -> str:
        """Check the folder, take its lock and stamp it (a new or older one); what :meth:`check` found.

        Refusals leave the folder untouched; a folder held by a live process raises
        :class:`~boardgame_envs.arena.lock.InUseError`."""
        self.check()
        self.path.mkdir(parents=True, exist_ok=True)
        self.lock.acquire()
        try:
            kind = self.check()  # again, under the lock: another process may have stamped it meanwhile
            if kind == "new":
                self.write_stamp()
        except BaseException:
            self.close()
            raise
        return kind

    def write_stamp(self) -> None:
        """Stamp the folder as this recipe's, in this format (after an older run has been read and rewritten)."""
        atomic_write_text(self.path / STAMP, json.dumps(self.stamp()) + "\n")

    def close(self) -> None:
        self.lock.release()

    def __enter__(self) -> RunFolder:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _leftover(name: str) -> bool:
    """A file that a run killed before its first save may leave in a folder it had just made."""
    return name in (LOCK, LOCK + PID_SUFFIX) or (name.startswith(f".{STAMP}.") and name.endswith(".tmp"))


def _one_line(exc: BaseException, path: Path) -> str:
    if isinstance(exc, FileRefusedError):
        return str(exc)
    return f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})"
