"""The arena's fault tests run under a hard timeout and check that no process is left (tests/process_guards.py)."""

from __future__ import annotations

import pytest

import process_guards


@pytest.fixture
def no_process_left():
    """A hang fails the test (TimeoutError); a process started by the test and left running fails it too."""
    with process_guards.no_process_left():
        yield
