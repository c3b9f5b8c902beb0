"""Game records: what was played, by whom, from which opening, and how it ended; saved as SGF.

A :class:`GameRecord` is the whole story of one game. :func:`to_sgf` writes it
in the Smart Game Format with ``GM[4]`` (gomoku / renju; FF[4]), which gomoku
and renju viewers read (e.g. Renlib, Sabaki shows the stones): players in
``PB``/``PW``, the rule in ``RU``, the opening in ``ON`` (``"Kagetsu: h8 h9 i9"``),
the result in ``RE`` (``B+``, ``W+``, ``0`` for a draw, ``B+F``/``W+F`` when the
loser forfeited by an illegal move) and how the game ended in the root
comment ``C``. A win length other than five is stored in the private
property ``KL``. :func:`from_sgf` reads such a file back (round trip:
``from_sgf(to_sgf(r)) == r``); :func:`save` and :func:`load` do it with files.

SGF points are two letters, column then row, ``a`` at the top left, so
action ``a`` on an ``n x n`` board is ``"abc...".[a % n] + "abc...".[a // n]``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import point_name

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_PROPERTY = re.compile(r"([A-Z]+)((?:\[(?:[^\]\\]|\\.)*\]\s*)+)")
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]")
_RESULTS = {BLACK: "B+", WHITE: "W+", 0: "0"}

__all__ = ["GameRecord", "RecordError", "from_sgf", "games_dir", "load", "save", "to_sgf"]


class RecordError(ValueError):
    """A file that is not a game record this module can read."""


@dataclass
class GameRecord:
    """One finished game. ``winner``: 1 black, 2 white, 0 draw; ``moves``: actions, black first."""

    board_size: int
    rule: str
    black: str
    white: str
    moves: list[int]
    winner: int
    win_length: int = 5
    opening: str = ""  # the opening's name, "" for a game from the empty board
    opening_moves: int = 0  # how many of ``moves`` the opening placed
    forfeit: bool = False  # the loser played an illegal move (not in ``moves``)
    reason: str = ""  # how the game ended, in words
    extra: dict[str, str] = field(default_factory=dict)  # other SGF root properties, kept as read

    @property
    def result(self) -> str:
        """``"1-0"`` (black won), ``"0-1"`` or ``"1/2-1/2"``."""
        return {BLACK: "1-0", WHITE: "0-1"}.get(self.winner, "1/2-1/2")

    def notation(self) -> str:
        """The moves in renju notation, ``"h8 h9 i9 ..."``."""
        return " ".join(point_name(a, self.board_size) for a in self.moves)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _point(action: int, n: int) -> str:
    return _LETTERS[action % n] + _LETTERS[action // n]


def to_sgf(record: GameRecord) -> str:
    """The record as one SGF game tree (``GM[4]``)."""
    n = record.board_size
    result = _RESULTS[record.winner] + ("F" if record.forfeit and record.winner else "")
    props = [("GM", "4"), ("FF", "4"), ("CA", "UTF-8"), ("SZ", str(n)), ("RU", record.rule)]
    if record.win_length != 5:
        props.append(("KL", str(record.win_length)))
    props += [("PB", record.black), ("PW", record.white), ("RE", result)]
    if record.opening_moves:
        opening = " ".join(point_name(a, n) for a in record.moves[: record.opening_moves])
        named = record.opening and record.opening != opening
        props.append(("ON", f"{record.opening}: {opening}" if named else opening))
    if record.reason:
        props.append(("C", record.reason))
    props += sorted(record.extra.items())
    root = "".join(f"{key}[{_escape(value)}]" for key, value in props)
    nodes = "".join(f";{'BW'[i % 2]}[{_point(a, n)}]" for i, a in enumerate(record.moves))
    return f"(;{root}\n{nodes})\n"


def from_sgf(text: str) -> GameRecord:
    """A :class:`GameRecord` from SGF text written by :func:`to_sgf` (or any GM[4] game without variations)."""
    body = text.strip()
    if not body.startswith("(") or ";" not in body:
        raise RecordError("not an SGF game: it should start with '(;'")
    nodes = [_properties(node) for node in _split_nodes(body)]
    if not nodes:
        raise RecordError("the SGF game has no nodes")
    root = nodes[0]
    if root.get("GM", "4") != "4":
        raise RecordError(f"GM[{root['GM']}] is not gomoku (GM[4])")
    try:
        n = int(root.get("SZ", "15"))
        win_length = int(root.get("KL", "5"))
    except ValueError as exc:
        raise RecordError(f"bad board size or win length: {exc}") from None
    moves = []
    for node in nodes[1:]:
        for color in ("B", "W"):
            if color in node:
                expected = "BW"[len(moves) % 2]
                if color != expected:
                    raise RecordError(f"move {len(moves) + 1} is {color}'s, but {expected} is to move")
                moves.append(_action(node[color], n))
    result = root.get("RE", "0")
    winner = BLACK if result.startswith("B+") else WHITE if result.startswith("W+") else 0
    opening, opening_moves = "", 0
    if "ON" in root:
        name, _, points = root["ON"].rpartition(": ")
        opening, opening_moves = name or points, len(points.split())  # an unnamed opening is named by its moves
    known = {"GM", "FF", "CA", "SZ", "RU", "KL", "PB", "PW", "RE", "ON", "C"}
    return GameRecord(
        board_size=n, rule=root.get("RU", "freestyle"), black=root.get("PB", ""), white=root.get("PW", ""),
        moves=moves, winner=winner, win_length=win_length, opening=opening, opening_moves=opening_moves,
        forfeit=result.endswith("+F"), reason=root.get("C", ""),
        extra={k: v for k, v in root.items() if k not in known},
    )  # fmt: skip


def _split_nodes(body: str) -> list[str]:
    """The node texts of the main line: the ``;``-separated parts outside brackets."""
    nodes, current, depth, in_value, escaped = [], [], 0, False, False
    for ch in body:
        if in_value:
            current.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == "]":
                in_value = False
            continue
        if ch == "[":
            in_value = True
            current.append(ch)
        elif ch == ";":
            if current:
                nodes.append("".join(current))
            current = []
        elif ch == "(":
            depth += 1
            if depth > 1:
                raise RecordError("SGF variations are not supported: give one line of play")
        elif ch == ")":
            depth -= 1
        else:
            current.append(ch)
    if current:
        nodes.append("".join(current))
    return [node for node in nodes if node.strip()]


def _properties(node: str) -> dict[str, str]:
    props = {}
    for match in _PROPERTY.finditer(node):
        value = _VALUE.match(match.group(2).strip()).group(1)
        props[match.group(1)] = re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL)
    return props


def _action(point: str, n: int) -> int:
    if len(point) != 2 or any(ch not in _LETTERS[:n] for ch in point):
        raise RecordError(f"bad SGF point {point!r} on a {n}x{n} board")
    return _LETTERS.index(point[1]) * n + _LETTERS.index(point[0])


def games_dir(path: str | os.PathLike) -> str | os.PathLike:
    """Make the directory ``path`` (and its parents) for saved games; a clear RecordError if it cannot be."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"cannot save games in {os.fspath(path)!r}: {exc.strerror}") from None
    return path


def save(record: GameRecord, path: str | os.PathLike) -> None:
    """Write ``record`` to ``path`` as SGF."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(to_sgf(record))


def load(path: str | os.PathLike) -> GameRecord:
    """Read the SGF game record at ``path``."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise RecordError(f"cannot read {os.fspath(path)!r}: {exc.strerror}") from None
    try:
        return from_sgf(text)
    except RecordError as exc:
        raise RecordError(f"{os.fspath(path)}: {exc}") from None
