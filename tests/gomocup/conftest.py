"""Every test here that starts an engine leaves no process of it behind (helpers it started included)."""

from __future__ import annotations

import os
import time

import pytest

from boardgame_envs.gomocup import reaper


def _members(groups: set[int]) -> list[int]:
    """Processes (not zombies) whose process group is one of ``groups``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) in groups:
            found.append(int(entry))
    return found


@pytest.fixture(autouse=True)
def no_engine_left(monkeypatch):
    started: set[int] = set()
    track = reaper.track

    def recording(process, group):
        started.add(group)
        track(process, group)

    monkeypatch.setattr(reaper, "track", recording)
    yield
    if not os.path.isdir("/proc"):
        return
    held = {p.pid for p in list(reaper._LIVE) if p.alive}  # engines a longer-lived fixture still uses
    deadline = time.monotonic() + 10
    while (left := _members(started - held)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes left by engines this test started: {left}"
