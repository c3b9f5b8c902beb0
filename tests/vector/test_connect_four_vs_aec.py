"""Connect four's batched engine (bitboards in numba) against the AEC env and ``ConnectFourState``, move for move.

Each case plays the same actions in ``B`` games of ``vector.make("connect_four")``
and in ``B`` raw AEC envs, and after every step compares, game by game, the
planes, the mask, the mover, the board, the engine's ``game_state`` against
the env's state, the rewards by seat, the terminations, the final observation
of each finished game and the auto-reset that follows it.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import IllegalMoveError, connect_four_v0, vector
from boardgame_envs.games.connect_four import ConnectFourGame
from boardgame_envs.games.connect_four_kernels import ConnectFourBatch
from boardgame_envs.vector import IllegalActionsError
from boardgame_envs.vector.opponents import GreedyOpponent

# A whole game that fills the board with no four (found by random play), and the board it leaves
# (X the first player, O the second, row 6 at the top):
#   6 X X O X O O O
#   5 O X X O X X X
#   4 X O O X O X O
#   3 O X X O O X O
#   2 X O X X X O X
#   1 O O X O O X O
#     a b c d e f g
DRAWN_GAME = "fffafeeggdfbdfcbcdaebedacccbaaacbgbdeedggg"


def columns(moves: str) -> list[int]:
    return ["abcdefg".index(m) for m in moves]


def narrow_actions(vec, rng):
    """Legal columns among the middle three where possible: full columns, vertical fours and long games occur."""
    actions = np.empty(vec.num_envs, dtype=np.int64)
    for b, mask in enumerate(vec.legal_action_mask):
        legal = np.flatnonzero(mask)
        middle = legal[(legal >= 2) & (legal <= 4)]
        choice = middle if len(middle) and rng.random() < 0.7 else legal
        actions[b] = choice[rng.integers(len(choice))]
    return actions


def compare(vec, envs, obs):
    for b, env in enumerate(envs):
        view = env.observe(env.agent_selection)
        np.testing.assert_array_equal(obs[b], view["observation"], err_msg=f"planes of game {b}")
        np.testing.assert_array_equal(vec.legal_action_mask[b], view["action_mask"].astype(bool), err_msg=f"mask {b}")
        state, mine = env.game_state, vec.game_state(b)
        assert vec.current_player[b] == state.to_move - 1 == env.possible_agents.index(env.agent_selection)
        np.testing.assert_array_equal(vec.boards[b], state.board)
        np.testing.assert_array_equal(mine.board, state.board)
        np.testing.assert_array_equal(mine.heights, state.heights)
        np.testing.assert_array_equal(mine.planes(1), state.planes(1))
        assert (mine.to_move, mine.num_moves, mine.last_move, mine.terminal) == (
            state.to_move, state.num_moves, state.last_move, state.terminal)  # fmt: skip
        assert vec.num_moves[b] == state.num_moves and vec.last_move[b] == state.last_move


@pytest.mark.parametrize("policy", ["uniform", "narrow"])
@pytest.mark.parametrize("parallel", [False, True])
def test_same_games_as_the_aec_env(policy, parallel):
    num_envs = 8
    vec = vector.make("connect_four", num_envs, parallel=parallel)
    assert isinstance(vec.batch, ConnectFourBatch)  # the kernels hook, not the loop over states
    envs = [connect_four_v0.raw_env() for _ in range(num_envs)]
    for env in envs:
        env.reset()
    obs = vec.reset(seed=3)
    compare(vec, envs, obs)
    rng = np.random.default_rng(7)
    finished = wins = full_columns = 0
    for _ in range(250):
        actions = vec.sample_legal_actions() if policy == "uniform" else narrow_actions(vec, rng)
        full_columns += int((~vec.legal_action_mask).sum())
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert not truncated.any()
        for b, env in enumerate(envs):
            env.step(int(actions[b]))
            state = env.game_state
            assert terminated[b] == state.terminal
            expected = [env.rewards[a] for a in env.possible_agents] if state.terminal else [0.0, 0.0]
            np.testing.assert_array_equal(rewards[b], expected)
            assert info["_final_obs"][b] == state.terminal
            if state.terminal:
                finished += 1
                wins += state.winner != 0
                final = env.observe(env.agent_selection)["observation"]
                np.testing.assert_array_equal(info["final_obs"][b], final, err_msg=f"final planes of game {b}")
                env.reset()
            else:
                assert not info["final_obs"][b].any()
        compare(vec, envs, obs)
    assert finished >= 4 * num_envs and wins >= 3 * num_envs  # games ended and were reset, many by a four
    assert full_columns > 0  # the masks met full columns


def test_a_drawn_game_fills_the_board_with_zero_rewards():
    vec = vector.make("connect_four", 2)
    env = connect_four_v0.raw_env()
    env.reset()
    moves = columns(DRAWN_GAME)
    for i, a in enumerate(moves):
        obs, rewards, terminated, _, info = vec.step(np.array([a, a]))
        env.step(a)
        if i < len(moves) - 1:
            assert not terminated.any()
            compare(vec, [env, env], obs)
    assert terminated.tolist() == [True, True] and not rewards.any()
    assert env.game_state.terminal and env.game_state.winner == 0
    np.testing.assert_array_equal(info["final_obs"][0], env.observe(env.agent_selection)["observation"])
    assert info["final_obs"][0].sum() == 42  # every cell holds a piece
    assert vec.num_moves.tolist() == [0, 0] and vec.legal_action_mask.all()  # reset in the same step


def test_game_state_is_a_real_connect_four_state():
    vec = vector.make("connect_four", 1)
    for a in columns("ddc"):
        vec.step(np.array([a]))
    state = vec.game_state(0)
    assert type(state).__name__ == "ConnectFourState" and state.game == ConnectFourGame()
    assert state.to_move == 2 and state.num_moves == 3 and state.legal_actions().tolist() == list(range(7))
    state.play(3)  # a copy: the batch does not move
    assert vec.num_moves[0] == 3 and vec.game_state(0).heights[3] == 2


def test_illegal_actions_raise_naming_the_column_and_change_nothing():
    vec = vector.make("connect_four", 3)
    for _ in range(6):  # column a full in game 0
        vec.step(np.array([0, 1, 2]))
    before = vec.boards.copy()
    with pytest.raises(IllegalActionsError, match=r"2 game\(s\): game 0: column a is full; game 2: action 7") as err:
        vec.step(np.array([0, 3, 7]))
    assert err.value.games.tolist() == [0, 2] and isinstance(err.value, IllegalMoveError)
    np.testing.assert_array_equal(vec.boards, before)
    assert vec.current_player.tolist() == [0, 0, 0] and not vec.legal_action_mask[0, 0]


def test_illegal_action_loses_under_lose():
    vec = vector.make("connect_four", 2, illegal_action="lose")
    vec.step(np.array([3, 3]))  # red in d everywhere; yellow to move
    obs, rewards, terminated, _, info = vec.step(np.array([9, 2]))  # game 0: yellow plays no column
    assert terminated.tolist() == [True, False] and info["illegal_action"].tolist() == [True, False]
    np.testing.assert_array_equal(rewards, [[0, -1], [0, 0]])  # the offender -1, the other player 0
    # The final planes: the board as it was (the illegal piece not placed), seen by red.
    assert info["final_obs"][0, 5, 3].tolist() == [1, 0] and info["final_obs"][0].sum() == 1
    assert vec.num_moves.tolist() == [0, 2]


def test_autoreset_off_keeps_finished_games_until_reset_mask():
    vec = vector.make("connect_four", 2, autoreset=False)
    for a, b in zip(columns("abababa"), columns("abcdefg")):  # game 0: red's four in column a, move 7
        obs, rewards, terminated, _, info = vec.step(np.array([a, b]))
    assert terminated.tolist() == [True, False] and rewards[0].tolist() == [1, -1] and "final_obs" not in info
    assert vec.over.tolist() == [True, False] and not vec.legal_action_mask[0].any()
    assert vec.sample_legal_actions()[0] == -1
    state = vec.game_state(0)
    assert state.terminal and state.winner == 1
    assert vec.illegal_reason(0, 1) == "the game is over: reset it"
    obs, rewards, terminated, _, _ = vec.step(np.array([-1, 0]))  # a finished game ignores its action
    assert terminated.tolist() == [True, False] and not rewards.any()
    obs = vec.reset(options={"reset_mask": np.array([True, False])})
    assert vec.num_moves.tolist() == [0, 8] and not obs[0].any() and vec.legal_action_mask[0].all()


def greedy_picks(vec, seeds=30, epsilon=0.0):
    where = np.ones(vec.num_envs, dtype=bool)
    return [{int(GreedyOpponent(epsilon, s).actions(vec, where)[g]) for s in range(seeds)} for g in range(vec.num_envs)]


def test_greedy_wins_else_blocks():
    # Red (X) to move in both. Game 0: red wins in d, beside its three on the bottom row (yellow's
    # threat in g waits); game 1: red has no win and must block yellow's three in column g:
    #   game 0             game 1
    #   . . . . . . .      . . . . . . .
    #   . . . . . . .      . . . . . . .
    #   . . . . . . .      . . . . . . .
    #   . . . . . . O      . . . . . . O
    #   . . . . . . O      X . . . . . O
    #   X X X . . . O      X . . X . . O
    vec = vector.make("connect_four", 2)
    for a, b in zip(columns("agbgcg"), columns("agagdg")):
        vec.step(np.array([a, b]))
    assert greedy_picks(vec) == [{3}, {6}]


def test_batched_greedy_is_the_registry_greedy():
    """On mid-game positions, the batched player picks among exactly the columns GreedyPolicy picks among."""
    from boardgame_envs.policies.registry import make_policy

    vec = vector.make("connect_four", 12, seed=0)
    for _ in range(9):
        vec.step(vec.sample_legal_actions())
    batched = greedy_picks(vec)
    for g in range(vec.num_envs):
        single = {make_policy("greedy", seed=s).act(vec.game_state(g)) for s in range(30)}
        assert batched[g] == single, f"game {g}"
    assert greedy_picks(vec, seeds=60, epsilon=1.0)[0] == set(np.flatnonzero(vec.legal_action_mask[0]).tolist())


def test_a_pool_plays_connect_four_batched(tmp_path):
    """A PPO run's pool on connect four: greedy levels in numba, a ladder level game by game, a snapshot batched."""
    from boardgame_envs.selfplay import OpponentPool
    from boardgame_envs.vector.gym_env import SingleAgentVectorEnv
    from boardgame_envs.vector.opponents import BatchedCallable, PerGamePolicy

    calls = []

    def snapshot(observations, masks):  # a frozen network's batched callable: the leftmost legal column
        calls.append(len(observations))
        assert observations.shape[1:] == (2, 6, 7) and masks.shape[1:] == (7,)
        return masks.argmax(axis=1)

    (tmp_path / "net.pt").write_bytes(b"weights")
    pool = OpponentPool(["greedy:epsilon=0.5", "greedy", "level:connect_four/1"], seed=0,
                        snapshot_loader=lambda path: snapshot)  # fmt: skip
    pool.add_snapshot(tmp_path / "net.pt", name="snapshot")
    envs = SingleAgentVectorEnv(16, game="connect_four", opponent=pool, seat="random", channels_first=True)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = set()
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in envs.action_masks()])
        _, _, _, _, info = envs.step(actions)
        if "final_opponent" in info:
            finished |= set(info["final_opponent"][info["_final_opponent"]])
    assert finished == {"snapshot", "greedy", "greedy:epsilon=0.5", "level:connect_four/1"} and calls
    built = {name: b for name, (_, b) in envs._pooled.items()}
    assert isinstance(built["greedy"], GreedyOpponent) and isinstance(built["greedy:epsilon=0.5"], GreedyOpponent)
    assert isinstance(built["snapshot"], BatchedCallable) and isinstance(built["level:connect_four/1"], PerGamePolicy)
