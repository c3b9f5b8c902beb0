"""AlphaBetaPolicy: exact on tic-tac-toe (checked at every reachable position), threats on gomoku."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import env_from
from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.solver import solver_for
from boardgame_envs.policies.alphabeta import AlphaBetaPolicy




def test_never_gives_up_value_at_any_reachable_tictactoe_position():
    """At every reachable position, for either side, the chosen move keeps the exact value.

    A player that never lowers the game-theoretic value never loses, whatever
    the opponent does and in either seat; this checks all 4,520 positions.
    """
    solver = solver_for(MNKGame(3, 3))
    policy = AlphaBetaPolicy(time_limit=None, seed=0)
    env = tictactoe_v0.raw_env()
    seen = set()
    checked = 0

    def visit(moves):
        nonlocal checked
        env.reset()
        for a in moves:
            env.step(a)
        state = env.game_state
        key = state.board.tobytes()
        if key in seen or state.terminal:
            return
        seen.add(key)
        action = policy.act(env)
        values = solver.action_values(state)
        assert values[action] == np.nanmax(values), f"moves {moves}: {action} loses value"
        checked += 1
        for a in state.legal_actions():
            visit(moves + [int(a)])

    visit([])
    assert checked == 4_520


def test_ties_are_broken_by_the_seed():
    env = tictactoe_v0.env()
    env.reset()
    openings = {AlphaBetaPolicy(seed=s, time_limit=None).act(env) for s in range(30)}
    assert len(openings) > 1  # every opening draws; a perfect player is not a single line
    assert AlphaBetaPolicy(seed=7).act(env) == AlphaBetaPolicy(seed=7).act(env)


def test_gomoku_takes_a_win_and_blocks_a_four():
    win = env_from(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . O O O . . . .
        . X X X X . . . .
        . . . . . . . . .
        . . . . . O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    assert AlphaBetaPolicy(seed=0).act(win) in (27, 32)  # a6 or f6 completes the five
    block = env_from(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . O O O O . . . .
        . . . . . . . . .
        . . X . X . X . .
        . . . . . . . . .
        . . . . . . . . X
        . . . . . . . . .
        """
    )
    # Black to move: white has b6-e6 with a6 and f6 open; black has no four of
    # its own, so it must stop one end (and loses anyway on the other).
    assert AlphaBetaPolicy(seed=0).act(block) in (27, 32)


def test_gomoku_finds_a_continuous_four_win():
    env = env_from(
        """
        O . . . . . . . . . O
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . O X X X . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . O . . . . .
        O . . . . . . . . . O
        """
    )
    # Black to move, no five yet. f6 (row 5, col 5) makes two closed fours at
    # once (c6-f6, five at g6; f6-f3, five at f7): white can stop only one.
    from boardgame_envs.policies.alphabeta import vcf
    from boardgame_envs.policies.kernels import rules_of

    state = env.game_state
    assert vcf(state.board.copy(), rules_of(state), state.to_move, 12) == 60
    assert AlphaBetaPolicy(seed=0).act(env) == 60


def test_move_scores_prove_a_win_and_a_loss():
    """6x6, four in a row: the scores say won and lost where the position is, worked out by hand."""
    from boardgame_envs.policies.alphabeta import INF, WIN

    policy = AlphaBetaPolicy(depth=6, time_limit=None, width=36, seed=0)
    lost = env_from(
        """
        O . . . . O
        . . . . . .
        . X X X . .
        . . . . . .
        . . . . . .
        . . . . . .
        """,
        win_length=4,
    )
    # White to move: black's b4-d4 is open at both a4 and e4 and white has no
    # threat, so white blocks one end and black plays the other.
    scores = policy.move_scores(lost)
    searched = scores[scores > -INF]
    assert searched.size > 0 and searched.max() <= -(WIN - 3)
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
    # White to move completes a1-d1 at d1 (action 33); nothing else wins at once.
    scores = policy.move_scores(won)
    assert int(scores.argmax()) == 33 and scores[33] >= WIN - 1
    assert policy.act(won) == 33


def test_renju_black_never_chooses_a_forbidden_point():
    env = env_from(
        """
        O . . . . . . . O
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O . . . . . . . O
        """,
        rule="renju",
    )
    # e5 would make two open threes: forbidden. Whatever black picks, not e5.
    for seed in range(5):
        action = AlphaBetaPolicy(seed=seed, time_limit=0.2).act(env)
        assert action != 40 and env.observe("black_0")["action_mask"][action] == 1


def test_act_leaves_env_unchanged_and_rejects_bad_args():
    env = gomoku_v0.env(board_size=9)
    env.reset()
    env.step(40)
    before = env.unwrapped.state()
    AlphaBetaPolicy(seed=0, time_limit=0.1).act(env)
    np.testing.assert_array_equal(env.unwrapped.state(), before)
    with pytest.raises(ValueError, match="depth"):
        AlphaBetaPolicy(depth=0)
    with pytest.raises(ValueError, match="time_limit"):
        AlphaBetaPolicy(time_limit=-1)
