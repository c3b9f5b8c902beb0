"""A recorded game as an animation: one frame per move, written by Pillow (GIF, APNG, WebP) or imageio (MP4).

A game is a plain move list (actions or the game's names for them: renju
notation, connect four's columns, ...; the first player first) and the game it
was played in, any game of the catalog or the protocol; records in other
formats are read elsewhere into such a list. The m,n,k family's frames are its
own pictures; any other game's are drawn by its drawing hook
(:mod:`~boardgame_envs.render.cells`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from PIL import Image

from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.notation import parse_point
from boardgame_envs.games.protocol import as_family
from boardgame_envs.render.cells import layout_cells
from boardgame_envs.render.snapshot import Snapshot
from boardgame_envs.render.raster import image, paint
from boardgame_envs.render.scene import options as make_options

PILLOW_FORMATS = {".gif": "GIF", ".png": "PNG", ".webp": "WEBP"}
VIDEO_FORMATS = (".mp4",)


def make_game(game: Any = "renju", board_size: int | None = None, win_length: int | None = None,
              rule: str | None = None) -> Any:  # fmt: skip
    """A game by its name in :mod:`boardgame_envs.games.catalog` (``"renju"``, ``"connect_four"``; ``board_size``,
    ``win_length`` and ``rule`` for the m,n,k family), or ``game`` itself when it is a game object."""
    if not isinstance(game, str):
        if not all(hasattr(game, name) for name in ("new_state", "parse_action", "shape")):
            raise TypeError(f"expected a game's name or a game of the protocol, got {type(game).__name__}")
        return game
    return game_info(game).game(board_size, win_length, rule)


def parse_moves(moves: Iterable[int | str] | str, game: Any) -> list[int]:
    """Actions from actions, the game's names for them (``"h8"``, ``"d"``) or one string of names (``"h8 i9 j10"``).

    ``game`` is the game (its ``parse_action`` reads a name), or the side of an m,n,k board.
    """
    read = game.parse_action if hasattr(game, "parse_action") else (lambda text: parse_point(text, int(game)))
    if isinstance(moves, str):
        moves = moves.replace(",", " ").split()
    out = []
    for move in moves:
        if isinstance(move, str):
            out.append(read(move))
        elif isinstance(move, (int, np.integer)) and not isinstance(move, bool):
            out.append(int(move))
        else:
            raise TypeError(f"a move must be an action (int) or a point name like 'h8' (the game's name for it), "
                            f"got {move!r}")  # fmt: skip
    return out


def frames(moves: Iterable[int | str] | str, game: Any = "renju", **options: Any) -> Iterator[np.ndarray]:
    """The pictures of a game: the start position, then the board after each move.

    ``options`` are the drawing keywords of :func:`~boardgame_envs.render.rgb`
    plus ``board_size``, ``win_length`` and ``rule`` for an m,n,k game given by
    name. Raises :class:`~boardgame_envs.games.protocol.IllegalMoveError`
    naming the first move the rules refuse.
    """
    yield from (np.asarray(img) for img in _images(moves, game, options))


def _images(moves: Any, game: Any, options: dict[str, Any]) -> Iterator[Image.Image]:
    rules = {k: options.pop(k) for k in ("board_size", "win_length", "rule") if k in options}
    played = make_game(game, **rules)
    actions = parse_moves(moves, played)
    drawing = make_options(**options)
    state = played.new_state()
    mnk = as_family(played, "mnk") is not None
    yield image(Snapshot.from_state(state, []), drawing) if mnk else _cells(state, drawing, [])
    for i, action in enumerate(actions):
        state.play(action)
        yield image(Snapshot.from_state(state, actions[: i + 1]), drawing) if mnk else _cells(state, drawing, actions[: i + 1])


def _cells(state: Any, drawing: Any, moves: list[int]) -> Image.Image:
    return Image.fromarray(paint(*layout_cells(state, drawing, moves)[:3]))


def animate(
    moves: Iterable[int | str] | str,
    game: Any = "renju",
    path: str | os.PathLike = "game.gif",
    *,
    seconds_per_move: float = 0.7,
    hold_end: float = 3.0,
    **options: Any,
) -> str:
    """Write the game as an animation at ``path`` and return the path.

    ``moves``: actions or the game's names for them, the first player first (a
    list, or one string ``"h8 i9 j10"``). ``game``: a catalog name
    (``"tictactoe"``, ``"gomoku"``, ``"renju"`` with ``board_size=``,
    ``win_length=``, ``rule=``; ``"connect_four"``) or a game object of the
    protocol.
    The format follows the suffix: ``.gif``, ``.png`` (animated PNG) and
    ``.webp`` through Pillow; ``.mp4`` through imageio's ffmpeg plugin when
    it is installed. The last frame stays ``hold_end`` seconds. Other
    keywords are the drawing options of :func:`~boardgame_envs.render.rgb`.
    """
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in PILLOW_FORMATS and suffix not in VIDEO_FORMATS:
        known = ", ".join([*PILLOW_FORMATS, *VIDEO_FORMATS])
        raise ValueError(f"cannot write an animation to {path!r}: the suffix must be one of {known}")
    if seconds_per_move <= 0 or hold_end < 0:
        raise ValueError(f"seconds_per_move must be > 0 and hold_end >= 0, got {seconds_per_move} and {hold_end}")
    images = list(_images(moves, game, dict(options)))
    if suffix in VIDEO_FORMATS:
        _write_video(images, path, seconds_per_move, hold_end)
        return path
    durations = [round(1000 * seconds_per_move)] * len(images)
    durations[-1] += round(1000 * hold_end)
    if suffix == ".gif":
        # One palette for every frame (that of the last, which holds every
        # stone) keeps colours steady from frame to frame and the file small.
        palette = images[-1].quantize(colors=64, dither=Image.Dither.NONE)
        images = [img.quantize(palette=palette, dither=Image.Dither.NONE) for img in images]
    images[0].save(path, format=PILLOW_FORMATS[suffix], save_all=True, append_images=images[1:],
                   duration=durations, loop=0, optimize=suffix == ".gif")  # fmt: skip
    return path


def _write_video(images: list[Image.Image], path: str, seconds_per_move: float, hold_end: float) -> None:
    try:
        import imageio.v3 as iio
        import imageio_ffmpeg  # noqa: F401  (the writer imageio needs for .mp4)
    except ImportError:
        raise ValueError(
            f"writing {path!r} needs imageio and imageio-ffmpeg (pip install 'boardgame-envs[video]'); "
            ".gif, .png and .webp need nothing more"
        ) from None
    fps = 1 / seconds_per_move
    hold = [images[-1]] * round(hold_end * fps)
    # Video codecs want even sizes; pad with the status band's edge colour.
    frames_ = [np.asarray(_even(img)) for img in [*images, *hold]]
    iio.imwrite(path, np.stack(frames_), fps=fps, codec="libx264", macro_block_size=1)


def _even(img: Image.Image) -> Image.Image:
    w, h = img.size
    if w % 2 == 0 and h % 2 == 0:
        return img
    out = Image.new("RGB", (w + w % 2, h + h % 2), img.getpixel((0, h - 1)))
    out.paste(img)
    return out
