"""Every test of the conformance kit runs under its time limit (tests/conformance/limits.py): a broken game fails,
it does not hang the suite."""

from __future__ import annotations

import pytest

from conformance.limits import KIT_TIME_LIMIT_S, time_limit


@pytest.fixture(autouse=True)
def kit_time_limit(request):
    with time_limit(KIT_TIME_LIMIT_S, request.node.nodeid):
        yield
