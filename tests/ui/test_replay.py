"""Move lists for ``replay``: read within the same size limit as a record, bad tokens quoted short."""

from __future__ import annotations

import os
import time

import pytest

from boardgame_envs.arena.records import MAX_SGF_BYTES
from boardgame_envs.cli import main
from boardgame_envs.ui.replay import read_move_list


def test_a_move_list_reads_as_actions(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("h8 i9,\nj10\n")  # spaces, commas and newlines all separate moves
    assert read_move_list(path, 15) == [7 * 15 + 7, 6 * 15 + 8, 5 * 15 + 9]


def test_a_file_past_the_record_limit_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "big.txt"
    path.write_text("h" * 3_000_000)  # one 3 MB token
    assert main(["replay", str(path), "gomoku"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 300, err[:300]
    assert f"{MAX_SGF_BYTES:,}-byte limit" in err and str(path) in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_read_no_further_than_the_limit():
    started = time.monotonic()
    with pytest.raises(ValueError, match="byte limit"):
        read_move_list("/dev/zero", 15)
    assert time.monotonic() - started < 10


def test_a_long_bad_token_is_quoted_as_a_short_excerpt(tmp_path, capsys):
    path = tmp_path / "long.txt"
    path.write_text("h8 i9 " + "x" * 500_000 + " j10")  # within the limit, one absurd token
    assert main(["replay", str(path), "gomoku"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 300, err[:300]
    assert "move 3" in err and "more characters" in err


def test_a_short_bad_token_is_named_whole(tmp_path):
    path = tmp_path / "typo.txt"
    path.write_text("h8 z99")
    with pytest.raises(ValueError, match=r"move 2: cannot read 'z99' as a point"):
        read_move_list(path, 15)


def test_bytes_that_are_not_utf8_name_the_file(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes(b"h8 \xe9\xe9")
    with pytest.raises(ValueError, match="latin.txt: not UTF-8"):
        read_move_list(path, 15)
