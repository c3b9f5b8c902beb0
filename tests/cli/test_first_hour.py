"""The command line in a new user's first hour: every mistake is one line and exit 2, Ctrl-C is one line
and exit 130, a resumed training run says so, and the output says who played and how it ended."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main

TINY = ["--games-per-iteration", "4", "--parallel-games", "4", "--simulations", "4", "--train-steps", "1",
        "--batch-size", "8", "--eval-every", "0"]  # fmt: skip


def _error_line(capsys) -> str:
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err
    return last


@pytest.mark.parametrize(("argv", "named"), [
    (["arena", "tictactoe", "mcts"], "two or more policies, got only 'mcts'"),
    (["arena", "tictactoe", "mcts", "random", "mcts"], "'mcts' named twice"),
    (["demo", "tictactoe", "--rule", "renju", "--board-size", "9"], "does not apply"),
    (["demo", "gomoku", "--board-size", "9", "--first", "perfect"], "perfect player"),
    (["bench", "foo"], "unknown benchmark 'foo'; choose from alphabeta, env"),
    (["train", "tictactoe", "--iterations", "1", "--eval-opponents", "foo"], "foo"),
    (["train", "tictactoe", "--iterations", "1", "--device", "tpu"], "unknown device 'tpu'"),
])  # fmt: skip
def test_mistakes_are_one_line_and_exit_2(argv, named, capsys, tmp_path):
    if argv[0] == "train":
        argv = [*argv, "--out", str(tmp_path / "run")]
    assert main(argv) == 2
    assert named in _error_line(capsys)


def test_cuda_without_cuda_is_one_line(capsys, tmp_path):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    assert main(["train", "tictactoe", "--iterations", "1", "--device", "cuda", "--out", str(tmp_path)]) == 2
    assert "no CUDA GPU here" in _error_line(capsys)


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_bench_help_lists_the_benchmarks(flag, capsys):
    assert main(["bench", flag]) == 0
    out = capsys.readouterr().out
    assert "firstmove" in out and "alphabeta" in out


def test_train_interrupted_keeps_the_checkpoint_and_resumes_from_it(capsys, tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from boardgame_envs.alphazero.trainer import AlphaZeroTrainer

    out = str(tmp_path / "run")
    real = AlphaZeroTrainer.run_iteration

    def interrupt_the_second(self):
        if self.iteration >= 1:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(AlphaZeroTrainer, "run_iteration", interrupt_the_second)
    assert main(["train", "tictactoe", "--iterations", "3", "--out", out, "--no-progress", *TINY]) == 130
    err = capsys.readouterr().err.strip()
    assert err == f"boardgame-envs: interrupted; checkpoint at iteration 1 is kept ({out}/latest.pt)"
    monkeypatch.setattr(AlphaZeroTrainer, "run_iteration", real)
    assert main(["train", "tictactoe", "--iterations", "2", "--out", out, *TINY]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"resuming from iteration 1 ({out}/latest.pt)\n")
    assert "2/2" in captured.err and "0/1" not in captured.err  # the progress bar counts from the checkpoint


def test_ctrl_c_in_play_and_arena_is_one_line(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("boardgame_envs.ui.terminal.play_terminal", interrupted)  # Ctrl-C at the prompt
    assert main(["play", "tictactoe", "--opponent", "random"]) == 130
    assert capsys.readouterr().err == "boardgame-envs: interrupted\n"
    monkeypatch.setattr("boardgame_envs.arena.referee.play_record", interrupted)
    assert main(["arena", "tictactoe", "random", "mcts", "--games", "2"]) == 130
    captured = capsys.readouterr()
    assert "boardgame-envs: interrupted after 0 of 2 games\n" in captured.err and "Traceback" not in captured.err
    assert "0 games" in captured.out and "interrupted" in captured.out  # the (empty) partial result


def test_demo_says_who_played_whom_and_the_result(capsys):
    assert main(["demo", "tictactoe", "--first", "perfect", "--second", "perfect"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "player_1 (perfect) vs player_2 (perfect)"
    assert "result: a draw after 9 moves" in out and out[-1] == "9 moves: draw"


def test_play_on_tictactoe_speaks_tictactoe(capsys):
    from boardgame_envs import tictactoe_v0
    from boardgame_envs.ui.terminal import play_terminal
    from boardgame_envs.policies import RandomPolicy

    lines = []
    typed = iter(["h8", "a1", "a1", "quit"])
    play_terminal(lambda: tictactoe_v0.raw_env(render_mode="ansi"), RandomPolicy(seed=0), human_first=True,
                  input_fn=lambda prompt: next(typed), print_fn=lines.append)  # fmt: skip
    text = "\n".join(lines)
    assert lines[0] == "You play player_1 (X). type a point (b2 or row,col), or: undo, hint, quit."
    assert "(h8 or row,col)" not in text  # no gomoku coordinates suggested, even after a mistake
    assert "a1 is occupied (by X)" in text


def test_round_robin_shows_each_pair_in_aligned_columns(capsys):
    from boardgame_envs.arena import MatchResult, round_robin_table

    long = "runs/gomoku9_freestyle/latest.pt"
    a = MatchResult(long, "mcts", {"first": [3, 1, 1], "second": [2, 2, 1]})
    b = MatchResult("mcts", "random", {"first": [5, 0, 0], "second": [5, 0, 0]})
    lines = round_robin_table({long: 150.0, "mcts": 20.0, "random": -170.0}, [a, b]).splitlines()
    assert lines[0] == "Elo (mean 0, 95% interval), 10 games per pair"
    assert lines[1].startswith(f"  {long}    +150  (") and lines[3].startswith("  random  ")
    assert lines[5].split()[-5:-2] == ["5", "3", "2"] and "0.650 (" in lines[5]
    column = lines[4].index("score")  # every pair's score starts under the header, long name or short
    assert lines[5][column:column + 5] == "0.650" and lines[6][column:column + 5] == "1.000"
    assert main(["arena", "tictactoe", "random", "mcts:simulations=20", "alphabeta:nodes=200", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "random vs mcts:simulations=20" in out and "score of the first (95%)" in out


def test_the_replay_hint_of_a_gomoku_run_is_a_command_that_works(capsys, tmp_path, monkeypatch):
    pytest.importorskip("torch")
    import shlex

    out = str(tmp_path / "g5")
    argv = ["train", "gomoku", "--board-size", "5", "--win-length", "4", "--iterations", "1", "--out", out, *TINY]
    assert main([*argv, "--no-progress"]) == 0
    hint = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("checkpoint: "))
    command = shlex.split(hint[hint.index("(boardgame-envs ") + 1 : -1])
    assert command[:3] == ["boardgame-envs", "play", "gomoku"] and "--board-size" in command
    seen = {}

    def play_terminal(env_fn, opponent, human_first):  # instead of a terminal game: what the command built
        seen["game"] = env_fn().unwrapped.game
        seen["opponent"] = opponent

    monkeypatch.setattr("boardgame_envs.ui.terminal.play_terminal", play_terminal)
    assert main(command[1:]) == 0  # the checkpoint fits the board the hint names
    assert (seen["game"].size, seen["game"].win_length) == (5, 4) and seen["opponent"].game == seen["game"]


def test_a_fresh_train_says_it_starts_a_new_run(capsys, tmp_path):
    pytest.importorskip("torch")
    out = str(tmp_path / "run")
    assert main(["train", "tictactoe", "--iterations", "1", "--out", out, "--no-progress", *TINY]) == 0
    printed = capsys.readouterr().out
    assert f"starting a new run in {out}" in printed and "(now 1, a new run)" in printed
    assert "resumed from 0" not in printed
