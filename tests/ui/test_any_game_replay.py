"""replay for every game: a bare move list in the game's own names, its final board, and --gif, for every catalog
game, a record of a game SGF cannot hold, and a game added to the catalog by its author (dots and boxes)."""

from __future__ import annotations

import pytest
from PIL import Image

from boardgame_envs.arena.records import GameRecord, save
from boardgame_envs.cli import main
from boardgame_envs.games.catalog import GAMES, GameInfo, game_info
from boardgame_envs.ui.replay import move_list, read_move_list
from games.dots_and_boxes import DotsAndBoxesGame


def _first_moves(game, count):
    """The names of ``count`` moves of ``game``, the first legal action each time, and the state they lead to."""
    state, names = game.new_state(), []
    for _ in range(count):
        action = int(state.legal_actions()[0])
        names.append(game.action_name(action))
        state.play(action)
    return names, state


def _frames(path):
    with Image.open(path) as img:
        return img.n_frames


@pytest.mark.parametrize("name", list(GAMES))
def test_every_catalog_game_replays_a_move_list_and_draws_it(name, tmp_path, capsys):
    names, state = _first_moves(game_info(name).game(), 4)
    path = tmp_path / "moves.txt"
    path.write_text(" ".join(names) + "\n")
    assert main(["replay", str(path), name]) == 0
    out = capsys.readouterr().out
    last = out.rstrip().splitlines()[-1]  # the game and whose move it is
    assert last.endswith(f"{state.game.player_name(state.to_move).capitalize()} to move") and "Traceback" not in out
    assert main(["replay", str(path), name, "--gif", str(tmp_path / "game.gif")]) == 0
    assert f"wrote {tmp_path / 'game.gif'}: 5 frames" in capsys.readouterr().out
    assert _frames(tmp_path / "game.gif") == 5


def test_a_connect_four_move_list_shows_its_result_and_its_mistakes(tmp_path, capsys):
    path = tmp_path / "c4.txt"
    path.write_text("d c d c d c d\n")
    assert main(["replay", str(path), "connect_four"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == " a b c d e f g" and out[-1] == "connect four, 6x7: Red wins · 7 moves"
    path.write_text("d d d d d d d\n")
    assert main(["replay", str(path), "connect_four"]) == 2
    assert capsys.readouterr().err.strip() == "boardgame-envs: error: move 7: column d is full"
    path.write_text("d q\n")
    assert main(["replay", str(path), "connect_four"]) == 2
    assert "move 2: cannot read 'q' as a column" in capsys.readouterr().err


def test_a_record_of_connect_four_becomes_an_animation(tmp_path, capsys):
    record = GameRecord(board_size=0, rule="", black="mcts", white="random", moves=[0, 1, 0, 1, 0, 1, 0], winner=1,
                        reason="red makes 4 in a row", game="connect_four")  # fmt: skip
    path = save(record, tmp_path / "game-0001.sgf")
    assert main(["replay", str(path), "--gif", str(tmp_path / "c4.gif")]) == 0
    assert "8 frames" in capsys.readouterr().out and _frames(tmp_path / "c4.gif") == 8


def test_a_game_its_author_adds_replays_and_draws(tmp_path, capsys, monkeypatch):
    entry = GameInfo(name="dots_and_boxes", summary="2x2 boxes (a test game)",
                     factory="games.dots_and_boxes:DotsAndBoxesGame")  # fmt: skip
    monkeypatch.setitem(GAMES, "dots_and_boxes", entry)
    path = tmp_path / "dots.txt"
    path.write_text("b1 a2 c2 b3 d1\n")  # b3 closes the top left box: B draws again (d1)
    assert main(["replay", str(path), "dots_and_boxes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "   a b c d e" and out[-1] == "dots and boxes, 2x2 boxes: Move 6 · A to move"
    assert main(["replay", str(path), "dots_and_boxes", "--gif", str(tmp_path / "dots.gif")]) == 0
    assert _frames(tmp_path / "dots.gif") == 6
    path.write_text("b1 b1\n")
    assert main(["replay", str(path), "dots_and_boxes"]) == 2
    assert "move 2: the line b1 is drawn" in capsys.readouterr().err


def test_the_move_list_reader_takes_a_game_or_a_board_side(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text("b1, a2\nc2")
    assert read_move_list(path, DotsAndBoxesGame()) == [0, 2, 3]  # the lines b1, a2 and c2
    path.write_text("h8 i9")
    assert read_move_list(path, 15) == read_move_list(path, game_info("renju").game()) == [112, 98]
    text, status = move_list(DotsAndBoxesGame(), [0, 2, 3, 5])  # b3 closes a box: B again
    assert status == "Move 5 · B to move" and text.endswith("dots and boxes, 2x2 boxes: Move 5 · B to move")
