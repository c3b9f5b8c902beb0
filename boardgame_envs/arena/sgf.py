"""Game records in the Smart Game Format: :func:`to_sgf` writes one, :func:`from_sgf` reads it back.

:func:`to_sgf` writes a :class:`~boardgame_envs.arena.game_record.GameRecord`
with ``GM[4]`` (gomoku / renju; FF[4]), which gomoku and renju viewers read
(e.g. Renlib, Sabaki shows the stones): players in ``PB``/``PW``, the rule in
``RU``, the opening in ``ON`` (``"Kagetsu: h8 h9 i9"``), the result in ``RE``
(``B+``, ``W+``, ``0`` for a draw, ``B+F``/``W+F`` when the loser forfeited; none for a game with
no result, which reads back from no ``RE``, ``RE[?]`` or ``RE[Void]``) and
how the game ended in the root comment ``C``. Two private properties: ``KL``, a
win length other than five, and ``FK``, the kind of a forfeit's fault
(``illegal move``, ``timeout``, ``crash``, ``bad answer``). The invariant is the
round trip: ``from_sgf(to_sgf(r)) == r``. SGF holds m,n,k games only; any
other game is a move list (:mod:`~boardgame_envs.arena.move_list_records`).

Reading is linear in time and memory (a 1 MB comment parses in milliseconds),
and text over :data:`MAX_SGF_BYTES` (1 MB) is refused in one line; pass
``limit=`` to read a larger one. Anything the reader cannot represent is refused
with a one-line :class:`~boardgame_envs.arena.game_record.RecordError`, never
dropped: variations, a second game in the file, a property given twice in a
node, several values where one is expected. Setup stones (``AB``, ``AW`` in the
first node) become the game's opening, played as alternating moves black first,
which is how the envs start from a position: as many white stones as black, or
one fewer, and each stone legal when placed in that order (under renju, no black
stone on a forbidden point). Other setups are refused, saying why. Other root
properties are kept in :attr:`GameRecord.extra` (a list for several values);
comments and markup on move nodes are not kept. Text values come back exactly as
the file has them (only SGF's ``\\`` escapes are undone): control characters are
not interpreted here, and whatever prints them escapes them.

SGF points are two letters, column then row, ``a`` at the top left, so
action ``a`` on an ``n x n`` board is ``"abc...".[a % n] + "abc...".[a // n]``.

A game played under a tournament opening rule (``OR[swap2]``, Soosõrv,
Taraguchi, RIF) keeps every action, swaps, offers and choices included, one
node each (:mod:`~boardgame_envs.arena.opening_records`); :attr:`GameRecord.moves`
then holds the game's actions, and the record reads back into the same game.
Records written before opening rules read as they always did.
"""

from __future__ import annotations

import re
from typing import Any

from boardgame_envs.arena import opening_records
from boardgame_envs.arena.game_record import GameRecord, RecordError, check_result, replay_moves
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import point_name

__all__ = ["MAX_SGF_BYTES", "from_sgf", "to_sgf"]

