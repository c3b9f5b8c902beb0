"""Record texts for the record tests, imported as ``arena.record_texts`` (tests/ is on sys.path): an SGF of a 3x3
three-in-a-row game and a connect four move list, each with the result line given, and the check that a doctored
file is refused when loaded and by ``replay``."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgame_envs.arena.records import RecordError, load
from boardgame_envs.cli import main


def sgf(result: str, moves: str) -> str:
    return f"(;GM[4]SZ[3]KL[3]RU[freestyle]PB[a]PW[b]{result}\n;{moves})"


def move_list(result: str, moves: str, extra: str = "") -> str:
    return f"game: connect_four\nfirst: a\nsecond: b\nresult: {result}\n{extra}moves: {moves}\n"


def refused_file(path: Path, text: str, match: str, capsys, *replay_args: str) -> tuple[str, str]:
    """Write ``text`` to ``path``: loading it raises a RecordError matching ``match`` and ``replay`` exits 2;
    returns what the test printed (stdout, stderr), replay's message among it."""
    path.write_text(text)
    with pytest.raises(RecordError, match=match):
        load(path)
    assert main(["replay", str(path), *replay_args]) == 2
    return capsys.readouterr()
