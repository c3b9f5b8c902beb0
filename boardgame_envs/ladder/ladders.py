"""The ladders: fixed lists of levels, each a policy spec with a machine-independent budget.

A level is a registry spec whose strength does not depend on the machine: a number
of simulations, a search depth, a share of random moves, never a time limit. Its
seed comes from the game it plays (:func:`boardgame_envs.ladder.games.game_seed`),
so level 5 is the same player everywhere. The budgets were set by measurement so
that neighbours stand roughly 100-250 Elo apart; the fitted ratings ship as package
data next to this module (``data/LADDER.json``), written by
``python -m boardgame_envs.ladder.build LADDER``.

The 9x9 and 15x15 gomoku ladders and renju go on above the built-in top with **external
levels**: an engine the user builds (Rapfi, never bundled) at fixed node budgets and one
thread, named by spec (``engine:rapfi:nodes=16000,threads=1``) and found through ``--engine
rapfi=PATH`` or ``BOARDGAME_ENVS_RAPFI`` (:mod:`boardgame_envs.gomocup.engines`). They are rated on the
same scale by the same build; ``levels()`` lists them (``level.external``), and ``rate``
climbs into them only where their engine is configured.

``make_policy("level:renju/5")`` builds a level (see :func:`level_policy`).

**Ladders built for any game.** ``boardgame-envs ladder build GAME`` builds a ladder for any
catalog game from built-in levels (:data:`GENERIC_LEVELS`, or the ``--level`` specs given) and
keeps it in the user's ladder folder (:func:`user_dir`: ``$BOARDGAME_ENVS_LADDERS``, else
``~/.cache/boardgame_envs/ladders``), never in the package's data. A built ladder is its table
there, ``NAME.json``, which says its game, parameters and levels; :func:`ladder_for`,
:func:`levels`, ``level:NAME/N`` and ``rate`` find it after the shipped ladders. Its levels are
built-in searches only (:data:`BUILT_IN_KINDS`), so a table in that folder cannot make ``rate``
start a program.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardgame_envs.ladder.errors import LadderError
from boardgame_envs.ladder.table import TableError, read_table

DATA = Path(__file__).parent / "data"
LADDERS_VARIABLE = "BOARDGAME_ENVS_LADDERS"  # the folder of ladders built for any game (boardgame-envs ladder build)
NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")  # a built ladder's name: its file's, and in level:NAME/N


@dataclass(frozen=True)
class Ladder:
    """One game's ladder: the catalog game and its parameters, and its levels' specs, weakest first."""

    name: str
    game: str  # the catalog's name: "tictactoe", "gomoku", "connect_four"
    board_size: int | None  # None for a game that is not m,n,k
    rule: str | None
    specs: tuple[str, ...]
    parameters: tuple[tuple[str, Any], ...] = ()  # a game's declared parameters (games/parameters.py), by name
    folder: Path | None = None  # where its table and log live: None for the package's data (a shipped ladder)

    @property
    def params(self) -> dict[str, Any]:
        """The catalog arguments of the ladder's game (gomoku ladders are five in a row)."""
        if self.board_size is None:
            return dict(self.parameters)
        return {"board_size": self.board_size, "win_length": 5 if self.game == "gomoku" else None, "rule": self.rule}

    def game_object(self) -> Any:
        """The ladder's Game (from the catalog)."""
        from boardgame_envs.games.catalog import game_info

        return game_info(self.game).game(**self.params)

    def env_fn(self) -> Any:
        """A picklable ``env()`` factory for this ladder's game."""
        from boardgame_envs.envs.factory import make_env

        return functools.partial(make_env, self.game, **self.params)

    def opening(self, seed: int) -> tuple[int, ...]:
        """The start of a ladder game, drawn from ``seed`` (the two games of a colour pair share it).

        Three stones near the centre on gomoku boards, none on tic-tac-toe, two
        random moves in a game with no board parameters (connect four).
        """
        from boardgame_envs.ladder.games import random_moves, random_opening

        if self.board_size is None:
            return random_moves(self.game_object(), seed, 2)
        return random_opening(self.board_size, seed) if self.board_size > 3 else ()

    def describe(self) -> str:
        """The game in words: ``"gomoku 15x15 renju"``, ``"connect_four"``, ``"dots_and_boxes rows=3"``."""
        if self.board_size is None:
            return " ".join([self.game, *(f"{key}={value}" for key, value in self.parameters)])
        return " ".join([self.game, f"{self.board_size}x{self.board_size}", *([self.rule] if self.rule else [])])

    @property
    def table_path(self) -> Path:
        return (DATA if self.folder is None else self.folder) / f"{self.name}.json"

    @property
    def log_path(self) -> Path:
        return (DATA if self.folder is None else self.folder) / f"{self.name}.games.jsonl"

    def level_name(self, index: int) -> str:
        return f"{self.name}/{index}"

    @property
    def engines(self) -> tuple[str, ...]:
        """The external engines the ladder's levels name, in order of first use (none for most ladders)."""
        return tuple(dict.fromkeys(e for e in map(engine_of, self.specs) if e is not None))


