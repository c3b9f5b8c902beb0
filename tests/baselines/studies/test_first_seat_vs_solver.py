"""The first-seat solver check (issue 19, section 6): its judge on hand-worked positions, its counts, a tiny run."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest

from baseline_scripts import load_baseline
from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer
from boardgame_envs.alphazero.checkpoint import save_checkpoint
from boardgame_envs.games.mnk import MNKGame


@pytest.fixture(scope="module")
def script():
    return load_baseline("studies/first_seat_vs_solver")


def test_judge_on_positions_worked_by_hand(script):
    # 6x6, four in a row; actions are row * 6 + column, the first player's moves at even plies.
    judge = script.Judge(MNKGame(6, 4))
    # The first player completes row 0 (0, 1, 2, 3): the game is over, won.
    assert judge.first_player_wins([0, 30, 1, 31, 2, 35, 3])
    # An open three (13, 14, 15; 12 and 16 empty), the second player to move with two scattered
    # stones: whichever end it takes, the other makes four.
    assert judge.first_player_wins([13, 0, 14, 5, 15])
    # The second player has three on row 5 (30, 31, 32) and 33 free, and it is its move: it makes four.
    assert not judge.first_player_wins([7, 30, 22, 31, 9, 32, 20])
    # The first player to move with its three (13, 14, 15) open at both ends: four at once.
    assert judge.first_player_wins([13, 0, 14, 5, 15, 35])


def test_counts_separate_lost_wins_from_moves_in_lost_positions(script):
    # A stand-in judge: after each listed prefix, does the first player win?
    verdicts = {(1,): True, (1, 2, 3): False, (1, 2, 3, 4, 5): False, (7,): True, (7, 8, 9): True}

    class Table:
        def first_player_wins(self, moves):
            return verdicts[tuple(moves)]

    records = [SimpleNamespace(moves=[1, 2, 3, 4, 5]), SimpleNamespace(moves=[7, 8, 9])]
    out = script.judge_games(Table(), records, sample=None, seed=0)
    # Game 1 loses the win at ply 3; its ply-5 move starts from a lost position and is not
    # counted among the moves from won positions.
    assert (out["judged"], out["kept"], out["from_won"], out["kept_from_won"]) == (5, 3, 4, 3)
    assert out["lapses"] == [(0, 2)]
    sampled = script.judge_games(Table(), records, sample=2, seed=0)
    assert sampled["judged"] == 2 and sampled["sampled"] and not out["sampled"]


def test_tiny_run_writes_the_report(script, tmp_path):
    # 5x5 four in a row (a draw) keeps the solver's work small.
    env_fn = functools.partial(gomoku_v0.raw_env, board_size=5, win_length=4)
    trainer = AlphaZeroTrainer(env_fn, AlphaZeroConfig(blocks=1, channels=8, out=None))
    checkpoint = tmp_path / "net.pt"
    save_checkpoint(checkpoint, trainer.checkpoint())
    out = tmp_path / "report.md"
    argv = ["--checkpoint", str(checkpoint), "--board-size", "5", "--games", "3", "--simulations", "4",
            "--opponent", "random", "--jobs", "1", "--out", str(out)]  # fmt: skip
    assert script.main(argv) == 0
    text = out.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| 3 games |"))
    wins, draws, losses = (int(x) for x in row.split("|")[2:5])
    assert wins + draws + losses == 3
    assert "the position after the move is a first-player win:" in text


def test_bad_arguments_are_one_line(script, capsys):
    with pytest.raises(SystemExit) as exc:
        script.main(["--checkpoint", "x.pt", "--board-size", "30"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        script.main(["--checkpoint", "x.pt", "--opponent", "nonsense"])
    assert exc.value.code == 2


def test_judge_finds_the_eight_winning_replies_after_d3_c4(script):
    # From the solver's table in baselines/results/alphazero_6x6_k4.md (solve_mnk.py): after the
    # centre opening d3 and the reply c4, 8 of the first player's 34 moves keep the win.
    from boardgame_envs.games.notation import parse_point, point_name

    judge = script.Judge(MNKGame(6, 4))
    opening = [parse_point("d3", 6), parse_point("c4", 6)]
    wins = [point_name(a, 6) for a in range(36) if a not in opening and judge.first_player_wins([*opening, a])]
    assert sorted(wins) == ["a2", "b3", "c2", "c3", "d4", "d5", "e4", "e6"]
