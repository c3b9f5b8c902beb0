"""docs/trust.md states the caps the code holds: each number on the page is the constant's value."""

from __future__ import annotations

from pathlib import Path

from boardgame_envs import safeio
from boardgame_envs.safeio import tensors, zips
from boardgame_envs.alphazero import checkpoint
from boardgame_envs.arena import lock, records
from boardgame_envs.selfplay import boardnet, sb3_file

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "trust.md").read_text()


def row(where: str) -> str:
    lines = [line for line in PAGE.splitlines() if line.startswith("|") and f"`{where}`" in line]
    assert len(lines) == 1, where
    return lines[0]


def test_every_cap_on_the_page_is_the_codes():
    caps = {
        "safeio.TEXT_LIMIT": (safeio.TEXT_LIMIT, "16,777,216 bytes"),
        "safeio.TENSOR_FILE_LIMIT": (safeio.TENSOR_FILE_LIMIT, "2 GiB"),
        "safeio.TENSOR_BYTES_LIMIT": (safeio.TENSOR_BYTES_LIMIT, "2 GiB"),
        "safeio.ZIP_ENTRIES_LIMIT": (safeio.ZIP_ENTRIES_LIMIT, "1,000"),
        "safeio.PICKLE_LIMIT": (safeio.PICKLE_LIMIT, "64 KiB"),
        "selfplay.sb3_file.ZIP_LIMIT": (sb3_file.ZIP_LIMIT, "1 GiB"),
        "selfplay.sb3_file.POLICY_LIMIT": (sb3_file.POLICY_LIMIT, "256 MiB"),
        "selfplay.sb3_file.PARAMETERS_LIMIT": (sb3_file.PARAMETERS_LIMIT, "25,000,000 parameters"),
        "selfplay.boardnet.PARAMETERS_LIMIT": (boardnet.PARAMETERS_LIMIT, "25,000,000 parameters"),
        "selfplay.boardnet.CELLS_LIMIT": (boardnet.CELLS_LIMIT, "4,096 cells"),
        "selfplay.boardnet.ACTIONS_LIMIT": (boardnet.ACTIONS_LIMIT, "65,536 actions"),
        "alphazero.checkpoint.NETWORK_PARAMETERS_LIMIT": (checkpoint.NETWORK_PARAMETERS_LIMIT, "100,000,000 parameters"),
        "arena.records.MAX_SGF_BYTES": (records.MAX_SGF_BYTES, "1,000,000 bytes"),
        "safeio.zips.CENTRAL_DIRECTORY_LIMIT": (zips.CENTRAL_DIRECTORY_LIMIT, "1,024,000 bytes"),
        "safeio.tensors.NESTING_LIMIT": (tensors.NESTING_LIMIT, "64 levels"),
        "safeio.EXCERPT_CHARS": (safeio.EXCERPT_CHARS, "80 characters"),
        "arena.lock.PID_BYTES": (lock.PID_BYTES, "32 bytes"),
    }
    units = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "bytes": 1, "parameters": 1, "levels": 1, "characters": 1}
    for where, (value, shown) in caps.items():
        assert shown in row(where), where
        number, unit = shown.rsplit(" ", 1) if " " in shown else (shown, "")
        assert int(number.replace(",", "")) * units.get(unit, 1) == value, where


def test_the_page_names_every_allowed_class():
    for table in (sb3_file.POLICY_CLASSES, sb3_file.ACTIVATIONS, sb3_file.EXTRACTORS, sb3_file.OPTIMIZERS):
        for _, name in table:
            assert f"`{name}`" in PAGE, name
    assert "65,536" in PAGE and sb3_file.WIDTH_LIMIT == 65_536 and "at most 64 layers" in PAGE and sb3_file.LAYERS_LIMIT == 64


def test_the_page_names_what_a_saved_pool_may_hold():
    from boardgame_envs.selfplay.pool_specs import NAMES_A_FILE, SAVED_KINDS, STARTS_A_PROCESS

    for kind in SAVED_KINDS + NAMES_A_FILE + STARTS_A_PROCESS:
        assert f"`{kind}" in PAGE, kind
    assert "`level:renju/15`" in PAGE and "not a regular file" in PAGE
