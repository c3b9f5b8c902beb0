"""Opening files and ladder tables go through the bounded reader: /dev/zero, a FIFO, huge or deeply nested files,
and a 16 MB line are one short line."""

from __future__ import annotations

import time

import pytest

from boardgame_envs.cli import main as cli_main
from boardgame_envs.games import opening_positions as openings
from boardgame_envs.games.opening_positions import OpeningError
from boardgame_envs.ladder.table import TableError, read_table


def quick(call, error):
    start = time.perf_counter()
    with pytest.raises(error) as info:
        call()
    assert time.perf_counter() - start < 1.0
    text = str(info.value)
    assert "\n" not in text
    return text


@pytest.mark.parametrize("link", [False, True])
def test_openings_from_dev_zero_are_refused_before_a_read(tmp_path, link):
    path = "/dev/zero"
    if link:
        path = tmp_path / "openings.txt"
        path.symlink_to("/dev/zero")
    text = quick(lambda: openings.read(path), OpeningError)
    assert text == f"cannot read openings from '{path}': the opening file is a character device, not a regular file"


def test_the_openings_flag_with_dev_zero_is_one_line_and_exit_2(capsys):
    args = ["arena", "gomoku", "random", "random", "--board-size", "9", "--games", "2", "--openings", "/dev/zero"]
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/zero" in err and "a character device, not a regular file" in err


def test_crlf_opening_files_still_read(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"# board_size: 9\r\nfirst: e5 e6\r\n")
    assert [o.name for o in openings.read(path)] == ["first"]


@pytest.mark.parametrize(("content", "words"), [
    ("[" * 100_000, "is not JSON this package reads (nested too deep"),
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ("9" * 5000, "a number too long"),
])  # fmt: skip
def test_a_ladder_table_nested_too_deep_is_one_line(tmp_path, content, words):
    path = tmp_path / "tiny.json"
    path.write_text(content)
    text = quick(lambda: read_table(path), TableError)
    assert text.startswith(f"the ladder table {path} ") and words in text and text.endswith("rebuild it")


def test_a_ladder_table_linked_to_dev_zero_is_refused_before_a_read(tmp_path):
    path = tmp_path / "tiny.json"
    path.symlink_to("/dev/zero")
    text = quick(lambda: read_table(path), TableError)
    assert text == f"{path}: the ladder table is a character device, not a regular file; rebuild it"
