"""What every baseline script does with its result: name the exact command, print the report, keep it."""

from __future__ import annotations

import shlex
import sys


def command_line(argv: list[str] | None) -> str:
    """The command that reproduces this run, as typed from the repository root."""
    args = argv if argv is not None else sys.argv[1:]
    return "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *args])


def publish(lines: list[str], out: str | None) -> None:
    """Print the markdown report (its lines) and, with ``out``, write it there."""
    text = "\n".join(lines)
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)
