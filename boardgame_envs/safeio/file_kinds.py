"""What a file that a loader refused is, when that is worth saying: a model saved by Stable-Baselines3 handed
to a torch loader (``checkpoint:``, ``boardnet:``) reads as "damaged or not a torch file", when the way forward
is ``sb3:PATH``. Asked only after a loader refused the file, and only of a regular file, through the same
capped zip reader the loaders use (its entries counted before any is read), so it adds no way to hang or bloat.
"""

from __future__ import annotations

import os
from pathlib import Path

from boardgame_envs.safeio.errors import FileRefusedError
from boardgame_envs.safeio.zips import open_zip

#: The entries every zip that SB3's ``save()`` writes holds (a torch file's are under one ``archive/`` folder).
SB3_ENTRIES = {"data", "policy.pth"}
_LIMIT = 1024**3  # what the zip's entries may declare in all: the sb3: reader's own cap


def is_sb3_zip(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a zip laid out as SB3's ``save()`` writes one (``data`` and ``policy.pth`` entries)."""
    path = Path(path)
    if not path.is_file():  # a FIFO or a device is never opened here
        return False
    try:
        with open_zip(path, total_limit=_LIMIT) as archive:
            return SB3_ENTRIES <= set(archive.namelist())
    except (FileRefusedError, OSError):
        return False


def sb3_hint(path: str | os.PathLike, what: str) -> str:
    """The line for a refusal of ``path`` as ``what`` (``"an AlphaZero checkpoint"``) when it is an SB3 zip:
    what it is and the spec that plays it; "" when it is no SB3 zip (the loader's own reason stands)."""
    if not is_sb3_zip(path):
        return ""
    return (f"{os.fspath(path)} is a model saved by Stable-Baselines3 (a zip of data and policy.pth), not {what}: "
            f"play it as sb3:{os.fspath(path)}")
