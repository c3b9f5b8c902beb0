"""Behaviour of the AEC envs: observations, rewards, bad input, rendering."""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo import AECEnv

from boardgame_envs import IllegalMoveError, gomoku_v0, tictactoe_v0
from boardgame_envs.envs.board_env import PLANE_BLACK_TO_MOVE, PLANE_LAST_MOVE


def _play(env, moves):
    for a in moves:
        env.step(a)


def test_win_rewards_and_terminations_for_both_agents():
    env = tictactoe_v0.env()
    env.reset()
    _play(env, [0, 3, 1, 4, 2])  # X takes the top row
    assert env.rewards == {"player_1": 1.0, "player_2": -1.0}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    # The loser is told on its next turn, then both leave with None.
    assert env.agent_selection == "player_2"
    _, reward, terminated, _, _ = env.last()
    assert reward == -1.0 and terminated
    env.step(None)
    _, reward, terminated, _, _ = env.last()
    assert env.agent_selection == "player_1" and reward == 1.0 and terminated
    env.step(None)
    assert env.agents == []


def test_draw_gives_zero():
    env = tictactoe_v0.env()
    env.reset()
    _play(env, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert env.rewards == {"player_1": 0.0, "player_2": 0.0} and all(env.terminations.values())


def test_gomoku_planes():
    env = gomoku_v0.env(board_size=7, rule="freestyle")
    env.reset()
    obs = env.observe("black_0")["observation"]
    assert obs.shape == (7, 7, 4) and obs.dtype == np.int8
    assert obs[:, :, PLANE_BLACK_TO_MOVE].all() and not obs[:, :, :PLANE_BLACK_TO_MOVE].any()
    env.step(24)  # d4, the centre
    obs = env.observe("white_0")
    planes = obs["observation"]
    assert planes[3, 3, 1] == 1 and planes[:, :, 0].sum() == 0  # black's stone is white's opponent's
    assert planes[3, 3, PLANE_LAST_MOVE] == 1 and planes[:, :, PLANE_LAST_MOVE].sum() == 1
    assert not planes[:, :, PLANE_BLACK_TO_MOVE].any()
    assert obs["action_mask"][24] == 0 and obs["action_mask"].sum() == 48
    assert not env.observe("black_0")["action_mask"].any()  # not black's turn


class TestRawEnvBadInput:
    def setup_method(self):
        self.env = tictactoe_v0.raw_env()
        self.env.reset()
        self.env.step(4)

    def _unchanged(self, before):
        assert (self.env.state() == before[0]).all() and self.env.agent_selection == before[1]

    @pytest.mark.parametrize(
        "action, words",
        [(4, "b2 is occupied"), (9, "out of range"), (-3, "out of range"), ("a1", "not an integer"), (1.5, "not an integer")],
    )
    def test_bad_actions_raise_and_change_nothing(self, action, words):
        before = (self.env.state(), self.env.agent_selection)
        with pytest.raises(IllegalMoveError, match=words):
            self.env.step(action)
        self._unchanged(before)

    def test_game_over(self):
        _play(self.env, [0, 1, 3, 5, 6])  # O takes a3, a2, a1: the left column
        assert self.env.rewards == {"player_1": -1.0, "player_2": 1.0}
        with pytest.raises(IllegalMoveError, match="game is over"):
            self.env.step(2)
        self.env.step(None)
        self.env.step(None)
        with pytest.raises(IllegalMoveError, match="game is over"):
            self.env.step(None)

    def test_numpy_integers_are_accepted(self):
        self.env.step(np.int64(0))
        assert self.env.state()[0, 0] == 2


def test_wrapped_env_illegal_move_loses():
    env = tictactoe_v0.env()
    env.reset()
    env.step(4)
    env.step(4)  # occupied: player_2 loses by PettingZoo's rule
    assert env.rewards["player_2"] == -1 and env.rewards["player_1"] == 0
    assert all(env.terminations.values())


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"board_size": 4}, "5..19"),
        ({"board_size": 20}, "5..19"),
        ({"board_size": 15, "rule": "caro"}, "freestyle, standard, renju"),
        ({"board_size": 7, "win_length": 8}, "2..board_size"),
        ({"render_mode": "pygame"}, "human, ansi, rgb_array"),
    ],
)
def test_bad_constructor_arguments(kwargs, words):
    with pytest.raises(ValueError, match=words):
        gomoku_v0.env(**kwargs)


