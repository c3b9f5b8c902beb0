"""AlphaZero's defaults per game, keyed by the catalog name: the trainer's settings live with the trainer.

:func:`defaults_for` gives the ``AlphaZeroConfig`` fields a game starts from
(before the caller's overrides): a game in :data:`GAME_DEFAULTS` takes its
recipe there; an m,n,k game not in it (gomoku, renju) is sized by its board
(:func:`mnk_defaults`); any other game gets a starting point derived from its
board's shape and action count (:func:`shape_defaults`), so a new catalog game
trains with no edit here.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.games.catalog import game_info

# Catalog name -> AlphaZeroConfig fields (the dataclass's defaults for the rest). {}: the dataclass's own.
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "tictactoe": {},
    # A 3-block net at 100 simulations; the first 10 moves sampled; the score against MCTS
    # (2,000 rollouts a move) read every 5 iterations.
    "connect_four": dict(blocks=3, channels=32, simulations=100, parallel_games=64, games_per_iteration=64,
                         dirichlet_alpha=1.0, temperature_moves=10, buffer_size=60_000, train_steps=60,
                         eval_opponents=("mcts",), eval_games=10, eval_every=5),
}  # fmt: skip


def defaults_for(game: str, board_size: int | None = None) -> dict[str, Any]:
    """The ``AlphaZeroConfig`` fields ``game`` (a catalog name) starts from; m,n,k games by ``board_size``.

    An unknown name raises ``ValueError`` listing the games (the catalog's).
    """
    info = game_info(game)
    if game in GAME_DEFAULTS:
        return dict(GAME_DEFAULTS[game])
    if info.factory is None:  # an m,n,k entry: the board's side decides
        return mnk_defaults(board_size or info.default_size)
    return shape_defaults(info.game())


def mnk_defaults(size: int) -> dict[str, Any]:
    """Defaults for an m,n,k game on a ``size`` x ``size`` board (gomoku and renju)."""
    if size <= 7:
        return dict(simulations=64, parallel_games=256, games_per_iteration=256, dirichlet_alpha=0.5,
                    temperature_moves=size * size, value_decay=0.5, buffer_size=60_000, train_steps=60)  # fmt: skip
    if size == 8:
        # Measured in a 28-minute run on 2 CPU cores (baselines/results/alphazero_8x8.md): a warm start
        # from alpha-beta's games (2 minutes), then self-play sampling only the first 8 moves. Pure
        # self-play sampling every move (warm_start=None, temperature_moves=64) scored 0.505 against
        # uct:playouts=5000 where this recipe scored 0.940.
        return dict(simulations=80, parallel_games=128, games_per_iteration=128, dirichlet_alpha=0.3,
                    temperature_moves=8, value_decay=0.5, buffer_size=60_000, train_steps=60,
                    eval_opponents=("uct:playouts=1000",), eval_games=10,
                    warm_start="alphabeta:nodes=1000", warm_games=600, warm_steps=1000)  # fmt: skip
    # Sized for 60-90 minutes on 2 CPU cores (docs/alphazero.md, "Warm start"): a warm start from
    # alpha-beta's games, then a small net at 64 simulations (~2 minutes an iteration on 15x15).
    return dict(blocks=4, channels=48, simulations=64, dirichlet_alpha=0.15, temperature_moves=8,
                parallel_games=64, games_per_iteration=64, buffer_size=100_000, train_steps=100,
                lr=1e-3, eval_opponents=("mcts", "alphabeta"), eval_games=10,
                warm_start="alphabeta:nodes=1000", warm_games=600, warm_steps=1000)  # fmt: skip


def shape_defaults(game: Any) -> dict[str, Any]:
    """Defaults for a game with no recipe of its own, from its board's shape and action count.

    A small net for a small board; root noise about ten over the number of
    actions (the usual rule of thumb); the first quarter of a board's cells
    played by sampling; the score against the protocol's MCTS read every 5
    iterations. A starting point that trains, not a tuned recipe: a game that
    has one gets its line in :data:`GAME_DEFAULTS` (connect four does).
    """
    rows, columns = game.shape
    cells = rows * columns
    return dict(blocks=2 if cells <= 25 else 3, channels=32, simulations=64 if cells <= 25 else 100,
                parallel_games=64, games_per_iteration=64, dirichlet_alpha=round(min(1.0, 10.0 / game.num_actions), 3),
                temperature_moves=max(2, cells // 4), buffer_size=60_000, train_steps=60, eval_opponents=("mcts",),
                eval_games=10, eval_every=5)  # fmt: skip
