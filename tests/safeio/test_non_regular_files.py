"""Nothing the package opens waits forever: a FIFO (with no writer, or a writer that stays silent), a device or a
socket is refused in one line by every reader, before a byte is read.

Each read runs under a hard timeout: a reader that waits on the pipe fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest
from process_guards import hard_timeout

from boardgame_envs.alphazero.checkpoint import CheckpointError, load_checkpoint
from boardgame_envs.arena.game_record import RecordError
from boardgame_envs.arena.records import is_record, load
from boardgame_envs.cli import main as cli_main
from boardgame_envs.games import opening_positions as openings
from boardgame_envs.games.opening_positions import OpeningError
from boardgame_envs.safeio import FileRefusedError, load_tensors, open_regular, open_zip, read_bytes
from boardgame_envs.selfplay.sb3_file import read_model

FIFO = "a named pipe (FIFO), not a regular file"
FIFO_RE = re.escape(FIFO)


@pytest.fixture(params=["no writer", "silent writer"])
def fifo(request, tmp_path):
    """A FIFO, with no writer or with a writer that holds it open and writes nothing."""
    path = tmp_path / "input.txt"
    os.mkfifo(path)
    done = threading.Event()
    writer = None
    if request.param == "silent writer":

        def silent():
            fd = os.open(path, os.O_RDWR)  # O_RDWR: this open does not wait for a reader
            done.wait(60)
            os.close(fd)

        writer = threading.Thread(target=silent, daemon=True)
        writer.start()
        time.sleep(0.05)
    yield path
    done.set()
    if writer is not None:
        writer.join(5)


def one_line(text: str) -> str:
    assert "\n" not in text.strip(), text
    return text


def test_the_loading_layer_refuses_a_fifo_at_once(fifo):
    with hard_timeout(10):
        for read in (open_regular, read_bytes, load_tensors, lambda p: open_zip(p, total_limit=1 << 20)):
            with pytest.raises(FileRefusedError, match=FIFO_RE) as info:
                read(fifo)
            assert one_line(str(info.value)).startswith(f"{fifo}: ")


def test_each_reader_of_a_user_file_refuses_a_fifo(fifo):
    with hard_timeout(10):
        with pytest.raises(OpeningError, match=FIFO_RE):
            openings.read(fifo)
        with pytest.raises(RecordError, match=FIFO_RE):
            load(fifo)
        assert not is_record(fifo)
        with pytest.raises(FileRefusedError, match=FIFO_RE):
            read_model(fifo)
        with pytest.raises(CheckpointError, match="input.txt"):
            load_checkpoint(fifo)


def test_the_openings_flag_on_a_fifo_is_one_line_and_exit_2(fifo, capsys):
    args = ["arena", "gomoku", "random", "random", "--board-size", "9", "--games", "2", "--openings", str(fifo)]
    with hard_timeout(30):
        assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and FIFO in err and str(fifo) in err


def test_replay_of_a_fifo_with_no_writer_ends_in_one_line(tmp_path):
    """The CLI as a user runs it: a process that waited on the pipe would be killed by the timeout."""
    fifo = tmp_path / "f.sgf"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "boardgame_envs", "replay", str(fifo)], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and FIFO in done.stderr and str(fifo) in done.stderr


def test_a_socket_and_a_device_are_refused_too(tmp_path):
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        with pytest.raises(FileRefusedError, match="a socket, not a regular file"):
            read_bytes(path)
    finally:
        server.close()
    with pytest.raises(FileRefusedError, match="a character device, not a regular file"):
        load_tensors("/dev/urandom")


def test_a_folder_and_a_missing_file_are_the_usual_os_errors(tmp_path):
    with pytest.raises(IsADirectoryError):
        open_regular(tmp_path)
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "missing")


@pytest.mark.parametrize("reader", [False, True])
def test_a_log_to_append_to_that_is_a_fifo_is_refused_not_waited_on(tmp_path, reader):
    """Opening a FIFO to write waits for a reader; one with a reader would take the rows and keep none."""
    from boardgame_envs.alphazero.summary import append_metrics
    from boardgame_envs.safeio import open_append

    os.mkfifo(tmp_path / "metrics.jsonl")
    os.mkfifo(tmp_path / "curve.csv")
    readers = [os.open(tmp_path / name, os.O_RDONLY | os.O_NONBLOCK) for name in ("metrics.jsonl", "curve.csv")] \
        if reader else []  # fmt: skip
    try:
        with hard_timeout(10):
            with pytest.raises(FileRefusedError, match="metrics.jsonl: the metrics log is (a named pipe|not a regular)"):
                append_metrics(tmp_path, {"iteration": 1.0})
            with pytest.raises(FileRefusedError, match="curve.csv: the curve is (a named pipe|not a regular)"):
                open_append(tmp_path / "curve.csv", "curve")  # how RunClock.rate appends its row
    finally:
        for fd in readers:
            os.close(fd)
    with open_append(tmp_path / "log.txt", "log") as f:
        f.write("a\n")
    with open_append(tmp_path / "log.txt", "log") as f:
        f.write("b\n")
    assert (tmp_path / "log.txt").read_text() == "a\nb\n"
