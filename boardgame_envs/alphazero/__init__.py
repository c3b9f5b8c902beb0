"""AlphaZero for the package's games: self-play through the env API, a ResNet, PUCT search.

>>> from boardgame_envs import tictactoe_v0
>>> from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer
>>> trainer = AlphaZeroTrainer(tictactoe_v0.env, AlphaZeroConfig.for_game("tictactoe", minutes=2))
>>> trainer.train()                                                     # doctest: +SKIP

Needs torch (``pip install "boardgame-envs[train]"``). The names are loaded
lazily, so ``boardgame_envs.alphazero.cli`` can describe itself without it.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "AlphaZeroConfig": "config",
    "AlphaZeroTrainer": "trainer",
    "NetworkPolicy": "policy",
    "PolicyValueNet": "network",
    "PRETRAINED": "pretrained",
    "ReplayBuffer": "buffer",
    "load_checkpoint": "checkpoint",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = importlib.import_module(f"{__name__}.{_EXPORTS[name]}")
    except ModuleNotFoundError as exc:
        if exc.name == "torch":
            raise ImportError(
                'boardgame_envs.alphazero needs torch: pip install "boardgame-envs[train]"'
            ) from exc
        raise
    return getattr(module, name)
