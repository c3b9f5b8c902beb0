"""Value targets of a finished game, one rule for self-play and the warm start (no torch here)."""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.lines import BLACK, WHITE


def result_targets(winner: int, colors: np.ndarray, plies_left: np.ndarray, value_decay: float,
                   num_actions: int, proven: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Each move's value target (``float32``): the result for its mover (+1, -1, 0 for a draw), shrunk to
    ``1 - value_decay * plies_left / num_actions`` of it for a move ``plies_left`` plies before the end.

    ``proven`` (NaN where unproven) holds the values a threat-aware search proved for the player to move;
    a proven value stands in for the result (shrunk alike): the game's end may come from a later blunder,
    the proof cannot."""
    colors = np.asarray(colors)
    results = np.where(colors == winner, 1.0, -1.0) if winner in (BLACK, WHITE) else np.zeros(len(colors))
    if proven is not None:
        proven = np.asarray(proven, dtype=np.float64)
        results = np.where(np.isnan(proven), results, proven)
    return (results * (1.0 - value_decay * np.asarray(plies_left) / num_actions)).astype(np.float32)
