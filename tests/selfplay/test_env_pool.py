"""The envs with ``opponent=pool``: a member drawn per game, each member's games answered together, results recorded."""

from __future__ import annotations

from collections import Counter

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv


class LastLegal:
    """A batched snapshot stand-in that plays the last legal point and counts its calls and batch sizes."""

    def __init__(self):
        self.batches = []

    def __call__(self, observations, masks):
        assert observations.shape[1:] == (2, 3, 3)  # the learner's own layout (channels_first here)
        self.batches.append(len(masks))
        return np.array([np.flatnonzero(m)[-1] for m in masks])


class ScriptedPool:
    """Any object with sample/opponent/record is a pool to the envs: this one deals members in a fixed cycle."""

    def __init__(self, names, members):
        self.cycle, self.members, self.recorded, self.i = names, members, [], 0

    def sample(self):
        self.i += 1
        return self.cycle[(self.i - 1) % len(self.cycle)]

    def opponent(self, name):
        return self.members[name]

    def record(self, name, score):
        self.recorded.append((name, score))


def first_legal(masks):
    return np.array([np.flatnonzero(m)[0] for m in masks])


def test_vector_env_answers_each_members_games_in_one_call():
    net = LastLegal()
    pool = ScriptedPool(["net", "random", "greedy"], {"net": net, "random": "random", "greedy": "greedy"})
    env = SingleAgentVectorEnv(12, opponent=pool, seat="second", channels_first=True)
    obs, info = env.reset(seed=0)
    assert list(info["opponent"]) == ["net", "random", "greedy"] * 4
    assert net.batches == [4]  # the four games it opens, in one call
    # Its games: the learner (second) sees the net's first move on the last point, i8.
    assert all(obs[g, 1, 2, 2] == 1 for g in range(0, 12, 3))
    built = {name: env._member(name) for name in ("random", "greedy")}
    assert type(built["random"]).__name__ == "RandomOpponent" and type(built["greedy"]).__name__ == "GreedyOpponent"
    obs, rewards, done, _, info = env.step(first_legal(info["action_mask"]))
    assert net.batches == [4, 4]


def test_vector_env_records_each_finished_game_against_its_member():
    pool = OpponentPool(["random", "greedy:epsilon=0.5"], seed=0)
    env = gymnasium.make_vec("boardgame_envs/TicTacToe-v0", num_envs=8, opponent=pool, seat="random")
    obs, info = env.reset(seed=1)
    finished = Counter()
    for _ in range(60):
        playing = info["opponent"].copy()
        obs, rewards, done, _, info = env.step(first_legal(info["action_mask"]))
        for g in np.flatnonzero(done):
            assert info["final_opponent"][g] == playing[g]
            finished[(playing[g], {1.0: 0, 0.0: 1, -1.0: 2}[rewards[g]])] += 1
        assert info["_final_opponent"].tolist() == done.tolist() if done.any() else "final_opponent" not in info
    assert sum(finished.values()) > 50
    expected = {name: tuple(finished[(name, k)] for k in range(3)) for name in pool.names}
    assert pool.results() == expected


def test_single_agent_env_draws_per_game_and_records_results():
    net = LastLegal()
    pool = ScriptedPool(["net", "random"], {"net": net, "random": "random"})
    env = SingleAgentEnv(opponent=pool, seat="second", channels_first=True)
    results = []
    for game in range(6):
        obs, info = env.reset(seed=game)
        assert info["opponent"] == ("net", "random")[game % 2]
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert info["opponent"] == ("net", "random")[game % 2]
        results.append((info["opponent"], (reward + 1) / 2))
    assert pool.recorded == results
    assert set(net.batches) == {1}  # a batch of one position per move


def test_single_agent_env_records_illegal_moves_as_losses_and_not_abandoned_games():
    pool = ScriptedPool(["random"], {"random": "random"})
    env = SingleAgentEnv(opponent=pool)
    env.reset(seed=0)
    env.step(0)
    env.reset(seed=1)  # the first game was left unfinished: no result
    env.step(4)
    _, reward, done, _, info = env.step(4)  # taken: the learner loses
    assert done and info["illegal_action"] and pool.recorded == [("random", 0.0)]


