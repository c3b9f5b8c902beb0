"""The baseline scripts (baselines/*.py) as modules for tests, each loaded from its file.

baselines/ is a folder of scripts, run as ``python baselines/x.py``; it is no package and is not on
the tests' sys.path. A script imports its neighbours by bare name (``from report import publish``),
which works when run because Python puts the script's folder first on sys.path. Here the same
names resolve, to files in baselines/ only, while a script's top level runs, and nowhere else.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

BASELINES = Path(__file__).resolve().parents[1] / "baselines"


class _Neighbours(importlib.abc.MetaPathFinder):
    """Finds a top-level name that is a script in baselines/, by its path."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> ModuleSpec | None:
        file = BASELINES / f"{fullname}.py"
        if path is not None or "." in fullname or not file.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def load_baseline(name: str) -> ModuleType:
    """``baselines/<name>.py`` as a module named ``name`` (loaded once; later calls return the same module)."""
    file = BASELINES / f"{name}.py"
    if not file.is_file():
        raise FileNotFoundError(f"no baseline script {file}")
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", "") or "").resolve() != file:
            raise ImportError(f"a module named {name!r} is already loaded from {loaded.__file__}, not {file}")
        return loaded
    finder = _Neighbours()
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module(name)
    finally:
        sys.meta_path.remove(finder)
