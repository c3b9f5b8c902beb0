"""Registration of the package's environments in PettingZoo's and Gymnasium's registries.

The ids are those the env modules registered with the catalog when they were
imported (:func:`boardgame_envs.games.catalog.register_env`); the package
imports every env module before it calls :func:`register_envs`.
"""

from __future__ import annotations

from boardgame_envs.games.catalog import ENVS


def pettingzoo_ids() -> dict[str, str]:
    """Each PettingZoo id -> its entry point ``"module:env"`` (renju shares gomoku's)."""
    return {entry.pettingzoo_id: f"{entry.module}:env" for entry in ENVS.values()}


def register_envs() -> None:
    """Register every env id; safe to call more than once."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # PettingZoo before its registry (< 1.25): modules only
        pass
    else:
        for env_id, entry_point in pettingzoo_ids().items():
            if env_id not in aec_registry:
                register("aec", env_id, entry_point)
    from boardgame_envs.envs.single_agent import register_gymnasium_envs

    register_gymnasium_envs()
