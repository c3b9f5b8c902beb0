"""A policy written for the old ``act(env)`` now gets a state: it fails with a message saying what changed.

The states refuse the env-only names (``unwrapped``, ``last``, ``observe``, ``agent_selection``) with
``StateIsNotEnvError`` (games/protocol.py), an AttributeError that names ``act(state)``, what to read
instead and where it is written; probes with a default (``getattr(state, "unwrapped", state)``) see a
plain missing attribute.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardgame_envs import connect_four_v0, gomoku_v0, tictactoe_v0
from boardgame_envs.arena import PolicyError, match, play_record
from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.protocol import ENV_ONLY_NAMES, StateIsNotEnvError
from boardgame_envs.policies import game_state_of, make_policy
from boardgame_envs.policies.random import RandomPolicy

WHAT_CHANGED = r"a policy is handed a game state now, not an env \(policy\.act\(state\), not act\(env\)\)"
WHERE = r'docs/games\.md, "Policies act on a state"'


class UnwrapsEnv:
    """The old style: the live state behind the env."""

    name = "old-unwrapped"

    def act(self, env: Any) -> int:
        return int(np.flatnonzero(env.unwrapped.game_state.legal_mask())[0])


class ReadsLast:
    """The old style: the action mask from ``env.last()``."""

    name = "old-last"

    def act(self, env: Any) -> int:
        obs, *_ = env.last()
        return int(np.flatnonzero(obs["action_mask"])[0])


class Observes:
    """The old style: ``env.observe(env.agent_selection)``."""

    name = "old-observe"

    def act(self, env: Any) -> int:
        return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def states() -> list[Any]:
    """One fresh state of each state class the package has (m,n,k, connect four, under an opening rule)."""
    rule_env = gomoku_v0.env(board_size=15, rule="renju", opening_rule="soosorv8")
    rule_env.reset(seed=0)
    return [game_info("tictactoe").game().new_state(), game_info("connect_four").game().new_state(),
            rule_env.unwrapped.game_state]  # fmt: skip


@pytest.mark.parametrize("name", sorted(ENV_ONLY_NAMES))
@pytest.mark.parametrize("state", states(), ids=lambda s: type(s).__name__)
def test_each_env_only_name_on_each_state_says_what_changed_and_what_to_read(state: Any, name: str) -> None:
    with pytest.raises(StateIsNotEnvError, match=f"^{type(state).__name__} has no attribute '{name}': {WHAT_CHANGED}"):
        getattr(state, name)
    with pytest.raises(AttributeError, match=WHERE) as info:  # an AttributeError still: hasattr and getattr work
        getattr(state, name)
    assert ENV_ONLY_NAMES[name] in str(info.value)
    assert (info.value.name, info.value.state_type) == (name, type(state).__name__)
    assert not hasattr(state, name) and getattr(state, name, None) is None
    assert game_state_of(state) is state  # the adapter's probe of "unwrapped" still finds the state itself


def test_hints_name_what_the_state_really_offers() -> None:
    state = game_info("tictactoe").game().new_state()
    assert "state.legal_mask()" in ENV_ONLY_NAMES["last"] and state.legal_mask().all()
    assert "state.planes(" in ENV_ONLY_NAMES["observe"] and state.planes(state.to_move).shape == (3, 3, 2)
    assert "state.to_move" in ENV_ONLY_NAMES["agent_selection"] and state.to_move == 1


@pytest.mark.parametrize("old", [UnwrapsEnv, ReadsLast, Observes])
def test_an_old_act_env_policy_built_by_make_policy_fails_on_a_state_with_the_message(old: type) -> None:
    policy = make_policy(old())
    state = game_info("connect_four").game().new_state()
    with pytest.raises(StateIsNotEnvError, match=WHAT_CHANGED):
        policy.act(state)
    env = connect_four_v0.env()  # handed an env (the single-agent view's opponent still is), it plays as before
    env.reset(seed=0)
    assert policy.act(env) == 0


@pytest.mark.parametrize("old", [UnwrapsEnv, ReadsLast])
def test_the_arena_stops_an_old_act_env_policy_with_the_message(old: type) -> None:
    with pytest.raises(PolicyError, match=f"policy '{old.name}' \\(X\\) raised StateIsNotEnvError: MNKState has "
                                          f"no attribute .*{WHAT_CHANGED}.*{WHERE}") as info:  # fmt: skip
        play_record(tictactoe_v0.env, old(), RandomPolicy(seed=1), (old.name, "random"))
    assert isinstance(info.value.__cause__, StateIsNotEnvError)
    with pytest.raises(PolicyError, match=WHAT_CHANGED):  # a match builds it through make_policy from a factory
        match(tictactoe_v0.env, lambda seed: old(), "random", games=2, progress=False)


def test_a_state_policy_is_untouched() -> None:
    """The same game played by a policy that reads the state: no error, a full game."""

    class FirstLegal:
        name = "first-legal"

        def act(self, state: Any) -> int:
            return int(np.flatnonzero(state.legal_mask())[0])

    record = play_record(tictactoe_v0.env, FirstLegal(), RandomPolicy(seed=1), ("first-legal", "random"))
    assert len(record.moves) >= 5 and not record.forfeit
