"""Batched games: many boards stepped per call for every game, and Gymnasium's ``make_vec`` entry point.

``make(game, num_envs, **game_kwargs)`` builds a :class:`VectorGames` (see
:mod:`boardgame_envs.vector.engine`): numba kernels where the game has them (m,n,k,
connect four), its states stepped in a loop otherwise; ``docs/vector.md`` has the whole story.
"""

from boardgame_envs.vector.engine import IllegalActionsError, VectorGames, make

__all__ = ["IllegalActionsError", "VectorGames", "make"]