MAX_SGF_BYTES = 1_000_000  # the largest file records.load and from_sgf read unless told otherwise

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_RESULTS = {BLACK: "B+", WHITE: "W+", 0: "0"}
# How a game stopped before its end, in RE after the winner (SGF's conventions): the fault each means.
_FAULTS = {"r": "resignation", "resign": "resignation", "t": "timeout", "time": "timeout", "f": "", "forfeit": ""}
_ENDED_BY = {"resignation": "R"}  # written with SGF's own letter; every other fault as F (with FK)
# RE with no winner (the SGF spec's values): a draw (True), or no result (False: unknown, void, a game in progress)
_NO_WINNER = {"0": True, "draw": True, "?": False, "void": False, "": False}
_SPACE = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Z]+")
_VALUE_END = re.compile(r"[\]\\]")  # the two characters that matter inside a value
_KNOWN = frozenset(
    {"GM", "FF", "CA", "SZ", "RU", "KL", "PB", "PW", "RE", "ON", "C", "FK", "AB", "AW", "AE", "PL", "OR"}
)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _point(action: int, n: int) -> str:
    return _LETTERS[action % n] + _LETTERS[action // n]


def to_sgf(record: GameRecord) -> str:
    """The record as one SGF game tree (``GM[4]``); m,n,k games only."""
    if record.game:
        raise RecordError(f"SGF has no {record.game}: save its games with save(), which writes a move list")
    if record.parameters:  # an m,n,k game's size and rule are its SZ, KL and RU: nothing else would be kept
        raise RecordError(f"an m,n,k record takes board_size, win_length and rule, not parameters {record.parameters}")
    n = record.board_size
    result = ""  # no result: no RE, as SGF writers leave a game in progress (record.result refuses a winner here)
    if record.result != "*":
        result = _RESULTS[record.winner] + (_ENDED_BY.get(record.fault, "F") if record.forfeit and record.winner else "")
    props: list[tuple[str, str | list[str]]] = [("GM", "4"), ("FF", "4"), ("CA", "UTF-8"), ("SZ", str(n)), ("RU", record.rule)]
    if record.win_length != 5:
        props.append(("KL", str(record.win_length)))
    props += [("PB", record.black), ("PW", record.white)] + ([("RE", result)] if result else [])
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
    winner, forfeit, fault, finished = _result(root)
    opening, opening_moves = "", setup
    if "ON" in root:
        name, _, points = _one(root, "ON", "").rpartition(": ")
        opening = name or points  # an unnamed opening is named by its moves
        opening_moves = setup or len(points.split())
    elif setup:
        opening = " ".join(point_name(a, n) for a in moves[:setup])
    if opening_moves > len(moves):
        raise RecordError(f"the opening ON[...] names {opening_moves} moves, but the game has {len(moves)}")
    record = GameRecord(
        board_size=n, rule=rule, black=_one(root, "PB", ""), white=_one(root, "PW", ""),
        moves=moves, winner=winner, win_length=win_length, opening=opening, opening_moves=opening_moves,
        forfeit=forfeit, reason=_one(root, "C", ""), fault=fault, finished=finished,
        extra={k: v[0] if len(v) == 1 else list(v) for k, v in root.items() if k not in _KNOWN},
    )  # fmt: skip
    try:
        game = record.game_object()
    except ValueError as exc:  # a rule this package does not play: its result could not be checked
        raise RecordError(f"RU[{rule}]: {exc}") from None
    check_result(record, replay_moves(game, moves))
    return record


def _result(root: dict[str, list[str]]) -> tuple[int, bool, str, bool]:
    """``RE``'s winner (0 for a draw, ``0`` or ``Draw``, or for no result: ``?``, ``Void``, none), whether the game
    stopped by the loser's forfeit (``B+F``, ``W+R`` a resignation, ``B+T`` a loss on time), the forfeit's kind
    (``FK``, else the one ``RE`` names), and whether the game has a result; a RecordError for any other ``RE``."""
    result = _one(root, "RE", "?")
    winner = BLACK if result.startswith("B+") else WHITE if result.startswith("W+") else 0
    if not winner and result.strip().lower() not in _NO_WINNER:
        raise RecordError(f"RE[{result[:20]}] is not a result: B+..., W+..., 0 or Draw, ? or Void for none")
    finished = bool(winner) or _NO_WINNER[result.strip().lower()]
    fault = _FAULTS.get(result[2:].lower()) if winner else None
    if fault is None:
        return winner, False, _one(root, "FK", ""), finished
    return winner, True, _one(root, "FK", fault), finished


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
    winner, forfeit, fault, finished = _result(root)
    record = GameRecord(
        board_size=n, rule=rule, black=_one(root, "PB", ""), white=_one(root, "PW", ""), moves=moves,
        winner=winner, win_length=win_length, opening_moves=len(state.actions), forfeit=forfeit,
        reason=_one(root, "C", ""), fault=fault, opening_rule=game.opening.name, finished=finished,
        extra={k: v[0] if len(v) == 1 else list(v) for k, v in root.items() if k not in _KNOWN},
    )  # fmt: skip
    check_result(record, state)
    return record


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
