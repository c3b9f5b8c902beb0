"""SVG of a board: the shapes of :mod:`~boardgame_envs.render.scene` as SVG elements.

The document is plain text built here (no dependency); :class:`SVG` is a
``str`` that Jupyter shows as the picture.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from boardgame_envs.render.canvas import Disc, Item
from boardgame_envs.render.cells import layout_cells
from boardgame_envs.render.snapshot import Snapshot
from boardgame_envs.render.scene import Circle, Line, Rect, Text, layout
from boardgame_envs.render.scene import options as make_options

FONT = "Helvetica, Arial, sans-serif"


class SVG(str):
    """An SVG document; in Jupyter it shows itself as the picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _color(rgb: tuple[int, int, int] | None) -> str:
    return "none" if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)


def _opacity(alpha: float) -> str:
    return "" if alpha >= 1 else f' opacity="{_num(alpha)}"'


def _element(shape: Item) -> str:
    if isinstance(shape, Disc):  # a disc, or a ring as a stroked circle
        if shape.inner <= 0:
            return (f'<circle cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" r="{_num(shape.outer)}" '
                    f'fill="{_color(shape.color)}"{_opacity(shape.alpha)}/>')  # fmt: skip
        return (f'<circle cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" r="{_num((shape.inner + shape.outer) / 2)}" '
                f'fill="none" stroke="{_color(shape.color)}" stroke-width="{_num(shape.outer - shape.inner)}"'
                f'{_opacity(shape.alpha)}/>')  # fmt: skip
    if isinstance(shape, Rect):
        stroke = "" if shape.outline is None else f' stroke="{_color(shape.outline)}" stroke-width="{_num(shape.width)}"'
        return (f'<rect x="{_num(shape.x0)}" y="{_num(shape.y0)}" width="{_num(shape.x1 - shape.x0)}" '
                f'height="{_num(shape.y1 - shape.y0)}" fill="{_color(shape.fill)}"{stroke}{_opacity(shape.alpha)}/>')  # fmt: skip
    if isinstance(shape, Line):
        return (f'<line x1="{_num(shape.x0)}" y1="{_num(shape.y0)}" x2="{_num(shape.x1)}" y2="{_num(shape.y1)}" '
                f'stroke="{_color(shape.color)}" stroke-width="{_num(shape.width)}"{_opacity(shape.alpha)}/>')  # fmt: skip
    if isinstance(shape, Circle):
        stroke = "" if shape.outline is None else f' stroke="{_color(shape.outline)}" stroke-width="{_num(shape.width)}"'
        return (f'<circle cx="{_num(shape.cx)}" cy="{_num(shape.cy)}" r="{_num(shape.r)}" '
                f'fill="{_color(shape.fill)}"{stroke}{_opacity(shape.alpha)}/>')  # fmt: skip
    return (f'<text x="{_num(shape.x)}" y="{_num(shape.y)}" font-size="{_num(shape.size)}" fill="{_color(shape.color)}" '
            f'text-anchor="{shape.anchor}" dy="0.35em">{escape(shape.text)}</text>')  # fmt: skip


def document(width: int, height: int, shapes: list[Item], title: str) -> SVG:
    """An SVG document of ``width`` x ``height`` pixels holding ``shapes``, back to front."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">')  # fmt: skip
    body = "\n".join(_element(shape) for shape in shapes)
    return SVG(f"{head}\n<title>{escape(title)}</title>\n{body}\n</svg>\n")


def svg(source: Any, *, moves: Any = None, **options: Any) -> SVG:
    """The board of an env, a game state or a :class:`~boardgame_envs.render.board.Board` (any snapshot) as an
    SVG document: any game of the catalog or the protocol.

    The same content and size as :func:`~boardgame_envs.render.rgb` with the
    same keywords (``cell``, ``coordinates``, ``move_numbers``, ``status``,
    ``ghost``, ``hint``, ``note``).
    """
    drawing = make_options(**options)
    board = Snapshot.of(source, moves)
    if board.state is not None:
        width, height, shapes, title = layout_cells(board.state, drawing, board.moves)
        return document(width, height, shapes, title)
    geo, back, front = layout(board, drawing)
    return document(geo.width, geo.height, [*back, *front], f"{board.title()}: {board.status()}")
