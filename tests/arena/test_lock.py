"""The lock of a run folder (and of every other user of PidLock): one holder under any interleaving, a dead holder's
lock taken over, a non-regular lock file and a full disk refused in one line.

The race is real: eight processes, lined up on a barrier, open one fresh run folder at once, thirty times over
(with a fresh folder, an empty lock file, and a lock file left by a killed holder). A lock whose file was
unlinked by a competitor gave two holders in 6 of 30 such trials.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time

import pytest
from lock_holders import held_elsewhere, left_by_a_killed_holder
from process_guards import hard_timeout

from boardgame_envs.arena import lock as lock_module
from boardgame_envs.arena.lock import InUseError, PidLock
from boardgame_envs.safeio import DiskFullError
from boardgame_envs.selfplay.rundir import LOCK, RunFolder

PROCESSES, TRIALS = 8, 30
FORK = multiprocessing.get_context("fork")


def _contender(folder, barrier, done, results):
    """Open the run folder at the barrier's signal; a holder keeps it until every contender has tried."""
    barrier.wait(30)
    run = RunFolder(folder, "recipe_a", "gomoku9", 2)
    try:
        run.open()
    except InUseError as exc:
        results.put(("refused", str(exc)))
        return
    results.put(("held", os.getpid()))
    done.wait(30)
    run.close()


def _race(folder) -> list[tuple[str, object]]:
    barrier, done, results = FORK.Barrier(PROCESSES), FORK.Event(), FORK.Queue()
    contenders = [FORK.Process(target=_contender, args=(folder, barrier, done, results)) for _ in range(PROCESSES)]
    for process in contenders:
        process.start()
    try:
        outcomes = [results.get(timeout=30) for _ in contenders]
    finally:
        done.set()
        for process in contenders:
            process.join(30)
    assert all(process.exitcode == 0 for process in contenders)
    return outcomes


@pytest.mark.parametrize("start", ["fresh folder", "empty lock file", "lock of a killed holder"])
def test_eight_processes_opening_one_run_folder_at_once_give_one_holder(tmp_path, start):
    with hard_timeout(120):
        for trial in range(TRIALS // 3):
            folder = tmp_path / f"run-{trial}"
            if start == "empty lock file":
                folder.mkdir()
                (folder / LOCK).write_bytes(b"")
            elif start == "lock of a killed holder":
                left_by_a_killed_holder(folder / LOCK)
            outcomes = _race(folder)
            holders = [who for kind, who in outcomes if kind == "held"]
            assert len(holders) == 1, f"trial {trial}: {len(holders)} holders at once"
            refusals = [text for kind, text in outcomes if kind == "refused"]
            assert all(f"in use by another recipe_a run (pid {holders[0]})" in text for text in refusals), refusals
            assert not (folder / LOCK).exists()  # the holder let go and removed its file


@pytest.mark.parametrize("flock", [True, False], ids=["flock", "no flock"])
def test_a_dead_holders_lock_is_taken_over_and_a_live_ones_is_refused_naming_it(tmp_path, capsys, monkeypatch, flock):
    """Without flock (Windows) the same promises hold through filelock (here on its Unix side; forked holders share
    the patched module), the pid in ``<lock>.pid``; whether the old holder still runs is not asked there."""
    if not flock:
        monkeypatch.setattr(lock_module, "fcntl", None)
    path = tmp_path / "x.lock"
    pid_file = path if flock else tmp_path / "x.lock.pid"
    lock = PidLock(path, "the log", "build", "wait for it")
    assert lock.pid_path == pid_file
    with held_elsewhere(path) as other:
        with pytest.raises(InUseError) as info:
            lock.acquire()
        assert str(info.value) == f"the log is in use by another build (pid {other.pid}); wait for it"
    dead = left_by_a_killed_holder(path)
    assert pid_file.read_text() == f"{dead}\n"
    with lock:
        how = "no longer running" if flock else "which no longer holds it"
        assert f"taking over the lock of the log (pid {dead}, {how})" in capsys.readouterr().err
        assert lock.owner() == os.getpid() and pid_file.read_text() == f"{os.getpid()}\n"
        with PidLock(path, "the log", "build", "wait") as again:  # this process, rebuilt on its own resource
            assert again.held
    assert not pid_file.exists() and lock.owner() is None


def test_without_flock_eight_processes_opening_one_run_folder_give_one_holder(tmp_path, monkeypatch):
    monkeypatch.setattr(lock_module, "fcntl", None)
    with hard_timeout(120):
        for trial in range(3):
            outcomes = _race(tmp_path / f"run-{trial}")
            holders = [who for kind, who in outcomes if kind == "held"]
            assert len(holders) == 1, f"trial {trial}: {len(holders)} holders at once"


@pytest.mark.parametrize("kind", ["fifo", "dev zero", "symlink"])
def test_a_lock_file_that_is_not_a_regular_file_is_one_line(tmp_path, kind):
    """A FIFO at .run.lock hung the recipe; a link to /dev/zero was read without a limit (3.4 GB)."""
    out = tmp_path / "run"
    out.mkdir()
    if kind == "fifo":
        os.mkfifo(out / LOCK)
    elif kind == "dev zero":
        os.symlink("/dev/zero", out / LOCK)
    else:
        (tmp_path / "elsewhere").write_text("")
        os.symlink(tmp_path / "elsewhere", out / LOCK)
    start = time.monotonic()
    with hard_timeout(10), pytest.raises(InUseError) as info:
        RunFolder(out, "recipe_a", "gomoku9", 2).open()
    assert time.monotonic() - start < 5
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"cannot lock {out}: ") and f"remove {out / LOCK}" in text, text
    assert "not a regular file" in text


