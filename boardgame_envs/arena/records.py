"""Game records: what was played, by whom, from which opening, and how it ended; saved as SGF.

A :class:`GameRecord` is the whole story of one game. :func:`to_sgf` writes it
in the Smart Game Format with ``GM[4]`` (gomoku / renju; FF[4]), which gomoku
and renju viewers read (e.g. Renlib, Sabaki shows the stones): players in
``PB``/``PW``, the rule in ``RU``, the opening in ``ON`` (``"Kagetsu: h8 h9 i9"``),
the result in ``RE`` (``B+``, ``W+``, ``0`` for a draw, ``B+F``/``W+F`` when the
loser forfeited) and how the game ended in the root comment ``C``. Two private
properties: ``KL``, a win length other than five, and ``FK``, the kind of a
forfeit's fault (``illegal move``, ``timeout``, ``crash``, ``bad answer``).
:func:`from_sgf` reads such a file back (round trip: ``from_sgf(to_sgf(r)) == r``);
:func:`save` and :func:`load` do it with files, and :func:`save_new` writes a new file, never over
another (``game-0001-2.sgf`` when ``game-0001.sgf`` is taken), which ``--save-games`` uses.

A game SGF cannot hold (any catalog game other than m,n,k, such as connect
four) is saved as a move list instead (:func:`to_move_list`): ``key: value``
lines, ``game:`` first and the moves in the game's own notation last, which
:func:`from_move_list` reads back into the same record; :func:`load` tells the
two formats apart by their first characters.

Reading is linear in time and memory (a 1 MB comment parses in milliseconds),
and a file over :data:`MAX_SGF_BYTES` (1 MB) is refused in one line; pass
``limit=`` to read a larger one. Anything the reader cannot represent is refused
with a one-line :class:`RecordError`, never dropped: variations, a second game
in the file, a property given twice in a node, several values where one is
expected. Setup stones (``AB``, ``AW`` in the first node) become the game's
opening, played as alternating moves black first, which is how the envs start
from a position: as many white stones as black, or one fewer, and each stone
legal when placed in that order (under renju, no black stone on a forbidden
point). Other setups are refused, saying why. Other root properties are kept in
:attr:`GameRecord.extra` (a list for several values); comments and markup on
move nodes are not kept. Text values come back exactly as the file has them
(only SGF's ``\\`` escapes are undone): control characters are not interpreted
here, and whatever prints them escapes them.

SGF points are two letters, column then row, ``a`` at the top left, so
action ``a`` on an ``n x n`` board is ``"abc...".[a % n] + "abc...".[a // n]``.

A game played under a tournament opening rule (``OR[swap2]``, Soosõrv,
Taraguchi, RIF) keeps every action, swaps, offers and choices included, one
node each (:mod:`~boardgame_envs.arena.opening_records`); :attr:`GameRecord.moves`
then holds the game's actions, and the record reads back into the same game.
Records written before opening rules read as they always did.
:func:`piskvork_moves` writes stones as Gomocup tools give them to engines.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgame_envs.arena import opening_records
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import point_name
from boardgame_envs.safeio import atomic_write_new

MAX_SGF_BYTES = 1_000_000  # the largest file :func:`load` and :func:`from_sgf` read unless told otherwise

__all__ = [
    "MAX_SGF_BYTES", "GameRecord", "RecordError", "from_move_list", "from_sgf", "games_dir", "is_record", "load",
    "piskvork_moves", "save", "save_new", "to_move_list", "to_sgf",
]  # fmt: skip

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_RESULTS = {BLACK: "B+", WHITE: "W+", 0: "0"}
_SPACE = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Z]+")
_VALUE_END = re.compile(r"[\]\\]")  # the two characters that matter inside a value
_KNOWN = frozenset(
    {"GM", "FF", "CA", "SZ", "RU", "KL", "PB", "PW", "RE", "ON", "C", "FK", "AB", "AW", "AE", "PL", "OR"}
)


class RecordError(ValueError):
    """A file that is not a game record this module can read."""


@dataclass
class GameRecord:
    """One finished game. ``winner``: 1 black, 2 white, 0 draw; ``moves``: actions, black first.

    An m,n,k game is named by ``board_size``, ``rule`` and ``win_length``; any other
    game by its catalog name in ``game`` (``board_size`` 0, ``rule`` ""), and is
    saved as a list of moves, not SGF (which has no connect four).

    Under an opening rule (``opening_rule``, e.g. ``"swap2"``) ``moves`` are the
    game's actions from the start, decisions and offers included (the opening's
    first ``opening_moves`` of them), ``black`` and ``white`` name whoever held
    each colour once the opening had decided, and ``opening`` is "".
    """

    board_size: int
    rule: str
    black: str
    white: str
    moves: list[int]
    winner: int
    win_length: int = 5
    opening: str = ""  # the opening's name, "" for a game from the empty board
    opening_moves: int = 0  # how many of ``moves`` the opening placed
    forfeit: bool = False  # the loser lost by a fault (its illegal move is not in ``moves``)
    reason: str = ""  # how the game ended, in words
    extra: dict[str, str | list[str]] = field(default_factory=dict)  # other SGF root properties, kept as read
    fault: str = ""  # a forfeit's kind: "illegal move", "timeout", "crash", "bad answer", "forfeit"
    # Protocol glitches each side's engine recovered from (black, white); counted by the
    # arena, not saved in SGF, so it takes no part in comparing records.
    glitches: tuple[int, int] = field(default=(0, 0), compare=False)
    game: str = ""  # the catalog name of a game other than m,n,k ("connect_four")
    opening_rule: str = ""  # the tournament opening rule it was played under ("swap2", "soosorv8"), "" for none

    @property
    def result(self) -> str:
        """``"1-0"`` (black won), ``"0-1"`` or ``"1/2-1/2"``."""
        return {BLACK: "1-0", WHITE: "0-1"}.get(self.winner, "1/2-1/2")

    def notation(self) -> str:
        """The moves as players write them: renju notation (``"h8 h9 i9 ..."``, with an opening rule's decisions:
        ``"h8 h9 j9 more ..."``), or the game's own."""
        if self.game or self.opening_rule:
            return " ".join(map(self.game_object().action_name, self.moves))
        return " ".join(point_name(a, self.board_size) for a in self.moves)

    def game_object(self) -> Any:
        """The game it was played in: an ``MNKGame``, an ``OpeningRuleGame`` (an opening rule's) or a catalog game."""
        if self.game:
            from boardgame_envs.games.catalog import game_info

            return game_info(self.game).game()
        if self.opening_rule:
            return opening_records.opening_game(self.board_size, self.win_length, self.rule, self.opening_rule)
        from boardgame_envs.games.mnk import MNKGame

        return MNKGame(self.board_size, self.win_length, self.rule)

    def state(self, moves: int | None = None) -> Any:
        """The game's state after its first ``moves`` moves (all by default), each checked by the rules."""
        count = len(self.moves) if moves is None else moves
        if not 0 <= count <= len(self.moves):
            raise ValueError(f"the game has {len(self.moves)} moves; cannot show the position after {count}")
        game = self.game_object()
        if self.opening_rule:
            return game.state_after(self.moves[:count])
        state = game.new_state()
        for action in self.moves[:count]:
            state.play(action)
        return state

    @property
    def black_seat(self) -> int:
        """The seat that held black (1 the first player, 2 the second): 1 without an opening rule; under one,
        what its swaps decided, replayed from the opening's actions."""
        if not self.opening_rule:
            return 1
        return self.state(self.opening_moves).black_player

    def stones(self) -> list[int]:
        """The stones in the order they were laid (an opening rule's decisions and unchosen offers left out)."""
        if not self.opening_rule:
            return list(self.moves)
        state = self.state(self.opening_moves)
        return [*state.opening_stones(), *self.moves[len(state.actions):]]

    def opening_stones(self) -> list[int]:
        """The stones of the opening (a set opening's moves, or what an opening rule laid), black first."""
        if self.opening_rule:
            return list(self.state(self.opening_moves).opening_stones())
        return list(self.moves[: self.opening_moves])


