"""Keep numba's on-disk cache honest about the kernels compiled in from other files.

numba drops a cached function when the file that defines it changes, but not
when a function it calls from *another* file does: a kernel in
``vector/kernels.py`` that calls ``renju.forbidden_mask_flat`` would go on
running the old rules from its cache after ``renju.py`` changed. A module that
compiles in kernels from elsewhere calls :func:`drop_stale_cache` once, after
defining its kernels and before calling any: it keeps a digest of the files it
depends on next to its cache files and deletes those cache files when the
digest no longer matches, so numba compiles afresh.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any


def _digest(modules: Iterable[ModuleType]) -> str:
    sha = hashlib.sha256()
    for module in modules:
        sha.update(Path(module.__file__).read_bytes())
    return sha.hexdigest()


def cache_dir(dispatcher: Any) -> Path:
    """Where numba keeps ``dispatcher``'s cache files (``__pycache__`` beside the source, or numba's fallback)."""
    cache = getattr(dispatcher, "_cache", None)
    path = getattr(cache, "_cache_path", None)
    if path is None:
        return Path(dispatcher.py_func.__code__.co_filename).parent / "__pycache__"
    return Path(path)


def drop_stale_cache(dispatcher: Any, depends_on: Iterable[ModuleType]) -> bool:
    """Delete the cache files of ``dispatcher``'s module if a file of ``depends_on`` changed; True if it did.

    ``dispatcher`` is any ``@njit(cache=True)`` function of the module; every
    cached kernel of that module goes, since any may have compiled in the old code.
    """
    directory = cache_dir(dispatcher)
    stem = Path(dispatcher.py_func.__code__.co_filename).stem
    stamp = directory / f"{stem}.depends.sha256"
    digest = _digest(depends_on)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass  # no stamp yet: caches written before it are of unknown age
    dropped = False
    for pattern in (f"{stem}.*.nbi", f"{stem}.*.nbc"):
        for path in directory.glob(pattern):
            try:
                path.unlink()
                dropped = True
            except OSError:
                pass  # another process got there first, or the directory is read-only
    try:
        directory.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # an unwritable cache directory: numba will not cache there either
    return dropped
