"""Write the docs' tables of games from the catalog: run it after adding a game to the catalog.

    python docs/make_tables.py            # rewrites the tables in place
    python docs/make_tables.py --check    # exit status 1, naming the page, where a table is not the catalog's

Each table sits between ``<!-- games table: NAME -->`` and ``<!-- end of the
games table -->`` on its page, so it is never written by hand: today the ids
table of docs/single_agent.md (every Gymnasium id a catalog game's env module
registered, its game, its arguments, its batched path and its PettingZoo id).
tests/envs/test_ids_table.py holds the pages to what this writes.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

import boardgame_envs  # noqa: F401  (its env modules register the catalog's ids)
from boardgame_envs.games.catalog import GAMES, GameInfo
from boardgame_envs.games.parameters import describe
from boardgame_envs.safeio import atomic_write_text

DOCS = Path(__file__).resolve().parent
END = "<!-- end of the games table -->"


def _arguments(info: GameInfo, fixed: dict) -> str:
    """The keyword arguments an id takes to choose its game: an m,n,k entry's size, k and rule, another's parameters."""
    if info.factory is None:
        if info.fixed or fixed:
            return ""
        sizes = f"{info.sizes[0]}..{info.sizes[1]}"
        rules = ", ".join(f'`"{rule}"`' for rule in info.rules)
        return (f"`board_size` ({info.default_size}; {sizes}), `win_length` ({info.default_win_length}), "
                f"`rule` ({rules}; default `\"{info.default_rule}\"`)")  # fmt: skip
    if not info.parameters:
        return ""
    return f"`parameters`: {describe(info.parameters)}"


def _batched(info: GameInfo, fixed: dict) -> str:
    """The batched engine's call for the id's game, without an opponent."""
    if info.factory is None and not info.fixed and not fixed:
        extra = ", board_size=..., win_length=..., rule=..."
    else:
        extra = "".join(f", {key}=..." for key in info.parameters)
    return f'`vector.make("{info.name}", n{extra})`'


def ids_table() -> str:
    """docs/single_agent.md's table: one row per Gymnasium id, in the catalog's order."""
    lines = ["| id | game | arguments | batched, without an opponent ([vector.md](vector.md)) | PettingZoo id |",
             "|---|---|---|---|---|"]  # fmt: skip
    for name, info in GAMES.items():
        for env_id, fixed in info.gymnasium_ids.items():
            lines.append(f"| `{env_id}` | {info.summary} | {_arguments(info, fixed)} | {_batched(info, fixed)} | "
                         f"`{info.pettingzoo_id}` |")  # fmt: skip
    return "\n".join(lines)


TABLES: dict[tuple[str, str], Callable[[], str]] = {("single_agent.md", "ids"): ids_table}


def section(text: str, name: str) -> tuple[int, int] | None:
    """Where the table ``name`` lies in a page's text (between its two marks), or None."""
    start = re.search(rf"^<!-- games table: {re.escape(name)}\b.*?-->\n", text, re.M)
    if start is None:
        return None
    end = text.find(END, start.end())
    return None if end < 0 else (start.end(), end)


def stale() -> list[str]:
    """The pages whose table is not the one the catalog makes, as ``page (table)``."""
    out = []
    for (page, name), make in TABLES.items():
        text = (DOCS / page).read_text()
        where = section(text, name)
        if where is None or text[where[0] : where[1]] != make() + "\n":
            out.append(f"docs/{page} ({name})")
    return out


def write() -> list[str]:
    """Rewrite every table whose page holds another; the pages written."""
    written = []
    for (page, name), make in TABLES.items():
        path = DOCS / page
        text = path.read_text()
        where = section(text, name)
        if where is None:
            raise SystemExit(f"make_tables.py: docs/{page} has no '<!-- games table: {name} -->' ... '{END}' marks")
        new = text[: where[0]] + make() + "\n" + text[where[1] :]
        if new != text:
            atomic_write_text(path, new)
            written.append(f"docs/{page}")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit status 1 where a table is stale")
    args = parser.parse_args(argv)
    if args.check:
        late = stale()
        for page in late:
            print(f"{page} is not the catalog's table: run python docs/make_tables.py", file=sys.stderr)
        return 1 if late else 0
    for page in write():
        print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
