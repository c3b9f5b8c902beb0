"""BoardNet files from strangers: tensors only, shapes checked and capped before the network is built."""

from __future__ import annotations

import time

import pytest
import torch
from marker_pickles import payloads, proof_that_it_would_run

from boardgame_envs.safeio import FileRefusedError
from boardgame_envs.selfplay import boardnet
from boardgame_envs.selfplay.boardnet import BoardNet, load_net, save_net


def refused(path, *words) -> str:
    start = time.perf_counter()
    with pytest.raises(FileRefusedError) as info:
        load_net(path)
    assert time.perf_counter() - start < 1.0
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: "), text
    for word in words:
        assert word in text, text
    return text


def test_a_saved_net_reads_back(tmp_path):
    net = BoardNet(3, 4, 2)
    save_net(net, tmp_path / "n.pt")
    loaded, game = load_net(tmp_path / "n.pt")
    assert game is None and all(torch.equal(a, b) for a, b in zip(loaded.state_dict().values(), net.state_dict().values()))
    assert boardnet.parameter_count(3, 4, 2) == sum(p.numel() for p in net.parameters())


def test_a_marker_pickle_anywhere_in_the_file_never_runs(tmp_path):
    marker = tmp_path / "marker"
    proof_that_it_would_run(marker)
    net = BoardNet(2, 3, 1)
    for payload in payloads(marker):
        for place in ("top", "weights", "game"):
            data = {"shape": net.shape, "weights": dict(net.state_dict()), "game": None}
            if place == "top":
                data["extra"] = payload
            elif place == "weights":
                data["weights"]["extra"] = payload
            else:
                data["game"] = {"name": payload}
            torch.save(data, tmp_path / "planted.pt")
            refused(tmp_path / "planted.pt", "could run code")
            assert not marker.exists()


def test_a_small_file_stating_a_huge_network_is_refused_before_it_is_built(tmp_path, monkeypatch):
    # 1.2 KB stating 64 planes, 1,024 channels, 64 layers: 2.4 GB of weights when built, as it was before the check
    path = tmp_path / "huge.pt"
    torch.save({"shape": (64, 1024, 64), "weights": {"body.0.weight": torch.zeros(1)}}, path)
    assert path.stat().st_size < 2_000

    def never(*args, **kwargs):
        raise AssertionError("a network was built")

    monkeypatch.setattr(boardnet.BoardNet, "__init__", never)
    refused(path, "a network of 595,330,178 parameters", "over the limit of 25,000,000")


def test_weights_that_do_not_fit_the_stated_shape_are_refused_before_building(tmp_path):
    small = BoardNet(2, 3, 1)
    path = tmp_path / "misfit.pt"
    torch.save({"shape": (2, 64, 8), "weights": small.state_dict()}, path)
    refused(path, "its weights do not fit the shape it states: size mismatch for body.0.weight", "[3, 2, 3, 3]", "[64, 2, 3, 3]")
    torch.save({"shape": (2, 3, 1), "weights": {**small.state_dict(), "policy.weight": torch.zeros(1).expand(1, 3, 1, 1)}}, path)
    refused(path, "zero stride")


@pytest.mark.parametrize(("shape", "words"), [
    ((2, 3), "not (planes, channels, layers)"), ((0, 3, 1), "planes=0, expected 1..64"),
    ((2, True, 1), "channels=True"), ((2, 3, 65), "layers=65"), ("abc", "not (planes"),
])  # fmt: skip
def test_bad_stated_shapes_are_one_line(tmp_path, shape, words):
    torch.save({"shape": shape, "weights": {}}, tmp_path / "s.pt")
    refused(tmp_path / "s.pt", words)


def test_damaged_files_and_unknown_games_are_one_line(tmp_path):
    net = BoardNet(2, 3, 1)
    save_net(net, tmp_path / "good.pt")
    data = (tmp_path / "good.pt").read_bytes()
    (tmp_path / "cut.pt").write_bytes(data[: len(data) // 2])
    refused(tmp_path / "cut.pt", "not a torch file")
    from boardgame_envs.alphazero.checkpoint import game_from_dict

    with pytest.raises(ValueError):
        game_from_dict({"name": "chess"})  # the catalog's first look-up imports the games: not the file's cost
    torch.save({"shape": net.shape, "weights": net.state_dict(), "game": {"name": "chess"}}, tmp_path / "g.pt")
    refused(tmp_path / "g.pt", "names no game this package knows")
