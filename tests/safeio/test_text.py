"""read_text / read_json: bounded whatever the path is, UTF-8 only, damage as one line naming the file."""

from __future__ import annotations

import os
import threading
import time

import pytest

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
def test_dev_zero_is_refused_past_the_limit_in_one_line_and_little_time(tmp_path, link):
    path = "/dev/zero"
    if link:
        path = tmp_path / "openings.txt"
        path.symlink_to("/dev/zero")
    start = time.perf_counter()
    with pytest.raises(FileRefusedError) as info:
        read_text(path)  # the default 16 MiB limit: read, then refused
    assert time.perf_counter() - start < 1.0
    assert "past the 16,777,216-byte limit" in one_line(info, path)


def test_a_pipe_with_no_writer_reads_as_empty_and_a_writer_that_floods_is_cut(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert read_bytes(fifo) == b""  # opening does not wait for a writer that never comes

    def flood():
        with open(fifo, "wb") as f:
            try:
                while True:
                    f.write(b"y" * 65536)
            except (BrokenPipeError, OSError):
                pass

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    time.sleep(0.05)  # the writer holds the pipe open
    with pytest.raises(FileRefusedError) as info:
        read_bytes(fifo, limit=1_000_000)
    assert "past the 1,000,000-byte limit" in one_line(info, fifo)
    writer.join(5)


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