def piskvork_moves(stones: Sequence[int], board_size: int, relative: bool = False) -> str:
    """Stones as Gomocup tools give them to engines: ``"7,7 8,7 9,9"`` (``x`` the column, ``y`` the row from the top,
    from 0, black first), or with ``relative`` as offsets from the centre, ``"0,0, 1,0, 2,2"`` (a line of
    c-gomoku-cli's offset opening files; the centre is ``board_size // 2`` both ways)."""
    n = board_size
    points = []
    for a in stones:
        if not 0 <= a < n * n:
            raise ValueError(f"{a!r} is not a point of the {n}x{n} board (0..{n * n - 1})")
        y, x = divmod(int(a), n)
        points.append(f"{x - n // 2},{y - n // 2}" if relative else f"{x},{y}")
    return (", " if relative else " ").join(points)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _point(action: int, n: int) -> str:
    return _LETTERS[action % n] + _LETTERS[action // n]


def to_sgf(record: GameRecord) -> str:
    """The record as one SGF game tree (``GM[4]``); m,n,k games only."""
    if record.game:
        raise RecordError(f"SGF has no {record.game}: save its games with save(), which writes a move list")
    n = record.board_size
    result = _RESULTS[record.winner] + ("F" if record.forfeit and record.winner else "")
    props: list[tuple[str, str | list[str]]] = [("GM", "4"), ("FF", "4"), ("CA", "UTF-8"), ("SZ", str(n)), ("RU", record.rule)]
    if record.win_length != 5:
        props.append(("KL", str(record.win_length)))
    props += [("PB", record.black), ("PW", record.white), ("RE", result)]
    if record.fault:
        props.append(("FK", record.fault))
    if record.opening_rule:
        game = _opening_game(record)
        props.append(("OR", game.opening.name))
        if record.opening_moves:
            words = " ".join(map(game.action_name, record.moves[: record.opening_moves]))
            props.append(("ON", f"{game.opening.name}: {words}"))
    elif record.opening_moves:
        opening = " ".join(point_name(a, n) for a in record.moves[: record.opening_moves])
        named = record.opening and record.opening != opening
        props.append(("ON", f"{record.opening}: {opening}" if named else opening))
    if record.reason:
        props.append(("C", record.reason))
    props += sorted(record.extra.items())
    root = "".join(key + "".join(f"[{_escape(v)}]" for v in ([value] if isinstance(value, str) else value))
                   for key, value in props)  # fmt: skip
    if record.opening_rule:
        try:
            nodes = "".join(";" + node for node in opening_records.nodes_of(_opening_game(record), record.moves))
        except opening_records.OpeningRecordError as exc:
            raise RecordError(f"the record's moves are not a game of {record.opening_rule}: {exc}") from None
    else:
        nodes = "".join(f";{'BW'[i % 2]}[{_point(a, n)}]" for i, a in enumerate(record.moves))
    return f"(;{root}\n{nodes})\n"


def _opening_game(record: GameRecord) -> Any:
    try:
        return record.game_object()
    except opening_records.OpeningRecordError as exc:
        raise RecordError(str(exc)) from None


def from_sgf(text: str, limit: int = MAX_SGF_BYTES) -> GameRecord:
    """A :class:`GameRecord` from SGF text written by :func:`to_sgf` (or any GM[4] game without variations).

    Raises :class:`RecordError` (one line) for anything else, and for text longer
    than ``limit`` characters.
    """
    if not isinstance(text, str):
        raise TypeError(f"from_sgf reads text (str), not {type(text).__name__}")
    if len(text) > limit:
        raise RecordError(f"the record is {len(text):,} characters, over the {limit:,} limit (from_sgf's limit=)")
    nodes = _parse(text[1:] if text.startswith("\ufeff") else text)  # a byte-order mark some editors write
    root = nodes[0]
    if _one(root, "GM", "4") != "4":
        raise RecordError(f"GM[{_one(root, 'GM', '')}] is not gomoku (GM[4])")
    try:
        n = int(_one(root, "SZ", "15"))
        win_length = int(_one(root, "KL", "5"))
    except ValueError as exc:
        raise RecordError(f"bad board size or win length: {str(exc)[:80]}") from None
    if not 1 <= n <= len(_LETTERS):
        raise RecordError(f"board size SZ[{n}] is outside 1..{len(_LETTERS)}")
    if not 1 <= win_length <= n:
        raise RecordError(f"win length KL[{win_length}] is outside 1..{n} on a {n}x{n} board")
    rule = _one(root, "RU", "freestyle")
    if "OR" in root:
        return _read_opening_rule_game(root, nodes, n, win_length, rule)
    for number, node in enumerate(nodes):
        ruled = [k for k in (opening_records.DECISION, opening_records.OFFERED) if k in node]
        if ruled:
            raise RecordError(f"node {number + 1} holds {'/'.join(ruled)}, an opening rule's action, but the root "
                              f"names no opening rule (OR[...])")  # fmt: skip
    moves = _setup_moves(nodes, n, win_length, rule)
    setup = len(moves)
    for number, node in enumerate(nodes):
        colours = [c for c in ("B", "W") if c in node]
        if len(colours) > 1:
            raise RecordError(f"node {number + 1} holds a black and a white move; SGF gives one move per node")
        for color in colours:
            expected = "BW"[len(moves) % 2]
            if color != expected:
                raise RecordError(f"move {len(moves) + 1} is {color}'s, but {expected} is to move")
            moves.append(_action(_one(node, color, ""), n))
    result = _one(root, "RE", "0")
    winner = BLACK if result.startswith("B+") else WHITE if result.startswith("W+") else 0
    opening, opening_moves = "", setup
    if "ON" in root:
        name, _, points = _one(root, "ON", "").rpartition(": ")
        opening = name or points  # an unnamed opening is named by its moves
        opening_moves = setup or len(points.split())
    elif setup:
        opening = " ".join(point_name(a, n) for a in moves[:setup])
    if opening_moves > len(moves):
        raise RecordError(f"the opening ON[...] names {opening_moves} moves, but the game has {len(moves)}")
    return GameRecord(
        board_size=n, rule=rule, black=_one(root, "PB", ""), white=_one(root, "PW", ""),
        moves=moves, winner=winner, win_length=win_length, opening=opening, opening_moves=opening_moves,
        forfeit=result.endswith("+F"), reason=_one(root, "C", ""), fault=_one(root, "FK", ""),
        extra={k: v[0] if len(v) == 1 else list(v) for k, v in root.items() if k not in _KNOWN},
    )  # fmt: skip


def _read_opening_rule_game(root: dict[str, list[str]], nodes: list[dict[str, list[str]]], n: int, win_length: int,
                             rule: str) -> GameRecord:  # fmt: skip
    """A record of a game under the opening rule ``OR[...]`` names: one action a node (``opening_records``)."""
    if any(key in node for node in nodes for key in ("AB", "AW", "AE")):
        raise RecordError("a game under an opening rule lays its stones as moves: setup stones (AB/AW/AE) are refused")
    try:
        game = opening_records.opening_game(n, win_length, rule, _one(root, "OR", ""))
        moves = opening_records.actions_of(game, nodes, lambda text: _action(text, n))
        state = opening_records.replay(game, moves)
    except opening_records.OpeningRecordError as exc:
        raise RecordError(str(exc)) from None
    result = _one(root, "RE", "0")
    return GameRecord(
        board_size=n, rule=rule, black=_one(root, "PB", ""), white=_one(root, "PW", ""), moves=moves,
        winner=BLACK if result.startswith("B+") else WHITE if result.startswith("W+") else 0, win_length=win_length,
        opening_moves=len(state.actions), forfeit=result.endswith("+F"), reason=_one(root, "C", ""),
        fault=_one(root, "FK", ""), opening_rule=game.opening.name,
        extra={k: v[0] if len(v) == 1 else list(v) for k, v in root.items() if k not in _KNOWN},
    )  # fmt: skip


def _parse(text: str) -> list[dict[str, list[str]]]:
    """The nodes of the one game in ``text``, each ``{property: [values]}``; one pass over the text."""
    nodes: list[dict[str, list[str]]] = []
    node: dict[str, list[str]] | None = None
    depth, games, i, end = 0, 0, 0, len(text)
    while True:
        i = _SPACE.match(text, i).end()
        if i >= end:
            break
        ch = text[i]
        if ch == "(":
            if depth:
                raise RecordError("SGF variations are not supported: give one line of play")
            if games:
                raise RecordError("the file holds more than one game; give one")
            depth, games, i = 1, 1, i + 1
        elif ch == ")":
            if not depth:
                raise RecordError(f"unbalanced ')' at character {i}")
            depth, i = 0, i + 1
        elif ch == ";" and depth:
            node, i = {}, i + 1
            nodes.append(node)
        elif "A" <= ch <= "Z" and node is not None:
            ident = _IDENT.match(text, i)
            key, i = ident.group(), ident.end()
            if key in node:
                raise RecordError(f"property {key} appears twice in node {len(nodes)}")
            node[key], i = _values(text, i, key)
        else:
            if not nodes:
                raise RecordError(f"not an SGF game: it should start with '(;', not {text[i : i + 10]!r}")
            raise RecordError(f"unexpected {text[i]!r} at character {i} (outside a [value])")
    if not nodes:
        raise RecordError("not an SGF game: it should start with '(;'")
    if depth:
        raise RecordError("the SGF game is not closed: a ')' is missing")
    return nodes


def _values(text: str, i: int, key: str) -> tuple[list[str], int]:
    """The ``[...]`` values of property ``key`` starting at ``i`` (escapes undone), and where they end."""
    values = []
    while True:
        i = _SPACE.match(text, i).end()
        if i >= len(text) or text[i] != "[":
            if not values:
                raise RecordError(f"property {key} has no value: '[' expected at character {i}")
            return values, i
        parts, j = [], i + 1
        while True:
            found = _VALUE_END.search(text, j)
            if found is None:
                raise RecordError(f"the value of {key} opened at character {i} is never closed with ']'")
            parts.append(text[j : found.start()])
            if found.group() == "]":
                i = found.end()
                break
            parts.append(text[found.end() : found.end() + 1])  # the escaped character, as it is
            j = found.end() + 1
        values.append("".join(parts))


def _one(node: dict[str, list[str]], key: str, default: str) -> str:
    values = node.get(key)
    if values is None:
        return default
    if len(values) > 1:
        raise RecordError(f"{key} has {len(values)} values; it takes one")
    return values[0]


def _setup_moves(nodes: list[dict[str, list[str]]], n: int, win_length: int, rule: str) -> list[int]:
    """The first node's setup stones as alternating moves, black first; RecordError where that cannot be done."""
    for number, node in enumerate(nodes):
        if "AE" in node:
            raise RecordError(f"node {number + 1} removes stones (AE): not supported")
        if number and ("AB" in node or "AW" in node):
            raise RecordError(f"node {number + 1} adds setup stones (AB/AW) after the game began: not supported")
    root = nodes[0]
    black = [_action(p, n) for p in root.get("AB", [])]
    white = [_action(p, n) for p in root.get("AW", [])]
    if not black and not white:
        return []
    if len(white) not in (len(black), len(black) - 1):
        raise RecordError(
            f"{len(black)} black and {len(white)} white setup stones (AB/AW) cannot be played as alternating moves "
            f"black first (as many white as black, or one fewer); the envs start from moves, so the file is refused"
        )
    moves = [p for pair in zip(black, white) for p in pair] + black[len(white) :]
    to_move = "BW"[len(moves) % 2]
    if _one(root, "PL", to_move) != to_move:
        raise RecordError(f"PL[{_one(root, 'PL', '')}] after the setup stones, but played as moves {to_move} is to move")
    _check_playable(moves, n, win_length, rule)
    return moves


def _check_playable(moves: list[int], n: int, win_length: int, rule: str) -> None:
    """Play the setup stones in order under the record's rule; RecordError naming the first that cannot be played."""
    from boardgame_envs.games.mnk import MNKGame

    try:
        state = MNKGame(n, win_length, rule).new_state()
    except ValueError as exc:
        raise RecordError(f"setup stones on a game this package cannot play: {exc}") from None
    for number, action in enumerate(moves, 1):
        reason = state.illegal_reason(action) if not state.terminal else "the game is already over"
        if reason is not None:
            raise RecordError(f"setup stone {number} ({point_name(action, n)}) cannot be played as a move: {reason}")
        state.play(action)


def _action(point: str, n: int) -> int:
    if len(point) != 2 or any(ch not in _LETTERS[:n] for ch in point):
        raise RecordError(f"bad SGF point {point[:20]!r} on a {n}x{n} board")
    return _LETTERS.index(point[1]) * n + _LETTERS.index(point[0])


def games_dir(path: str | os.PathLike) -> str | os.PathLike:
    """Make the directory ``path`` (and its parents) for saved games; a clear RecordError if it cannot be."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise RecordError(f"cannot save games in {os.fspath(path)!r}: {exc.strerror}") from None
    return path


_MOVE_LIST_KEYS = ("game", "first", "second", "result", "reason", "fault", "opening", "opening moves", "moves")
_WINNERS = {"1-0": BLACK, "0-1": WHITE, "1/2-1/2": 0}


def to_move_list(record: GameRecord) -> str:
    """A record of a game other than m,n,k as ``key: value`` lines (``game:`` first, ``moves:`` last)."""
    if not record.game:
        raise RecordError("an m,n,k game is written as SGF (to_sgf), not as a move list")
    lines = {"game": record.game, "first": record.black, "second": record.white, "result": record.result,
             "reason": record.reason, "fault": record.fault if record.forfeit else "", "opening": record.opening,
             "opening moves": str(record.opening_moves) if record.opening_moves else "",
             "moves": record.notation()}  # fmt: skip
    for key in ("first", "second", "reason", "opening"):
        if "\n" in lines[key] or "\r" in lines[key]:
            lines[key] = " ".join(lines[key].split())  # one line a value: a name cannot start a key
    return "".join(f"{key}: {value}\n" for key, value in lines.items() if value or key in ("first", "second", "moves"))


def from_move_list(text: str) -> GameRecord:
    """The record :func:`to_move_list` wrote; a RecordError in one line for anything else."""
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in _MOVE_LIST_KEYS:
            raise RecordError(f"line {number}: expected 'key: value' with a key among {', '.join(_MOVE_LIST_KEYS)}")
        if key in values:
            raise RecordError(f"line {number}: {key!r} given twice")
        values[key] = value.strip()
    for key in ("game", "result", "moves"):
        if key not in values:
            raise RecordError(f"a move-list record needs a {key!r} line")
    from boardgame_envs.games.catalog import game_info

    try:
        game = game_info(values["game"]).game()
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    if values["result"] not in _WINNERS:
        raise RecordError(f"result must be one of {', '.join(_WINNERS)}, got {values['result'][:20]!r}")
    moves, state = [], game.new_state()
    for i, name in enumerate(values["moves"].split(), start=1):
        try:
            action = game.parse_action(name)
            state.play(action)
        except ValueError as exc:
            raise RecordError(f"move {i}: {exc}") from None
        moves.append(action)
    opening_moves = values.get("opening moves", "0")
    if not opening_moves.isdigit() or int(opening_moves) > len(moves):
        raise RecordError(f"opening moves must be a count of at most {len(moves)} moves, got {opening_moves[:20]!r}")
    fault = values.get("fault", "")
    return GameRecord(board_size=0, rule="", black=values.get("first", ""), white=values.get("second", ""),
                      moves=moves, winner=_WINNERS[values["result"]], opening=values.get("opening", ""),
                      opening_moves=int(opening_moves), forfeit=bool(fault), reason=values.get("reason", ""),
                      fault=fault, game=game.name)  # fmt: skip


def is_record(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` starts as a game record (SGF, or a move-list record's ``game:`` line),
    rather than as a bare list of moves; False if it cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
    except OSError:
        return False
    return head.startswith(b"(") or head.startswith(b"game:")


def save(record: GameRecord, path: str | os.PathLike) -> os.PathLike | str:
    """Write ``record`` to ``path`` as SGF; a game SGF cannot hold goes to ``path`` with ``.txt`` as a move list
    (:func:`to_move_list`), which :func:`load` reads back.

    Returns the path written. The text goes to a temporary file beside ``path``, renamed over it once whole,
    so a full disk or a crash leaves no empty or cut record at ``path``; a failure raises OSError naming
    ``path`` (``[Errno 28] No space left on device: 'games/game-0007.sgf'``).
    """
    path, text = _file_of(record, path)
    partial = f"{os.fspath(path)}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
    return path


def save_new(record: GameRecord, path: str | os.PathLike) -> str:
    """Write ``record`` as :func:`save` does, to a new file: ``path``, or if that name is taken ``game-0001-2.sgf``,
    ``game-0001-3.sgf``, ...; the path written. Never over another file, so several processes saving games into
    one folder (``--save-games``) keep every record each of them writes. A full disk raises
    :class:`~boardgame_envs.safeio.DiskFullError` (an OSError naming the file and its disk), leaving no file.
    """
    path, text = _file_of(record, path)
    return os.fspath(atomic_write_new(path, text.encode("utf-8")))


def _file_of(record: GameRecord, path: str | os.PathLike) -> tuple[str | os.PathLike, str]:
    """Where ``record`` is written when asked for ``path`` (a move list takes ``.txt``), and its text."""
    if record.game:
        return os.path.splitext(os.fspath(path))[0] + ".txt", to_move_list(record)
    return path, to_sgf(record)


def read_record_text(path: str | os.PathLike, limit: int = MAX_SGF_BYTES, what_limit: str = "") -> str:
    """The UTF-8 text of the record file at ``path``, reading at most ``limit`` bytes (an endless file such as
    ``/dev/zero`` is refused after that many); :class:`RecordError` in one line naming the file otherwise.
    ``what_limit`` names the limit's setting in that error (``" (load's limit=)"``)."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise RecordError(f"cannot read {where!r}: {exc.strerror}") from None
    if len(data) > limit:
        raise RecordError(f"{where}: over the {limit:,}-byte limit for a game record{what_limit}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{where}: not UTF-8 text (byte {exc.start})") from None


def load(path: str | os.PathLike, limit: int = MAX_SGF_BYTES) -> GameRecord:
    """Read the game record at ``path``, SGF or a move list (at most ``limit`` bytes; RecordError beyond)."""
    where = os.fspath(path)
    text = read_record_text(path, limit, " (load's limit=)")
    try:
        return from_move_list(text) if text.lstrip().startswith("game:") else from_sgf(text, limit)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None