def test_ansi_render_marks_last_move_and_labels():
    env = gomoku_v0.env(board_size=15, render_mode="ansi")
    env.reset()
    env.step(7 * 15 + 7)
    text = env.render()
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijklmno")
    row8 = next(line for line in lines if line.startswith(" 8 "))
    assert "[X]" in row8 and row8.index("[X]") == lines[0].index("h") - 1
    assert lines[-1].startswith("X black (first)")


def test_tictactoe_ansi_legend_names_players_not_colours():
    env = tictactoe_v0.env(render_mode="ansi")
    env.reset()
    env.step(4)
    legend = env.render().splitlines()[-1]
    assert legend.startswith("X first player  O second player") and "black" not in legend


def test_rgb_render_shows_stones():
    env = tictactoe_v0.env(render_mode="rgb_array")
    env.reset()
    empty = env.render()
    env.step(4)
    after = env.render()
    assert empty.shape == after.shape and (empty != after).any()
    c = after.shape[1] // 2
    red, green, blue = (int(v) for v in after[c, c])
    assert red > 150 and green < 90 and blue < 90  # the arms of a red X cross at the centre cell's middle
    assert empty[c, c].min() > 200  # paper before


actions = st.one_of(st.integers(-3, 28), st.none(), st.sampled_from([1.5, "x"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(actions, max_size=40))
def test_random_action_sequences_keep_state_consistent(seq):
    env = gomoku_v0.raw_env(board_size=5, win_length=4)
    env.reset()
    for action in seq:
        board_before = env.state()
        try:
            env.step(action)
        except IllegalMoveError:
            if env.agents:
                assert (env.state() == board_before).all()
            continue
        if not env.agents:
            break
    board = env.state()
    black, white = (board == 1).sum(), (board == 2).sum()
    assert black - white in (0, 1)  # alternation survived any sequence
    state = env.game_state
    assert state.num_moves == black + white
    if env.agents and not state.terminal:
        assert env.agent_selection == ("black_0" if black == white else "white_0")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 24), max_size=30))
def test_wrapped_env_sequences_follow_pettingzoo_rules(seq):
    """In-range actions through env(): legal ones play, the first illegal one loses with -1."""
    env = gomoku_v0.env(board_size=5, win_length=4)
    env.reset()
    for action in seq:
        if not env.agents:
            break
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = bool(obs["action_mask"][action])
        stones = int((env.unwrapped.state() != 0).sum())
        env.step(action)
        if legal:
            assert int((env.unwrapped.state() != 0).sum()) == stones + 1
        else:
            assert env.rewards[agent] == -1 and all(env.terminations.values())
            assert int((env.unwrapped.state() != 0).sum()) == stones
    # Whatever happened, the board is one reachable by alternating play.
    board = env.unwrapped.state()
    assert (board == 1).sum() - (board == 2).sum() in (0, 1)


def test_observe_boards_matches_observe_state_position_by_position():
    from boardgame_envs.games.renju import forbidden_mask

    env = gomoku_v0.raw_env(board_size=9, rule="renju")
    rng = np.random.default_rng(5)
    states = []
    for _ in range(25):
        state = env.game.new_state()
        for _ in range(int(rng.integers(0, 40))):
            legal = state.legal_actions()
            if state.terminal or not legal.size:
                break
            state.play(int(legal[rng.integers(len(legal))]))
        if not state.terminal:
            states.append(state)
    boards = np.stack([s.board for s in states])
    forbidden = np.stack([forbidden_mask(s.board.reshape(9, 9)).ravel() for s in states])
    planes = env.observe_boards(boards, [s.to_move for s in states], [s.last_move for s in states], forbidden)
    for state, p in zip(states, planes):
        assert (p == env.observe_state(state)["observation"]).all()


