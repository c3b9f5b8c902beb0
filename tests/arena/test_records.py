"""Game records: SGF written and read back, hand-made files, bad files; replay in the terminal."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main
from boardgame_envs.arena.records import GameRecord, RecordError, from_sgf, load, save, to_sgf
from boardgame_envs.ui.replay import frame, position, replay_terminal

KAGETSU_WIN = GameRecord(
    board_size=15, rule="renju", black="alphabeta", white="mcts:simulations=200", moves=[112, 97, 98, 82, 84, 126, 70, 210, 56],  # black h8 i9 j10 k11 l12
    winner=1, opening="Kagetsu", opening_moves=3, reason="black makes 5 in a row",
)


@pytest.mark.parametrize(
    "record",
    [
        KAGETSU_WIN,
        GameRecord(9, "freestyle", "a [x]", "b\\y", [40, 41], 2, forfeit=True, reason="black played an illegal move"),
        GameRecord(3, "freestyle", "perfect", "random", [4, 0, 8], 0, win_length=3, opening="b2", opening_moves=1,
                   finished=False),
        GameRecord(3, "freestyle", "perfect", "random", [4, 0, 8], 0, win_length=3, opening="centre", opening_moves=1,
                   finished=False),
        GameRecord(6, "standard", "p", "q", [], 0, win_length=4, finished=False),
    ],
)
def test_sgf_round_trip(record, tmp_path):
    assert from_sgf(to_sgf(record)) == record
    save(record, tmp_path / "g.sgf")
    assert load(tmp_path / "g.sgf") == record


def test_sgf_text_is_what_viewers_expect():
    text = to_sgf(KAGETSU_WIN)
    assert text.startswith("(;GM[4]FF[4]CA[UTF-8]SZ[15]RU[renju]PB[alphabeta]PW[mcts:simulations=200]RE[B+]")
    assert "ON[Kagetsu: h8 h9 i9]" in text
    assert ";B[hh];W[hg];B[ig]" in text  # h8: column h, row h from the top; h9: row g


def test_a_hand_written_game_with_spaces_and_other_properties():
    record = from_sgf("(;GM[4]SZ[15]PB[me]\n DT[2024-01-01] RE[W+R]\n;B[hh]\n;W[ih];B[gg])")
    assert record.moves == [112, 113, 96] and record.winner == 2 and record.extra == {"DT": "2024-01-01"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("GM[4]", "start with"),
        ("(;GM[1]SZ[19];B[aa])", "not gomoku"),
        ("(;GM[4]SZ[9];B[zz])", "bad SGF point 'zz'"),
        ("(;GM[4]SZ[9];W[aa])", "move 1 is W's"),
        ("(;GM[4]SZ[9];B[aa](;W[bb])(;W[cc]))", "variations"),
    ],
)
def test_bad_records(text, message):
    with pytest.raises(RecordError, match=message):
        from_sgf(text)


def test_positions_and_frames():
    assert position(KAGETSU_WIN, 3).num_moves == 3 and position(KAGETSU_WIN, 9).winner == 1
    assert "move 3/9: black i9 (opening)" in frame(KAGETSU_WIN, 3)
    assert frame(KAGETSU_WIN, 9).endswith("black makes 5 in a row")
    with pytest.raises(ValueError, match="has 9 moves"):
        position(KAGETSU_WIN, 10)


def test_replay_keys():
    shown = []
    keys = iter(["", "n", "p", "p", "9", "x", "q"])
    replay_terminal(KAGETSU_WIN, input_fn=lambda _: next(keys), print_fn=shown.append)
    numbers = [line.split("\nmove ")[1].split(":")[0] for line in shown if "\nmove " in line]
    assert numbers == ["3/9", "4/9", "5/9", "4/9", "3/9", "9/9", "9/9"]
    assert any("unknown key 'x'" in line for line in shown)


def test_cli_replay(tmp_path, capsys):
    save(KAGETSU_WIN, tmp_path / "g.sgf")
    assert main(["replay", str(tmp_path / "g.sgf"), "--moves", "5"]) == 0
    out = capsys.readouterr().out
    assert "black alphabeta - white mcts:simulations=200" in out and "move 5/9: black j10" in out
    assert main(["replay", str(tmp_path / "missing.sgf")]) == 2
    assert main(["replay", str(tmp_path / "g.sgf"), "--moves", "10"]) == 2
    assert "has 9 moves" in capsys.readouterr().err


def _full_disk(monkeypatch, where):
    """Writes under ``where`` fail as on a full disk: the file opens (empty), its text does not fit."""
    import builtins
    import errno
    import io

    real_open = builtins.open

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    def fake_open(file, mode="r", *args, **kwargs):
        if "w" in mode and str(file).startswith(str(where)):
            real_open(file, mode, *args, **kwargs).close()  # the empty file a real full disk leaves
            return Full()
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)


def test_a_full_disk_names_the_record_and_leaves_no_empty_file(tmp_path, monkeypatch):
    _full_disk(monkeypatch, tmp_path)
    with pytest.raises(OSError, match=r"No space left on device: '.*g\.sgf'") as exc:
        save(KAGETSU_WIN, tmp_path / "g.sgf")
    assert exc.value.errno == 28
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_during_save_games_keeps_the_summary(tmp_path, monkeypatch, capsys):
    import errno
    import os

    def full(fd):  # the record's bytes do not reach the disk
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    games = tmp_path / "games"
    assert main(["arena", "tictactoe", "random", "random", "--games", "4", "--save-games", str(games)]) == 1
    out, err = capsys.readouterr()
    assert "random (A)" in out and "4 games" in out  # the match's summary, all four games played
    last = err.splitlines()[-1]  # after the progress bar's lines
    assert "Traceback" not in err and last.startswith("boardgame-envs: games 1 on were not saved")
    assert "no room on the disk at" in last and "game-0001.sgf" in last  # the record and the disk
    assert list(games.iterdir()) == []


def test_a_round_robin_saves_one_record_per_game_named_by_its_pairing(tmp_path, capsys):
    games = tmp_path / "games"
    argv = ["arena", "connect_four", "random", "greedy", "alphabeta:depth=1", "--games", "2", "--openings", "none",
            "--save-games", str(games)]  # fmt: skip
    assert main(argv) == 0
    assert "Elo (mean 0" in capsys.readouterr().out
    names = sorted(p.name for p in games.iterdir())
    assert names == [f"pair-{p:02d}-game-{g:04d}.txt" for p in (1, 2, 3) for g in (1, 2)]  # move lists: connect four
    players = [{(r.black, r.white) for r in map(load, sorted(games.glob(f"pair-{p:02d}-*")))} for p in (1, 2, 3)]
    assert players == [{("random", "greedy"), ("greedy", "random")}, {("random", "alphabeta:depth=1"),
                        ("alphabeta:depth=1", "random")}, {("greedy", "alphabeta:depth=1"), ("alphabeta:depth=1", "greedy")}]  # fmt: skip
    assert all(load(p).state().terminal for p in games.iterdir())  # each record replays to its end
    assert main(["arena", "tictactoe", "random", "greedy", "mcts", "--games", "2", "--save-games", str(games)]) == 0
    assert len(list(games.glob("pair-01-game-0001*.sgf"))) == 1  # SGF for tic-tac-toe, beside the others


def test_sprt_is_still_refused_for_a_round_robin_in_one_line(capsys):
    assert main(["arena", "tictactoe", "random", "greedy", "mcts", "--sprt", "0,50"]) == 2
    assert capsys.readouterr().err.strip().endswith("--sprt is for a match between two policies")
