"""bench selfplay beside AlphaZero_Gomoku: the side-by-side path on a fake checkout written here, the real one if named.

The fake checkout has the three files of theirs the driver imports, with the
same names and call signatures, and a game of exactly ``GAME_LENGTH`` moves
whose player asks the network ``n_playout`` times a move. It logs what it was
asked to a file, so the tests see the board, simulations and search constants
that reached it. Its network calls ``F.log_softmax`` without ``dim``, as theirs
does, so the shim is exercised (warnings are errors in the child).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("torch")

from boardgame_envs.bench import selfplay as bench
from boardgame_envs.bench._alphazero_gomoku import (
    ANCHOR_ENV,
    anchor_path,
    count_macs,
    run_anchor,
)

GAME_LENGTH = 7

FAKE = {
    "game.py": f"""
import json, os

class Board:
    def __init__(self, **kwargs):
        self.width, self.height = kwargs["width"], kwargs["height"]
        self.n_in_row = kwargs["n_in_row"]

    def init_board(self, start_player=0):
        self.availables = list(range(self.width * self.height))

class Game:
    def __init__(self, board, **kwargs):
        self.board = board

    def start_self_play(self, player, is_shown=0, temp=1e-3):
        self.board.init_board()
        states = []
        for _ in range({GAME_LENGTH}):
            states.append(player.get_action(self.board, temp=temp, return_prob=1))
        player.reset_player()
        with open(os.environ["FAKE_ANCHOR_LOG"], "a") as log:
            log.write(json.dumps({{"width": self.board.width, "height": self.board.height,
                                  "n_in_row": self.board.n_in_row, "temp": temp, "c_puct": player.c_puct,
                                  "n_playout": player.n_playout, "selfplay": player.is_selfplay,
                                  "calls": player.calls}}) + "\\n")
        return 1, zip(states, states, states)
""",
    "mcts_alphaZero.py": """
class MCTSPlayer:
    def __init__(self, policy_value_function, c_puct=5, n_playout=2000, is_selfplay=0):
        self.fn, self.c_puct, self.n_playout, self.is_selfplay = policy_value_function, c_puct, n_playout, is_selfplay
        self.calls = 0

    def reset_player(self):
        pass

    def get_action(self, board, temp=1e-3, return_prob=0):
        for _ in range(self.n_playout):
            self.fn(board)
            self.calls += 1
        move = board.availables.pop(0)
        return (move, None) if return_prob else move
""",
    "policy_value_net_pytorch.py": """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self, board_width, board_height):
        super().__init__()
        self.cells = board_width * board_height
        self.conv = nn.Conv2d(4, 2, kernel_size=1)
        self.fc = nn.Linear(2 * self.cells, self.cells)

    def forward(self, x):
        x = F.relu(self.conv(x)).view(-1, 2 * self.cells)
        return F.log_softmax(self.fc(x)), torch.zeros(x.shape[0], 1)  # no dim, as theirs

class PolicyValueNet:
    def __init__(self, board_width, board_height, model_file=None, use_gpu=False):
        assert model_file is None and not use_gpu
        self.shape = (1, 4, board_width, board_height)
        self.policy_value_net = Net(board_width, board_height)

    def policy_value_fn(self, board):
        log_probs, value = self.policy_value_net(torch.zeros(self.shape))
        return zip(board.availables, log_probs.exp()[0].tolist()), float(value[0, 0])
