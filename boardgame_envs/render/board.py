"""The public board picture: :class:`Board`, a :class:`~boardgame_envs.render.snapshot.Snapshot` that draws itself.

``Board.of(env)`` takes the position; ``board.svg()``, ``board.rgb()`` and
``board.save("x.png")`` draw it, and Jupyter shows it through ``_repr_svg_``. The
drawing modules read a plain snapshot, so this class, which calls them, sits above them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.render.raster import rgb
from boardgame_envs.render.snapshot import Snapshot, phase_text
from boardgame_envs.render.svg import svg


class Board(Snapshot):
    """What is on the board (see :class:`~boardgame_envs.render.snapshot.Snapshot`), and its pictures."""

    # ----------------------------------------------------------------- pictures
    def svg(self, **options: Any) -> str:
        """The board as an SVG document; options as in :func:`boardgame_envs.render.svg`."""
        return svg(self, **options)

    def rgb(self, **options: Any) -> np.ndarray:
        """The board as a ``uint8`` image ``(H, W, 3)``; options as in :func:`boardgame_envs.render.rgb`."""
        return rgb(self, **options)

    def save(self, path: str, **options: Any) -> None:
        """Write the picture to ``path``: ``.svg`` as SVG, any other suffix Pillow knows (``.png``) as pixels."""
        if str(path).lower().endswith(".svg"):
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.svg(**options))
            return
        from PIL import Image

        Image.fromarray(self.rgb(**options)).save(path)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<Board {self.title()}, {self.num_moves} moves: {self.status()}>"


__all__ = ["Board", "phase_text"]
