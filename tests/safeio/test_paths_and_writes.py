"""contained_path keeps names from a file inside its folder; atomic writes leave the old file or the new one."""

from __future__ import annotations

import errno

import pytest
import torch

from boardgame_envs import safeio
from boardgame_envs.safeio import DiskFullError, FileRefusedError, contained_path


def test_a_plain_name_is_inside_the_folder(tmp_path):
    assert contained_path(tmp_path, "iter-0001.zip") == tmp_path / "iter-0001.zip"


@pytest.mark.parametrize("name", ["../../x", "..", ".", "", "/etc/passwd", "a/b", "a\\b", "x\0y", 7, None])
def test_names_that_leave_the_folder_are_refused_in_one_line(tmp_path, name):
    with pytest.raises(FileRefusedError) as info:
        contained_path(tmp_path, name, what="snapshot")
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{tmp_path}: the snapshot")


def test_a_symlink_pointing_out_is_refused(tmp_path):
    (tmp_path / "inside").mkdir()
    (tmp_path / "secret").write_text("x")
    (tmp_path / "inside" / "link.zip").symlink_to(tmp_path / "secret")
    (tmp_path / "inside" / "ok.zip").symlink_to(tmp_path / "inside" / "real.zip")
    with pytest.raises(FileRefusedError, match="points outside the folder"):
        contained_path(tmp_path / "inside", "link.zip")
    assert contained_path(tmp_path / "inside", "ok.zip").name == "ok.zip"


def test_atomic_writes_write_and_replace(tmp_path):
    path = tmp_path / "sub" / "a.txt"
    safeio.atomic_write_text(path, "one\n")
    safeio.atomic_write_text(path, "two\n")
    assert path.read_text() == "two\n"
    safeio.atomic_save_tensors({"w": torch.arange(3)}, tmp_path / "t.pt")
    assert torch.equal(safeio.load_tensors(tmp_path / "t.pt")["w"], torch.arange(3))
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "sub", "t.pt"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_a_full_disk_names_the_path_and_the_disk_and_leaves_the_old_file(tmp_path, code):
    path = tmp_path / "curve.csv"
    path.write_text("old\n")

    def full(f):
        f.write(b"partial")
        raise OSError(code, "No space left on device")

    with pytest.raises(DiskFullError) as info:
        safeio.atomic_write(path, full)
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: ") and "on the disk at /" in text and "bytes free" in text
    assert info.value.errno == code and info.value.filename == str(path)
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["curve.csv"]


def test_other_failures_and_interrupts_leave_no_temporary(tmp_path):
    def interrupted(f):
        f.write(b"half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        safeio.atomic_write(tmp_path / "x.bin", interrupted)
    assert list(tmp_path.iterdir()) == []
    assert safeio.stale_temporaries(tmp_path) == []
    (tmp_path / ".x.bin.abc.tmp").write_bytes(b"")  # what a kill mid-write leaves
    assert safeio.stale_temporaries(tmp_path) == [tmp_path / ".x.bin.abc.tmp"]


def test_atomic_write_new_takes_the_first_free_name_and_never_replaces(tmp_path):
    paths = [safeio.atomic_write_new(tmp_path / "game-0001.sgf", f"record {i}".encode()) for i in range(3)]
    assert [p.name for p in paths] == ["game-0001.sgf", "game-0001-2.sgf", "game-0001-3.sgf"]
    assert [p.read_text() for p in paths] == ["record 0", "record 1", "record 2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-0001-2.sgf", "game-0001-3.sgf", "game-0001.sgf"]


def test_atomic_write_new_without_hard_links_claims_the_name_exclusively(tmp_path, monkeypatch):
    import os

    def no_links(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    (tmp_path / "g.txt").write_text("first")
    assert safeio.atomic_write_new(tmp_path / "g.txt", b"second") == tmp_path / "g-2.txt"
    assert (tmp_path / "g.txt").read_text() == "first" and (tmp_path / "g-2.txt").read_text() == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-2.txt", "g.txt"]


def test_atomic_write_new_on_a_full_disk_names_the_disk_and_leaves_nothing(tmp_path, monkeypatch):
    import os

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DiskFullError, match="no room on the disk at"):
        safeio.atomic_write_new(tmp_path / "g.sgf", b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_under_torch_save_is_named_though_torch_reports_its_own_error(tmp_path, monkeypatch):
    """On a disk that fills up mid-file, torch.save turns the write's OSError into its own RuntimeError
    ("unexpected pos 704 vs 598", seen on a 64 KB tmpfs); the file saw the OSError, and that is what counts."""
    import io
    import os

    from boardgame_envs.safeio import atomic as atomic_module

    class FillsUp(io.FileIO):  # the disk takes 1,000 bytes, then has no room
        def write(self, data):
            if self.tell() + len(data) > 1000:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return super().write(data)

    monkeypatch.setattr(atomic_module, "FileIO", FillsUp)
    with pytest.raises(RuntimeError, match="unexpected pos"):  # what torch.save says on such a disk
        torch.save({"w": torch.zeros(100_000)}, FillsUp(tmp_path / "plain.pt", "wb"))
    (tmp_path / "plain.pt").unlink()
    with pytest.raises(DiskFullError, match="state.pt: no room on the disk at"):
        safeio.atomic_save_tensors({"w": torch.zeros(100_000)}, tmp_path / "state.pt")
    with pytest.raises(DiskFullError, match="curve.csv: no room"):
        safeio.atomic_write_text(tmp_path / "curve.csv", "x" * 100_000)
    assert list(tmp_path.iterdir()) == []


def test_written_files_get_the_mode_open_gives_a_new_file(tmp_path):
    import os
    import stat

    (tmp_path / "plain.txt").write_text("x")
    expected = stat.S_IMODE(os.stat(tmp_path / "plain.txt").st_mode)
    assert stat.S_IMODE(os.stat(safeio.atomic_write_text(tmp_path / "a.txt", "x")).st_mode) == expected
    assert stat.S_IMODE(os.stat(safeio.atomic_write_new(tmp_path / "g.sgf", b"x")).st_mode) == expected
