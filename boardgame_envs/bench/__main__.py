"""``python -m boardgame_envs.bench NAME [args]`` (or ``boardgame-envs bench NAME [args]``): run one benchmark.

``-h`` lists the benchmarks; ``NAME -h`` shows one benchmark's options.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from pathlib import Path

import boardgame_envs.bench as bench_pkg


def available() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(bench_pkg.__path__) if not m.name.startswith("_"))


def summary(name: str) -> str:
    """The first line of benchmark ``name``'s module docstring, read without importing it."""
    source = (Path(bench_pkg.__path__[0]) / f"{name}.py").read_text()
    doc = ast.get_docstring(ast.parse(source)) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def main(argv: list[str] | None = None, prog: str = "python -m boardgame_envs.bench") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    names = available()
    usage = f"usage: {prog} {{{','.join(names)}}} [options]   ({prog} NAME -h: the options of one)"
    if argv[:1] in (["-h"], ["--help"]):
        print(usage)
        print("\nbenchmarks:")
        width = max(map(len, names))
        for name in names:
            print(f"  {name:<{width}}  {summary(name)}")
        return 0
    if not argv:
        print(f"{prog}: error: name a benchmark: {', '.join(names)} (-h describes them)", file=sys.stderr)
        return 2
    if argv[0] not in names:
        print(f"{prog}: error: unknown benchmark {argv[0]!r}; choose from {', '.join(names)}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"boardgame_envs.bench.{argv[0]}")
    try:
        module.main(argv[1:])
    except SystemExit as exc:  # the benchmark's own argparse: -h, or a bad option (its usage and error printed)
        return exc.code if isinstance(exc.code, int) else 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