@dataclass(frozen=True)
class Level:
    """A rated level: ``spec`` builds it (``make_policy(level.spec)``); ``low``..``high`` is its 95% interval.

    ``engine`` names the external engine an external level needs (``"rapfi"``), None for a built-in level.
    """

    name: str
    index: int
    spec: str
    elo: float
    low: float
    high: float
    games: int
    engine: str | None = None

    @property
    def external(self) -> bool:
        """Whether the level is an external engine's, playable only where that engine is configured."""
        return self.engine is not None


def engine_of(spec: str) -> str | None:
    """The engine an external level's spec names (``"engine:rapfi:nodes=4000"`` -> ``"rapfi"``); None if built-in."""
    kind, _, rest = spec.partition(":")
    return rest.partition(":")[0] if kind == "engine" else None


def _greedy(*epsilons: float) -> tuple[str, ...]:
    return tuple(f"greedy:epsilon={e}" if e else "greedy" for e in epsilons)


# From random to search: the one-ply player with a shrinking share of random moves
# (on 15x15 even 2% of greedy moves beat random most of the time), then alpha-beta
# by a node budget (4 times the nodes: about one ply more). Alpha-beta to a fixed
# depth of 1 or 2 was tried and dropped: it rated level with greedy on 9x9 and
# below it on 15x15, where the one-ply player's move order is as good as a shallow
# search. The top, 16,000 nodes (depth 6-7), takes 0.15-0.2 s of CPU a 15x15 move
# on the development machine.
_AB_TOP = ("alphabeta:nodes=1000", "alphabeta:nodes=4000", "alphabeta:nodes=16000,depth=12")
_LEVELS_9 = ("random", *_greedy(0.9, 0.75, 0.6, 0.45, 0.3, 0.2, 0.1, 0.05, 0), *_AB_TOP)  # 8x8 and 9x9
_LEVELS_15 = ("random", *_greedy(0.98, 0.93, 0.8, 0.65, 0.5, 0.38, 0.27, 0.18, 0.1, 0.05, 0), *_AB_TOP)


def _rapfi(*nodes: int) -> tuple[str, ...]:
    return tuple(f"engine:rapfi:nodes={n},threads=1" for n in nodes)


