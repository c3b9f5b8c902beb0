"""Named engines: ``--engine NAME=PATH`` / ``BOARDGAME_ENVS_NAME``, the ``engine:NAME`` spec, the node-budget check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from boardgame_envs.gomocup import engines
from boardgame_envs.gomocup.engines import (
    BUDGET_TURN_MS, EngineNotConfigured, NodeBudgetError, check_node_budget, configure, configure_from, configured,
    engine_path,
)  # fmt: skip
from boardgame_envs.policies.registry import make_policy

sys.path.insert(0, str(Path(__file__).parent))
from gomocup_helpers import launcher  # noqa: E402  (the shared fake engines)


@pytest.fixture(autouse=True)
def no_fake_configured(monkeypatch):
    monkeypatch.delenv("BOARDGAME_ENVS_FAKE", raising=False)


def test_an_engine_not_configured_is_one_line_naming_the_variable(monkeypatch):
    assert not configured("fake")
    with pytest.raises(EngineNotConfigured, match="--engine fake=PATH or set BOARDGAME_ENVS_FAKE") as err:
        engine_path("fake")
    assert "\n" not in str(err.value)
    monkeypatch.delenv("BOARDGAME_ENVS_RAPFI", raising=False)
    with pytest.raises(EngineNotConfigured, match="docs/engines.md"):  # a known engine says where to get it
        engine_path("rapfi")


def test_configure_checks_the_file_and_sets_the_variable(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="no file at"):
        configure("fake", tmp_path / "nope")
    plain = tmp_path / "plain"
    plain.write_text("")
    with pytest.raises(ValueError, match="not executable"):
        configure("fake", plain)
    path = launcher(tmp_path, "good")
    assert configure_from(f"FAKE={path}") == "fake"
    assert engine_path("fake") == path and configured("fake")
    for bad in ("fake", "=x", "fake=", "no name=x"):
        with pytest.raises(ValueError):
            configure_from(bad)


def test_a_variable_naming_a_missing_file_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", str(tmp_path / "gone"))
    with pytest.raises(EngineNotConfigured, match="not a file"):
        engine_path("fake")


def test_the_engine_spec_finds_the_binary_by_name_and_gives_a_budget_a_long_clock(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "good"))
    engine = make_policy("engine:fake:nodes=1000,threads=1")
    try:
        assert engine.turn_time_ms == BUDGET_TURN_MS  # the node budget, not the clock, ends a search
        assert {"INFO MAX_NODE 1000", "INFO THREAD_NUM 1"} <= set(engine.info_lines)
        from boardgame_envs.games.catalog import game_info

        state = game_info("gomoku").game(9, 5, "freestyle").new_state()
        assert engine.act(state) == 0  # the fake plays the first empty point
    finally:
        engine.close()
    timed = make_policy("engine:fake:turn_ms=100")
    assert timed.turn_time_ms == 100
    timed.close()


def test_check_node_budget_passes_a_deterministic_fast_engine(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "good"))
    check = check_node_budget("engine:fake:nodes=1000,threads=1")
    assert check.seconds < 2.0 and check.about["name"] == "fake"


def test_check_node_budget_refuses_an_engine_whose_moves_differ(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "random"))
    with pytest.raises(NodeBudgetError, match="different moves in two runs"):
        check_node_budget("engine:fake:nodes=1000,threads=1")


def test_check_node_budget_refuses_an_engine_that_thinks_too_long(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "busy", "0.6"))
    monkeypatch.setattr(engines, "MIN_NODES_PER_S", 10**9)
    with pytest.raises(NodeBudgetError, match=r"a move took 0\.[6-9] CPU-s, .*does not seem to honour INFO MAX_NODE"):
        check_node_budget("engine:fake:nodes=1000,threads=1", slack_s=0.3)


def test_check_node_budget_counts_the_engines_cpu_not_the_wall_clock(tmp_path, monkeypatch):
    """An honest engine on a loaded machine waits for a core: its moves take longer on the wall clock, not in its
    own CPU time, so the check (run by the ladder before every build and rating) does not refuse it."""
    monkeypatch.setenv("BOARDGAME_ENVS_FAKE", launcher(tmp_path, "slow", "0.6"))  # waits, as for a busy core
    monkeypatch.setattr(engines, "MIN_NODES_PER_S", 10**9)
    check = check_node_budget("engine:fake:nodes=1000,threads=1", slack_s=0.3)
    assert check.seconds < 0.3


def test_check_node_budget_needs_a_node_budget():
    with pytest.raises(ValueError, match="nodes=N"):
        check_node_budget("engine:fake:depth=3")