def test_a_full_disk_while_the_pid_is_written_is_one_line_and_leaves_no_lock(tmp_path, monkeypatch):
    out = tmp_path / "run"

    def full(fd, data, offset):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    with pytest.raises(DiskFullError) as info:
        RunFolder(out, "recipe_a", "gomoku9", 2).open()
    assert str(info.value).startswith(f"{out / LOCK}: no room on the disk at ") and "\n" not in str(info.value)
    assert not (out / LOCK).exists()  # no empty lock file left for the next run to trip on
    monkeypatch.undo()
    with RunFolder(out, "recipe_a", "gomoku9", 2):  # the next run opens the folder
        assert (out / LOCK).read_text() == f"{os.getpid()}\n"


def test_a_forked_child_does_not_keep_its_parents_lock(tmp_path):
    """A worker forked while the lock is held lets go of its copy: the lock ends with its holder, not its children."""
    path = tmp_path / "x.lock"
    lock = PidLock(path, "the run", "trainer", "wait")
    lock.acquire()
    child = FORK.Process(target=time.sleep, args=(30,))
    child.start()
    try:
        lock.release()
        with PidLock(path, "the run", "trainer", "wait") as again:  # not refused: the child holds nothing
            assert again.held
    finally:
        child.kill()
        child.join()


def test_without_flock_a_forked_child_neither_holds_nor_frees_its_parents_lock(tmp_path, monkeypatch):
    monkeypatch.setattr(lock_module, "fcntl", None)
    path = tmp_path / "x.lock"
    with PidLock(path, "the log", "build", "wait"):
        child = FORK.Process(target=_try_and_drop_everything, args=(os.fspath(path),))
        child.start()
        child.join(30)
        assert child.exitcode == 0  # refused in the child: it holds nothing of its parent's
        with held_elsewhere_attempt(path) as refused:  # and the parent still holds it after the child is gone
            assert refused
    assert not (tmp_path / "x.lock.pid").exists()


def _try_and_drop_everything(path: str) -> None:
    import gc

    try:
        PidLock(path, "the log", "build", "wait").acquire()
    except InUseError:
        gc.collect()
        os._exit(0)
    os._exit(1)


@contextlib.contextmanager
def held_elsewhere_attempt(path):
    """Whether another process is refused the lock at ``path`` now."""
    ours, theirs = FORK.Pipe()

    def attempt(conn):
        try:
            PidLock(path, "the log", "build", "wait").acquire()
        except InUseError:
            conn.send(True)
            return
        conn.send(False)

    process = FORK.Process(target=attempt, args=(theirs,))
    process.start()
    assert ours.poll(30)
    yield ours.recv()
    process.join(30)