# External levels above the built-in top: Rapfi (classic evaluation, one thread; see
# boardgame_envs.gomocup.engines.KNOWN for the commit and build) at fixed node budgets. A node
# budget and one thread make it the same player on every machine (it plays the same moves twice).
# The first 20-game round on renju put a doubling at 100-190 Elo up to 32,000 nodes and 45-70
# above, so the top step became a quadrupling (128,000 nodes was a level at first and went, to
# spend the games where the levels stand apart); the finished tables give 128-183 a doubling on
# renju and 108-170 on gomoku15 up to 64,000 nodes, and +195 / +146 for the quadrupling.
_RAPFI_15 = _rapfi(2000, 4000, 8000, 16000, 32000, 64000, 256000)
# On 9x9 Rapfi soon draws itself: from the ladder's openings most games between budgets of
# 4,000 nodes and more fill the board. The first rounds had Rapfi at 1,000 nodes level with the
# built-in top (alphabeta:nodes=16000,depth=12 won 2, drew 10, lost 2), 4,000 nodes about 180
# above it (1 win, 9 draws, 11 losses) and 256,000 only some 50 above 4,000 (18 of 21 games
# drawn, 3 won by 256,000), against some 200 above 1,000 (6 draws, 8 wins in 14). So the
# levels are 2,000 nodes, halfway up that climb, and 256,000 at its top; those games stay in
# the log, and levels between would stand too close to tell apart in the games a build affords.
_RAPFI_9 = _rapfi(2000, 256000)
LADDERS: dict[str, Ladder] = {
    "tictactoe": Ladder("tictactoe", "tictactoe", 3, "freestyle", ("random", *_greedy(0.7, 0.4, 0.15), "perfect")),
    "gomoku8": Ladder("gomoku8", "gomoku", 8, "freestyle", _LEVELS_9),
    "gomoku9": Ladder("gomoku9", "gomoku", 9, "freestyle", (*_LEVELS_9, *_RAPFI_9)),
    "gomoku15": Ladder("gomoku15", "gomoku", 15, "freestyle", (*_LEVELS_15, *_RAPFI_15)),
    "renju": Ladder("renju", "gomoku", 15, "renju", (*_LEVELS_15, *_RAPFI_15)),
    # Connect four (games from two random moves): the one-ply player with random moves, then the
    # protocol's MCTS-Solver, then its alpha-beta by nodes (on the development machine 16,000 nodes
    # take about 0.3 s a move). mcts:simulations=200 was a level at first and rated level with
    # greedy (780 against 791 after 252 games each), so it went.
    "connect_four": Ladder("connect_four", "connect_four", None, None, (
        "random", "greedy:epsilon=0.8", "greedy:epsilon=0.5", "greedy:epsilon=0.2", "greedy",
        "mcts:simulations=1000", "alphabeta:nodes=4000", "alphabeta:nodes=16000",
        "perfect:nodes=100000", "perfect:nodes=2000000", "perfect:nodes=20000000",
    )),
}


def ladder_for(game: str, rule: str | None = None, board_size: int | None = None,
               parameters: dict[str, Any] | None = None) -> Ladder:  # fmt: skip
    """The ladder of a catalog game (``tictactoe``, ``gomoku``, ``renju``, ``connect_four``) or a ladder's name.

    A game's arguments pick among its ladders; with no rule given, the game's
    default rule is tried first (gomoku: renju), then the game's other rules,
    so ``gomoku --board-size 9`` finds the 9x9 freestyle ladder. Then the ladders
    built for any game (:func:`user_dir`), by name: a game's own, for its arguments
    (:func:`built_name`: ``dots_and_boxes``, ``gomoku7``), or a built ladder's name;
    with ``parameters`` (``{"rows": 3}``, checked by the game's entry), any built ladder of that game.
    None: ``LadderError`` naming the command that builds one.
    """
    plain = rule is None and board_size is None and not parameters
    if game in LADDERS and plain:
        return LADDERS[game]
    from boardgame_envs.games.catalog import GAMES, game_info

    built = built_ladder(game) if game not in GAMES and plain else None
    if built is not None:
        return built
    given = parameters or {}
    try:
        info = game_info(game)
        wanted = [info.game(board_size, None, rule, **given)] if rule is not None or not info.rules else [
            info.game(board_size, None, r, **given) for r in dict.fromkeys((info.default_rule, *info.rules))
        ]  # fmt: skip
    except ValueError as exc:
        raise LadderError(f"{exc}; ladders: {_ladder_list()}") from None
    for target in wanted:
        for ladder in LADDERS.values():
            if ladder.game_object() == target:
                return ladder
    built = built_ladder(built_name(game, board_size, rule, parameters))
    if built is not None:
        return built
    for name in built_names():  # built under another name, or with its defaults spelt out (--param rows=2)
        try:
            built = built_ladder(name)
        except ValueError:  # another game's corrupt table is no answer here
            continue
        if built is not None and built.game == game and built.game_object() == wanted[0]:
            return built
    what = " ".join([game, *([f"{board_size}x{board_size}"] if board_size else []), *([f"rule {rule!r}"] if rule else []),
                     *(f"{key}={value}" for key, value in given.items())])  # fmt: skip
    how = " ".join(["boardgame-envs ladder build", game, *([f"--board-size {board_size}"] if board_size else []),
                    *([f"--rule {rule}"] if rule else []), *(f"--param {key}={value}" for key, value in given.items())])  # fmt: skip
    raise LadderError(f"no ladder for {what}; build one with `{how}` (docs/evaluation.md); ladders: {_ladder_list()}")


