"""What a stub left at a moved script's old path does: say where the script went, then run it from there.

A script that moved (CHANGELOG.md lists each move, old -> new) leaves a stub at its old path for one
release, so commands written before the move keep working. A stub is its docstring and two lines:

    from moved import run_moved  # baselines/moved.py, beside the stub
    run_moved(globals(), "studies/mcts_first_seat.py")

Run as a script, the stub prints one line on stderr and runs the new file as ``__main__``, with
``sys.argv[0]`` naming the new path (so a report records the command that still runs once the stubs
are gone) and the new file's folder first on sys.path (so the script's neighbours are imported from
there, not the stubs that share their names). Imported as a module, the stub takes the new module's
names. The stubs and this file go in the next release.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any


def run_moved(stub: dict[str, Any], new: str) -> None:
    """Run (or, when the stub is imported, load) ``new``, a path relative to the stub's folder, in its place."""
    folder = Path(stub["__file__"]).resolve().parent
    target = folder / new
    if not target.is_file():
        raise FileNotFoundError(f"the stub {stub['__file__']} points at {target}, which does not exist")
    print(f"note: baselines/{Path(stub['__file__']).name} moved to baselines/{new}; the old path works until "
          f"the next release", file=sys.stderr)  # fmt: skip
    if stub["__name__"] == "__main__":
        sys.path.insert(0, str(target.parent))
        path_name = os.path.join(os.path.dirname(sys.argv[0]), new)  # run_path makes this sys.argv[0]
    else:
        path_name = str(target)
    stub.update(runpy.run_path(path_name, run_name=stub["__name__"]))
