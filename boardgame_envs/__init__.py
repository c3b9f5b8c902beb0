"""Fast PettingZoo and Gymnasium environments for tic-tac-toe, gomoku, renju and connect four.

>>> from boardgame_envs import gomoku_v0
>>> env = gomoku_v0.env(board_size=15, rule="renju")

Importing the package registers the Gymnasium ids ``boardgame_envs/...`` and,
where the installed PettingZoo has a registry, the AEC ids
``boardgame_envs/tictactoe-v0``, ``boardgame_envs/gomoku-v0`` and ``boardgame_envs/connect_four-v0``.
"""

from __future__ import annotations

from boardgame_envs import _compat

_compat.install()  # first: old module paths (even one a module below still imports) resolve through the table

# The env modules, each registering itself with the catalog as it is imported (a new game adds its line here).
from boardgame_envs import connect_four_v0, gomoku_v0, tictactoe_v0
from boardgame_envs.games.mnk import IllegalMoveError, MNKGame
from boardgame_envs.registration import register_envs

__version__ = "0.1.0"
__all__ = ["IllegalMoveError", "MNKGame", "connect_four_v0", "gomoku_v0", "tictactoe_v0", "__version__"]

register_envs()
