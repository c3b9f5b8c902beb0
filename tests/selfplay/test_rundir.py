"""RunFolder: a recipe's run folder is stamped, held by one process, and a folder it did not make is left as it is."""

from __future__ import annotations

import json

import pytest
from lock_holders import held_elsewhere

from boardgame_envs.arena.lock import InUseError
from boardgame_envs.selfplay.rundir import LOCK, STAMP, RunFolder, RunFolderError


def contents(folder):
    """Every file under ``folder`` with its bytes (what "left byte for byte" compares)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_new_folder_is_stamped_and_held_while_open(tmp_path):
    out = tmp_path / "run"
    folder = RunFolder(out, "recipe_a", "gomoku9", 2)
    assert folder.open() == "new"
    assert json.loads((out / STAMP).read_text()) == {"recipe": "recipe_a", "game": "gomoku9", "format": 2}
    assert (out / LOCK).is_file()
    folder.close()
    assert not (out / LOCK).exists()
    with RunFolder(out, "recipe_a", "gomoku9", 2) as again:
        assert again.check() == "run"


@pytest.mark.parametrize(
    ("stamp", "message"),
    [
        ({"recipe": "recipe_b", "game": "gomoku9", "format": 2}, "a run of recipe_b, not of recipe_a"),
        ({"recipe": "recipe_a", "game": "renju", "format": 2}, "a renju run of recipe_a, not a gomoku9 one"),
        ({"recipe": "recipe_a", "game": "gomoku9", "format": 3}, "run format 3 by a newer recipe_a"),
        ({"recipe": "recipe_a"}, "not a run stamp"),
        ([1, 2], "not a run stamp"),
        ("{not json", "run stamp is not JSON"),
    ],
)
def test_a_folder_stamped_otherwise_is_refused_and_left_byte_for_byte(tmp_path, stamp, message):
    out = tmp_path / "run"
    (out / "pool").mkdir(parents=True)
    (out / STAMP).write_text(stamp if isinstance(stamp, str) else json.dumps(stamp))
    (out / "curve.csv").write_text("cpu_hours,elo\n0.1,5\n")
    (out / "pool" / "pool.json").write_text("{}")
    before = contents(out)
    with pytest.raises(RunFolderError, match=message) as exc:
        RunFolder(out, "recipe_a", "gomoku9", 2).open()
    assert "\n" not in str(exc.value) and str(exc.value).startswith(str(out))
    assert contents(out) == before and not (out / LOCK).exists()


def test_an_unstamped_folder_is_refused_unless_it_is_the_recipes_older_format(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "checkpoint.pt").write_bytes(b"x")
    before = contents(out)
    with pytest.raises(RunFolderError, match="not empty and not a run folder of recipe_a"):
        RunFolder(out, "recipe_a", "gomoku9", 2).open()
    assert contents(out) == before
    older = RunFolder(out, "recipe_a", "gomoku9", 2, older=lambda p: (p / "checkpoint.pt").is_file())
    assert older.open() == "older"
    assert not (out / STAMP).exists()  # the recipe stamps it once it has read it
    older.write_stamp()
    older.close()
    assert RunFolder(out, "recipe_a", "gomoku9", 2).check() == "run"


def test_a_folder_left_with_only_a_lock_is_new(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK).write_text("999999999\n")  # a run killed before its stamp, its process gone
    assert RunFolder(out, "recipe_a", "gomoku9", 2).open() == "new"


def test_a_second_process_on_the_folder_is_refused_naming_the_first(tmp_path):
    out = tmp_path / "run"
    first = RunFolder(out, "recipe_a", "gomoku9", 2)
    first.open()  # stamped
    first.close()
    with held_elsewhere(out / LOCK) as other:
        with pytest.raises(InUseError, match=f"in use by another recipe_a run \\(pid {other.pid}\\)"):
            RunFolder(out, "recipe_a", "gomoku9", 2).open()


def test_a_file_given_as_the_folder_is_refused(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    with pytest.raises(RunFolderError, match="not a folder"):
        RunFolder(path, "recipe_a", "gomoku9", 2).open()
