"""The batched engine's own contract: illegal actions, auto-reset off, sampling, seeds, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import IllegalMoveError, vector
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.vector import IllegalActionsError
from boardgame_envs.vector.engine import VectorGames


def test_shapes_and_first_position():
    vec = vector.make("gomoku", 4, board_size=9, rule="renju")
    obs = vec.reset()
    assert obs.shape == (4, 9, 9, 5) and obs.dtype == np.int8
    assert (obs[..., 3] == 1).all() and not obs[..., [0, 1, 2, 4]].any()  # black to move, empty board
    assert vec.legal_action_mask.shape == (4, 81) and vec.legal_action_mask.all()
    assert vec.current_player.tolist() == [0, 0, 0, 0]
    assert vector.make("tictactoe", 2).reset().shape == (2, 3, 3, 2)
    assert vector.make("gomoku", 2, board_size=7, rule="standard").reset().shape == (2, 7, 7, 4)
    renju = vector.make("renju", 2)  # the catalog's games and defaults: renju is 15x15, gomoku defaults to renju
    assert renju.game == vector.make("gomoku", 2).game and renju.obs_shape == (15, 15, 5)


def test_illegal_action_raises_naming_games_and_changes_nothing():
    vec = vector.make("tictactoe", 3)
    vec.step(np.array([4, 4, 0]))
    before = vec.boards.copy()
    message = r"2 game\(s\): game 0: b2 is occupied \(by X\); game 2: action 9"
    with pytest.raises(IllegalActionsError, match=message) as err:
        vec.step(np.array([4, 1, 9]))
    assert err.value.games.tolist() == [0, 2]
    assert isinstance(err.value, IllegalMoveError) and isinstance(err.value, ValueError)
    np.testing.assert_array_equal(vec.boards, before)
    assert vec.current_player.tolist() == [1, 1, 1]


def test_forbidden_point_is_illegal_for_black():
    # 9x9 renju, black to move; e5 would make two open threes (row 5 and column e):
    #   O . . . . . . . O
    #   . . . . . . . . .
    #   . . . . X . . . .
    #   . . . . X . . . .
    #   . . X X e . . . .
    #   . . . . . . . . .
    #   . . . . . . . . .
    #   . . . . . . . . .
    #   O . . . . . . . O
    vec = vector.make("gomoku", 1, board_size=9, rule="renju")
    for black, white in [("c5", "a9"), ("d5", "i9"), ("e7", "a1"), ("e6", "i1")]:
        for point in (black, white):
            vec.step(np.array([_action(point, 9)]))
    e5 = _action("e5", 9)
    assert vec.forbidden[0, e5] and not vec.legal_action_mask[0, e5]
    with pytest.raises(IllegalActionsError, match="game 0: e5 is forbidden for black: double-three"):
        vec.step(np.array([e5]))


def _action(point: str, n: int) -> int:
    from boardgame_envs.games.notation import parse_point

    return parse_point(point, n)


def test_illegal_action_loses_under_lose():
    vec = vector.make("tictactoe", 3, illegal_action="lose")
    vec.step(np.array([4, 4, 4]))  # X in the centre everywhere; O to move
    obs, rewards, terminated, _, info = vec.step(np.array([4, 0, 4]))  # games 0 and 2: O plays the occupied centre
    assert terminated.tolist() == [True, False, True]
    np.testing.assert_array_equal(rewards, [[0, -1], [0, 0], [0, -1]])  # the offender -1, the other player 0
    assert info["illegal_action"].tolist() == [True, False, True]
    assert vec.num_moves.tolist() == [0, 2, 0]  # games 0 and 2 reset; game 1 went on
    # The final planes: the board as it was (the illegal stone not placed), seen by X.
    assert info["final_obs"][0, 1, 1].tolist() == [1, 0] and info["final_obs"][0].sum() == 1


def test_autoreset_off_keeps_finished_games_until_reset_mask():
    vec = vector.make("tictactoe", 2, autoreset=False)
    for a, b in [(0, 0), (3, 1), (1, 3), (4, 2), (2, 8)]:  # game 0: X wins the top row on the fifth move
        obs, rewards, terminated, _, info = vec.step(np.array([a, b]))
    assert terminated.tolist() == [True, False] and rewards[0].tolist() == [1, -1]
    assert "final_obs" not in info
    assert vec.over.tolist() == [True, False] and not vec.legal_action_mask[0].any()
    assert vec.sample_legal_actions()[0] == -1
    # A finished game ignores its action (even an illegal one) and stays terminated, reward 0.
    obs, rewards, terminated, _, _ = vec.step(np.array([-1, 4]))
    assert terminated.tolist() == [True, False] and rewards[0].tolist() == [0, 0]
    obs = vec.reset(options={"reset_mask": np.array([True, False])})
    assert vec.num_moves.tolist() == [0, 6] and not obs[0].any() and vec.legal_action_mask[0].all()


@pytest.mark.parametrize("game", [MNKGame(3, 3, "standard"), MNKGame(3, 3, planes=4), MNKGame(6, 4, planes=2)],
                         ids=repr)  # fmt: skip
def test_the_kernels_show_the_games_own_planes(game):
    """The plane count is the game's (``game.num_planes``), not guessed from the board: 3x3 with three in a row
    under the standard rule is gomoku's four planes, and a game's ``planes=`` choice holds in the batch too."""
    vec = VectorGames(game, 3, seed=3)
    obs = vec.reset()
    assert obs.shape == (3, game.size, game.size, game.num_planes)
    for _ in range(6):
        movers = vec.current_player + 1
        for b in range(3):
            np.testing.assert_array_equal(obs[b], vec.game_state(b).planes(int(movers[b])))
        obs = vec.step(vec.sample_legal_actions())[0]


def test_sampling_is_legal_uniform_and_seeded():
    vec = vector.make("gomoku", 64, board_size=9, rule="renju", seed=1)
    for _ in range(30):
        actions = vec.sample_legal_actions()
        assert vec.legal_action_mask[np.arange(64), actions].all()
        vec.step(actions)
    np.testing.assert_array_equal(vec.sample_legal_actions(seed=4), vec.sample_legal_actions(seed=4))
    assert not np.array_equal(vec.sample_legal_actions(seed=4), vec.sample_legal_actions(seed=5))
    # Uniform over the 9 cells of tic-tac-toe's empty board: a chi-square test at a generous level.
    counts = np.bincount(vector.make("tictactoe", 9000, seed=2).sample_legal_actions(), minlength=9)
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 26.1  # the 0.999 quantile with 8 degrees of freedom


def test_reset_seed_reproduces_random_play():
    def play(seed):
        vec = vector.make("tictactoe", 8)
        vec.reset(seed=seed)
        for _ in range(20):
            vec.step(vec.sample_legal_actions())
        return vec.boards.copy()

    np.testing.assert_array_equal(play(11), play(11))
    assert not np.array_equal(play(11), play(12))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: vector.make("chess", 2), ValueError, "unknown game 'chess'; expected one of tictactoe, gomoku, renju"),
        (lambda: vector.make("tictactoe", 0), ValueError, "num_envs must be a positive integer, got 0"),
        (lambda: vector.make("tictactoe", 2, board_size=9), ValueError, "board_size=9 does not apply"),
        (lambda: vector.make("gomoku", 2, board_size=4), ValueError, r"board_size must be an integer in 5\.\.19"),
        (lambda: vector.make("gomoku", 2, rule="pente"), ValueError, "unknown rule 'pente'"),
        (lambda: vector.make("gomoku", 2, size=9), ValueError, "gomoku takes board_size, win_length and rule; size does not apply"),
        (lambda: vector.make("tictactoe", 2, illegal_action="skip"), ValueError, "illegal_action must be one of"),
        (lambda: vector.make("tictactoe", 2).step([0]), ValueError, r"actions must have shape \(2,\)"),
        (lambda: vector.make("tictactoe", 2).step([0.0, 1.0]), TypeError, "actions must be integers, got float64"),
        (lambda: vector.make("tictactoe", 2).reset(options={"reset_mask": [1, 0]}), ValueError, "reset_mask must be"),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_state_views_are_read_only():
    vec = vector.make("tictactoe", 2)
    with pytest.raises(ValueError):
        vec.legal_action_mask[0, 0] = False
    with pytest.raises(ValueError):
        vec.boards[0, 0] = 1
