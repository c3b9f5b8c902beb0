"""Every cap applies before the work it bounds: nesting before the walk over a tensor file's values, the count of a
zip's entries before its directory is parsed, and an error line's quote of a file before it is printed."""

from __future__ import annotations

import io
import struct
import time
import zipfile

import pytest
import torch

from boardgame_envs.cli import main as cli_main
from boardgame_envs.safeio import FileRefusedError, excerpt, load_tensors, open_zip
from boardgame_envs.safeio.tensors import NESTING_LIMIT
from boardgame_envs.safeio.zips import CENTRAL_DIRECTORY_LIMIT, ZIP_ENTRIES_LIMIT


def torch_file_with_pickle(path, pickled: bytes) -> None:
    """A torch file (zip) whose ``data.pkl`` is ``pickled``, written by hand (torch.save would recurse)."""
    buffer = io.BytesIO()
    torch.save({"w": torch.zeros(2)}, buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, pickled if info.filename.endswith("data.pkl") else src.read(info))


def nested_lists(depth: int) -> bytes:
    """A protocol-2 pickle of ``depth`` lists, each inside the next: ``[[[...]]]``, two bytes a level."""
    return b"\x80\x02" + b"]" * depth + b"a" * (depth - 1) + b"."


def test_deep_nesting_is_refused_by_depth_in_linear_time(tmp_path):
    """400 KB of nested lists: the walk built a key string at every level, quadratic in the depth (1.6M levels ran
    past 200 s); the depth is now checked as the walk goes down, and the file is refused at level 64."""
    path = tmp_path / "deep.pt"
    torch_file_with_pickle(path, nested_lists(200_000))
    start = time.process_time()
    with pytest.raises(FileRefusedError) as info:
        load_tensors(path)
    assert time.process_time() - start < 5  # torch.load's own 0.5 s and the refusal; the old walk took 2 s more
    assert str(info.value) == f"{path}: the file nests its values more than {NESTING_LIMIT} levels deep " \
                              "(a checkpoint's go a few levels)"


def test_nesting_up_to_the_limit_reads_and_a_refused_tensor_is_named_by_its_key(tmp_path):
    value = torch.zeros(3)
    for level in range(NESTING_LIMIT - 1):
        value = {"k": value} if level % 2 else [value]
    torch.save(value, tmp_path / "ok.pt")
    assert load_tensors(tmp_path / "ok.pt") is not None
    torch.save({"net": {"layers": [torch.zeros(1).expand(64, 9)]}}, tmp_path / "zero.pt")
    with pytest.raises(FileRefusedError, match=r"^.*zero.pt: net.layers\[0\] in the file repeats one value"):
        load_tensors(tmp_path / "zero.pt")


def raw_zip(entries: int, stated: int | None = None) -> bytes:
    """A stored zip of ``entries`` empty files, its end record stating ``stated`` entries (default: the truth)."""
    local, central = [], []
    offset = 0
    for i in range(entries):
        name = b"%07d" % i
        header = struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0) + name
        central.append(struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0,
                                   offset) + name)  # fmt: skip
        local.append(header)
        offset += len(header)
    directory = b"".join(central)
    count = min(entries if stated is None else stated, 0xFFFF)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, count, count, len(directory), offset, 0)
    return b"".join(local) + directory + end


@pytest.fixture
def no_directory_parse(monkeypatch):
    """Fail the test if zipfile parses a central directory (the work the caps must come before)."""

    def parse(self):
        raise AssertionError("zipfile parsed the central directory before the caps were checked")

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", parse)


def test_a_zip_stating_more_entries_than_the_cap_is_refused_before_its_directory_is_parsed(tmp_path, no_directory_parse):
    path = tmp_path / "many.zip"
    path.write_bytes(raw_zip(ZIP_ENTRIES_LIMIT + 1))
    with pytest.raises(FileRefusedError) as info:
        open_zip(path, total_limit=1 << 30)
    assert str(info.value) == f"{path}: the zip file lists 1,001 entries, over the limit of 1,000"


def test_a_directory_longer_than_its_stated_count_is_refused_by_its_size(tmp_path, no_directory_parse):
    """zipfile reads the directory by its size, not by the count the end record states: 30,000 entries stated as 1."""
    path = tmp_path / "liar.zip"
    path.write_bytes(raw_zip(30_000, stated=1))
    with pytest.raises(FileRefusedError) as info:
        load_tensors(path)
    assert f"over the {CENTRAL_DIRECTORY_LIMIT:,}-byte limit" in str(info.value) and "\n" not in str(info.value)


def test_a_zip64_end_record_is_read_too(tmp_path, no_directory_parse):
    """A zip64 archive states its count in the zip64 end record (the classic one says 0xFFFF)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", allowZip64=True) as archive:
        archive.writestr("a", b"x")
    data = bytearray(buffer.getvalue())
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<2H", 0xFFFF, 0xFFFF)
    record = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, 3_000_000, 3_000_000, 20, 0)
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, end, 1)
    data[end:end] = record + locator  # the zip64 record where the classic one was, the locator just before it
    (tmp_path / "z64.zip").write_bytes(bytes(data))
    with pytest.raises(FileRefusedError, match="lists 3,000,000 entries"):
        open_zip(tmp_path / "z64.zip", total_limit=1 << 30)


def test_a_zip_within_the_caps_still_opens(tmp_path):
    path = tmp_path / "ok.zip"
    path.write_bytes(raw_zip(ZIP_ENTRIES_LIMIT))
    with open_zip(path, total_limit=1 << 20) as archive:
        assert len(archive.infolist()) == ZIP_ENTRIES_LIMIT and archive.filename == str(path)


def test_an_error_line_quotes_a_short_excerpt_of_a_16_mb_line(tmp_path, capsys):
    path = tmp_path / "openings.txt"
    path.write_text("# board_size: 9\n" + "e5 " + "x" * 16_000_000)
    args = ["arena", "gomoku", "random", "random", "--board-size", "9", "--games", "2", "--openings", str(path)]
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400, len(err)  # it was 16,000,107 bytes
    assert "line 2: cannot read 'xxx" in err and "(15,999,920 more characters)" in err and "write it like 'e5'" in err


def test_excerpt():
    assert excerpt("short") == "short"
    assert excerpt("y" * 100, 10) == "yyyyyyyyyy... (90 more characters)"
