"""tests/baseline_scripts.py: a baseline script loads from its file, with baselines/ kept off sys.path."""

from __future__ import annotations

import sys

import pytest

from baseline_scripts import BASELINES, load_baseline


def test_a_study_and_its_neighbours_load_from_their_files_without_baselines_on_sys_path():
    path_before = list(sys.path)
    # imports report.py (in baselines/, which its top level puts on sys.path) and mcts_first_seat.py (beside it)
    script = load_baseline("studies/first_seat_vs_solver")
    assert script.__file__ == str(BASELINES / "studies" / "first_seat_vs_solver.py")
    assert sys.modules["report"].__file__ == str(BASELINES / "report.py")
    # the neighbour is the study, not the stub left at its old path
    assert sys.modules["mcts_first_seat"].__file__ == str(BASELINES / "studies" / "mcts_first_seat.py")
    assert load_baseline("studies/mcts_first_seat") is sys.modules["mcts_first_seat"]
    assert str(BASELINES) not in sys.path and sys.path == path_before  # the study's sys.path line is undone
    assert not any(type(f).__name__ == "_Neighbours" for f in sys.meta_path)  # the finder is gone after the load


def test_a_name_loaded_from_another_file_is_refused():
    load_baseline("studies/mcts_first_seat")
    with pytest.raises(ImportError, match="already loaded from .*studies/mcts_first_seat.py, not .*baselines/mcts_first_seat.py"):
        load_baseline("mcts_first_seat")  # the stub at the old path has the same module name


def test_a_missing_script_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="no baseline script .*nonsense.py"):
        load_baseline("nonsense")
    with pytest.raises(FileNotFoundError, match="no baseline script .*studies/nonsense.py"):
        load_baseline("studies/nonsense")