@pytest.mark.parametrize(
    "make",
    [
        tictactoe_v0.raw_env,
        lambda: gomoku_v0.raw_env(board_size=7, win_length=4, rule="freestyle"),
        lambda: gomoku_v0.raw_env(board_size=7, win_length=4, rule="standard"),
        lambda: gomoku_v0.raw_env(board_size=9, rule="renju"),
    ],
    ids=["tictactoe", "freestyle", "standard", "renju"],
)
def test_observe_keeps_up_with_the_board_move_by_move(make):
    """``observe`` updates its planes move by move; they must equal a from-scratch encoding of the board.

    The reference is the numba kernel that ``observe_state`` runs, fed the raw
    board, checked for both agents after every move of random games, across
    resets, a pickle round-trip mid-game and a game state swapped in from outside.
    """
    import pickle

    env = make()
    rng = np.random.default_rng(11)

    def check(env):
        state = env.game_state
        for agent in env.agents:
            live = agent == env.agent_selection and not env.terminations[agent]
            got = env.observe(agent)
            want = env._encode(state, env._color[agent], live)
            assert (got["observation"] == want["observation"]).all()
            assert (got["action_mask"] == want["action_mask"]).all()
            assert got["observation"].dtype == np.int8 and got["action_mask"].dtype == np.int8

    for game in range(6):
        env.reset(seed=game)
        check(env)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            if env.agents:
                check(env)
            if game == 2 and env.game_state.num_moves == 4:
                env = pickle.loads(pickle.dumps(env))
                check(env)
            if game == 3 and env.game_state.num_moves == 3 and not env.game_state.terminal:
                other = env.game_state.clone()
                other.play(int(other.legal_actions()[0]))
                env.game_state = other  # changed from outside step: observe must notice
                check(env)
                break


def test_observations_are_fresh_arrays():
    env = gomoku_v0.raw_env(board_size=7, win_length=4)
    env.reset()
    first = env.observe("black_0")
    first["observation"][:] = 1
    first["action_mask"][:] = 0
    again = env.observe("black_0")
    assert again["observation"][:, :, :2].sum() == 0 and again["action_mask"].all()


def _pettingzoo_stack(raw):
    """PettingZoo's own wrappers, unmodified, in the order ``env()`` uses, over ``raw``.

    ``raw`` also gets back PettingZoo's own ``AECEnv._was_dead_step`` in place
    of ``MNKAECEnv``'s two-agent version, so that side is PettingZoo's throughout.
    """
    from pettingzoo.utils import wrappers

    raw._was_dead_step = types.MethodType(AECEnv._was_dead_step, raw)
    return wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1))
    )


def _without_reason(info):
    """``info`` less the illegal move's reason that ``env()`` adds (PettingZoo's wrappers keep none)."""
    return {k: v for k, v in info.items() if k not in ("illegal_action", "reason")}


def _bookkeeping(env):
    """What an AEC env keeps of the game, read through ``env`` (wrapped or not).

    The reason of an illegal move, which ``env()`` adds to the offender's info
    (PettingZoo's wrappers keep none; tests/envs/test_mistakes.py checks it), is left out.
    """
    infos = {agent: _without_reason(info) for agent, info in env.infos.items()}
    return (list(env.agents), env.agent_selection, getattr(env.unwrapped, "_skip_agent_selection", None),
            dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations),
            infos)  # fmt: skip


_CALL = st.one_of(
    st.tuples(st.just("step"), st.one_of(st.none(), st.integers(-1, 25))),
    st.tuples(st.just("last"), st.booleans()),
    st.tuples(st.just("observe"), st.sampled_from(["black_0", "white_0"])),
    st.tuples(st.just("reset"), st.one_of(st.none(), st.integers(0, 3))),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_CALL, max_size=40))
def test_env_behaves_like_pettingzoos_own_wrappers(calls):
    """``env()``'s wrappers read the raw env directly on hot paths; call for call they must match PettingZoo's.

    Any mix of steps (legal, illegal, ``None``, after the end), ``last``,
    ``observe`` and ``reset`` calls goes to both stacks; what each call returns or raises,
    and the env's bookkeeping after it, must be the same. PettingZoo's stack also
    keeps PettingZoo's own ``_was_dead_step``, which ``MNKAECEnv`` replaces.
    """
    ours = gomoku_v0.env(board_size=5, win_length=3)
    theirs = _pettingzoo_stack(gomoku_v0.raw_env(board_size=5, win_length=3))
    for env in (ours, theirs):
        env.reset(seed=0)

    def outcome(env, name, arg):
        try:
            if name == "step":
                env.step(arg)
                result = None
            elif name == "reset":
                env.reset(seed=arg)
                result = None
            elif name == "last":
                result = env.last(observe=arg)
            else:
                result = env.observe(arg)
        except Exception as exc:  # noqa: BLE001 - the exception is what is compared
            return ("raised", type(exc))
        if isinstance(result, tuple):
            result = (*result[:4], _without_reason(result[4]))
        if isinstance(result, tuple) and result[0] is not None:
            result = (result[0]["observation"].tolist(), result[0]["action_mask"].tolist(), *result[1:])
        elif isinstance(result, dict):
            result = (result["observation"].tolist(), result["action_mask"].tolist())
        return result, _bookkeeping(env)

    for name, arg in calls:
        mine, reference = outcome(ours, name, arg), outcome(theirs, name, arg)
        if mine[0] == reference[0] == "raised" and issubclass(mine[1], IllegalMoveError):
            continue  # where PettingZoo raises a bare AssertionError or KeyError, ours is typed and says why
        assert mine == reference, (name, arg)
    assert (ours.unwrapped.state() == theirs.unwrapped.state()).all()


