"""PettingZoo's standard safety wrappers, with the hot attribute reads made direct.

``env()`` wraps a raw env in PettingZoo's ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, subclassed.
PettingZoo's ``BaseWrapper`` forwards every attribute read (``agents``,
``agent_selection``, ``terminations``, ...) through a chain of
``__getattr__`` calls, which costs more than one whole step of our games.
Here those reads go straight to the unwrapped env (no wrapper in between
redefines them, so the values are the same), and ``step`` takes the plain
legal move straight through; every other case (illegal moves, dead agents,
calls before reset) runs PettingZoo's own code, so the semantics are theirs.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable

from boardgame_envs.games.protocol import IllegalMoveError

_FORWARDED = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos", "_cumulative_rewards")


def _direct(name: str, guard_reset: bool) -> property:
    if not guard_reset:
        return property(attrgetter(f"_raw.{name}"), doc=f"``{name}`` of the unwrapped env.")
    raw_value = attrgetter(f"_raw.{name}")

    def get(self: Any) -> Any:
        if not self._has_reset:
            # Falls back to OrderEnforcingWrapper.__getattr__, which raises its own error.
            raise AttributeError(f"{name} cannot be accessed before reset")
        return raw_value(self)

    return property(get, doc=f"``{name}`` of the unwrapped env, once reset.")


class TerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        # PettingZoo's legal path, taken directly when the mask was just observed;
        # every other case (dead agents, illegal moves, no observation) is its code.
        raw = self._raw
        prev = self._prev_obs
        agent = raw.agent_selection
        live = not raw.terminations[agent] and not raw.truncations[agent]
        if (
            prev is not None
            and live
            and type(action) is int
            and 0 <= action < raw.num_actions
            and prev["action_mask"][action]
        ):
            self._prev_obs = None
            self._prev_info = None
            self.env.step(action)
            return
        # PettingZoo's code; an illegal move it punishes keeps its reason in the offender's info.
        reason = raw.game_state.illegal_reason(action) if live and action is not None else None
        super().step(action)
        if reason is not None and self._terminated:
            raw.infos[agent].update(illegal_action=True, reason=reason)

    def observe(self, agent: Any) -> Any:
        # PettingZoo's observe, with the reads made direct: remember the
        # observation (and info) of the agent to move, for step's legality check.
        obs = self.env.observe(agent)
        raw = self._raw
        if agent == raw.agent_selection:
            self._prev_obs = obs
            self._prev_info = raw.infos.get(agent, {})
        return obs


class ActionOutOfBoundsError(IllegalMoveError, AssertionError):
    """An action that is no point of the board: PettingZoo's out-of-bounds assertion, with the reason.

    Both a ``ValueError`` (as every bad input here) and an ``AssertionError``
    (what PettingZoo's ``AssertOutOfBoundsWrapper`` raises), so either ``except`` catches it.
    """


class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        # Plain in-range ints are the common case; anything else is checked here,
        # as PettingZoo's Discrete.contains would, but bools are no actions.
        raw = self._raw
        if type(action) is int and 0 <= action < raw.num_actions:
            wrappers.BaseWrapper.step(self, action)
            return
        agent = raw.agent_selection
        leaving = action is None and (raw.terminations[agent] or raw.truncations[agent])
        in_range = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
        if not leaving and not (in_range and 0 <= action < raw.num_actions):
            raise ActionOutOfBoundsError(f"{agent} cannot play {action!r}: {_expected(raw, agent)}")
        wrappers.BaseWrapper.step(self, action)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        # Over the stack that safety_wrap builds, the legal-move step and last()
        # run here in one call, doing what the three wrappers would have done.
        inner = getattr(env, "env", None)
        stacked = type(env) is AssertOutOfBoundsWrapper and type(inner) is TerminateIllegalWrapper
        self._illegal: TerminateIllegalWrapper | None = inner if stacked and inner.env is self._raw else None

    def step(self, action: Any) -> None:
        raw = self._raw
        illegal = self._illegal
        if self._has_reset and raw.agents:
            self._has_updated = True
            if illegal is not None:
                agent = raw.agent_selection
                done = raw.terminations[agent] or raw.truncations[agent]
                if type(action) is int and 0 <= action < raw.num_actions:
                    # In range (AssertOutOfBoundsWrapper's check); legal in the mask
                    # last observed and the agent still playing (TerminateIllegalWrapper's).
                    prev = illegal._prev_obs
                    if prev is not None and prev["action_mask"][action] and not done:
                        illegal._prev_obs = None
                        illegal._prev_info = None
                        raw._play(agent, action)  # raw.step past the checks just made here
                        return
                elif action is None and done and not illegal._terminated:
                    # A finished agent leaving at the end of a normal game: the
                    # wrappers pass it to the env's step, whose only work for a
                    # done agent stepping None is _was_dead_step; call that.
                    illegal._prev_obs = None
                    illegal._prev_info = None
                    raw._was_dead_step(None)
                    return
            self.env.step(action)
        else:
            super().step(action)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        illegal = self._illegal
        if illegal is None:
            super().reset(seed=seed, options=options)
            return
        # What the stack's resets do, in one call: each wrapper's flags, then the env.
        self._has_reset = True
        self._has_updated = True
        illegal._terminated = False
        illegal._prev_obs = None
        illegal._prev_info = None
        self._raw.reset(seed=seed, options=options)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last with the reads made direct; before reset, PettingZoo's errors.
        if not self._has_reset:
            return super().last(observe)
        raw = self._raw
        if not raw.agents:
            raise raw.no_agents_error()
        agent = raw.agent_selection
        if not observe:
            observation = None
        elif self._illegal is not None:
            # TerminateIllegalWrapper.observe: remember the mover's observation. (It
            # also keeps the mover's info, which it reads only when observations
            # are not dicts; ours always are, so the hot path skips that.)
            observation = raw.observe(agent)
            self._illegal._prev_obs = observation
        else:
            observation = self.env.observe(agent)
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                raw.infos[agent])  # fmt: skip

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        # PettingZoo prints the bare env name only for its own class, not subclasses.
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable):
    """PettingZoo's order-enforcing ``agent_iter``, reading the unwrapped env directly.

    The iterator is a generator: resuming one costs less than calling an
    iterator's ``__next__`` method, and the loop asks for the next agent on
    every step. It yields what ``AECOrderEnforcingIterator`` returns, and
    asserts as it does.
    """

    def __iter__(self) -> Iterator[Any]:
        env = self.env
        raw = env._raw
        left = self.max_iter
        while raw.agents and left > 0:
            left -= 1
            assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            env._has_updated = False
            yield raw.agent_selection


for _name in _FORWARDED:
    setattr(TerminateIllegalWrapper, _name, _direct(_name, guard_reset=False))
    setattr(AssertOutOfBoundsWrapper, _name, _direct(_name, guard_reset=False))
    setattr(OrderEnforcingWrapper, _name, _direct(_name, guard_reset=_name != "_cumulative_rewards"))


def _expected(raw: Any, agent: str) -> str:
    """What ``agent`` may play now, in words: the legal points, or that it must step with None."""
    if raw.terminations[agent] or raw.truncations[agent]:
        return f"{agent} is done and steps with None"
    legal = np.flatnonzero(raw.observe(agent)["action_mask"])
    names = ", ".join(f"{a} ({raw.game.action_name(int(a))})" for a in legal[:9])
    more = f", ... ({len(legal)} in all)" if len(legal) > 9 else ""
    return f"expected an action in 0..{raw.num_actions - 1} where {agent}'s action_mask is 1: {names}{more}"


def safety_wrap(raw: AECEnv) -> OrderEnforcingWrapper:
    """PettingZoo's classic-env wrapping: illegal move loses (-1), bounds asserted, order enforced."""
    env = TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)
