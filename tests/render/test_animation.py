"""Animations of recorded games: one frame per move, through Pillow's writers."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageSequence

from boardgame_envs import render
from boardgame_envs.games.mnk import IllegalMoveError, MNKGame

FIVE = "h8 h10 i8 i10 j8 j10 k8 k10 l8"  # black's five on row 8


def test_gif_has_a_frame_per_move_and_holds_the_end(tmp_path):
    path = render.animate(FIVE, "renju", tmp_path / "game.gif", seconds_per_move=0.5, hold_end=2, cell=20)
    with Image.open(path) as gif:
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]
        durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert len(frames) == 10  # the empty board and nine moves
    assert durations[0] == 500 and durations[-1] == 2500
    last = np.asarray(frames[-1])
    expected = render.rgb(render.Board.from_moves(MNKGame(15, 5, "renju"), render.animation.parse_moves(FIVE, 15)), cell=20)
    assert last.shape == expected.shape
    assert np.abs(last.astype(int) - expected).mean() < 3  # the same picture, up to the 64-colour palette


def test_frames_accept_actions_or_names_and_tictactoe():
    names = list(render.frames("b2 a3 c3", "tictactoe"))
    actions = list(render.frames([4, 0, 2], "tictactoe"))
    assert len(names) == 4 and all((a == b).all() for a, b in zip(names, actions))
    assert names[0].shape[1] >= 300


def test_png_and_webp_writers(tmp_path):
    for suffix in (".png", ".webp"):
        path = render.animate([40, 41], "gomoku", tmp_path / f"g{suffix}", board_size=9, cell=16)
        with Image.open(path) as img:
            assert img.n_frames == 3


def test_bad_animations(tmp_path):
    with pytest.raises(ValueError, match="suffix must be one of .gif"):
        render.animate(FIVE, "renju", tmp_path / "game.avi")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        render.animate(FIVE, "chess", tmp_path / "game.gif")
    with pytest.raises(IllegalMoveError, match="h8 is occupied"):
        render.animate("h8 h8", "renju", tmp_path / "game.gif")
    with pytest.raises(ValueError, match="cannot read 'zz'"):
        render.animate("h8 zz", "renju", tmp_path / "game.gif")
    with pytest.raises(TypeError, match="point name"):
        render.animate([1.5], "renju", tmp_path / "game.gif")
    with pytest.raises(ValueError, match="seconds_per_move"):
        render.animate(FIVE, "renju", tmp_path / "game.gif", seconds_per_move=0)
    assert not list(tmp_path.iterdir())


def test_mp4_through_imageio(tmp_path):
    pytest.importorskip("imageio_ffmpeg")
    import imageio.v3 as iio

    path = render.animate("h8 i9", "renju", tmp_path / "game.mp4", cell=16, seconds_per_move=0.5, hold_end=1)
    video = iio.imread(path)
    assert video.shape[0] == 3 + 2 and video.shape[1] % 2 == 0 and video.shape[2] % 2 == 0


def test_replay_command_writes_the_gif_or_prints_the_position(tmp_path, capsys):
    from boardgame_envs.cli import main

    record = tmp_path / "game.txt"
    record.write_text(FIVE + "\n")
    assert main(["replay", str(record), "--gif", str(tmp_path / "g.gif")]) == 0
    assert "10 frames, Black wins · 9 moves" in capsys.readouterr().out
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.n_frames == 10
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "Renju 15x15: Black wins · 9 moves" and "X X X X[X]" in out
    (tmp_path / "t.txt").write_text("b2 a3 c1")
    assert main(["replay", str(tmp_path / "t.txt"), "tictactoe"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Tic-tac-toe: O to move"


@pytest.mark.parametrize(
    "text, args, message",
    [
        (None, [], "cannot read"),
        ("h8 h8", [], "h8 is occupied"),
        ("h8 z99", [], "cannot read 'z99' as a point"),
        ("h8", ["--gif", "out.avi"], "suffix must be one of"),
        ("h8", ["gomoku", "--board-size", "30"], "board_size must be an integer in 5..19"),
    ],
)
def test_replay_command_mistakes_are_one_line(tmp_path, capsys, text, args, message):
    from boardgame_envs.cli import main

    record = tmp_path / "game.txt"
    if text is not None:
        record.write_text(text)
    assert main(["replay", str(record), *[str(tmp_path / a) if a.endswith(".avi") else a for a in args]]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
