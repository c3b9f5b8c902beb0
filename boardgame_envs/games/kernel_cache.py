"""Keep numba's on-disk cache honest about the kernels compiled in from other files.

numba drops a cached function when the file that defines it changes, but not
when a function or constant it compiles in from *another* file does: a kernel in
``games/mnk_kernels.py`` that calls ``renju_mask.update`` would go on running the
old rules from its cache after ``renju.py`` changed.

Every cached kernel of the package is therefore declared with
:func:`cached_kernel` instead of ``numba.njit(cache=True)``. Before the first
kernel of a module is compiled or loaded, the decorator finds the package's
modules that module imports, transitively (read from their import statements,
so constants count too), keeps a digest of their files next to the module's
cache files, and deletes those cache files when the digest no longer matches,
so numba compiles afresh. :func:`drop_stale_cache` is that check on its own.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from numba import njit

_checked: set[str] = set()  # modules whose cache was checked in this process
_imports: dict[str, tuple[str, ...]] = {}  # module name -> the package modules its source imports


def _digest(modules: Iterable[ModuleType | Path]) -> str:
    sha = hashlib.sha256()
    for module in modules:
        sha.update(Path(module if isinstance(module, Path) else module.__file__).read_bytes())
    return sha.hexdigest()


def cache_dir(dispatcher: Any) -> Path:
    """Where numba keeps ``dispatcher``'s cache files (``__pycache__`` beside the source, or numba's fallback)."""
    cache = getattr(dispatcher, "_cache", None)
    path = getattr(cache, "_cache_path", None)
    if path is None:
        return Path(dispatcher.py_func.__code__.co_filename).parent / "__pycache__"
    return Path(path)


def drop_stale_cache(dispatcher: Any, depends_on: Iterable[ModuleType | Path]) -> bool:
    """Delete the cache files of ``dispatcher``'s module if a file of ``depends_on`` changed; True if it did.

    ``dispatcher`` is any ``@njit(cache=True)`` function of the module; every
    cached kernel of that module goes, since any may have compiled in the old code.
    """
    files = [m if isinstance(m, Path) else Path(m.__file__) for m in depends_on]
    return _check(_stamp_of(dispatcher), files, _digest(files))


def _stamp_of(dispatcher: Any) -> Path:
    """The file beside a module's numba cache that holds the digest of what its kernels compiled in."""
    stem = Path(dispatcher.py_func.__code__.co_filename).stem
    return cache_dir(dispatcher) / f"{stem}.depends.sha256"


def _check(stamp: Path, files: list[Path], digest: str) -> bool:
    """Drop the cache files beside ``stamp`` unless it holds ``digest``; then record the digest and ``files``."""
    try:
        if stamp.read_text().split("\n", 1)[0] == digest:
            return False
    except OSError:
        pass  # no stamp yet: caches written before it are of unknown age
    stem = stamp.name.removesuffix(".depends.sha256")
    dropped = False
    for pattern in (f"{stem}.*.nbi", f"{stem}.*.nbc"):
        for path in stamp.parent.glob(pattern):
            try:
                path.unlink()
                dropped = True
            except OSError:
                pass  # another process got there first, or the directory is read-only
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text("\n".join([digest, *map(str, files)]) + "\n")
    except OSError:
        pass  # an unwritable cache directory: numba will not cache there either
    return dropped

def _module_of(name: str, package: str) -> str | None:
    """``name`` if it is a module of ``package``, its parent for ``module.attribute``, or None."""
    if name != package and not name.startswith(package + "."):
        return None
    if name in sys.modules:
        return name
    try:
        if importlib.util.find_spec(name) is not None:
            return name
    except (ImportError, ValueError):
        pass
    parent = name.rpartition(".")[0]
    return _module_of(parent, package) if parent else None


def _origin(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _module_level(tree: ast.AST) -> Iterable[ast.AST]:
    """The nodes of ``tree`` outside function and class bodies: the imports that run on import."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, (ast.FunctionDef, ast.ClassDef)))


def _direct_imports(module: str) -> tuple[str, ...]:
    """The modules of its own package that ``module``'s source imports at module level."""
    if module not in _imports:
        package = module.partition(".")[0]
        origin = _origin(module)
        found: set[str] = set()
        if origin is not None:
            for node in _module_level(ast.parse(origin.read_bytes())):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [f"{node.module}.{alias.name}" for alias in node.names]
                else:
                    continue
                found.update(m for m in (_module_of(name, package) for name in names) if m is not None)
        found.discard(module)
        _imports[module] = tuple(sorted(found))
    return _imports[module]


def dependencies(module: str) -> list[Path]:
    """The files of ``module`` and of every module of its package it imports, transitively.

    Those are what a kernel of ``module`` can compile in. The package's own
    ``__init__`` is left out: it holds the public names, no kernels.
    """
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_direct_imports(name))
    seen.discard(module.partition(".")[0])
    return [path for path in map(_origin, sorted(seen)) if path is not None]


def cached_kernel(*signature: Any, **options: Any) -> Callable[[Callable], Any]:
    """``numba.njit(*signature, cache=True, **options)``, behind the stale-cache guard.

    Use it wherever a kernel is cached: ``@cached_kernel()``, ``@cached_kernel("int64(int64)")``,
    ``@cached_kernel(inline="always")``.
    """

    def decorate(func: Callable) -> Any:
        module = func.__module__
        if module not in _checked and module != "__main__":
            _checked.add(module)
            _guard(func, module)
        return njit(*signature, cache=True, **options)(func)

    return decorate


def _guard(func: Callable, module: str) -> bool:
    """The stale-cache check of ``module`` (``func``'s), before any of its kernels is compiled or loaded.

    The stamp lists the files whose digest it holds. While none of them has
    changed, neither have the imports that chose them (they are in those files),
    so the check reads and hashes them and needs no parsing; only a changed file
    sends it through :func:`dependencies` again.
    """

    class _Probe:  # the two attributes a stamp's path is read from
        py_func = func
        _cache = None

    stamp = _stamp_of(_Probe)
    try:
        digest, *listed = stamp.read_text().splitlines()
        if listed and _digest(map(Path, listed)) == digest:
            return False
    except (OSError, ValueError):
        pass  # no stamp, an old one without its files, or a listed file gone
    files = dependencies(module)
    return _check(stamp, files, _digest(files))
