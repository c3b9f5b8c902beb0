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
        """,
        rule="freestyle",  # under renju f6 is a double-four: forbidden, and vcf finds nothing
    )
    # Black to move, no five yet. f6 (row 5, col 5) makes two closed fours at
    # once (c6-f6, five at g6; f6-f3, five at f7): white can stop only one.
    from boardgame_envs.policies.alphabeta_kernels import vcf
    from boardgame_envs.policies.kernels import rules_of

    state = env.game_state
    assert vcf(state.board.copy(), rules_of(state), state.to_move, 12, np.array([300])) == 60
    assert AlphaBetaPolicy(seed=0).act(env) == 60


def test_move_scores_prove_a_win_and_a_loss():
    """6x6, four in a row: the scores say won and lost where the position is, worked out by hand."""
    from boardgame_envs.policies.alphabeta_kernels import INF, WIN

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


def test_one_instance_keeps_a_table_per_game():
    """The same board under freestyle, then standard rules: the table of the first must not leak into the second.

    Here a reused instance once scored c5 (white blocking X X . X X) as a loss, because the
    freestyle table held black's overline as a five; a fresh search shows c5 wins.
    """
    drawing = """
        X X . X X
        . . O X O
        . O . O .
        X O X O X
        X . O . O
    """
    policy = AlphaBetaPolicy(seed=0)
    policy.move_scores(env_from(drawing, win_length=4, rule="freestyle"))
    standard = env_from(drawing, win_length=4, rule="standard")
    np.testing.assert_array_equal(policy.move_scores(standard), AlphaBetaPolicy(seed=0).move_scores(standard))


def test_the_table_counts_win_distances_from_the_node():
    """A win 3 plies below a node met at ply 2 is stored as "win in 3", and read back at ply 5 as
    a win 8 plies from that root: a table reused across moves keeps distances true."""
    from boardgame_envs.policies.alphabeta_kernels import WIN, _from_table, _to_table

    stored = _to_table(WIN - 5, 2)
    assert stored == WIN - 3
    assert _from_table(stored, 5) == WIN - 8
    assert _from_table(_to_table(-(WIN - 6), 2), 0) == -(WIN - 4)
    assert _to_table(1234, 7) == 1234 and _from_table(-1234, 7) == -1234  # heuristic scores are not moved


def test_default_budget_is_nodes_not_seconds():
    env = gomoku_v0.raw_env(board_size=15, rule="renju")
    env.reset()
    for a in (112, 113, 97):
        env.step(a)
    policy = AlphaBetaPolicy(seed=3)
    assert policy.time_limit is None and policy.nodes is not None
    first = policy.act(env)
    assert [AlphaBetaPolicy(seed=3).act(env) for _ in range(3)] == [first] * 3


@pytest.mark.parametrize("kwargs", [{"depth": 2.5}, {"width": 3.0}, {"nodes": 0}, {"depth": True}])
def test_integer_budgets_must_be_integers(kwargs):
    with pytest.raises(ValueError, match="positive integer"):
        AlphaBetaPolicy(**kwargs)


def test_numpy_integers_are_integers():
    assert AlphaBetaPolicy(depth=np.int64(3), width=np.int32(8)).depth == 3


# A renju middle game from a ladder game (alpha-beta against alpha-beta, opening h8 h9 i10 ...)
# in which black has so many ways to make a four that the continuous-four search, unbounded,
# took 3 s at depth 5, 48 s at depth 7 and hours at the policy's depth of 12.
RICH_IN_FOURS = [112, 127, 95, 113, 99, 129, 97, 96, 98, 126, 128, 101, 82, 115, 143, 141, 67, 52, 81, 155, 169, 156,
                 111, 109, 114, 130, 125, 83, 66, 50, 65, 64]  # fmt: skip


def test_vcf_stops_when_its_budget_is_spent():
    from boardgame_envs import gomoku_v0
    from boardgame_envs.policies.alphabeta_kernels import vcf
    from boardgame_envs.policies.kernels import rules_of

    env = gomoku_v0.env(board_size=15, rule="renju")
    env.reset(options={"opening": RICH_IN_FOURS})
    state = env.unwrapped.game_state
    board = state.board.copy()
    budget = np.array([40])
    assert vcf(board, rules_of(state), state.to_move, 12, budget) == -1
    assert budget[0] == 0  # it searched until the budget ran out, and no further
    assert np.array_equal(board, state.board)  # and left the board as it found it
    # The policy's own search is bounded the same way: the move comes (the old search never returned).
    assert env.unwrapped.game_state.legal_mask()[AlphaBetaPolicy(nodes=1000, seed=0).act(env)]
