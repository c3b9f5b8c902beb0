"""The baseline scripts (baselines/*.py, baselines/studies/*.py) as modules for tests, each loaded from its file.

baselines/ is a folder of scripts, run as ``python baselines/x.py`` or ``python baselines/studies/x.py``;
it is no package and is not on the tests' sys.path. A script imports its neighbours by bare name
(``from report import publish``), which works when run because Python puts the script's folder first on
sys.path (a study also puts baselines/ second, for report.py). Here the same names resolve, to files in the
script's own folder first and then in baselines/, while a script's top level runs, and nowhere else: what
the script's top level adds to sys.path is taken off again after the load.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import re
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

BASELINES = Path(__file__).resolve().parents[1] / "baselines"
_STUB = re.compile(r'^run_moved\(globals\(\), "([\w/]+\.py)"\)$', re.M)  # the call a stub makes (baselines/moved.py)


class _Neighbours(importlib.abc.MetaPathFinder):
    """Finds a top-level name that is a script in one of ``folders`` (the first that has it), by its path."""

    def __init__(self, folders: Sequence[Path]) -> None:
        self.folders = list(dict.fromkeys(folders))

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if path is not None or "." in fullname:
            return None
        for folder in self.folders:
            file = folder / f"{fullname}.py"
            if file.is_file():
                return importlib.util.spec_from_file_location(fullname, file)
        return None


def load_baseline(name: str) -> ModuleType:
    """``baselines/<name>.py`` as a module named by the file's stem (loaded once; later calls return the same
    module). ``name`` may start with a folder: ``load_baseline("studies/mcts_first_seat")``."""
    file = BASELINES / f"{name}.py"
    if not file.is_file():
        raise FileNotFoundError(f"no baseline script {file}")
    module_name = file.stem
    loaded = sys.modules.get(module_name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", "") or "").resolve() != file:
            raise ImportError(f"a module named {module_name!r} is already loaded from {loaded.__file__}, not {file}")
        return loaded
    finder = _Neighbours([file.parent, BASELINES])
    saved_path = list(sys.path)
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module(module_name)
    finally:
        sys.meta_path.remove(finder)
        sys.path[:] = saved_path


def moved_stubs() -> list[tuple[str, str]]:
    """(old, new) paths from the repository root, one for each stub that a moved script left in baselines/."""
    found = []
    for file in sorted(BASELINES.glob("*.py")):
        m = _STUB.search(file.read_text())
        if m:
            found.append((f"baselines/{file.name}", f"baselines/{m[1]}"))
    return found
