"""baselines/moved.py and the stubs at moved scripts' old paths: each runs its script from the new path."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from baseline_scripts import BASELINES, moved_stubs

ROOT = BASELINES.parent
def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture
def moved_folder(tmp_path):
    """A copy of moved.py with a stub old.py for studies/new.py; new.py imports helper.py, which both folders hold."""
    shutil.copy(BASELINES / "moved.py", tmp_path)
    (tmp_path / "old.py").write_text('from moved import run_moved\nrun_moved(globals(), "studies/new.py")\n')
    (tmp_path / "helper.py").write_text('WHERE = "beside the stub"\n')
    (tmp_path / "studies").mkdir()
    (tmp_path / "studies" / "helper.py").write_text('WHERE = "beside the script"\n')
    (tmp_path / "studies" / "new.py").write_text(
        "import sys\nfrom helper import WHERE\nVALUE = 42\n"
        'if __name__ == "__main__":\n    print(sys.argv[0], sys.argv[1:], WHERE)\n    sys.exit(3)\n'
    )
    return tmp_path


def test_a_stub_runs_the_new_script_as_main_with_its_arguments_exit_status_and_neighbours(moved_folder):
    done = run(["old.py", "--x", "1"], moved_folder)
    assert done.returncode == 3
    # sys.argv[0] names the new path (a report records the command that outlives the stub); the neighbour
    # imported is the one beside the script, not the one beside the stub
    assert done.stdout.strip() == "studies/new.py ['--x', '1'] beside the script"
    assert done.stderr.strip() == "note: baselines/old.py moved to baselines/studies/new.py; the old path works until the next release"


def test_an_imported_stub_takes_the_new_modules_names(moved_folder):
    done = run(["-c", "import old; print(old.VALUE)"], moved_folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"


def test_a_stub_whose_target_is_missing_says_so(moved_folder):
    (moved_folder / "studies" / "new.py").unlink()
    done = run(["old.py"], moved_folder)
    assert done.returncode == 1
    assert "FileNotFoundError: the stub" in done.stderr and "studies/new.py, which does not exist" in done.stderr


def test_there_are_stubs_and_the_changelog_lists_each_move():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert moved_stubs()
    assert [(old, new) for old, new in moved_stubs() if f"`{old}` -> `{new}`" not in changelog] == []


@pytest.mark.parametrize("old,new", moved_stubs())
def test_each_stub_is_the_two_lines_and_points_at_its_script(old, new):
    assert (ROOT / new).is_file() and Path(new).name == Path(old).name
    assert (ROOT / old).read_text() == (f'"""Moved to {new}; this stub runs it from there until the next release."""\n\n'
                                        "from moved import run_moved  # baselines/moved.py, beside this stub\n\n"
                                        f'run_moved(globals(), "{new.removeprefix("baselines/")}")\n')


def test_a_real_stub_runs_its_study_with_the_studys_neighbours():
    done = run(["baselines/first_seat_vs_solver.py", "--help"], ROOT)  # the study imports mcts_first_seat and report
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: first_seat_vs_solver.py")
    assert "moved to baselines/studies/first_seat_vs_solver.py;" in done.stderr
