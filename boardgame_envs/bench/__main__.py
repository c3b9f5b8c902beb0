"""``python -m boardgame_envs.bench NAME [args]``: run one benchmark module."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import boardgame_envs.bench as bench_pkg


def available() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(bench_pkg.__path__) if not m.name.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    names = available()
    if not argv or argv[0] not in names:
        print(f"usage: python -m boardgame_envs.bench {{{','.join(names)}}} [options]", file=sys.stderr)
        return 2
    module = importlib.import_module(f"boardgame_envs.bench.{argv[0]}")
    module.main(argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
