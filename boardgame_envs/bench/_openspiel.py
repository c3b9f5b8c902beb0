"""OpenSpiel as an optional reference measured in the same run as our numbers.

``open_spiel`` is not a dependency of the project. When it imports, the
benchmarks time it beside ours; when it does not, they print ours alone and
:data:`INSTALL_HINT`: no figure from another run is ever printed as a reference.
The module name starts with ``_`` so that the bench dispatcher does not list it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

INSTALL_HINT = "open_spiel is not installed: `pip install open_spiel` to measure OpenSpiel side by side in this run"

# Our case names -> (OpenSpiel game, parameters). OpenSpiel's gomoku counts
# `connect` or more in a row as a win, which is our freestyle rule.
GAMES: dict[str, tuple[str, dict[str, int]]] = {
    "tictactoe": ("tic_tac_toe", {}),
    "gomoku 15x15 freestyle": ("gomoku", {"size": 15, "connect": 5}),
}


def import_pyspiel() -> ModuleType | None:
    """``pyspiel`` when ``open_spiel`` is installed, else None."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def load_game(pyspiel: ModuleType, case: str) -> tuple[Any | None, str]:
    """OpenSpiel's game for one of our cases, and its description; None when it lacks one.

    The description is ``gomoku(connect=5,size=15)``-style when the game loads,
    else the reason it did not (the case is not in :data:`GAMES`, the game is not
    registered in this OpenSpiel version, or it rejects the parameters).
    """
    if case not in GAMES:
        return None, "OpenSpiel has no counterpart"
    name, params = GAMES[case]
    if name not in pyspiel.registered_names():
        return None, f"this OpenSpiel has no {name!r} game"
    try:
        game = pyspiel.load_game(name, params)
    except pyspiel.SpielError as exc:
        return None, f"OpenSpiel {name!r} rejects {params}: {exc}"
    return game, str(game)


def speedup(ours: float, theirs: float, *, times: bool = False) -> str:
    """How many times faster ours is, as ``"1.2x"``: from rates, or from times with ``times=True``."""
    return f"{theirs / ours if times else ours / theirs:.1f}x"
