"""The Gomocup package's layout: the old module paths still import, with a DeprecationWarning."""

from __future__ import annotations

import importlib
import sys

import pytest

import boardgame_envs.gomocup as gomocup

OLD = {
    "boardgame_envs.pbrain": ("serve", "write_launcher", "Brain", "move_time"),
    "boardgame_envs.policies.gomocup": ("GomocupEngine", "EngineError", "EngineFault"),
    "boardgame_envs.policies.gomocup_protocol": ("legal_order", "parse_point", "ProtocolError"),
    "boardgame_envs.policies.engine_process": ("EngineProcess", "EngineTimeout"),
}


@pytest.mark.parametrize("old", sorted(OLD))
def test_old_paths_warn_and_re_export_the_same_objects(old, monkeypatch):
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match="boardgame_envs.gomocup"):
        module = importlib.import_module(old)
    for name in OLD[old]:
        new = gomocup if name in gomocup.__all__ else module._target
        assert getattr(module, name) is getattr(new, name)


def test_policies_name_the_engine_lazily():
    from boardgame_envs import policies

    assert policies.GomocupEngine is gomocup.GomocupEngine
    with pytest.raises(AttributeError):
        policies.NoSuchPolicy  # noqa: B018
