"""boardgame-envs ladder / rate: the table, the plot, the rating, one-line errors with exit status 2."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main


def test_ladder_prints_the_table_and_writes_the_plot(tiny_table, tmp_path, capsys):
    out_png = tmp_path / "tiny.png"
    assert main(["ladder", "tiny", "--plot", str(out_png)]) == 0
    out = capsys.readouterr().out
    assert "tiny/2" in out and "perfect" in out and "+400" in out and "by hand" in out
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ladder_markdown(tiny_table, capsys):
    assert main(["ladder", "tiny", "--markdown"]) == 0
    assert "| tiny/1 | `greedy:epsilon=0.5` | +200 |" in capsys.readouterr().out


def test_rate_prints_the_rating_and_saves_the_games(tiny_table, tmp_path, capsys):
    assert main(["rate", "perfect", "tiny", "--games", "4", "--save-games", str(tmp_path / "games")]) == 0
    out = capsys.readouterr().out
    assert "perfect on the tiny ladder: Elo" in out and "4 games" in out
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [f"game-000{i}.sgf" for i in range(1, 5)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["ladder", "chess"], "unknown game 'chess'"), (["rate", "random", "chess"], "unknown game 'chess'"),
     (["rate", "random", "tictactoe", "--games", "0"], "--games: 0 is out of range: 1..1,000,000"),
     (["rate", "random", "tictactoe", "--games", "-5"], "--games: -5 is out of range: 1..1,000,000"),
     (["rate", "random", "tictactoe", "--jobs", "999"], "jobs must be"),
     (["rate", "random", "tictactoe", "--jobs", "0"], "--jobs: 0 is out of range: 1..1,024"),
     (["rate", "random", "tictactoe", "--backend", "x"], "unknown backend 'x'; expected one of local, ray"),
     (["rate", "random", "gomoku9", "--games", "1"], "games must be an integer of at least 2"),
     (["rate", "level:tictactoe/7", "tictactoe"], "tictactoe/0 .. tictactoe/4"),
     (["ladder", "gomoku", "--board-size", "11"], "no ladder for gomoku 11x11"),
     (["rate", "random", "tictactoe", "--games", "abc"], "rate: error: argument --games: invalid int value: 'abc'"),
     (["rate", "random"], "rate: error: the following arguments are required: GAME"),
     (["rate", "random", "tictactoe", "--colour", "black"], "unrecognized arguments: --colour black"),
     (["arena", "tictactoe", "random", "random", "--backend", "x"], "invalid choice: 'x'")],
)  # fmt: skip
def test_bad_input_is_one_line_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_paths_that_cannot_be_written_are_one_line_exit_2(tiny_table, tmp_path, capsys):
    taken = tmp_path / "a-file"
    taken.write_text("")
    for argv, message in [
        (["rate", "random", "tiny", "--games", "2", "--save-games", str(taken)], f"cannot save games in '{taken}'"),
        (["arena", "tictactoe", "random", "random", "--games", "2", "--save-games", str(taken)], "cannot save games in"),
        (["ladder", "tiny", "--plot", str(tmp_path / "no" / "tiny.png")], "cannot write the plot"),
    ]:
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and message in captured.err and captured.out == ""
