"""Registration of the package's environments in PettingZoo's and Gymnasium's registries."""

from __future__ import annotations

from boardgame_envs.games.catalog import GAMES

PETTINGZOO_IDS = {info.pettingzoo_id: f"boardgame_envs.{info.module}:env" for info in GAMES.values()}  # renju shares gomoku's


def register_envs() -> None:
    """Register every env id; safe to call more than once."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # PettingZoo before its registry (< 1.25): modules only
        pass
    else:
        for env_id, entry_point in PETTINGZOO_IDS.items():
            if env_id not in aec_registry:
                register("aec", env_id, entry_point)
    from boardgame_envs.envs.single_agent import register_gymnasium_envs

    register_gymnasium_envs()
