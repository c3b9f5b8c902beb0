"""Every tic-tac-toe game, counted through the PettingZoo API of ``tictactoe_v0.env()``.

The known totals: 255,168 games (131,184 won by the first player, 77,904 by the
second, 46,080 drawn) over 5,478 distinct positions (empty board included).
Games are counted with memoisation on the position, and each position is
reached by replaying its moves through ``reset()`` and ``step()``.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs import tictactoe_v0


def test_all_games_and_positions():
    env = tictactoe_v0.env()
    first, second = env.possible_agents
    memo: dict[bytes, tuple[int, int, int]] = {}

    def count(moves: tuple[int, ...]) -> tuple[int, int, int]:
        env.reset()
        for a in moves:
            env.step(a)
        board = env.unwrapped.state()
        key = board.tobytes()
        if key in memo:
            return memo[key]
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        assert not truncated
        # The observation is the board seen by the agent to move.
        me = 1 if agent == first else 2
        np.testing.assert_array_equal(obs["observation"][:, :, 0], board == me)
        np.testing.assert_array_equal(obs["observation"][:, :, 1], board == 3 - me)
        if terminated:
            assert not obs["action_mask"].any()
            r_first, r_second = env.rewards[first], env.rewards[second]
            assert r_first == -r_second
            result = (int(r_first == 1), int(r_second == 1), int(r_first == 0))
        else:
            np.testing.assert_array_equal(obs["action_mask"], (board.ravel() == 0).astype(np.int8))
            totals = np.zeros(3, dtype=np.int64)
            for a in np.flatnonzero(obs["action_mask"]):
                totals += count(moves + (int(a),))
            result = tuple(int(t) for t in totals)
        memo[key] = result
        return result

    wins_first, wins_second, draws = count(())
    assert (wins_first, wins_second, draws) == (131_184, 77_904, 46_080)
    assert wins_first + wins_second + draws == 255_168
    assert len(memo) == 5_478