def _ladder_list() -> str:
    shipped = [f"{x.name} ({x.describe()})" for x in LADDERS.values()]
    return ", ".join(shipped + [f"{name} (built here)" for name in built_names()])


def ladder_names() -> list[str]:
    """Every ladder's name: the shipped ones, then those built here."""
    return [*LADDERS, *(name for name in built_names() if name not in LADDERS)]


def find_ladder(name: str) -> Ladder | None:
    """The ladder named ``name``: a shipped one, else one built here; None if there is none."""
    return LADDERS.get(name) or built_ladder(name)


# ---------------------------------------------------------------------- ladders built for any game
# The built-in levels of a ladder built for any game, weakest first: random, the one-ply player with a shrinking
# share of random moves, the protocol's MCTS-Solver and alpha-beta by budget (every one a count, never time).
GENERIC_LEVELS = (
    "random", "greedy:epsilon=0.75", "greedy:epsilon=0.5", "greedy:epsilon=0.25", "greedy",
    "mcts:simulations=200", "mcts:simulations=1000", "alphabeta:nodes=1000", "alphabeta:nodes=4000",
)  # fmt: skip
BUILT_IN_KINDS = ("random", "greedy", "mcts", "uct", "alphabeta", "perfect")  # what a built ladder's levels may be


def user_dir() -> Path:
    """The folder of ladders built for any game: ``$BOARDGAME_ENVS_LADDERS``, else ``$XDG_CACHE_HOME`` (or
    ``~/.cache``) ``/boardgame_envs/ladders``. Not created until a build writes there."""
    own = os.environ.get(LADDERS_VARIABLE)
    if own:
        return Path(own).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "boardgame_envs" / "ladders"


def built_name(game: str, board_size: int | None = None, rule: str | None = None,
               parameters: dict[str, Any] | None = None) -> str:  # fmt: skip
    """The name a built ladder of this game gets by default: ``dots_and_boxes``, ``gomoku7``,
    ``gomoku7-freestyle``, ``dots_and_boxes-rows3-columns3``."""
    name = game + (str(board_size) if board_size else "") + (f"-{rule}" if rule else "")
    return name + "".join(f"-{key}{value}" for key, value in (parameters or {}).items())


def check_level(spec: str) -> str:
    """``spec`` if it can be a level of a built ladder (a built-in search's spec), else ``LadderError``."""
    kind = spec.partition(":")[0] if isinstance(spec, str) else None
    if kind not in BUILT_IN_KINDS:
        raise LadderError(f"a built ladder's level is a built-in search ({', '.join(BUILT_IN_KINDS)}), not {spec!r}")
    return spec


def built_names() -> list[str]:
    """The names of the ladders built here (their tables in :func:`user_dir`), sorted; nothing is read."""
    folder = user_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(".json")] for p in folder.glob("*.json") if NAME_PATTERN.fullmatch(p.name[: -len(".json")]))


