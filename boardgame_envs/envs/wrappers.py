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

from operator import attrgetter
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

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
        if (
            prev is not None
            and not raw.terminations[agent]
            and not raw.truncations[agent]
            and type(action) is int
            and 0 <= action < raw.num_actions
            and prev["action_mask"][action]
        ):
            self._prev_obs = None
            self._prev_info = None
            self.env.step(action)
        else:
            super().step(action)

    def observe(self, agent: Any) -> Any:
        # PettingZoo's observe, with the reads made direct: remember the
        # observation (and info) of the agent to move, for step's legality check.
        obs = self.env.observe(agent)
        raw = self._raw
        if agent == raw.agent_selection:
            self._prev_obs = obs
            self._prev_info = raw.infos.get(agent, {})
        return obs


class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        # Plain in-range ints are the common case and Discrete.contains accepts
        # them; anything else takes PettingZoo's own check.
        if type(action) is int and 0 <= action < self._raw.num_actions:
            wrappers.BaseWrapper.step(self, action)
        else:
            super().step(action)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last with the reads made direct; before reset, PettingZoo's errors.
        if not self._has_reset:
            return super().last(observe)
        raw = self._raw
        agent = raw.agent_selection
        observation = self.env.observe(agent) if observe else None
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                raw.infos[agent])  # fmt: skip

    def __str__(self) -> str:
        # PettingZoo prints the bare env name only for its own class, not subclasses.
        return str(self.env)


for _name in _FORWARDED:
    setattr(TerminateIllegalWrapper, _name, _direct(_name, guard_reset=False))
    setattr(AssertOutOfBoundsWrapper, _name, _direct(_name, guard_reset=False))
    setattr(OrderEnforcingWrapper, _name, _direct(_name, guard_reset=_name != "_cumulative_rewards"))


def safety_wrap(raw: AECEnv) -> OrderEnforcingWrapper:
    """PettingZoo's classic-env wrapping: illegal move loses (-1), bounds asserted, order enforced."""
    env = TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)
