"""The second-seat baseline script: its alpha-beta veto over a network, and a tiny end-to-end run."""

from __future__ import annotations

import functools

import pytest

from ascii_boards import env_from
from baseline_scripts import load_baseline
from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, NetworkPolicy


@pytest.fixture(scope="module")
def script():
    return load_baseline("studies/mcts_first_seat")


@pytest.fixture(scope="module")
def untrained():
    env_fn = functools.partial(gomoku_v0.raw_env, board_size=6, win_length=4)
    return AlphaZeroTrainer(env_fn, AlphaZeroConfig(blocks=1, channels=8, out=None)).net


@pytest.fixture
def won_and_must_block():
    """Two 6x6 four-in-a-row positions, white to move, each with one right answer."""
    # White completes a1-d1 at d1 (action 33).
    won = env_from(
        """
        X . . . . X
        . . . . . .
        . X X . . .
        . . . . . .
        . . . . . .
        O O O . . .
        """,
        win_length=4,
    )
    # Black's b4-d4 is closed at e4 and wins at a4 (action 12); every other white move loses.
    must_block = env_from(
        """
        O . . . . .
        . . . . . .
        . X X X O .
        . . . . . .
        . . . . . .
        . . . . . .
        """,
        win_length=4,
    )
    return won, must_block


def test_veto_takes_a_forced_win_and_the_only_move_that_does_not_lose(script, untrained, won_and_must_block):
    won, must_block = won_and_must_block
    for seed in range(4):
        policy = script.VetoedNetwork(NetworkPolicy(untrained, simulations=8, seed=seed), depth=4, seed=seed)
        assert policy.act(won) == 33
        assert policy.act(must_block) == 12


def test_exact_player_takes_a_win_and_the_only_defence(script, won_and_must_block):
    won, must_block = won_and_must_block
    for seed in range(2):
        player = script.ExactPlayer(6, 4, depth=2, seed=seed)
        assert player.act(won) == 33
        assert player.act(must_block) == 12


def test_tiny_run_writes_the_table(script, tmp_path):
    out = tmp_path / "report.md"
    argv = ["--depths", "2", "--exact", "--games", "2", "--mcts-sims", "20", "--jobs", "1", "--out", str(out)]
    assert script.main(argv) == 0
    rows = [line for line in out.read_text().splitlines() if line.startswith(("| `AlphaBeta", "| exact"))]
    assert rows[0].startswith("| `AlphaBetaPolicy(depth=2, width=64)` |") and len(rows) == 2
    for row in rows:
        first, second = row.split("|")[2:4]
        assert sum(map(int, first.split("-"))) == 1 and sum(map(int, second.split("-"))) == 1
    # The exact player wins as first player whatever MCTS does: 6x6, four in a row is a first-player win.
    assert rows[1].split("|")[2].strip() == "1-0-0"


def test_bad_arguments_are_refused(script):
    with pytest.raises(SystemExit):
        script.main(["--games", "1"])
    with pytest.raises(SystemExit):
        script.main(["--depths", "0"])
    with pytest.raises(SystemExit):
        script.main(["--depths"])  # no depths and no checkpoint: nothing to play


def test_trap_setting_exact_player(script, tmp_path):
    # 5x5, three in a row is a first-player win too, and small enough to count winning replies from the start.
    out = tmp_path / "report.md"
    argv = ["--board-size", "5", "--win-length", "3", "--depths", "--exact", "--traps-from", "0", "--games", "2",
            "--mcts-sims", "20", "--jobs", "1", "--out", str(out)]  # fmt: skip
    assert script.main(argv) == 0
    row = next(line for line in out.read_text().splitlines() if "fewest winning replies from 0 stones" in line)
    assert row.split("|")[2].strip() == "1-0-0"


def test_traps_need_the_exact_player(script):
    with pytest.raises(SystemExit):
        script.main(["--depths", "2", "--traps-from", "5"])
