"""load_tensors: tensors and plain values only, no code run, no memory past what the file holds."""

from __future__ import annotations

import io
import time
import tracemalloc
import zipfile

import pytest
import torch
from marker_pickles import payloads, proof_that_it_would_run

from boardgame_envs.safeio import FileRefusedError, load_tensors


def refused(path, **kwargs) -> str:
    start = time.perf_counter()
    with pytest.raises(FileRefusedError) as info:
        load_tensors(path, **kwargs)
    assert time.perf_counter() - start < 1.0
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"{path}: ") and "weights_only" not in text, text
    return text


def test_tensors_and_plain_values_read_back(tmp_path):
    saved = {"net": {"w": torch.randn(3, 4), "b": torch.zeros(4)}, "steps": 7, "rng": [1, 2.5, "x", None],
             "shape": (2, 8, 3), "views": [torch.arange(10)[2:5]]}  # fmt: skip
    torch.save(saved, tmp_path / "ok.pt")
    loaded = load_tensors(tmp_path / "ok.pt")
    assert torch.equal(loaded["net"]["w"], saved["net"]["w"]) and loaded["steps"] == 7 and loaded["shape"] == (2, 8, 3)
    assert loaded["views"][0].tolist() == [2, 3, 4]


@pytest.mark.parametrize("where", ["top", "nested", "list"])
def test_a_marker_pickle_anywhere_in_the_dict_never_runs(tmp_path, where):
    marker = tmp_path / "marker"
    proof_that_it_would_run(marker)
    for payload in payloads(marker):
        data = {"net": {"w": torch.zeros(2)}, "steps": 1}
        if where == "top":
            data["extra"] = payload
        elif where == "nested":
            data["net"]["extra"] = {"deep": payload}
        else:
            data["rng"] = [1, 2, (3, payload)]
        torch.save(data, tmp_path / "planted.pt")
        assert "could run code from the file" in refused(tmp_path / "planted.pt", what="checkpoint")
        assert not marker.exists()


def test_a_zero_stride_tensor_is_refused(tmp_path):
    # 4 bytes of storage that state 64 x 1024 x 3 x 3 values: a network copying them in is 2.4 MB per tensor
    torch.save({"w": torch.zeros(1).expand(64, 1024, 3, 3)}, tmp_path / "zero.pt")
    assert (tmp_path / "zero.pt").stat().st_size < 2_000
    assert "w in the file repeats one value over its shape [64, 1024, 3, 3] (a zero stride)" in refused(tmp_path / "zero.pt")


def test_overlapping_strides_stating_more_values_than_the_storage_holds_are_refused(tmp_path):
    # strides (1, 1): a million values over 1,999 stored ones, with no zero stride to catch
    torch.save({"w": torch.zeros(2000).as_strided((1000, 1000), (1, 1))}, tmp_path / "overlap.pt")
    assert "has shape [1000, 1000], which needs 4,000,000 bytes, but its storage holds 8,000" in refused(tmp_path / "overlap.pt")


def test_the_shapes_total_is_capped(tmp_path):
    torch.save({"a": torch.zeros(300), "b": torch.zeros(300)}, tmp_path / "two.pt")
    assert load_tensors(tmp_path / "two.pt", bytes_limit=2400)["a"].shape == (300,)
    assert "tensors span over 2,000 bytes" in refused(tmp_path / "two.pt", bytes_limit=2000)


def test_the_file_size_is_capped_before_reading(tmp_path):
    torch.save({"a": torch.zeros(1000)}, tmp_path / "a.pt")
    assert "over the 1,000-byte limit" in refused(tmp_path / "a.pt", limit=1000)


def test_a_zip_bomb_is_refused_by_its_declared_sizes_before_inflating(tmp_path):
    good = io.BytesIO()
    torch.save({"a": torch.zeros(4)}, good)
    bomb = tmp_path / "bomb.pt"
    with zipfile.ZipFile(io.BytesIO(good.getvalue())) as src, zipfile.ZipFile(bomb, "w") as out:
        for info in src.infolist():
            out.writestr(info.filename, src.read(info))
        out.writestr("archive/data/huge", b"\0" * 50_000_000, compress_type=zipfile.ZIP_DEFLATED)
    assert bomb.stat().st_size < 1_000_000
    tracemalloc.start()
    text = refused(bomb, limit=10_000_000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "entries unpack to 50,00" in text and peak < 20_000_000


def test_a_sparse_tensor_is_refused(tmp_path):
    torch.save({"s": torch.zeros(3, 3).to_sparse()}, tmp_path / "sparse.pt")
    assert "only dense tensors are read" in refused(tmp_path / "sparse.pt")


@pytest.mark.parametrize(("content", "words"), [
    (b"", "it is empty"),
    (b"hello, not a tensor file\n", "damaged, cut short, or another kind of file"),
    (b"\x80\x02\x8a\x0alegacy", "legacy format"),
])  # fmt: skip
def test_damaged_files_are_described_in_words(tmp_path, content, words):
    (tmp_path / "bad.pt").write_bytes(content)
    assert words in refused(tmp_path / "bad.pt")


def test_a_truncated_file_is_one_line(tmp_path):
    torch.save({"x": torch.zeros(1000)}, tmp_path / "good.pt")
    data = (tmp_path / "good.pt").read_bytes()
    for cut in (len(data) // 2, len(data) - 30):
        (tmp_path / "cut.pt").write_bytes(data[:cut])
        text = refused(tmp_path / "cut.pt")
        assert "Error" not in text and "Errno" not in text


def test_dev_zero_and_a_missing_file(tmp_path):
    assert "not a regular file" in refused("/dev/zero")
    with pytest.raises(FileNotFoundError):
        load_tensors(tmp_path / "missing.pt")


def test_an_empty_tensor_with_a_zero_stride_reads_back(tmp_path):
    # an empty replay buffer (0 positions) can carry a zero stride; it states no values, so it repeats nothing
    empty = torch.zeros(1, 5, 5, 4).expand(0, 5, 5, 4)
    assert 0 in empty.stride()
    torch.save({"planes": empty}, tmp_path / "empty.pt")
    assert load_tensors(tmp_path / "empty.pt")["planes"].shape == (0, 5, 5, 4)
