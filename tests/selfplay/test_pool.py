"""Opponent pools: each sampling mode's statistics, the win-rate weights, the snapshot cap, save and resume."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from boardgame_envs.policies.random import RandomPolicy
from boardgame_envs.policies.registry import PolicySpecError
from boardgame_envs.selfplay import OpponentPool


def first_legal(observations, masks):
    """A batched snapshot that plays the first legal point: what the test loader gives for any file."""
    return np.asarray(masks).argmax(axis=1)


def loader(path):
    return first_legal


def snapshot_file(tmp_path, text):
    path = tmp_path / f"{text}.bin"
    path.write_text(text)
    return path


def counts(pool, draws):
    return Counter(pool.sample() for _ in range(draws))


def test_uniform_draws_each_member_equally():
    pool = OpponentPool(["random", "greedy", "greedy:epsilon=0.5", "mcts"], seed=1)
    seen = counts(pool, 8000)
    assert set(seen) == set(pool.names)
    for n in seen.values():  # 2000 expected, sd 39: 5 sd either side
        assert 1800 < n < 2200


def test_latest_plays_the_newest_snapshot_for_its_share(tmp_path):
    pool = OpponentPool(["random", "greedy"], sampling="latest", latest_share=0.6, seed=2, snapshot_loader=loader)
    assert np.allclose(pool.weights(), [0.5, 0.5])  # no snapshot yet: uniform
    old = pool.add_snapshot(snapshot_file(tmp_path, "a"))
    new = pool.add_snapshot(snapshot_file(tmp_path, "b"))
    assert (old, new) == ("snapshot-1", "snapshot-2")
    assert np.allclose(pool.weights(), [0.1, 0.1, 0.1, 0.7])
    seen = counts(pool, 10000)
    assert 6800 < seen[new] < 7200 and 850 < seen[old] < 1150


def test_pfsp_prefers_the_members_the_learner_loses_to():
    pool = OpponentPool(["random", "greedy", "perfect"], sampling="pfsp", pfsp_power=2, pfsp_floor=0.05, seed=3)
    assert np.allclose(pool.weights(), 1 / 3)  # unplayed: each counts as a draw
    for _ in range(9):
        pool.record("random", 1)
        pool.record("perfect", 0)
    pool.record("greedy", 0.5)
    # score rates with one virtual draw: random 9.5/10, greedy 1/2, perfect 0.5/10
    raw = np.array([max(0.05, 0.05**2), 0.5**2, 0.95**2])
    assert np.allclose(pool.weights(), raw / raw.sum())
    assert pool.results() == {"random": (9, 0, 0), "greedy": (0, 1, 0), "perfect": (0, 0, 9)}
    seen = counts(pool, 6000)
    expected = 6000 * raw / raw.sum()
    for name, e in zip(pool.names, expected):
        assert abs(seen[name] - e) < 5 * np.sqrt(e) + 1


def test_record_checks_the_score_and_forgets_dropped_members():
    pool = OpponentPool(["random"])
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        pool.record("random", -1)
    pool.record("gone", 1)  # a member dropped while its game was played: nothing to count
    assert pool.results() == {"random": (0, 0, 0)}


def test_snapshots_beyond_the_cap_drop_the_oldest(tmp_path):
    pool = OpponentPool(["random"], max_snapshots=2, snapshot_loader=loader)
    names = [pool.add_snapshot(snapshot_file(tmp_path, t)) for t in "abc"]
    assert pool.snapshots == names[1:] and pool.names == ["random", *names[1:]]
    assert len(list(pool.folder.iterdir())) == 2  # the dropped snapshot's file went with it
    assert pool.opponent(names[-1]) is first_legal


def test_a_snapshot_file_is_frozen_when_added(tmp_path):
    seen = []
    pool = OpponentPool(["random"], snapshot_loader=lambda path: seen.append(open(path).read()) or first_legal)
    path = snapshot_file(tmp_path, "v1")
    name = pool.add_snapshot(path)
    path.write_text("v2")  # the learner saves over the same file later
    pool.opponent(name)
    assert seen == ["v1"]


def test_mistakes_are_refused():
    with pytest.raises(PolicySpecError):
        OpponentPool(["randomm"])
    with pytest.raises(ValueError, match="sampling"):
        OpponentPool(["random"], sampling="elo")
    with pytest.raises(ValueError, match="latest_share"):
        OpponentPool(["random"], latest_share=1.5)
    with pytest.raises(ValueError, match="at least one member"):
        OpponentPool([])
    pool = OpponentPool(["random"])
    with pytest.raises(ValueError, match="already has a member"):
        pool.add("random")
    with pytest.raises(FileNotFoundError):
        pool.add_snapshot("/nonexistent/model.zip")
    with pytest.raises(KeyError, match="no member"):
        pool.opponent("greedy")


def test_save_and_load_resume_the_same_draws(tmp_path):
    policy = RandomPolicy(seed=0)
    policy.name = "my-random"
    pool = OpponentPool(["random", ("greedy", {"epsilon": 0.3}), policy], sampling="pfsp", seed=7,
                        max_snapshots=3, snapshot_loader=loader)  # fmt: skip
    for t in "abcd":
        pool.add_snapshot(snapshot_file(tmp_path, t))
    for _ in range(50):
        name = pool.sample()
        pool.record(name, float(name.startswith("snapshot")))
    pool.save(tmp_path / "run")
    ahead = [pool.sample() for _ in range(40)]

    with pytest.raises(ValueError, match="my-random"):
        OpponentPool.load(tmp_path / "run", snapshot_loader=loader)
    back = OpponentPool.load(tmp_path / "run", snapshot_loader=loader, policies={"my-random": policy})
    assert back.names == ["random", "greedy:epsilon=0.3", "my-random", "snapshot-2", "snapshot-3", "snapshot-4"]
    assert back.opponent("greedy:epsilon=0.3") == ("greedy", {"epsilon": 0.3})
    assert back.opponent("my-random") is policy
    assert back.results() == {k: v for k, v in pool.results().items()}
    assert [back.sample() for _ in range(40)] == ahead
    assert back.add_snapshot(snapshot_file(tmp_path, "e")) == "snapshot-5"  # numbering goes on
    assert back.snapshots == ["snapshot-3", "snapshot-4", "snapshot-5"]
    assert sorted(p.name for p in (tmp_path / "run" / "snapshots").iterdir()) == [
        "0002-snapshot-2.bin", "0003-snapshot-3.bin", "0004-snapshot-4.bin"]  # fmt: skip
    back.save(tmp_path / "run")  # saving again over the folder drops the files of snapshots dropped since
    assert len(list((tmp_path / "run" / "snapshots").iterdir())) == 3
    assert json.loads((tmp_path / "run" / "pool.json").read_text())["snapshots_added"] == 5


def test_load_refuses_what_is_not_a_pool(tmp_path):
    with pytest.raises(FileNotFoundError, match="pool.json"):
        OpponentPool.load(tmp_path)
    (tmp_path / "pool.json").write_text("{}")
    with pytest.raises(ValueError, match="not an opponent pool"):
        OpponentPool.load(tmp_path)


def test_a_pool_travels_to_another_process_with_its_snapshots(tmp_path):
    """SubprocVecEnv and Ray pickle the env's arguments: the copy has its own folder and the snapshots' bytes."""
    import pickle

    pool = OpponentPool(["random"], seed=5, snapshot_loader=loader)
    pool.add_snapshot(snapshot_file(tmp_path, "a"))
    pool.record("random", 1)
    copy = pickle.loads(pickle.dumps(pool))
    assert copy.folder != pool.folder and copy.names == pool.names and copy.results() == pool.results()
    assert open(copy._member("snapshot-1").source).read() == "a"
    assert [copy.sample() for _ in range(20)] == [pool.sample() for _ in range(20)]
    copy.record("random", 0)  # each process counts its own games
    assert pool.results()["random"] == (1, 0, 0)