@pytest.mark.parametrize("max_iter", [3, 2**63])
def test_agent_iter_matches_pettingzoos(max_iter):
    """``env()``'s generator ``agent_iter`` yields what PettingZoo's iterator does, and stops where it stops."""
    ours = tictactoe_v0.env()
    theirs = _pettingzoo_stack(tictactoe_v0.raw_env())
    seen = []
    for env in (ours, theirs):
        env.reset(seed=0)
        moves = iter([4, 0, 8, 2, 1, 7, 6, 3, 5])
        agents = []
        for agent in env.agent_iter(max_iter):
            agents.append(agent)
            env.step(None if env.terminations[agent] else next(moves))
        seen.append((agents, list(env.agents)))
    assert seen[0] == seen[1]
    assert len(seen[0][0]) == min(max_iter, 11)  # 9 moves, then each agent steps None once


def test_agent_iter_asserts_a_step_between_agents():
    for env in (tictactoe_v0.env(), _pettingzoo_stack(tictactoe_v0.raw_env())):
        env.reset()
        loop = iter(env.agent_iter())
        next(loop)
        with pytest.raises(AssertionError, match="need to call step"):
            next(loop)


@pytest.mark.parametrize(
    "moves",
    [
        [0, 1, 3, 4, 6],  # the first player wins down column a
        [0, 3, 1, 4, 8, 5],  # the second player wins along row 2
        [0, 1, 2, 4, 3, 5, 7, 6, 8],  # a draw
        [0, 0],  # an illegal move ends the game through TerminateIllegalWrapper
    ],
)
def test_dead_steps_match_pettingzoos(moves):
    """Both agents leave a finished game as ``AECEnv._was_dead_step`` has them leave."""
    ours = tictactoe_v0.env()
    theirs = _pettingzoo_stack(tictactoe_v0.raw_env())
    for env in (ours, theirs):
        env.reset(seed=0)
        for a in moves:
            env.step(a)
    assert _bookkeeping(ours) == _bookkeeping(theirs)
    assert all(ours.terminations.values())
    while theirs.agents:
        for env in (ours, theirs):
            env.step(None)
        assert _bookkeeping(ours) == _bookkeeping(theirs)
    assert ours.agents == [] and ours.rewards == {}


def test_observe_a_state_built_from_numpy_scalars():
    from boardgame_envs.games.mnk import MNKState

    env = gomoku_v0.raw_env(board_size=7, win_length=4)
    env.reset()
    board = np.zeros(49, dtype=np.int8)
    board[24] = 1
    env.game_state = MNKState.from_position(env.game, board, np.int64(2), np.int64(24))
    env.agent_selection = "white_0"
    planes = env.observe("white_0")["observation"]
    assert planes[3, 3].tolist() == [0, 1, 1, 0]  # black's stone, the last move, white to move
    assert (planes == env.observe_state(env.game_state)["observation"]).all()


@pytest.mark.parametrize("make", [
    lambda: tictactoe_v0.raw_env(), lambda: gomoku_v0.raw_env(7, 4, "freestyle"), lambda: gomoku_v0.raw_env(9, rule="renju"),
])  # fmt: skip
def test_state_planes_are_the_env_observation(make):
    """MNKState.planes (what policies and networks encode a bare state with) is observe()'s layout, cell for cell."""
    env = make()
    rng = np.random.default_rng(5)
    for _ in range(3):
        env.reset()
        state = env.game_state
        while not state.terminal:
            for agent, colour in env._color.items():
                assert (state.planes(colour) == env.observe(agent)["observation"]).all()
            env.step(int(rng.choice(state.legal_actions())))
