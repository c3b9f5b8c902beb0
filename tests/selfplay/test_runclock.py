"""RunClock: a run's CPU over its sessions, when its next rating is due, and the curve.csv rows it writes."""

from __future__ import annotations

import csv
import math
import os
import time

import pytest

from boardgame_envs.safeio import DiskFullError, FileRefusedError
from boardgame_envs.selfplay.runclock import RunClock


def spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_cpu_adds_up_over_sessions_and_the_state_round_trips():
    clock = RunClock(cpu_s=100.0, rate_cpu_s=4.0, last_rate_cpu_s=90.0, last_rate_cost_s=2.0, last_elo=350.0)
    spin(0.05)
    total = clock.tick()
    assert 100.05 <= total < 101 and clock.hours == total / 3600
    again = RunClock.from_state({**clock.state(), "steps": 7, "updates": 3})  # a checkpoint's other counters
    assert again.state() == clock.state() and set(clock.state()) == {
        "cpu_s", "rate_cpu_s", "last_rate_cpu_s", "last_rate_cost_s", "last_elo", "ratings"}
    assert RunClock().state()["last_rate_cpu_s"] == -math.inf  # a new run rates before training


def test_start_leaves_the_set_up_out_of_the_session():
    clock = RunClock(cpu_s=10.0)
    spin(0.2)  # set-up: building the network, compiling kernels
    clock.start()
    spin(0.05)
    assert 10.05 <= clock.tick() < 10.2


def test_a_rating_is_due_after_the_gap_stretched_by_its_cost():
    clock = RunClock(cpu_s=200.0, rate_cpu_s=10.0, last_rate_cpu_s=100.0, last_rate_cost_s=1.0)
    assert clock.training_cpu_s == 190.0
    assert clock.rating_due(every_s=60, max_share=0.1)  # 90 s of training since the last rating
    assert not clock.rating_due(every_s=120, max_share=0.1)
    clock.last_rate_cost_s = 20.0  # an expensive rating: 20 * 0.9 / 0.1 = 180 s of training before the next
    assert not clock.rating_due(every_s=60, max_share=0.1)
    assert clock.trained_since_rating()
    clock.last_rate_cpu_s = clock.training_cpu_s
    assert not clock.trained_since_rating()


