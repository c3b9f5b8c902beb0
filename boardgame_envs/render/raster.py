"""Pixels of a board: the shapes of :mod:`~boardgame_envs.render.scene` drawn with Pillow.

Shapes are drawn at twice the size and halved with a box filter, which
smooths their edges; text uses the font that ships inside Pillow, so the
pixels are the same on every machine with the same Pillow version. What
every position of a game shares (board, grid, coordinates) is drawn once
and kept. Any other game's picture (:mod:`~boardgame_envs.render.cells`) is
painted by :func:`paint`, whose discs and rings
(:class:`~boardgame_envs.render.canvas.Disc`) have hard edges, drawn pixel by
pixel, so the cell look keeps its pixels; its other shapes go through Pillow
as above.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from boardgame_envs.render.canvas import Disc, Item
from boardgame_envs.render.cells import DEFAULT_CELL, layout_cells
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


def paint(width: int, height: int, items: Iterable[Item]) -> np.ndarray:
    """``items`` (a cell picture's shapes, back to front) as a ``uint8`` image ``(height, width, 3)``."""
    image = np.zeros((height, width, 3), dtype=np.uint8)
    pending: list[Shape] = []
    for item in items:
        if isinstance(item, Disc):
            image = _flush(image, pending)
            pending = []
            _disc(image, item)
        else:
            pending.append(item)
    return _flush(image, pending)


def _flush(image: np.ndarray, shapes: list[Shape]) -> np.ndarray:
    """``image`` with ``shapes`` drawn on it: plain rectangles on whole pixels at once, the rest with Pillow at
    twice the size (the image enlarged without blending, so every pixel no shape touches comes back as it was)."""
    if all(isinstance(s, Rect) and s.outline is None and s.fill is not None and s.alpha >= 1
           and all(float(v).is_integer() for v in s[:4]) for s in shapes):  # fmt: skip
        for s in shapes:
            image[max(0, int(s.y0)):max(0, int(s.y1)), max(0, int(s.x0)):max(0, int(s.x1))] = s.fill
        return image
    h, w = image.shape[:2]
    img = Image.fromarray(image).resize((w * SUPERSAMPLE, h * SUPERSAMPLE), Image.Resampling.NEAREST)
    _draw(img, shapes)
    return np.array(img.reduce(SUPERSAMPLE))


def _disc(image: np.ndarray, disc: Disc) -> None:
    """The pixels whose centres lie ``inner <= d < outer`` from the disc's centre take its colour (blended at alpha)."""
    h, w = image.shape[:2]
    x0, y0 = int(np.floor(disc.cx - disc.outer)), int(np.floor(disc.cy - disc.outer))
    width, height = int(np.ceil(disc.cx + disc.outer)) - x0, int(np.ceil(disc.cy + disc.outer)) - y0
    mask = _disc_mask(disc.cx - x0, disc.cy - y0, width, height, disc.inner, disc.outer)
    left, top = max(0, -x0), max(0, -y0)  # the part of the disc's box inside the image
    mask = mask[top:max(top, min(height, h - y0)), left:max(left, min(width, w - x0))]
    tile = image[y0 + top:y0 + top + mask.shape[0], x0 + left:x0 + left + mask.shape[1]]
    if disc.alpha >= 1:
        tile[mask] = disc.color
    else:
        tile[mask] = np.round(disc.alpha * np.array(disc.color) + (1 - disc.alpha) * tile[mask]).astype(np.uint8)


@lru_cache(maxsize=256)
def _disc_mask(cx: float, cy: float, width: int, height: int, inner: float, outer: float) -> np.ndarray:
    """The pixels of a ``width`` x ``height`` box whose centres lie ``inner <= d < outer`` from ``(cx, cy)`` in it:
    the same for every disc of a picture, so computed once."""
    y, x = np.mgrid[0:height, 0:width] + 0.5
    r = np.hypot(y - cy, x - cx)
    mask = (r >= inner) & (r < outer)
    mask.flags.writeable = False
    return mask


def render_cells(state: Any, cell: int = DEFAULT_CELL) -> np.ndarray:
    """Any protocol state as a ``(rows * cell, columns * cell, 3)`` uint8 picture without a status band: the
    game's own drawing, else a piece per cell with the last marked; a pass is a bar along the bottom edge (what
    the env's ``rgb_array`` draws with its default ``render_options``)."""
    return paint(*layout_cells(state, Options(cell=cell, status=False))[:3])


def rgb(source: Any, *, moves: Any = None, **options: Any) -> np.ndarray:
    """The board of an env, a game state or a :class:`~boardgame_envs.render.board.Board` (any snapshot) as a
    ``uint8`` array ``(H, W, 3)``: any game of the catalog or the protocol.

    Keywords are the fields of :class:`~boardgame_envs.render.scene.Options`
    (``cell``, ``coordinates``, ``move_numbers``, ``status``, ``ghost``,
    ``hint``, ``note``); ``moves`` (the actions from the start) number the
    pieces of a state (an env and a Board know their own). A game other than
    m,n,k is drawn by its drawing hook
    (:func:`~boardgame_envs.render.cells.layout_cells`), with a status band.
    """
    drawing = make_options(**options)
    board = Snapshot.of(source, moves)
    if board.state is not None:
        return paint(*layout_cells(board.state, drawing, board.moves)[:3])
    return np.asarray(image(board, drawing))
