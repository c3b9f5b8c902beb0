"""Pixels of a board: the shapes of :mod:`~boardgame_envs.render.scene` drawn with Pillow.

Shapes are drawn at twice the size and halved with a box filter, which
smooths their edges; text uses the font that ships inside Pillow, so the
pixels are the same on every machine with the same Pillow version.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from boardgame_envs.render.board import Board
from boardgame_envs.render.scene import Circle, Line, Options, Rect, Text, layout

SUPERSAMPLE = 2
_ANCHORS = {"start": "lm", "middle": "mm", "end": "rm"}


@lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(px)


def _rgba(color: tuple[int, int, int], alpha: float) -> tuple[int, int, int, int]:
    return (*color, round(255 * alpha))


def image(board: Board, options: Options) -> Image.Image:
    """The board as a Pillow ``RGB`` image."""
    geo, shapes = layout(board, options)
    s = SUPERSAMPLE
    img = Image.new("RGB", (geo.width * s, geo.height * s))
    draw = ImageDraw.Draw(img, "RGBA")  # RGBA fills blend into the RGB image
    for shape in shapes:
        # Pillow draws an outline inside the shape's box, SVG centres it on the
        # edge: the box grows by half the outline to match.
        if isinstance(shape, Rect):
            grow = shape.width * s / 2 if shape.outline is not None else 0
            draw.rectangle(
                (shape.x0 * s - grow, shape.y0 * s - grow, shape.x1 * s - 1 + grow, shape.y1 * s - 1 + grow),
                fill=None if shape.fill is None else _rgba(shape.fill, shape.alpha),
                outline=None if shape.outline is None else _rgba(shape.outline, shape.alpha),
                width=round(shape.width * s),
            )
        elif isinstance(shape, Line):
            w = max(1, round(shape.width * s))
            draw.line((shape.x0 * s, shape.y0 * s, shape.x1 * s, shape.y1 * s), fill=_rgba(shape.color, shape.alpha), width=w)
        elif isinstance(shape, Circle):
            r = shape.r * s + (shape.width * s / 2 if shape.outline is not None else 0)
            draw.ellipse(
                (shape.cx * s - r, shape.cy * s - r, shape.cx * s + r, shape.cy * s + r),
                fill=None if shape.fill is None else _rgba(shape.fill, shape.alpha),
                outline=None if shape.outline is None else _rgba(shape.outline, shape.alpha),
                width=round(shape.width * s),
            )
        else:
            assert isinstance(shape, Text)
            draw.text((shape.x * s, shape.y * s), shape.text, fill=shape.color,
                      font=_font(max(6, round(shape.size * s))), anchor=_ANCHORS[shape.anchor])  # fmt: skip
    return img.reduce(s)


def rgb(source: Any, *, moves: Any = None, **options: Any) -> np.ndarray:
    """The board of an env, a ``GameState`` or a :class:`Board` as a ``uint8`` array ``(H, W, 3)``.

    Keywords are the fields of :class:`~boardgame_envs.render.scene.Options`
    (``cell``, ``coordinates``, ``move_numbers``, ``status``, ``ghost``,
    ``hint``, ``note``); ``moves`` numbers the stones of a ``GameState``.
    """
    return np.asarray(image(Board.of(source, moves), Options(**options)))
