"""The program a Gomocup manager starts for our brain: a launcher script for any policy.

:func:`write_launcher` writes a POSIX shell script (arguments quoted by :func:`shlex.join`)
or a Windows ``.cmd`` file. ``cmd.exe`` has no quoting that neutralises every special
character (``%`` expands even inside double quotes, ``"`` ends a quoted word, ``& | < >
^`` chain or redirect commands outside quotes), so for ``.cmd`` every argument must come
from :data:`CMD_SAFE`, and anything else is refused with :class:`LauncherError` before a
file is written. An existing file is not replaced unless ``force``.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import sys
from pathlib import Path

from boardgame_envs.gomocup.protocol import clip, printable

#: What an argument of a ``.cmd`` launcher may hold: letters, digits, space and ``_ . , : ; = + - / \\ ( ) [ ] @ # ~``.
CMD_SAFE = re.compile(r"^[A-Za-z0-9 _.,:;=+\-/\\()\[\]@#~]*$")


class LauncherError(ValueError):
    """A launcher that cannot be written safely: a bad name or spec, an existing file, no such folder."""


def write_launcher(
    path: str | os.PathLike, policy: str, seed: int = 0, name: str | None = None, force: bool = False
) -> Path:
    """Write an executable script at ``path`` that runs this brain with ``policy``; returns the path.

    Managers start a brain as one program: this is that program (a POSIX shell script, or a
    ``.cmd`` file on Windows or when ``path`` ends in ``.cmd``/``.bat``), running the current
    Python interpreter. Within this package, ``"pbrain:" + str(path)`` plays it as a policy.
    Raises :class:`LauncherError` (one line naming the problem) for a missing folder, an
    existing file without ``force``, or a ``.cmd`` argument outside :data:`CMD_SAFE`.
    """
    path = Path(path).expanduser().absolute()
    if not path.parent.is_dir():
        raise LauncherError(f"cannot write {path}: there is no folder {path.parent}")
    if path.is_dir():
        raise LauncherError(f"cannot write {path}: it is a folder")
    if path.exists() and not force:
        raise LauncherError(f"{path} exists; pass force=True (--force on the command line) to overwrite it")
    args = ["-m", "boardgame_envs", "pbrain", "--policy", policy, "--seed", str(int(seed))]
    if name:
        args += ["--name", name]
    if os.name == "nt" or path.suffix.lower() in (".cmd", ".bat"):
        for arg in [sys.executable, *args]:
            if CMD_SAFE.match(arg) is None:
                bad = sorted({c for c in arg if CMD_SAFE.match(c) is None})
                raise LauncherError(
                    f"cannot put {clip(printable(arg))!r} in a .cmd launcher: {printable(''.join(bad))!r} "
                    "may run commands there; use letters, digits, spaces and _ . , : ; = + - / \\ ( ) [ ] @ # ~"
                )
        quoted = " ".join(f'"{a}"' for a in [sys.executable, *args])
        path.write_text(f"@echo off\r\n{quoted} %*\r\n")
    else:
        if any(c in arg for arg in args for c in "\0\n\r"):
            raise LauncherError("a launcher argument holds a NUL or line break")
        path.write_text(f"#!/bin/sh\nexec {shlex.join([sys.executable, *args])} \"$@\"\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path
