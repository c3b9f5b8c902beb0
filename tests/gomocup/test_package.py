"""The Gomocup package's layout: policies name the engine lazily (old module paths: tests/test_compat.py)."""

from __future__ import annotations

import pytest

import boardgame_envs.gomocup as gomocup


def test_policies_name_the_engine_lazily():
    from boardgame_envs import policies

    assert policies.GomocupEngine is gomocup.GomocupEngine
    with pytest.raises(AttributeError):
        policies.NoSuchPolicy  # noqa: B018
