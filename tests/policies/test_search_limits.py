"""Every search budget has a stated maximum (policies.base.SEARCH_LIMITS): a budget past it is one line naming
the maximum, from the spec before anything is built and from the constructor, never a search that runs for days."""

from __future__ import annotations

import pytest

from boardgame_envs.alphazero.config import MAX_SIMULATIONS
from boardgame_envs.cli import main
from boardgame_envs.policies import AlphaBetaPolicy, MCTSPolicy
from boardgame_envs.policies.base import SEARCH_LIMITS, check_budget
from boardgame_envs.policies.registry import PolicySpecError, check_spec
from boardgame_envs.policies.uct import UCTPolicy

OVER = [
    ("mcts:simulations=1000000000000", "simulations=1000000000000", "at most 1,000,000"),
    ("mcts:time_limit=100000", "time_limit=100000", "at most 3,600 seconds a move"),
    ("uct:playouts=1000001", "playouts=1000001", "at most 1,000,000"),
    ("alphabeta:nodes=1000000001", "nodes=1000000001", "at most 1,000,000,000"),
    ("alphabeta:depth=401", "depth=401", "at most 400"),
    ("pretrained:ppo-connect-four:simulations=1000001", "simulations=1000001", "at most 1,000,000"),
]


@pytest.mark.parametrize("spec, named, most", OVER)
def test_a_budget_past_its_maximum_is_refused_by_the_spec_naming_the_maximum(spec, named, most):
    with pytest.raises(PolicySpecError, match=f"{named} is more than a search may take: {most}"):
        check_spec(spec)


def test_the_constructors_refuse_what_the_spec_refuses():
    for build, named in ((lambda: MCTSPolicy(simulations=10**12), "simulations"),
                         (lambda: MCTSPolicy(simulations=None, time_limit=3601.0), "time_limit"),
                         (lambda: UCTPolicy(playouts=10**7), "playouts"),
                         (lambda: AlphaBetaPolicy(nodes=10**10), "nodes"),
                         (lambda: AlphaBetaPolicy(depth=401), "depth")):  # fmt: skip
        with pytest.raises(ValueError, match=f"{named}=.* is more than a search may take"):
            build()


def test_the_maximum_itself_is_accepted():
    for name, most in SEARCH_LIMITS.items():
        check_budget(name, most)  # no error: the maximum is a budget
        check_spec(f"mcts:{name}={int(most)}") if name in ("simulations", "time_limit") else None
    assert MCTSPolicy(simulations=int(SEARCH_LIMITS["simulations"])).simulations == 1_000_000


def test_alphazero_shares_the_one_maximum():
    assert MAX_SIMULATIONS == SEARCH_LIMITS["simulations"]


def test_demo_with_a_runaway_budget_is_one_line_at_once(capsys):
    assert main(["demo", "tictactoe", "--first", "mcts:simulations=1000000000000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "at most 1,000,000" in err and "Traceback" not in err
