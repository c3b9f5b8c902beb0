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
    with pytest.raises(ValueError, match="a character device, not a regular file"):
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


def test_a_990_kb_comment_and_long_names_are_shown_cut(tmp_path, capsys):
    from boardgame_envs.arena.records import GameRecord, save
    from boardgame_envs.ui.replay import FIELD_CHARS, replay_terminal

    comment, name = "x" * 990_000, "n" * 2000  # the file within the 1 MB limit
    record = GameRecord(3, "freestyle", name, "random", [4, 0, 8], 0, win_length=3, reason=comment,
                        finished=False)  # fmt: skip
    save(record, tmp_path / "g.sgf")
    assert main(["replay", str(tmp_path / "g.sgf"), "--moves", "3"]) == 0
    out = capsys.readouterr().out
    assert len(out) < 3000 and "x" * FIELD_CHARS + "... (989,700 more characters)" in out
    assert "n" * FIELD_CHARS + "... (1,700 more characters)" in out and "n" * (FIELD_CHARS + 1) not in out
    shown: list[str] = []
    keys = iter(["", "q"])
    replay_terminal(record, input_fn=lambda prompt: next(keys), print_fn=shown.append)
    assert sum(map(len, shown)) < 5000 and "(989,700 more characters)" in "\n".join(shown)
