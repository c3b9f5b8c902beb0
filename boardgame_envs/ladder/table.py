"""Reading a ladder's published table (``data/LADDER.json``), refusing one that is corrupt.

Everything that reads a table (``levels``, ``rate``, the ``ladder`` command, the
docs' tables) goes through :func:`read_table`, so a table edited by hand or cut
short fails once, here, in one line naming the file and the problem, instead of a
``KeyError`` deep in a report or, worse, a NaN Elo that ``rate`` would quietly fit
against. The invariant checked: every field the readers use is present and of its
type, every Elo and interval end is a finite number with ``low <= elo <= high``,
level 0 is pinned at 0, no level is listed twice, and there is one step entry per
pair of neighbours. That the Elo rises from level to level is not checked here: a
build's first rounds, a few games a pair, can rank two neighbours the wrong way
round and must still be shown; the shipped tables are held to it by a test, and
``rate`` reads the levels by Elo, not by their order.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from boardgame_envs.ladder.errors import LadderError
from boardgame_envs.safeio import FileRefusedError, read_bytes

_TOP_FIELDS = {"levels": list, "adjacent": list, "games": int, "command": str, "machine": str, "updated": str}
_LEVEL_NUMBERS = ("elo", "low", "high")
_STEP_NUMBERS = ("diff", "half_width")
_STEP_COUNTS = ("games", "more_games_for_target")


class TableError(LadderError):
    """A ladder table that cannot be read: not JSON, a field missing or of the wrong type, a number that is not finite."""


def read_table(path: Path) -> dict[str, Any]:
    """The table at ``path``, checked; ``FileNotFoundError`` if there is none, :class:`TableError` if it is corrupt."""
    try:
        data = read_bytes(path, what="ladder table")  # bounded: a table linked to /dev/zero is refused at the limit
    except FileRefusedError as exc:
        raise TableError(f"{exc}; rebuild it") from None
    try:
        text = data.decode("utf-8")  # the tables are written as UTF-8, whatever the locale of the reader
    except UnicodeDecodeError as exc:
        raise TableError(f"the ladder table {path} is not UTF-8 text (byte {exc.start}); rebuild it") from None
    try:
        table = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TableError(f"the ladder table {path} is not valid JSON ({exc.msg} at line {exc.lineno}); rebuild it") from None
    except (RecursionError, ValueError):  # nested past the parser's depth; a number too long to convert
        raise TableError(f"the ladder table {path} is not JSON this package reads (nested too deep, or a number "
                         "too long); rebuild it") from None
    check_table(path, table)
    return table


def check_table(path: Path | str, table: Any) -> None:
    """Raise :class:`TableError` naming ``path`` and the first problem found, if ``table`` is not a sound ladder table."""

    def fail(problem: str) -> None:
        raise TableError(f"the ladder table {path} is corrupt: {problem}")

    if not isinstance(table, dict):
        fail(f"it holds a JSON {type(table).__name__}, not an object")
    for key, kind in _TOP_FIELDS.items():
        if key not in table:
            fail(f"the field {key!r} is missing")
        if not _is(table[key], kind):
            fail(f"{key!r} must be {_NAMES[kind]}, got {table[key]!r:.60}")
    if "target_half_width" in table and not (_number(table["target_half_width"]) and table["target_half_width"] > 0):
        fail(f"'target_half_width' must be a positive number, got {table['target_half_width']!r}")
    rows = table["levels"]
    if not rows:
        fail("it lists no levels")
    for i, row in enumerate(rows):
        where = f"level {i}"
        if not isinstance(row, dict):
            fail(f"{where} is not an object")
        for key in ("spec", *_LEVEL_NUMBERS, "games"):
            if key not in row:
                fail(f"{where} has no {key!r}")
        if not isinstance(row["spec"], str) or not row["spec"]:
            fail(f"{where}'s spec must be a non-empty string, got {row['spec']!r}")
        for key in _LEVEL_NUMBERS:
            if not _number(row[key]):
                fail(f"{where}'s {key} must be a finite number, got {row[key]!r}")
        if not row["low"] <= row["elo"] <= row["high"]:
            fail(f"{where}'s interval {row['low']} .. {row['high']} does not hold its Elo {row['elo']}")
        if not _is(row["games"], int) or row["games"] < 0:
            fail(f"{where}'s games must be a count, got {row['games']!r}")
    if rows[0]["elo"] != 0:
        fail(f"level 0 must be pinned at 0 Elo, got {rows[0]['elo']}")
    specs = [row["spec"] for row in rows]
    for i, row in enumerate(rows[1:], 1):
        if row["spec"] in specs[:i]:
            fail(f"level {i} ({row['spec']}) is a duplicate of level {specs.index(row['spec'])}")
    _check_steps(table["adjacent"], specs, fail)


def _check_steps(steps: list[Any], specs: list[str], fail: Any) -> None:
    if len(steps) != len(specs) - 1:
        fail(f"it has {len(steps)} steps for {len(specs)} levels (one per pair of neighbours)")
    for i, step in enumerate(steps):
        where = f"step {i} -> {i + 1}"
        if not isinstance(step, dict):
            fail(f"{where} is not an object")
        if (step.get("from"), step.get("to")) != (specs[i], specs[i + 1]):
            fail(f"{where} joins {step.get('from')!r} to {step.get('to')!r}, not {specs[i]!r} to {specs[i + 1]!r}")
        for key in _STEP_NUMBERS:
            if not _number(step.get(key)):
                fail(f"{where}'s {key} must be a finite number, got {step.get(key)!r}")
        for key in _STEP_COUNTS:
            if not _is(step.get(key), int) or step[key] < 0:
                fail(f"{where}'s {key} must be a count, got {step.get(key)!r}")


_NAMES = {list: "a list", int: "an integer", str: "a string"}


def _is(value: Any, kind: type) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)  # JSON true is not a count


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
