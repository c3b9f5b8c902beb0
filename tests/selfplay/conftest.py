"""Fixtures shared by the self-play tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def torch_threads():
    """torch's thread count, put back after the test (policy specs set it process-wide)."""
    import torch

    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)
