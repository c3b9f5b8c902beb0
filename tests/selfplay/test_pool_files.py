"""A saved pool's folder as a stranger may hand it over: its files stay inside it, its damage is one line naming it."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch

from boardgame_envs.safeio import FileRefusedError
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.selfplay.boardnet import BoardNet, load_net, save_net
from marker_pickles import payloads


def first_legal(observations, masks):
    return np.asarray(masks).argmax(axis=1)


def loader(path):
    with open(path, "rb") as f:  # a loader that reads its file, so a file outside would be read
        f.read()
    return first_legal


def net_loader(path):
    return load_net(path)[0]


def saved_pool(tmp_path, snapshots=("a",)):
    pool = OpponentPool(["random", "greedy"], seed=3, snapshot_loader=loader)
    for text in snapshots:
        path = tmp_path / f"{text}.bin"
        path.write_text(text)
        pool.add_snapshot(path)
    folder = tmp_path / "run" / "pool"
    pool.save(folder)
    return folder


def edit(folder, change):
    state = json.loads((folder / "pool.json").read_text())
    change(state)
    (folder / "pool.json").write_text(json.dumps(state))


def one_line(exc, starts):
    message = str(exc.value)
    assert "\n" not in message and message.startswith(str(starts)), message


@pytest.mark.parametrize("name", ["../../../outside.bin", "../pool.json", "/etc/hostname", "", ".", 5])
def test_a_member_file_outside_the_snapshot_folder_is_refused(tmp_path, name):
    folder = saved_pool(tmp_path)
    (tmp_path / "outside.bin").write_text("not yours")
    edit(folder, lambda s: s["members"][-1].update(file=name))
    with pytest.raises(FileRefusedError, match="snapshot file") as exc:
        OpponentPool.load(folder, snapshot_loader=loader)
    one_line(exc, folder / "snapshots")


def test_a_symlink_out_of_the_snapshot_folder_is_refused(tmp_path):
    folder = saved_pool(tmp_path)
    (tmp_path / "outside.bin").write_text("not yours")
    file = json.loads((folder / "pool.json").read_text())["members"][-1]["file"]
    (folder / "snapshots" / file).unlink()
    os.symlink(tmp_path / "outside.bin", folder / "snapshots" / file)
    with pytest.raises(FileRefusedError, match="points outside the folder"):
        OpponentPool.load(folder, snapshot_loader=loader)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda s: s.pop("sampling"), "no 'sampling'"),
        (lambda s: s.pop("members"), "no 'members'"),
        (lambda s: s.update(sampling="best"), "unknown sampling 'best'"),
        (lambda s: s.update(max_snapshots="3"), "max_snapshots must be a positive integer"),
        (lambda s: s.update(members=[]), "members must be a non-empty list"),
        (lambda s: s["members"][0].update(results=[1, 2]), "results must be three counts"),
        (lambda s: s["members"][0].update(kind="evil"), "unknown member kind 'evil'"),
        (lambda s: s.update(rng={"bit_generator": "PCG64", "state": 5}), "generator state 'rng' is not one"),
        (lambda s: s["members"][0].update(spec="pbrain:/bin/true"), "starts an engine"),
    ],
)
def test_a_damaged_pool_json_is_one_line_naming_it(tmp_path, damage, message):
    folder = saved_pool(tmp_path)
    edit(folder, damage)
    with pytest.raises(FileRefusedError, match=message) as exc:
        OpponentPool.load(folder, snapshot_loader=loader)
    one_line(exc, folder / "pool.json")


@pytest.mark.parametrize(
    ("content", "message"),
    [(lambda text: text[: len(text) // 2], "not JSON"), (lambda text: "\xff\xfe" + text, "not UTF-8")],
)
def test_a_cut_or_binary_pool_json_is_one_line_naming_it(tmp_path, content, message):
    folder = saved_pool(tmp_path)
    text = (folder / "pool.json").read_text()
    (folder / "pool.json").write_bytes(content(text).encode("latin-1"))
    with pytest.raises(FileRefusedError, match=message) as exc:
        OpponentPool.load(folder, snapshot_loader=loader)
    one_line(exc, folder / "pool.json")


def test_a_pool_json_linked_to_an_endless_file_is_refused_at_its_limit(tmp_path):
    folder = saved_pool(tmp_path)
    (folder / "pool.json").unlink()
    os.symlink("/dev/zero", folder / "pool.json")
    with pytest.raises(FileRefusedError, match="a character device, not a regular file"):
        OpponentPool.load(folder, snapshot_loader=loader)


def test_a_cut_snapshot_is_refused_when_the_pool_is_loaded_naming_its_file(tmp_path):
    """BoardNet snapshots (the PPO recipe's) go through load_net, weights_only; a cut one is refused at load,
    not in the middle of a game."""
    pool = OpponentPool(["random"], seed=0, snapshot_loader=net_loader)
    save_net(BoardNet(3, 4, 2), tmp_path / "net.pt")
    pool.add_snapshot(tmp_path / "net.pt")
    folder = tmp_path / "pool"
    pool.save(folder)
    back = OpponentPool.load(folder, snapshot_loader=net_loader)
    assert isinstance(back.opponent("snapshot-1"), BoardNet)
    file = folder / "snapshots" / "0001-snapshot-1.pt"
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 2])
    with pytest.raises(FileRefusedError, match="snapshot 'snapshot-1' cannot be loaded") as exc:
        OpponentPool.load(folder, snapshot_loader=net_loader)
    one_line(exc, file)


def test_a_pickle_planted_as_a_snapshot_never_runs(tmp_path):
    pool = OpponentPool(["random"], seed=0, snapshot_loader=net_loader)
    save_net(BoardNet(3, 4, 2), tmp_path / "net.pt")
    pool.add_snapshot(tmp_path / "net.pt")
    folder = tmp_path / "pool"
    pool.save(folder)
    marker = tmp_path / "marker"
    for payload in payloads(marker):
        torch.save({"shape": (3, 4, 2), "weights": payload}, folder / "snapshots" / "0001-snapshot-1.pt")
        with pytest.raises(FileRefusedError):
            OpponentPool.load(folder, snapshot_loader=net_loader)
        assert not marker.exists()


def test_saving_writes_each_file_whole_and_a_full_disk_keeps_the_last_pool(tmp_path, monkeypatch):
    folder = saved_pool(tmp_path, snapshots=("a", "b"))
    before = {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    pool = OpponentPool.load(folder, snapshot_loader=loader)
    pool.record("random", 1)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="no room on the disk at") as exc:
        pool.save(folder)
    assert exc.value.errno == 28
    assert {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before  # no temporary left either


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("level:renju/15", "member 'random' is level renju/15, which plays an external engine (engine:rapfi:"),
        ("engine:rapfi", "member 'random' starts an engine ('engine:rapfi')"),
        ("pbrain:/bin/true", "starts an engine"),
        ("boardnet:/abs/x.pt", "member 'random' names a file outside the pool ('boardnet:/abs/x.pt')"),
        ("/abs/x.pt", "names a file outside the pool ('/abs/x.pt')"),
        ("../x.pt", "names a file outside the pool"),
        ("checkpoint:runs/g9/latest.pt", "names a file outside the pool"),
        ("sb3:/abs/model.zip", "names a file outside the pool"),
        (["boardnet", {"target": "/abs/x.pt"}], "names a file outside the pool"),
        (["level", {"target": "renju/15"}], "which plays an external engine"),
    ],
)
def test_a_member_spec_that_starts_a_program_or_names_a_file_elsewhere_is_refused_at_load(tmp_path, spec, message,
                                                                                          monkeypatch):  # fmt: skip
    """level:renju/15 passed the load and, played, started the engine BOARDGAME_ENVS_RAPFI names; boardnet:/abs/x.pt
    read a file outside the pool (the snapshots/ containment bypassed by a spec)."""
    started = tmp_path / "started"
    engine = tmp_path / "pbrain-fake"
    engine.write_text(f"#!/bin/sh\ntouch {started}\n")
    engine.chmod(0o755)
    monkeypatch.setenv("BOARDGAME_ENVS_RAPFI", str(engine))
    folder = saved_pool(tmp_path)
    edit(folder, lambda s: s["members"][0].update(spec=spec))
    with pytest.raises(FileRefusedError) as exc:
        OpponentPool.load(folder, snapshot_loader=loader)
    one_line(exc, folder / "pool.json")
    assert message in str(exc.value) and "add it again after loading" in str(exc.value)
    assert not started.exists()


@pytest.mark.parametrize("spec", ["random", "greedy:epsilon=0.5", "mcts:simulations=20", "level:connect_four/3",
                                  "level:renju/5", "pretrained:ppo-connect-four", ["alphabeta", {"depth": 2}]])  # fmt: skip
def test_built_in_players_and_built_in_levels_load(tmp_path, spec):
    folder = saved_pool(tmp_path)
    edit(folder, lambda s: s["members"][0].update(spec=spec))
    pool = OpponentPool.load(folder, snapshot_loader=loader)
    assert pool.opponent(pool.names[0]) == (tuple(spec) if isinstance(spec, list) else spec)


def test_an_engine_level_in_a_connect_four_pool_is_refused_at_load_with_its_true_reason(tmp_path):
    """Loaded, it failed in the first game: ValueError: Gomocup engines play five in a row."""
    pool = OpponentPool(["random", "level:connect_four/2"], seed=0)
    folder = tmp_path / "pool"
    pool.save(folder)
    edit(folder, lambda s: s["members"][1].update(spec="level:renju/15", name="level:renju/15"))
    with pytest.raises(FileRefusedError) as exc:
        OpponentPool.load(folder)
    assert str(exc.value) == (f"{folder / 'pool.json'}: member 'level:renju/15' is level renju/15, which plays an "
                              "external engine (engine:rapfi:nodes=2000,threads=1); a saved pool may not; add it again "
                              "after loading")  # fmt: skip


@pytest.mark.parametrize("rng", [
    {"bit_generator": "PCG64", "state": {"state": 2**200, "inc": 1}, "has_uint32": 0, "uinteger": 0},
    {"bit_generator": "PCG64", "state": {"state": -1, "inc": 1}, "has_uint32": 0, "uinteger": 0},
    {"bit_generator": "MT19937", "state": {"key": [1], "pos": 0}},
    {"bit_generator": "PCG64", "state": {"state": 1, "inc": 1}, "has_uint32": 2**70, "uinteger": 0},
    "garbage",
])  # fmt: skip
def test_a_garbage_generator_state_is_one_line(tmp_path, rng):
    """A state past 64-bit fields raised OverflowError, a traceback."""
    folder = saved_pool(tmp_path)
    edit(folder, lambda s: s.update(rng=rng))
    with pytest.raises(FileRefusedError) as exc:
        OpponentPool.load(folder, snapshot_loader=loader)
    one_line(exc, folder / "pool.json")
    assert "generator state 'rng'" in str(exc.value)


def test_a_snapshot_that_is_a_fifo_is_refused_not_waited_on(tmp_path):
    folder = saved_pool(tmp_path)
    snapshot = next((folder / "snapshots").iterdir())
    snapshot.unlink()
    os.mkfifo(snapshot)
    with pytest.raises(FileRefusedError, match=r"a named pipe \(FIFO\), not a regular file"):
        OpponentPool.load(folder, snapshot_loader=loader)
