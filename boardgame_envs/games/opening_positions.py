"""Named opening positions, for fair games: play each opening twice, colours swapped.

An :class:`Opening` is a short list of moves (actions, black first) on a given
board size. Built-in sets (:data:`NAMES`) ship as text files in
``boardgame_envs/data/openings/``, in the same format a user can write:

.. code-block:: text

    # comments start with '#'; an optional header line fixes the board:
    # board_size: 15
    Kagetsu: h8 h9 i9
    h8 i9 f6            # an unnamed opening is named by its moves

``rif26`` holds the 26 canonical renju openings of the RIF (15x15);
``balanced15``, ``balanced9`` and ``balanced8`` hold short freestyle openings
chosen to be balanced for the built-in search (see
``baselines/balanced_openings.py`` and ``docs/evaluation.md`` for how).
``connect_four_2ply`` holds connect four's 49 starts of two moves, the ones its
ladder draws from (made and checked by ``baselines/connect_four_openings.py``);
a set for a game other than m,n,k says which in a ``# game: NAME`` header and
writes moves in that game's notation (``d c``), and :func:`for_game` resolves a
match's openings for any game. :func:`resolve` turns what a user gives (a set
name, a file, a list) into openings; :func:`as_opening` reads one, as the
``options={"opening": ...}`` of an env's ``reset``. Bytes are refused with a
TypeError (``b"e5"`` is not two actions), and a file's board size is at most 19
(renju notation's columns a..s). These are opening *positions*, where a fair
game starts; a tournament's opening *rules* (swap, Swap2, Soosõrv) are
:mod:`~boardgame_envs.games.opening_rules`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from boardgame_envs.games.notation import COLUMNS, parse_point, point_name
from boardgame_envs.safeio import FileRefusedError, excerpt, read_bytes

NAMES = ("rif26", "balanced15", "balanced9", "balanced8", "connect_four_2ply")
# The sets the arena plays by default where :func:`default_for` has none but a ladder varies its starts: the
# gomoku8 ladder's board and connect four (whose ladder starts from two random moves).
LADDER_SETS = {"connect_four": "connect_four_2ply", (8, 5, "freestyle"): "balanced8"}
_POINT_LIKE = re.compile(r"^\s*[a-z]\d{1,2}\s*$", re.IGNORECASE)
_HEADER = re.compile(r"^#\s*board_size\s*:\s*(\d+)\s*$")
_GAME_HEADER = re.compile(r"^#\s*game\s*:\s*(\S+)\s*$")
LINE_ERROR_CHARS = 300  # an error about one line of a file says at most this much of what the line holds


class OpeningError(ValueError):
    """An opening or opening set that does not exist, cannot be read, or does not fit the board."""


@dataclass(frozen=True)
class Opening:
    """A named start position: ``moves`` are actions, black first, on a ``board_size`` board.

    An opening of a game other than m,n,k names it in ``game`` (a catalog name, ``"connect_four"``), with
    ``board_size`` 0 and the moves in that game's actions.
    """

    name: str
    moves: tuple[int, ...]
    board_size: int
    game: str = ""

    @property
    def notation(self) -> str:
        """The moves in renju notation, ``"h8 h9 i9"`` (in the game's own, ``"d c"``, for another game)."""
        if self.game:
            names = _game_object(self.game).action_name
            return " ".join(names(a) for a in self.moves)
        return " ".join(point_name(a, self.board_size) for a in self.moves)

    def __str__(self) -> str:
        return f"{self.name} ({self.notation})" if self.name != self.notation else self.name


def parse_moves(text: str, board_size: int) -> tuple[int, ...]:
    """``"h8 h9 i9"`` (points separated by spaces) -> actions on a ``board_size`` board."""
    return tuple(parse_point(token, board_size) for token in text.split())


def parse_set(text: str, board_size: int | None = None, source: str = "<text>") -> list[Opening]:
    """Openings from the text format above; ``board_size`` defaults to the file's header (else 15)."""
    size = board_size
    lines = text.splitlines()
    game = _declared_game(lines, source)
    if game:
        if board_size is not None:
            raise OpeningError(f"{source} holds openings for {game}, not for a {board_size}x{board_size} board")
        return _parse_game_set(lines, game, source)
    for line in lines:
        header = _HEADER.match(line.strip())
        if header:
            declared = int(header.group(1))
            if board_size is not None and declared != board_size:
                raise OpeningError(f"{source} holds openings for {declared}x{declared}, not {board_size}x{board_size}")
            size = declared
    size = 15 if size is None else size
    if not 1 <= size <= len(COLUMNS):
        raise OpeningError(f"{source}: board size {size} is not supported; openings are written in renju notation, "
                           f"for boards up to {len(COLUMNS)}x{len(COLUMNS)}")  # fmt: skip
    openings = []
    for number, line in enumerate(lines, 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        name, colon, moves = body.rpartition(":")
        if not colon:
            name, moves = "", body
        try:
            actions = parse_moves(moves, size)
        except ValueError as exc:  # the message quotes the line's text: at most an excerpt of a long one
            raise OpeningError(f"{source}, line {number}: {excerpt(str(exc), LINE_ERROR_CHARS)}") from None
        if not actions:
            raise OpeningError(f"{source}, line {number}: an opening needs at least one move")
        opening = Opening(name.strip(), actions, size)
        openings.append(opening if opening.name else Opening(opening.notation, actions, size))
    if not openings:
        raise OpeningError(f"{source} holds no openings")
    return openings


def _declared_game(lines: list[str], source: str) -> str:
    """The game a ``# game: NAME`` header names ("" for none), checked against the catalog."""
    names = [m.group(1) for m in map(_GAME_HEADER.match, (line.strip() for line in lines)) if m]
    if not names:
        return ""
    if len(set(names)) > 1:
        raise OpeningError(f"{source} names more than one game: {', '.join(dict.fromkeys(names))}")
    try:
        _game_object(names[0])
    except ValueError as exc:
        raise OpeningError(f"{source}: {exc}") from None
    return names[0]


def _parse_game_set(lines: list[str], game: str, source: str) -> list[Opening]:
    """The openings of a set for ``game`` (not m,n,k): ``name: moves`` or moves, in the game's notation."""
    openings = []
    for number, line in enumerate(lines, 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        name, _, moves = body.rpartition(":")
        try:
            opening = game_opening(moves.split(), game)
        except OpeningError as exc:
            raise OpeningError(f"{source}, line {number}: {excerpt(str(exc), LINE_ERROR_CHARS)}") from None
        openings.append(Opening(name.strip() or opening.name, opening.moves, 0, game))
    if not openings:
        raise OpeningError(f"{source} holds no openings")
    return openings


def _game_object(name: str) -> Any:
    """The catalog's Game called ``name`` (its default parameters); ValueError for an unknown name."""
    from boardgame_envs.games.catalog import game_info  # the catalog is above this module in the games package

    return game_info(name).game()


def game_opening(moves: Any, game: str) -> Opening:
    """One opening of ``game`` (a catalog name, not m,n,k) from its moves: actions, their names, or one string
    of names (``"d c"``); each move is checked against the game's rules, and the opening may not end the game."""
    _refuse_bytes(moves)
    rules = _game_object(game)
    items = moves.split() if isinstance(moves, str) else list(moves) if isinstance(moves, (Sequence, np.ndarray)) else []
    if not items:
        raise OpeningError(f"an opening of {game} is a non-empty list of moves, got {excerpt(repr(moves))}")
    state, actions = rules.new_state(), []
    for i, item in enumerate(items, 1):
        try:
            if isinstance(item, str):
                action = rules.parse_action(item)
            elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
                action = int(item)
            else:
                raise ValueError(f"{excerpt(repr(item))} is neither an action nor a move's name")
        except ValueError as exc:
            raise OpeningError(f"opening move {i}: {excerpt(str(exc), LINE_ERROR_CHARS)}") from None
        reason = state.illegal_reason(action)
        if reason is not None or state.terminal:
            raise OpeningError(f"opening move {i}: {reason or 'the game is over'}")
        state.play(action)
        actions.append(action)
    if state.terminal:
        raise OpeningError(f"opening {' '.join(map(rules.action_name, actions))} ends the game")
    return Opening(" ".join(map(rules.action_name, actions)), tuple(actions), 0, game)


def load(name: str) -> list[Opening]:
    """The built-in opening set ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise OpeningError(f"unknown opening set {name!r}; built-in sets: {', '.join(NAMES)} (or give a file)")
    text = resources.files("boardgame_envs").joinpath("data", "openings", f"{name}.txt").read_text()
    return parse_set(text, source=name)


def read(path: str | os.PathLike, board_size: int | None = None) -> list[Opening]:
    """The openings in the text file at ``path``: at most :data:`~boardgame_envs.safeio.TEXT_LIMIT` bytes are
    read (``/dev/zero`` or an endless pipe is refused past them), UTF-8; OpeningError in one line otherwise."""
    where = os.fspath(path)
    try:
        data = read_bytes(path, what="opening file")
    except OSError as exc:
        raise OpeningError(f"cannot read openings from {where!r}: {exc.strerror}") from None
    except FileRefusedError as exc:
        raise OpeningError(f"cannot read openings from {where!r}: {exc.why}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise OpeningError(f"cannot read openings from {where!r}: not UTF-8 text (byte {exc.start})") from None
    return parse_set(text.replace("\r\n", "\n"), board_size, source=where)


def find(name: str, board_size: int | None = None) -> Opening:
    """A built-in opening by name: ``"rif26/Kagetsu"``, or ``"Kagetsu"`` alone (case-insensitive)."""
    set_name, slash, short = name.rpartition("/")
    sets = [set_name] if slash else list(NAMES)
    for candidate in sets:
        for opening in load(candidate):
            if opening.name.lower() == short.strip().lower() and board_size in (None, opening.board_size):
                return opening
    sizes = f" for {board_size}x{board_size}" if board_size is not None else ""
    raise OpeningError(
        f"unknown opening {name!r}{sizes}: give moves such as 'h8 h9 i9', a list of actions, or a name from the "
        f"built-in sets {', '.join(NAMES)} (e.g. 'rif26/Kagetsu')"
    )


def resolve(spec: Any, board_size: int) -> list[Opening]:
    """What a match's ``openings=`` names, as a list: a set name, a file path, or a list of openings.

    List items may be :class:`Opening` objects, move strings (``"h8 h9 i9"``) or
    sequences of actions. An empty result is an error.
    """
    _refuse_bytes(spec)
    if isinstance(spec, (str, os.PathLike)):
        if isinstance(spec, str) and spec in NAMES:
            openings = load(spec)
        elif os.path.exists(spec):
            openings = read(spec, board_size)
        else:
            raise OpeningError(f"{os.fspath(spec)!r} is neither a built-in opening set ({', '.join(NAMES)}) nor a file")
    elif isinstance(spec, Sequence):
        openings = [as_opening(item, board_size) for item in spec]
        if not openings:
            raise OpeningError("the list of openings is empty")
    else:
        raise OpeningError(f"openings must be a set name, a file or a list of openings, got {spec!r}")
    for opening in openings:
        if opening.game:
            raise OpeningError(f"opening {opening} is for {opening.game}, not for a {board_size}x{board_size} board")
        if opening.board_size != board_size:
            raise OpeningError(
                f"opening {opening} is for {opening.board_size}x{opening.board_size}, not {board_size}x{board_size}"
            )
    return openings


def for_game(spec: Any, game: Any) -> list[Opening]:
    """What a match's ``openings=`` names for ``game`` (a Game), as a list.

    On an m,n,k board this is :func:`resolve`. Another game (connect four) takes a
    set name or file of its own (``# game: NAME``), or a list whose items are
    :class:`Opening` objects, move strings in its notation (``"d c"``) or lists of
    actions; an opening of another game, or an empty list, is an OpeningError.
    """
    if getattr(game, "family", None) == "mnk":
        return resolve(spec, game.size)
    _refuse_bytes(spec)
    if isinstance(spec, (str, os.PathLike)):
        if isinstance(spec, str) and spec in NAMES:
            openings = load(spec)
        elif os.path.exists(spec):
            openings = read(spec)
        else:
            raise OpeningError(f"{os.fspath(spec)!r} is neither a built-in opening set ({', '.join(NAMES)}) nor a file")
    elif isinstance(spec, Sequence):
        openings = [item if isinstance(item, Opening) else game_opening(item, game.name) for item in spec]
        if not openings:
            raise OpeningError("the list of openings is empty")
    else:
        raise OpeningError(f"openings must be a set name, a file or a list of openings, got {spec!r}")
    for opening in openings:
        if opening.game != game.name:
            board = opening.game or f"a {opening.board_size}x{opening.board_size} board"
            raise OpeningError(f"opening {opening} is for {board}, not for {game.name}")
    return openings


def as_opening(spec: Any, board_size: int) -> Opening:
    """One opening from an :class:`Opening`, a name, a move string or a sequence of actions / point names."""
    _refuse_bytes(spec)
    if isinstance(spec, Opening):
        if spec.board_size != board_size:
            raise OpeningError(f"opening {spec} is for {spec.board_size}x{spec.board_size}, not {board_size}x{board_size}")
        return spec
    if isinstance(spec, str):
        try:
            moves = parse_moves(spec, board_size)
        except ValueError:
            try:
                return find(spec, board_size)
            except OpeningError:
                if " " in spec.strip() or _POINT_LIKE.match(spec):  # meant as moves: say which point is wrong
                    raise OpeningError(f"cannot read opening {excerpt(repr(spec))}: {_first_bad_point(spec, board_size)}") from None
                raise
        return Opening(" ".join(point_name(a, board_size) for a in moves), moves, board_size)
    if isinstance(spec, (Sequence, np.ndarray)):
        moves = []
        for item in spec:
            if isinstance(item, str):
                moves.append(parse_point(item, board_size))
            elif isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
                if not 0 <= item < board_size * board_size:
                    raise OpeningError(f"opening move {item} is off the {board_size}x{board_size} board (0..{board_size**2 - 1})")
                moves.append(int(item))
            else:
                raise OpeningError(f"opening move {excerpt(repr(item))} is neither an action nor a point name")
        moves_t = tuple(moves)
        return Opening(" ".join(point_name(a, board_size) for a in moves_t), moves_t, board_size)
    raise OpeningError(
        f"an opening must be moves such as 'h8 h9 i9', a list of actions, an Opening or a built-in name; got {excerpt(repr(spec))}"
    )


def _refuse_bytes(spec: Any) -> None:
    """Bytes are a sequence of small integers: ``b"e5"`` would read as the actions 101 and 53. Refuse them."""
    if isinstance(spec, (bytes, bytearray, memoryview)):
        raise TypeError(f"an opening is text or a list of actions, not {type(spec).__name__} ({bytes(spec)[:20]!r}); "
                        f"decode it first")  # fmt: skip


def _first_bad_point(text: str, board_size: int) -> str:
    for token in text.split():
        try:
            parse_point(token, board_size)
        except ValueError as exc:
            return str(exc)
    return "not a list of points"


def default_for(game: Any) -> str | None:
    """The opening set of a fair start on ``game``'s m,n,k board (the arena's default there, and the set
    AlphaZero's warm start draws from); None for other boards and games (see :func:`match_default`)."""
    if getattr(game, "family", None) != "mnk":
        return None
    return default_set(game.size, game.win_length, game.rule)


def match_default(game: Any) -> str | None:
    """The opening set an arena match of ``game`` (a Game) plays by default, None for the empty board: a set
    wherever the game's ladder starts its pairs from varied openings (tic-tac-toe's starts from the empty board).

    :func:`default_for`'s set, else the ladder's (:data:`LADDER_SETS`); :func:`default_for` itself is
    unchanged by the latter, so AlphaZero's warm start, which reads it, plays as it was measured.
    """
    chosen = default_for(game)
    if chosen is not None:
        return chosen
    if getattr(game, "family", None) == "mnk":
        return LADDER_SETS.get((game.size, game.win_length, game.rule))
    return LADDER_SETS.get(getattr(game, "name", ""))


def default_set(board_size: int, win_length: int, rule: str) -> str | None:
    """The opening set a match plays by default: rif26 for 15x15 renju, balanced sets for 15x15 and 9x9 five."""
    if win_length != 5:
        return None
    if board_size == 15:
        name = "rif26" if rule == "renju" else "balanced15"
    elif board_size == 9 and rule == "freestyle":
        name = "balanced9"
    else:
        return None
    return name if name in NAMES else None