def test_a_pool_can_be_set_between_games_and_replaced():
    env = SingleAgentEnv(opponent="random")
    pool = OpponentPool(["greedy"], seed=0)
    env.set_opponent(pool)
    _, info = env.reset(seed=0)
    assert info["opponent"] == "greedy"
    env.set_opponent("random")
    _, info = env.reset(seed=0)
    assert "opponent" not in info

    venv = SingleAgentVectorEnv(4, opponent="random")
    venv.reset(seed=0)
    venv.set_opponent(pool)  # games under way draw their member now
    _, _, _, _, info = venv.step(first_legal(venv.action_masks()))
    assert set(info["opponent"]) == {"greedy"}


def test_a_member_that_is_no_opponent_is_named():
    pool = ScriptedPool(["odd"], {"odd": 42})
    with pytest.raises(TypeError, match="odd"):
        SingleAgentEnv(opponent=pool).reset(seed=0)


def test_vector_env_plays_on_against_a_snapshot_that_left_the_pool(tmp_path):
    """A snapshot dropped by add_snapshot (max_snapshots) keeps its games under way; new games draw the rest."""
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"frozen")
    loaded = []

    def loader(path):
        loaded.append(path)
        return LastLegal()

    pool = OpponentPool(["random"], sampling="latest", latest_share=1.0, max_snapshots=1, seed=0,
                        snapshot_loader=loader)  # fmt: skip
    first = pool.add_snapshot(weights)
    env = SingleAgentVectorEnv(8, opponent=pool, seat="random", channels_first=True)
    obs, info = env.reset(seed=0)
    assert set(info["opponent"]) == {first}
    second = pool.add_snapshot(weights)  # the first snapshot leaves the pool while its games go on
    assert pool.snapshots == [second]
    seen = set()
    for _ in range(12):  # tic-tac-toe games end within 5 learner moves: every slot finishes one and draws anew
        obs, rewards, done, _, info = env.step(first_legal(info["action_mask"]))
        seen |= set(info["opponent"])
    assert second in seen and set(info["opponent"]) == {second}
    assert first not in env._pooled  # its last game over, the env lets it go
    assert first not in pool.results()  # its late results are not recorded against a member that left


@pytest.fixture
def margin_dots(monkeypatch):
    """Dots and boxes scored by the margin (returns such as +0.5 or -0.25) in the catalog as ``dots_margin``."""
    from conformance import cases
    from games.dots_and_boxes import DotsAndBoxesGame

    from boardgame_envs.games.catalog import GameInfo

    entry = GameInfo(name="dots_margin", summary="dots and boxes scored by the margin (a test game)",
                     factory="games.dots_and_boxes:DotsAndBoxesGame", arguments={"scoring": "margin"})  # fmt: skip
    test = cases.TemporaryGame(entry, DotsAndBoxesGame, "boardgame_envs.dots_margin_v0",
                               "boardgame_envs/dots_margin-v0", {"boardgame_envs/DotsMargin-v0": {}})  # fmt: skip
    monkeypatch.setitem(cases.TEST_ENTRIES, entry.name, test)
    with cases.in_catalog(entry.name):
        yield entry.name


def test_margin_returns_are_recorded_as_wins_draws_and_losses(margin_dots):
    """A game scored by the margin ends with returns other than +1/-1/0: the pool gets 1, 0.5 or 0 by their sign
    (it used to get (reward + 1) / 2, which the pool refused with a ValueError)."""
    signs = Counter()
    pool = OpponentPool(["random"], seed=0)
    env = SingleAgentEnv(margin_dots, opponent=pool, seat="random")
    for episode in range(30):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        signs[int(np.sign(reward))] += 1
    vec = SingleAgentVectorEnv(6, game=margin_dots, opponent=pool, seat="random")
    obs, info = vec.reset(seed=0)
    fractional = False
    for _ in range(80):
        obs, rewards, dones, _, info = vec.step(first_legal(info["action_mask"]))
        for r in rewards[dones]:
            signs[int(np.sign(r))] += 1
            fractional |= abs(r) not in (0.0, 1.0)
    assert fractional  # the margins really are not +-1
    assert sum(signs.values()) > 40 and signs[1] and signs[-1]
    assert pool.results()["random"] == (signs[1], signs[0], signs[-1])
