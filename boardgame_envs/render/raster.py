"""Pixels of a board: the shapes of :mod:`~boardgame_envs.render.scene` drawn with Pillow.

Shapes are drawn at twice the size and halved with a box filter, which
smooths their edges; text uses the font that ships inside Pillow, so the
pixels are the same on every machine with the same Pillow version. What
every position of a game shares (board, grid, coordinates) is drawn once
and kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from boardgame_envs.render.snapshot import Snapshot
from boardgame_envs.render.scene import Circle, Line, Options, Rect, Shape, Text, layout
from boardgame_envs.render.scene import options as make_options

SUPERSAMPLE = 2
_ANCHORS = {"start": "lm", "middle": "mm", "end": "rm"}


@lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(px)


def _rgba(color: tuple[int, int, int], alpha: float) -> tuple[int, int, int, int]:
    return (*color, round(255 * alpha))


def _draw(img: Image.Image, shapes: Iterable[Shape]) -> None:
    s = SUPERSAMPLE
    opaque, blend = ImageDraw.Draw(img), ImageDraw.Draw(img, "RGBA")  # RGBA fills blend into the RGB image
    for shape in shapes:
        if isinstance(shape, Text):
            opaque.text((shape.x * s, shape.y * s), shape.text, fill=shape.color,
                        font=_font(max(6, round(shape.size * s))), anchor=_ANCHORS[shape.anchor])  # fmt: skip
            continue
        draw = opaque if shape.alpha >= 1 else blend
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
        else:
            assert isinstance(shape, Circle)
            r = shape.r * s + (shape.width * s / 2 if shape.outline is not None else 0)
            draw.ellipse(
                (shape.cx * s - r, shape.cy * s - r, shape.cx * s + r, shape.cy * s + r),
                fill=None if shape.fill is None else _rgba(shape.fill, shape.alpha),
                outline=None if shape.outline is None else _rgba(shape.outline, shape.alpha),
                width=round(shape.width * s),
            )


@lru_cache(maxsize=16)
def _background(width: int, height: int, shapes: tuple[Shape, ...]) -> Image.Image:
    """The shapes every position of a game shares (board, grid, coordinates), drawn once."""
    img = Image.new("RGB", (width * SUPERSAMPLE, height * SUPERSAMPLE))
    _draw(img, shapes)
    return img


def image(board: Snapshot, options: Options) -> Image.Image:
    """The board as a Pillow ``RGB`` image."""
    geo, back, front = layout(board, options)
    img = _background(geo.width, geo.height, tuple(back)).copy()
    _draw(img, front)
    return img.reduce(SUPERSAMPLE)


def rgb(source: Any, *, moves: Any = None, **options: Any) -> np.ndarray:
    """The board of an env, an ``MNKState`` or a :class:`~boardgame_envs.render.board.Board` (any snapshot) as a ``uint8`` array ``(H, W, 3)``.

    Keywords are the fields of :class:`~boardgame_envs.render.scene.Options`
    (``cell``, ``coordinates``, ``move_numbers``, ``status``, ``ghost``,
    ``hint``, ``note``); ``moves`` numbers the stones of an ``MNKState``.
    """
    return np.asarray(image(Snapshot.of(source, moves), make_options(**options)))
