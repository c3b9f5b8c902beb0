"""Pictures of boards: pixels, SVG for notebooks, animations of games, a pygame window.

    from boardgame_envs import gomoku_v0, render
    env = gomoku_v0.env(rule="renju")
    env.reset()
    env.step(112)
    render.svg(env)                                   # shows the board in Jupyter; a str of SVG elsewhere
    render.rgb(env, cell=40, move_numbers=True)       # uint8 (690, 652, 3)
    render.animate("h8 i9 j10", "renju", "game.gif")  # one frame per move

Every picture is laid out once (:mod:`~boardgame_envs.render.scene`) from a
:class:`Board` snapshot and drawn by Pillow (pixels) or as SVG text, so the
two show the same thing: coordinates, star points, stones, the last move,
black's forbidden points under renju, optional move numbers, a status line
and the winning line. This package imports only :mod:`boardgame_envs.games`
(and Pillow); the envs draw through it.
"""

from __future__ import annotations

from boardgame_envs.render.animation import animate, frames
from boardgame_envs.render.board import Board
from boardgame_envs.render.raster import rgb
from boardgame_envs.render.scene import Options
from boardgame_envs.render.svg import SVG, svg

__all__ = ["Board", "Options", "SVG", "animate", "frames", "rgb", "svg"]
