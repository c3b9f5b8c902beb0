"""Helpers for the engine tests: fake engines behind launcher scripts, and the check that no process is left."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from boardgame_envs import gomoku_v0

FAKE = str(Path(__file__).resolve().parent / "fake_pbrain.py")


def launcher(folder: Path, mode: str, *args: str, helper: bool = False, escape: bool = False) -> str:
    """A launcher script for the fake brain in ``mode``; every process it starts records its pid in ``folder/pids``.

    With ``helper``, the script first starts ``sleep 300 &``, which keeps the engine's pipes open.
    With ``escape``, it starts ``setsid sleep 300`` (its pipes closed), which leaves the engine's
    session and process group: ending the group does not reach it.
    """
    pids = folder / "pids"
    pids.mkdir(exist_ok=True)
    script = folder / f"pbrain-{mode}"
    lines = ["#!/bin/sh"]
    if helper:
        lines += ["sleep 300 &", f'touch "{pids}/$!"']
    if escape:  # setsid forks when it leads its group; the pid recorded is the sleep's own
        lines += [f'setsid sh -c \'touch "{pids}/$$"; exec sleep 300\' </dev/null >/dev/null 2>&1 &']
    lines.append(f'FAKE_PBRAIN_PIDS="{pids}" exec "{sys.executable}" "{FAKE}" {mode} {" ".join(args)}')
    script.write_text("\n".join(lines) + "\n")
    script.chmod(0o755)
    return str(script)


def recorded(folder: Path) -> list[int]:
    """The pids the fake engines under ``folder`` recorded."""
    pids = folder / "pids"
    return [int(p.name) for p in pids.iterdir()] if pids.is_dir() else []


def gone(pid: int, wait_s: float = 10.0) -> bool:
    """Whether process ``pid`` has ended within ``wait_s`` (a zombie awaiting its parent counts as ended)."""
    deadline = time.time() + wait_s
    while time.time() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except (OSError, IndexError):
            pass
        time.sleep(0.05)
    return False


def none_left(folder: Path, wait_s: float = 10.0) -> bool:
    """Whether every process the fakes under ``folder`` recorded has ended."""
    return all(gone(pid, wait_s) for pid in recorded(folder))


def after_one_move(rule: str = "freestyle"):
    env = gomoku_v0.raw_env(board_size=9, rule=rule)
    env.reset()
    env.step(40)
    return env
