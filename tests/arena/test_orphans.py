"""A killed arena leaves nothing behind: its workers die with it, and the temporary file of a record it was writing
is removed at the next start in the folder.

``kill -9`` of ``arena --jobs 2 --save-games D`` left both workers alive with parent 1 (ten still alive after 66 s)
and hidden ``.tmp`` files in D.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from process_guards import children_of

from boardgame_envs.safeio import remove_stale_temporaries, stale_temporaries

DEADLINE_S = 10  # the parent-death signal is at once; the watchdog, where it is the only guard, within 0.5 s


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left for a parent to collect


def arena(*args: str) -> list[str]:
    return [sys.executable, "-m", "boardgame_envs", "arena", "tictactoe", *args]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_an_arena_leaves_no_worker_and_no_temporary_file(tmp_path):
    games = tmp_path / "games"
    cli = subprocess.Popen(arena("alphabeta:depth=2", "alphabeta:depth=2", "--games", "20000", "--jobs", "2",
                                 "--save-games", str(games)), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 300  # (a clean clone compiles its kernels first)
        while len(list(games.glob("game-*"))) < 3:  # the workers are playing and records are being written
            assert cli.poll() is None and time.monotonic() < deadline, "the arena ended or did not start"
            time.sleep(0.05)
        workers = children_of(cli.pid)
        assert len(workers) == 2, workers
    finally:
        cli.kill()  # SIGKILL: the arena gets no chance to stop its workers
        cli.wait()
    deadline = time.monotonic() + DEADLINE_S
    while any(map(running, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = sorted(filter(running, workers))
    for pid in survivors:  # (so that a failure leaves nothing running either)
        os.kill(pid, signal.SIGKILL)
    assert survivors == [], f"workers still running {DEADLINE_S} s after their arena was killed: {survivors}"
    # A temporary file the kill may have stranded (planted too, so the check never depends on the kill's timing):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (games / f".game-0999.sgf.{dead.stdout.strip()}.k1ll3d.tmp").write_text("(;GM[1]")
    done = subprocess.run(arena("random", "random", "--games", "2", "--save-games", str(games)), capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert stale_temporaries(games) == []  # the next start in the folder removed what the killed one left


def test_only_the_temporary_files_of_writers_that_are_gone_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f".game-0001.sgf.{dead.stdout.strip()}.abc123.tmp"
    writing = tmp_path / f".game-0002.sgf.{os.getppid()}.def456.tmp"  # a live process: another arena, mid-write
    unknown = tmp_path / ".game-0003.sgf.ghi789.tmp"  # no writer in the name
    for path in (left, writing, unknown):
        path.write_text("")
    assert remove_stale_temporaries(tmp_path, "game-*") == [left]
    assert sorted(stale_temporaries(tmp_path)) == sorted([writing, unknown])
