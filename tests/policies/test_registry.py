"""The policy registry: specs in every documented form, clear errors, and the import direction it enables."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from boardgame_envs.policies import AlphaBetaPolicy, MCTSPolicy, RandomPolicy
from boardgame_envs.policies.registry import (
    PolicySpecError, check_spec, kinds, make_policy, parse_spec, parse_value, register, spec_name,
)  # fmt: skip

PACKAGE = Path(__file__).resolve().parents[2] / "boardgame_envs"


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("mcts", ("mcts", None, {})),
        ("mcts:simulations=200", ("mcts", None, {"simulations": 200})),
        ("alphabeta:depth=4,width=12", ("alphabeta", None, {"depth": 4, "width": 12})),
        ("mcts:c=0.7,time_limit=none", ("mcts", None, {"c": 0.7, "time_limit": None})),
        ("pbrain:/opt/x/pbrain-x", ("pbrain", "/opt/x/pbrain-x", {})),
        ("pbrain:/opt/x/pbrain-x:turn_ms=100", ("pbrain", "/opt/x/pbrain-x", {"turn_ms": 100})),
        ("runs/g9/latest.pt", ("checkpoint", "runs/g9/latest.pt", {})),
        ("checkpoint:runs/g9/latest.pt:simulations=50", ("checkpoint", "runs/g9/latest.pt", {"simulations": 50})),
    ],
)
def test_parse_spec(text, parsed):
    assert parse_spec(text) == parsed


def test_values_are_typed():
    assert [parse_value(v) for v in ("3", "-2", "0.5", "1e3", "true", "False", "None", "abc")] == [
        3, -2, 0.5, 1000.0, True, False, None, "abc"
    ]  # fmt: skip


def test_arguments_reach_the_constructor():
    policy = make_policy("alphabeta:depth=3,width=7", seed=1)
    assert isinstance(policy, AlphaBetaPolicy) and (policy.depth, policy.width) == (3, 7)
    policy = make_policy(("mcts", {"simulations": 50}), seed=2)
    assert isinstance(policy, MCTSPolicy) and policy.simulations == 50
    assert isinstance(make_policy("random"), RandomPolicy)


def test_the_seed_is_the_callers():
    a, b = make_policy("random", seed=5), make_policy("random", seed=5)
    assert a.rng.integers(1 << 30) == b.rng.integers(1 << 30)
    with pytest.raises(PolicySpecError, match="set by the caller"):
        make_policy("random:seed=3")


def test_factories_and_objects():
    built = make_policy(lambda seed: RandomPolicy(seed=seed), seed=3)
    assert isinstance(built, RandomPolicy)
    policy = RandomPolicy()
    assert make_policy(policy) is policy


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("foo", "unknown policy 'foo'; known kinds: random, mcts, alphabeta, perfect"),
        ("mcts:sims=3", "'sims' is not an argument of policy 'mcts'; it accepts: simulations=2000"),
        ("random:x", "takes arguments as random:key=value"),
        ("checkpoint", "needs a target: checkpoint:PATH"),
        ("mcts:simulations=1,simulations=2", "given twice"),
        (("mcts", [1]), "must be a dict"),
        (3, "cannot build a policy from 3"),
        ("", "non-empty string"),
    ],
)
def test_bad_specs_say_what_exists(spec, message):
    with pytest.raises(PolicySpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_policy(spec)
    with pytest.raises(ValueError):  # check_spec finds the same mistakes without building anything
        check_spec(spec)


def test_bad_values_are_the_constructors_errors():
    with pytest.raises(ValueError, match="simulations"):
        make_policy("mcts:simulations=-1")


def test_register_a_kind_lazily_and_with_a_target():
    register("test_lazy_random", "boardgame_envs.policies.random:RandomPolicy", "for the test")
    try:
        assert isinstance(make_policy("test_lazy_random", seed=0), RandomPolicy)
        with pytest.raises(PolicySpecError, match="already registered"):
            register("test_lazy_random", RandomPolicy)
    finally:
        kinds_ = __import__("boardgame_envs.policies.registry", fromlist=["_KINDS"])._KINDS
        kinds_.pop("test_lazy_random")

    def with_target(path, flag=False, seed=None):
        return ("built", path, flag, seed)

    register("test_target", with_target, target="PATH")
    try:
        assert make_policy("test_target:/a/b:flag=true", seed=4) == ("built", "/a/b", True, 4)
        assert make_policy(("test_target", {"target": "/c"})) == ("built", "/c", False, None)
    finally:
        kinds_.pop("test_target")
    assert "test_target" not in kinds()


def test_unavailable_lazy_kind_is_a_clear_error():
    register("test_missing", "boardgame_envs.no_such_module:Policy")
    try:
        with pytest.raises(PolicySpecError, match="not available"):
            make_policy("test_missing")
    finally:
        __import__("boardgame_envs.policies.registry", fromlist=["_KINDS"])._KINDS.pop("test_missing")


def test_context_reaches_only_constructors_that_take_it():
    assert isinstance(make_policy("random", seed=0, device="cpu"), RandomPolicy)


def test_spec_names():
    assert spec_name("mcts:simulations=5") == "mcts:simulations=5"
    assert spec_name(("mcts", {"simulations": 5})) == "mcts:simulations=5"
    assert spec_name(RandomPolicy()) == "random"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_nothing_imports_the_cli():
    offenders = [
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
        if p.name != "__main__.py" and "boardgame_envs.cli" in _imports(p)
    ]  # fmt: skip
    assert offenders == []


@pytest.mark.parametrize("layer", ["games", "policies"])
def test_lower_layers_import_nothing_above_them(layer):
    # the table of old names and the loading layer, below every layer (tests/test_layers.py)
    below = ("boardgame_envs._compat", "boardgame_envs.safeio")
    allowed = below + {"games": ("boardgame_envs.games",), "policies": ("boardgame_envs.games", "boardgame_envs.policies")}[layer]
    offenders = {
        str(p.relative_to(PACKAGE)): sorted(m for m in _imports(p) if m.startswith("boardgame_envs") and not m.startswith(allowed))
        for p in (PACKAGE / layer).rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize(
    ("spec", "says"),
    [("mcts:simulations=99999999999999999999", "out of range: a count is at most 9,223,372,036,854,775,807"),
     ("mcts:simulations=-99999999999999999999", "out of range"),
     ("greedy:epsilon=nan", "epsilon=nan is not a finite number"),
     ("alphabeta:nodes=inf", "nodes=inf is not a finite number")],
)  # fmt: skip
def test_a_number_no_policy_can_hold_is_refused_in_one_line(spec, says):
    """Past int64 a count overflowed deep in a kernel (OverflowError); NaN and infinities are no budgets."""
    with pytest.raises(PolicySpecError, match=re.escape(says)):
        parse_spec(spec)
