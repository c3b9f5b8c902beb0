"""Names read from inside a file stay inside its folder: a member ``"../../x"`` or a symlink out is refused."""

from __future__ import annotations

import os
from pathlib import Path

from boardgame_envs.safeio.errors import FileRefusedError


def contained_path(folder: str | os.PathLike, name: object, *, what: str = "member") -> Path:
    """``folder / name`` for a plain file name ``name``, checked to resolve inside ``folder``.

    Refused (:class:`FileRefusedError` naming ``folder``): a name that is not a string, empty, ``.`` or
    ``..``, holds a ``/`` or ``\\`` or a NUL, or is absolute; a path that resolves outside ``folder`` (a
    symlink pointing out). The file need not exist.
    """
    folder = Path(folder)
    if not isinstance(name, str):
        raise FileRefusedError(folder, f"the {what} name {name!r} is not a file name")
    shown = repr(name[:80])
    if name in ("", ".", "..") or any(c in name for c in "/\\\0") or os.path.isabs(name):
        raise FileRefusedError(folder, f"the {what} name {shown} is not a plain file name inside the folder")
    path = folder / name
    base = folder.resolve()
    resolved = path.resolve()
    if resolved != base and base not in resolved.parents:
        raise FileRefusedError(folder, f"the {what} {shown} points outside the folder (to {resolved})")
    return path
