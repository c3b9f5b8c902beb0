"""Registration of the package's environments in PettingZoo's and Gymnasium's registries."""

from __future__ import annotations

PETTINGZOO_IDS = {
    "boardgame_envs/tictactoe-v0": "boardgame_envs.tictactoe_v0:env",
    "boardgame_envs/gomoku-v0": "boardgame_envs.gomoku_v0:env",
}


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
    import importlib.util

    if importlib.util.find_spec("boardgame_envs.envs.single_agent") is not None:
        from boardgame_envs.envs.single_agent import register_gymnasium_envs

        register_gymnasium_envs()
