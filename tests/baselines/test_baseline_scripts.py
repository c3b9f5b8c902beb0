"""tests/baseline_scripts.py: a baseline script loads from its file, with baselines/ kept off sys.path."""

from __future__ import annotations

import sys

import pytest

from baseline_scripts import BASELINES, load_baseline


def test_a_script_and_its_neighbours_load_from_their_files_without_baselines_on_sys_path():
    script = load_baseline("first_seat_vs_solver")  # imports its neighbours report.py and mcts_first_seat.py
    assert script.__file__ == str(BASELINES / "first_seat_vs_solver.py")
    assert sys.modules["report"].__file__ == str(BASELINES / "report.py")
    assert load_baseline("mcts_first_seat") is sys.modules["mcts_first_seat"]
    assert str(BASELINES) not in sys.path
    assert not any(type(f).__name__ == "_Neighbours" for f in sys.meta_path)  # the finder is gone after the load


def test_a_missing_script_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="no baseline script .*nonsense.py"):
        load_baseline("nonsense")
