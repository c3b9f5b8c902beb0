"""Batched games on numba: many boards stepped per call, and Gymnasium's ``make_vec`` entry point.

``make(game, num_envs, **game_kwargs)`` builds a :class:`VectorGames` (see
:mod:`boardgame_envs.vector.engine`); ``docs/vector.md`` has the whole story.
"""

from boardgame_envs.vector.engine import IllegalActionsError, VectorGames, make

__all__ = ["IllegalActionsError", "VectorGames", "make"]