""",
}


@pytest.fixture
def fake_anchor(tmp_path, monkeypatch):
    folder = tmp_path / "AlphaZero_Gomoku"
    folder.mkdir()
    for name, text in FAKE.items():
        (folder / name).write_text(text)
    log = tmp_path / "calls.jsonl"
    monkeypatch.setenv("FAKE_ANCHOR_LOG", str(log))
    monkeypatch.setenv("PYTHONWARNINGS", "error::UserWarning")  # log_softmax without dim would fail, unshimmed
    monkeypatch.delenv(ANCHOR_ENV, raising=False)
    return folder, log


def test_the_driver_plays_their_selfplay_as_asked_and_counts_their_network(fake_anchor):
    folder, log = fake_anchor
    before = sorted(p.name for p in folder.iterdir())
    report = run_anchor(folder, 6, [3, 2], seconds=0.0)
    games = [json.loads(line) for line in log.read_text().splitlines()]
    warm, *timed = games
    assert warm["n_playout"] == 8 and len(timed) == 2  # a warm-up game, then one game per count (seconds=0)
    for game, simulations in zip(timed, (3, 2)):
        assert game == {"width": 6, "height": 6, "n_in_row": 5, "temp": 1.0, "c_puct": 5, "n_playout": simulations,
                        "selfplay": 1, "calls": simulations * GAME_LENGTH}  # fmt: skip
    assert [(r.simulations, r.games, r.positions) for r in report.runs] == [(3, 1, GAME_LENGTH), (2, 1, GAME_LENGTH)]
    assert all(r.cpu_s > 0 and r.wall_s > 0 for r in report.runs)
    # 1x1 conv 4->2 on 6x6: 72 outputs x 4; linear 72 -> 36: 36 x 72. Parameters: 4*2+2 and 72*36+36.
    assert report.macs == 72 * 4 + 36 * 72
    assert report.params == 10 + 72 * 36 + 36
    assert report.shims and "log_softmax" in report.shims[0]
    assert sorted(p.name for p in folder.iterdir()) == before  # only read: no copy, no __pycache__ left there


def test_the_anchor_plays_whole_games_until_its_seconds_are_spent(fake_anchor):
    folder, _ = fake_anchor
    run = run_anchor(folder, 5, [50], seconds=0.3).runs[0]
    assert run.cpu_s >= 0.3 and run.games >= 1 and run.positions == GAME_LENGTH * run.games


def test_a_failing_anchor_raises_with_its_error(fake_anchor):
    folder, _ = fake_anchor
    (folder / "game.py").write_text("raise ImportError('their module is broken')\n")
    with pytest.raises(RuntimeError, match="their module is broken"):
        run_anchor(folder, 6, [2], seconds=0.0)


def test_anchor_path_from_the_option_or_the_environment(fake_anchor, tmp_path, monkeypatch):
    folder, _ = fake_anchor
    assert anchor_path(None) is None
    assert anchor_path(str(folder)) == folder
    monkeypatch.setenv(ANCHOR_ENV, str(folder))
    assert anchor_path(None) == folder
    with pytest.raises(ValueError, match="is not a folder"):
        anchor_path(str(tmp_path / "absent"))
    (folder / "mcts_alphaZero.py").unlink()
    with pytest.raises(ValueError, match="lacks mcts_alphaZero.py"):
        anchor_path(str(folder))


def test_count_macs_by_hand():
    from torch import nn

    net = nn.Sequential(nn.Conv2d(3, 5, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(5 * 4 * 4, 7))
    assert count_macs(net, (1, 3, 4, 4)) == 5 * 16 * 3 * 9 + 7 * 80


def rows(out: str) -> dict[tuple[int, str], tuple[int, float, float | None]]:
    """``(simulations, player) -> (positions, per core, ratio)`` of the side-by-side table."""
    found = {}
    for m in re.finditer(r"^ +(\d+)  (\S.*?) {2,}(\d+) +[\d.]+ +([\d.]+)(?: +([\d.]+)x)?$", out, re.MULTILINE):
        found[int(m.group(1)), m.group(2)] = (int(m.group(3)), float(m.group(4)), m.group(5) and float(m.group(5)))
    return found


QUICK = ["--board-size", "6", "--simulations", "3", "2", "--nets", "default", "1x8", "--parallel-games", "2",
         "--seconds", "0.05", "--workers", "0"]  # fmt: skip


def test_side_by_side_on_a_fake_anchor(fake_anchor, capsys):
    folder, _ = fake_anchor
    bench.main([*QUICK, "--anchor", str(folder)])
    out = capsys.readouterr().out
    table = rows(out)
    assert len(table) == 6, out
    for simulations in (3, 2):
        ((_, player), theirs), = ((k, v) for k, v in table.items() if k[0] == simulations and "Gomoku" in k[1])
        games = int(re.fullmatch(r"AlphaZero_Gomoku, (\d+) game\(s\), one at a time", player).group(1))
        assert theirs[0] == GAME_LENGTH * games and theirs[2] == 1.0
        for label in ("ours 2x32 (our default)", "ours 1x8"):
            positions, per_core, ratio = table[simulations, f"{label}, 2 games in lockstep"]
            assert positions >= 2 and ratio is not None
            assert abs(ratio - per_core / theirs[1]) <= 0.051 * ratio + 0.05  # printed to one decimal
        assert re.search(rf"factor at {simulations} simulations .*ours 2x32 \(our default\) [\d.]+x, ours 1x8", out)
    assert "AlphaZero_Gomoku " in out and "2,638 parameters" in out


def test_without_an_anchor_one_line_says_so_and_no_ratio_is_printed(monkeypatch, capsys):
    monkeypatch.delenv(ANCHOR_ENV, raising=False)
    bench.main(["--board-size", "6", "--simulations", "2", "--nets", "1x8", "--parallel-games", "2",
                "--seconds", "0", "--workers", "0"])  # fmt: skip
    out = capsys.readouterr().out
    assert len(re.findall(r"AlphaZero_Gomoku: not measured: name a checkout with --anchor PATH", out)) == 1
    assert not re.search(r"\d\.\dx|factor at", out)
    assert list(rows(out)) == [(2, "ours 1x8, 2 games in lockstep")]


@pytest.mark.parametrize("argv,message", [
    (["--anchor", "/nonexistent/AlphaZero_Gomoku"], "is not a folder"),
    (["--nets", "2by32"], "BLOCKSxCHANNELS"),
    (["--simulations", "400", "0"], "--simulations and --parallel-games must be positive"),
    (["--seconds", "-1"], "must be 0 or more"),
    (["--board-size", "4"], "at least 5"),
])  # fmt: skip
def test_bad_options_are_refused_with_a_reason(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main([*argv, "--workers", "0"])
    assert exc.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.skipif(not os.environ.get(ANCHOR_ENV), reason=f"set {ANCHOR_ENV} to a checkout of AlphaZero_Gomoku")
def test_the_real_anchor():
    report = run_anchor(Path(os.environ[ANCHOR_ENV]), 8, [2], seconds=0.0)
    (run,) = report.runs
    assert run.games == 1 and 9 <= run.positions <= 64  # a game of five in a row on 8x8
    # conv 3x3 4->32->64->128 on 8x8, 1x1 heads 128->4 and 128->2, linear 256->64, 128->64, 64->1
    assert report.macs == 64 * 9 * (4 * 32 + 32 * 64 + 64 * 128) + 64 * 128 * 6 + 256 * 64 + 128 * 64 + 64
    assert report.params == 119_079


def test_the_bench_list_names_selfplay_with_its_summary_in_one_column(capsys):
    from boardgame_envs.bench.__main__ import main

    assert main(["--help"]) == 0
    listed = capsys.readouterr().out.split("benchmarks:\n")[1].splitlines()
    starts = {len(line) - len(line.split("  ", 2)[2].lstrip()) for line in listed}
    assert len(starts) == 1  # every summary starts in the same column, long names included
    assert any(re.fullmatch(r"  selfplay +AlphaZero self-play .*AlphaZero_Gomoku's.*", line) for line in listed)
