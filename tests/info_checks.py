"""What every AEC env's ``info`` must hold, checked the same way by tests/envs/test_info_values.py and the RL
libraries' wrapper tests (tests/envs/test_library_wrappers.py): numbers only, the only kind of value every
library's PettingZoo wrapper takes (TorchRL's makes a tensor of each)."""

from __future__ import annotations

from typing import Any

import numpy as np


def not_numeric(info: dict[str, Any]) -> dict[str, Any]:
    """The items of ``info`` whose value is not a number (bool, int, float, a numpy number) or a numeric array."""
    bad = {}
    for key, value in info.items():
        if isinstance(value, np.ndarray):
            ok = value.dtype.kind in "biuf"
        else:
            ok = isinstance(value, (bool, int, float, np.bool_, np.number))
        if not ok:
            bad[key] = value
    return bad


def strings_in_infos(env: Any, games: int, seed: int = 0) -> list[str]:
    """Random legal games of ``env`` (wrapped): each info value that is not a number, where it was seen."""
    rng = np.random.default_rng(seed)
    found = []

    def look(when: str) -> None:
        for agent, info in env.infos.items():
            found.extend(f"{when}, {agent}: {k}={v!r}" for k, v in not_numeric(info).items())

    for game in range(games):
        env.reset(seed=seed + game)
        look(f"game {game}, after reset")
        for turn, agent in enumerate(env.agent_iter()):
            obs, _, terminated, truncated, info = env.last()
            where = f"game {game}, turn {turn}, last() of {agent}"
            found.extend(f"{where}: {k}={v!r}" for k, v in not_numeric(info).items())
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            look(f"game {game}, after turn {turn}")
    return found
