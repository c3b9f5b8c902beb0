"""A tiny tic-tac-toe ladder whose data live in a temporary folder."""

from __future__ import annotations

import pytest

from boardgame_envs.ladder import ladders as ladders_module
from boardgame_envs.ladder.ladders import LADDERS, Ladder

TINY = Ladder("tiny", "tictactoe", 3, "freestyle", ("random", "greedy:epsilon=0.5", "perfect"))


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """Ladder tables and logs go to ``tmp_path``; the ``tiny`` ladder is registered for the test."""
    monkeypatch.setattr(ladders_module, "DATA", tmp_path)
    monkeypatch.setitem(LADDERS, "tiny", TINY)
    return tmp_path


@pytest.fixture
def tiny_table(data_dir):
    """A published table for ``tiny`` written by hand: levels 0, +200 and +400 Elo."""
    import json

    rows = [{"spec": s, "elo": e, "low": e - 40.0, "high": e + 40.0, "games": 100} for s, e in zip(TINY.specs, (0.0, 200.0, 400.0))]
    rows[0]["low"] = rows[0]["high"] = 0.0
    table = {"ladder": "tiny", "game": "tictactoe", "board_size": 3, "rule": "freestyle", "games": 150,
             "command": "by hand", "machine": "none", "updated": "now", "levels": rows,
             "adjacent": [{"from": a, "to": b, "diff": 200.0, "half_width": 50.0, "games": 75,
                           "more_games_for_target": 0} for a, b in zip(TINY.specs, TINY.specs[1:])]}  # fmt: skip
    TINY.table_path.write_text(json.dumps(table))
    return table


TINY9 = Ladder("tiny9", "gomoku", 9, "freestyle", ("random", "greedy:epsilon=0.5"))


@pytest.fixture
def gomoku_data_dir(data_dir, monkeypatch):
    """As ``data_dir``, with a two-level 9x9 gomoku ladder ``tiny9`` (its games start from openings)."""
    monkeypatch.setitem(LADDERS, "tiny9", TINY9)
    return data_dir