def built_ladder(name: str) -> Ladder | None:
    """The ladder built here under ``name`` (its table, checked), or None if there is none."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name) or name in LADDERS:
        return None
    path = user_dir() / f"{name}.json"
    try:
        table = read_table(path)
    except FileNotFoundError:
        return None

    def fail(problem: str) -> TableError:
        return TableError(f"the ladder table {path} is corrupt: {problem}")

    from boardgame_envs.games.catalog import GAMES

    if table.get("ladder") != name:
        raise fail(f"it names ladder {table.get('ladder')!r}, not {name!r} (its file's name)")
    if table.get("game") not in GAMES:
        raise fail(f"'game' must be a catalog game ({', '.join(GAMES)}), got {table.get('game')!r:.60}")
    size, rule, parameters = table.get("board_size"), table.get("rule"), table.get("parameters", {})
    if not (size is None or type(size) is int) or not (rule is None or isinstance(rule, str)):
        raise fail(f"'board_size' must be an integer or null and 'rule' a string or null, got {size!r:.20}, {rule!r:.20}")
    if not isinstance(parameters, dict) or not all(isinstance(v, (int, float, str, bool)) for v in parameters.values()):
        raise fail(f"'parameters' must map names to numbers or strings, got {parameters!r:.60}")
    try:
        specs = tuple(check_level(row["spec"]) for row in table["levels"])
    except LadderError as exc:
        raise fail(str(exc)) from None
    return Ladder(name, table["game"], size, rule, specs, tuple(parameters.items()), user_dir())


def load_table(ladder: Ladder) -> dict[str, Any]:
    """The published table of ``ladder`` (package data, or the folder of a built ladder); raises if it has not
    been built."""
    # read_table refuses a corrupt table with a TableError naming the file.
    try:
        table = read_table(ladder.table_path)
    except FileNotFoundError:
        how = (f"python -m boardgame_envs.ladder.build {ladder.name}" if ladder.folder is None
               else f"boardgame-envs ladder build {ladder.game}")  # fmt: skip
        raise LadderError(f"ladder {ladder.name!r} has no ratings yet; build them: {how}") from None
    rated = [lv["spec"] for lv in table["levels"]]
    unrated = ladder.specs[len(rated) :]
    if rated != list(ladder.specs[: len(rated)]) or any(engine_of(spec) is None for spec in unrated):
        raise LadderError(f"the table {ladder.table_path} rates other levels than ladder {ladder.name!r} defines; rebuild it")
    return table  # external levels not rated yet are left out until a build with their engine rates them


def levels(game: str, rule: str | None = None, board_size: int | None = None) -> list[Level]:
    """The rated levels of a game's ladder, weakest first (level 0, uniform random, is pinned at 0 Elo).

    External levels (an engine's, ``level.external``) come after the built-in ones; they are
    listed whether or not their engine is configured here (``rate`` plays them only where it is).
    """
    ladder = ladder_for(game, rule, board_size)
    return [
        Level(ladder.level_name(i), i, lv["spec"], lv["elo"], lv["low"], lv["high"], lv["games"], engine_of(lv["spec"]))
        for i, lv in enumerate(load_table(ladder)["levels"])
    ]


def level_spec(target: str) -> str:
    """The spec of level ``"LADDER/N"`` (``"renju/5"``, or a built ladder's: ``"dots_and_boxes/3"``)."""
    name, slash, index = target.partition("/")
    ladder = find_ladder(name)
    if ladder is None:
        raise LadderError(f"unknown ladder {name!r} in level {target!r}; ladders: {', '.join(ladder_names())}")
    specs = ladder.specs
    if not slash or not index.isdigit() or int(index) >= len(specs):
        raise LadderError(f"ladder {name!r} has levels {name}/0 .. {name}/{len(specs) - 1}, not {target!r}")
    return specs[int(index)]


def level_policy(target: str, seed: int | None = None) -> Any:
    """The policy of level ``target`` (``"renju/5"``): the registry's ``level:LADDER/N`` kind."""
    from boardgame_envs.policies.registry import make_policy

    return make_policy(level_spec(target), seed=seed)