def test_rate_counts_its_cpu_apart_and_appends_a_row(tmp_path, capsys):
    clock = RunClock()
    path = tmp_path / "curve.csv"
    for steps in (0, 64):
        rating = clock.rate("random", "tictactoe", games=4, seed=steps, csv_path=path,
                            columns={"steps": steps, "updates": steps // 32})  # fmt: skip
        assert rating.games == 4
    rows = list(csv.DictReader(path.open()))
    assert [r["steps"] for r in rows] == ["0", "64"] and list(rows[0])[:3] == ["cpu_hours", "steps", "updates"]
    assert all(float(r["low"]) <= float(r["elo"]) <= float(r["high"]) for r in rows if r["elo"] not in ("inf", "-inf"))
    assert 0 < clock.rate_cpu_s <= clock.cpu_s and clock.last_rate_cpu_s == clock.training_cpu_s
    assert float(rows[-1]["rate_share"]) == round(clock.rate_cpu_s / clock.cpu_s, 3)
    assert "rating at" in capsys.readouterr().out


def test_resuming_drops_the_rows_rated_after_the_checkpoint(tmp_path, capsys):
    path = tmp_path / "curve.csv"
    clock = RunClock()
    clock.rate("random", "tictactoe", games=2, seed=0, csv_path=path, columns={"steps": 0})
    saved = clock.state()  # the checkpoint
    assert saved["ratings"] == 1
    clock.rate("random", "tictactoe", games=2, seed=1, csv_path=path, columns={"steps": 64})  # then killed
    before = path.read_bytes().splitlines(keepends=True)
    resumed = RunClock.from_state(saved)
    assert resumed.sync_curve(path) == 1
    assert path.read_bytes() == b"".join(before[:2])  # the header and the checkpoint's row, byte for byte
    assert "dropped 1 rating row" in capsys.readouterr().out
    assert resumed.sync_curve(path) == 0  # nothing more to drop
    resumed.rate("random", "tictactoe", games=2, seed=1, csv_path=path, columns={"steps": 64})
    assert [r["steps"] for r in csv.DictReader(path.open())] == ["0", "64"] and resumed.ratings == 2


def test_a_state_saved_before_the_row_count_adopts_the_file(tmp_path):
    path = tmp_path / "curve.csv"
    path.write_text("cpu_hours,steps,elo\n0.1,0,5.0\n0.2,64,7.0\n")
    legacy = {"cpu_s": 720.0, "rate_cpu_s": 3.0, "last_rate_cpu_s": 700.0, "last_rate_cost_s": 1.0, "last_elo": 7.0}
    clock = RunClock.from_state(legacy)
    assert clock.ratings is None
    assert clock.sync_curve(path) == 0 and clock.ratings == 2
    assert path.read_text().count("\n") == 3
    assert RunClock().sync_curve(tmp_path / "absent.csv") == 0  # a new run with no curve yet


HEADER = "cpu_hours,steps,elo,low,high\n"


def curve_of(tmp_path, text):
    path = tmp_path / "curve.csv"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


@pytest.mark.parametrize("cut", ["0.3,128,9", "0.3,128,9.0,1.0,15.0", "0.3,128\n"])
def test_a_last_row_cut_by_a_kill_is_dropped_with_a_note(tmp_path, capsys, cut):
    """No line end, or fewer fields than the header: the row is dropped, not glued onto the next one."""
    path = curve_of(tmp_path, HEADER + "0.1,0,5.0,1.0,9.0\n0.2,64,7.0,3.0,11.0\n" + cut)
    clock = RunClock(ratings=3)
    assert clock.sync_curve(path) == 1
    assert path.read_text() == HEADER + "0.1,0,5.0,1.0,9.0\n0.2,64,7.0,3.0,11.0\n"
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 2 and "dropped its last row, cut short" in err  # and the lost row, reported
    assert clock.ratings == 2
    clock.rate("random", "tictactoe", games=2, seed=0, csv_path=path,
               columns={"steps": 128})  # fmt: skip
    assert len(path.read_text().splitlines()) == 4  # a whole row after the whole ones


def test_an_emptied_curve_is_reported_and_gets_its_header_again(tmp_path, capsys):
    path = curve_of(tmp_path, "")
    clock = RunClock(ratings=3)  # the checkpoint says three rows were written
    assert clock.sync_curve(path) == 0
    err = capsys.readouterr().err
    assert "0 rating row(s) where the checkpoint counts 3; the 3 missing are lost" in err and clock.ratings == 0
    clock.rate("random", "tictactoe", games=2, seed=0, csv_path=path, columns={"steps": 0})
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 1 and rows[0]["steps"] == "0"  # the header first, then the row: not a bare row


def test_a_curve_that_is_not_utf8_or_damaged_inside_is_refused_in_one_line(tmp_path):
    path = curve_of(tmp_path, HEADER.encode() + b"0.1,0,5.0,1.0,9.0\n\xff\xfe,1\n")
    with pytest.raises(FileRefusedError, match="curve is not UTF-8") as exc:
        RunClock(ratings=1).sync_curve(path)
    assert str(exc.value).startswith(str(path)) and "\n" not in str(exc.value)
    path = curve_of(tmp_path, HEADER + "0.1,0,5.00.2,64,7.0,3.0,11.0\n0.3,128,9.0,1.0,15.0\n")  # a glued row
    with pytest.raises(FileRefusedError, match="line 2 has 7 fields where the header has 5"):
        RunClock(ratings=2).sync_curve(path)


def test_a_curve_linked_to_an_endless_file_is_refused(tmp_path):
    path = tmp_path / "curve.csv"
    os.symlink("/dev/zero", path)
    with pytest.raises(FileRefusedError, match="a character device, not a regular file"):
        RunClock(ratings=1).sync_curve(path)


def test_the_curve_is_rewritten_whole_a_full_disk_leaves_it_as_it_was(tmp_path, monkeypatch):
    text = HEADER + "0.1,0,5.0,1.0,9.0\n0.2,64,7.0,3.0,11.0\n"
    path = curve_of(tmp_path, text)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DiskFullError, match="no room on the disk at"):
        RunClock(ratings=1).sync_curve(path)
    assert path.read_text() == text and [p.name for p in tmp_path.iterdir()] == ["curve.csv"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_while_appending_a_row_names_the_disk(tmp_path, capsys, monkeypatch):
    from boardgame_envs.selfplay import runclock

    # /dev/full fails every write with ENOSPC; named as the curve it is refused as a device, so it is opened directly
    monkeypatch.setattr(runclock, "open_append", lambda path, what, **text: open("/dev/full", "a", **text))
    with pytest.raises(DiskFullError, match="curve.csv: no room on the disk at"):
        RunClock().rate("random", "tictactoe", games=2, seed=0, csv_path=tmp_path / "curve.csv", columns={"steps": 0})


def test_a_curve_that_is_a_device_is_refused(tmp_path):
    with pytest.raises(FileRefusedError, match="/dev/full: the curve is a character device, not a regular file"):
        RunClock().rate("random", "tictactoe", games=2, seed=0, csv_path="/dev/full", columns={"steps": 0})
