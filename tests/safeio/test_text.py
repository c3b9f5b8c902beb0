"""read_text / read_json: bounded whatever the path is, UTF-8 only, damage as one line naming the file."""

from __future__ import annotations

import os
import threading
import time

import pytest
from process_guards import hard_timeout

from boardgame_envs.safeio import FileRefusedError, read_bytes, read_json, read_text


def one_line(info, path) -> str:
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: "), text
    return text


def test_text_and_json_read_back(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b'{"x": [1, 2], "name": "h\xc3\xa9"}\r\n')
    assert read_json(path) == {"x": [1, 2], "name": "hé"}
    assert read_text(path).endswith("}\n")
    assert read_text(path, newline="").endswith("}\r\n")  # as written, for the csv module


def test_a_file_over_the_limit_is_refused_by_its_size(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 101)
    assert read_text(path, limit=101) == "x" * 101
    with pytest.raises(FileRefusedError) as info:
        read_text(path, limit=100, what="opening file")
    assert "101 bytes, over the 100-byte limit" in one_line(info, path) and "opening file" in str(info.value)


@pytest.mark.parametrize("link", [False, True])
def test_dev_zero_is_refused_before_a_byte_is_read_in_one_line(tmp_path, link):
    path = "/dev/zero"
    if link:
        path = tmp_path / "openings.txt"
        path.symlink_to("/dev/zero")
    start = time.perf_counter()
    with pytest.raises(FileRefusedError) as info:
        read_text(path)
    assert time.perf_counter() - start < 1.0
    assert "the file is a character device, not a regular file" in one_line(info, path)


def fifo_with_a_silent_writer(fifo):
    """A thread that opens ``fifo`` for writing and writes nothing until ``done`` is set; (thread, done)."""
    done = threading.Event()

    def silent():
        fd = os.open(fifo, os.O_RDWR)  # (O_RDWR: opening does not wait for a reader)
        done.wait(30)
        os.close(fd)

    writer = threading.Thread(target=silent, daemon=True)
    writer.start()
    return writer, done


@pytest.mark.parametrize("writer", ["none", "silent", "flooding"])
def test_a_named_pipe_is_refused_at_once_whoever_writes_to_it(tmp_path, writer):
    """A pipe with no writer blocked open(); one whose writer stays silent blocked read() forever."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = threading.Event()
    if writer == "silent":
        thread, done = fifo_with_a_silent_writer(fifo)
    elif writer == "flooding":

        def flood():
            fd = os.open(fifo, os.O_RDWR)
            os.set_blocking(fd, False)
            while not done.is_set():
                try:
                    os.write(fd, b"y" * 65536)
                except BlockingIOError:
                    time.sleep(0.001)
            os.close(fd)

        thread = threading.Thread(target=flood, daemon=True)
        thread.start()
    time.sleep(0.05)
    start = time.perf_counter()
    try:
        with hard_timeout(10):  # a wait on the pipe fails the test instead of hanging it
            for read in (read_bytes, read_text, read_json):
                with pytest.raises(FileRefusedError) as info:
                    read(fifo)
                assert "the file is a named pipe (FIFO), not a regular file" in one_line(info, fifo)
    finally:
        done.set()
    assert time.perf_counter() - start < 1.0
    if writer != "none":
        thread.join(5)


def test_a_file_that_grows_while_it_is_read_is_cut_off_at_the_limit(tmp_path, monkeypatch):
    path = tmp_path / "log.txt"
    path.write_bytes(b"x" * 10)
    real_fstat = os.fstat
    monkeypatch.setattr(os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 5, *real_fstat(fd)[7:])))
    with pytest.raises(FileRefusedError) as info:  # stated 5 bytes at the open, 10 by the read
        read_bytes(path, limit=8)
    assert "goes on past the 8-byte limit" in one_line(info, path)


def test_text_that_is_not_utf8_is_refused_naming_the_byte(tmp_path):
    path = tmp_path / "curve.csv"
    path.write_bytes(b"step,elo\n1,\xff\n")
    with pytest.raises(FileRefusedError) as info:
        read_text(path, what="curve")
    assert "the curve is not UTF-8 text (byte 11 is 0xff)" in one_line(info, path)


def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    start = time.perf_counter()
    with pytest.raises(FileRefusedError) as info:
        read_json(path, what="ladder table")
    assert time.perf_counter() - start < 1.0
    assert "nests its JSON deeper" in one_line(info, path)
    path.write_text("[" * 100_000 + "]" * 100_000)  # well formed, as deep
    with pytest.raises(FileRefusedError, match="deeper"):
        read_json(path)


@pytest.mark.parametrize(("text", "words"), [
    ('{"a": 1', "not JSON: Expecting ',' delimiter at line 1 column 8"),
    ("9" * 5000, "not JSON that can be read"),
    ("", "not JSON: Expecting value"),
])  # fmt: skip
def test_bad_json_is_one_line(tmp_path, text, words):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(FileRefusedError) as info:
        read_json(path)
    assert words in one_line(info, path)


def test_a_missing_file_or_a_folder_is_the_usual_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_text(tmp_path / "missing.txt")
    with pytest.raises(IsADirectoryError):
        read_text(tmp_path)
