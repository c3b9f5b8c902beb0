"""Value targets of a finished game, one rule for self-play and the warm start (no torch here)."""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.lines import BLACK, WHITE


def result_targets(winner: int, colors: np.ndarray, plies_left: np.ndarray, value_decay: float,
                   num_actions: int) -> np.ndarray:  # fmt: skip
    """Each move's value target (``float32``): the result for its mover (+1, -1, 0 for a draw), shrunk to
    ``1 - value_decay * plies_left / num_actions`` of it for a move ``plies_left`` plies before the end."""
    colors = np.asarray(colors)
    results = np.where(colors == winner, 1.0, -1.0) if winner in (BLACK, WHITE) else np.zeros(len(colors))
    return (results * (1.0 - value_decay * np.asarray(plies_left) / num_actions)).astype(np.float32)
