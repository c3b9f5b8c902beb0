"""The one table of games: their Game objects, parameters and defaults, and the envs registered for them.

Everything that offers a choice of game reads it from here: the command line's
choices, defaults and help, the PettingZoo and Gymnasium registrations,
:func:`boardgame_envs.envs.factory.make_env`, the single-agent view, the ladders
and the AlphaZero trainer. This is the bottom layer, so it names no module
above it: an env module registers itself for its game with :func:`register_env`
when it is imported (the package imports every one of them), giving its module
name and its PettingZoo and Gymnasium ids, and upper layers keep their own
per-game settings keyed by the catalog name (AlphaZero's:
:mod:`boardgame_envs.alphazero.defaults`). Adding a game is a rules module, an
env module that registers itself, and one entry in :data:`GAMES`
(docs/games.md lists the fields). Every entry is checked when the catalog is
built, and an error names the entry; what can be derived from the game is
derived: ``batched`` (whether numba kernels step its batches). The
gomoku entry's default rule is the package's flagship, renju (freestyle for a k
other than five, where renju is not defined); each ladder names its own rule
(``boardgame-envs ladder``). Gomoku and renju may also be played under a
tournament opening rule (``opening_rule=``: Soosõrv-N, Taraguchi-N, RIF, Swap2).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgame_envs._compat import renamed_attributes
from boardgame_envs.games.mnk import RULES, MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.games.opening_rules import valid_names
from boardgame_envs.games.parameters import Parameter, build, check_declared, choose, read_back


class CatalogError(ValueError):
    """A catalog entry that cannot work: the message names the entry and the field."""


def load(target: str) -> Any:
    """The object a ``"module:attribute"`` string names (a game factory; how a lower layer names an upper one)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class GameInfo:
    """One game of the package and how it is named, built and sized everywhere.

    m,n,k games (tic-tac-toe, gomoku, renju) take ``board_size``, ``win_length``
    and ``rule`` within ``sizes`` and ``rules``; a game with a ``factory``
    (connect four) is built by calling it, with the entry's fixed ``arguments``
    and the ``parameters`` it declares (:mod:`boardgame_envs.games.parameters`:
    a game with sizes, or one variant of it per entry). What the
    layers above make of a game is theirs: its env and registry ids are what
    its env module registered (:func:`register_env`; read through
    :attr:`env`, :attr:`module`, :attr:`pettingzoo_id`, :attr:`gymnasium_ids`),
    its AlphaZero defaults are in :mod:`boardgame_envs.alphazero.defaults`.
    """

    name: str  # as the command line, the single-agent view and the ladder spell it
    summary: str
    sizes: tuple[int, int] | None = None  # smallest and largest board side (m,n,k games)
    default_size: int | None = None
    default_win_length: int | None = None
    rules: tuple[str, ...] = ()
    default_rule: str | None = None
    factory: str | None = None  # "module:attribute" of a Game class or function (games other than m,n,k)
    # The batched engine (boardgame_envs.vector, every game) steps it with the numba kernels its game.kernels()
    # names (the m,n,k family's, connect four's); else it steps the game's states in a loop. None: derived; True
    # without kernels is refused.
    batched: bool | None = None
    opening_rules: bool = False  # it may be played under a tournament opening rule (games/opening_rules.py)
    # A factory's parameters: name -> Parameter(default, choices), chosen by keyword (info.game(rows=3)).
    parameters: dict[str, Parameter] = field(default_factory=dict)
    arguments: dict[str, Any] = field(default_factory=dict)  # a factory's arguments this entry fixes (a variant)

    def __post_init__(self) -> None:
        def bad(field_name: str, why: str) -> CatalogError:
            return CatalogError(f"catalog entry {self.name!r}: {field_name} {why}")

        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise CatalogError(f"catalog entry {self.name!r}: name must be an identifier (the command line spells it)")
        if self.factory is None:
            if self.parameters or self.arguments:
                raise bad("parameters", "and arguments are a factory's: an m,n,k entry has sizes and rules instead")
            self._check_mnk(bad)
            try:
                game = self.game()
            except ValueError as exc:  # defaults the rules refuse (a k longer than the board)
                raise bad("default_size, default_win_length and default_rule", f"make no game: {exc}") from None
            self._derive_batched(game, bad)
            return
        if not isinstance(self.factory, str) or ":" not in self.factory:
            raise bad("factory", f"must be 'module:attribute' of a Game class, got {self.factory!r}")
        mnk_only = ("sizes", "default_size", "default_win_length", "default_rule")
        given = [f for f in mnk_only if getattr(self, f) is not None] + [f for f in ("rules", "opening_rules")
                                                                          if getattr(self, f)]  # fmt: skip
        if given:
            raise bad("factory", f"makes a game that takes no board size, k or rule: leave out {', '.join(given)}")
        why = check_declared(self.parameters, self.arguments)
        if why is not None:
            raise bad("parameters", why)
        defaults = {key: parameter.default for key, parameter in self.parameters.items()}
        try:
            game = build(load(self.factory), self.name, self.arguments, defaults)
        except Exception as exc:  # an entry that cannot build its game is named, whatever went wrong
            raise bad("factory", f"{self.factory!r} does not build a game: {type(exc).__name__}: {exc}") from None
        missing = [a for a in ("name", "num_actions", "shape", "num_planes", "new_state", "action_name",
                               "parse_action", "player_name", "symmetries", "describe") if not hasattr(game, a)]  # fmt: skip
        if missing:
            raise bad("factory", f"{self.factory!r} builds a game without {', '.join(missing)} (games/protocol.py)")
        if game.name != self.name:
            raise bad("factory", f"{self.factory!r} builds a game named {game.name!r}: the names must agree (a "
                                 "factory that serves several entries takes name=, which the catalog passes)")  # fmt: skip
        wanted = {**self.arguments, **defaults}
        kept = {key: getattr(game, key, "<none>") for key in wanted}
        if kept != wanted:
            raise bad("factory", f"{self.factory!r} builds a game that does not keep its arguments as attributes of "
                                 f"the same name: {kept} for {wanted} (an env is told which game by them)")  # fmt: skip
        self._derive_batched(game, bad)

    def _derive_batched(self, game: Any, bad: Any) -> None:
        """``batched`` as the entry's default ``game`` says, by its ``kernels()`` hook: the one rule for every entry."""
        hook = getattr(game, "kernels", None)
        kernels = callable(hook) and hook() is not None
        if self.batched and not kernels:
            raise bad("batched", "is True, but the game has no kernels (game.kernels()): leave it out (derived)")
        object.__setattr__(self, "batched", kernels)

    def _check_mnk(self, bad: Any) -> None:
        """The fields an m,n,k entry needs (no factory): sizes, defaults within them, known rules."""
        if self.sizes is None or self.default_size is None or self.default_win_length is None or self.default_rule is None:
            raise bad("factory", "is None, so this is an m,n,k entry: give sizes, default_size, default_win_length, "
                                 "rules and default_rule (or a factory for any other game)")  # fmt: skip
        low, high = self.sizes
        if not 3 <= low <= high or not low <= self.default_size <= high:
            raise bad("sizes", f"{self.sizes} must be 3 <= low <= high around default_size {self.default_size}")
        unknown = [r for r in self.rules if r not in RULES]
        if not self.rules or unknown:
            raise bad("rules", f"must be some of {', '.join(RULES)}, got {self.rules!r}")
        if self.default_rule not in self.rules:
            raise bad("default_rule", f"{self.default_rule!r} is not among rules {self.rules!r}")

    @property
    def fixed(self) -> bool:
        """Whether the game offers no choice: no board size, k, rule or parameter (tic-tac-toe, renju, connect four)."""
        if self.factory is not None:
            return not self.parameters
        return self.sizes[0] == self.sizes[1] and len(self.rules) == 1

    @property
    def env(self) -> EnvEntry:
        """The env registered for this game (:func:`register_env`); ``CatalogError`` if none is."""
        try:
            return ENVS[self.name]
        except KeyError:
            raise CatalogError(f"catalog entry {self.name!r}: no env module is registered for it; its env module "
                               f"calls boardgame_envs.games.catalog.register_env({self.name!r}, __name__, ...) "
                               "when imported, and the package imports it when it is named <game>_v<N>.py at its root") from None  # fmt: skip

    @property
    def module(self) -> str:
        """The dotted name of the registered env module (with ``env()`` and ``raw_env()``)."""
        return self.env.module

    @property
    def pettingzoo_id(self) -> str:
        return self.env.pettingzoo_id

    @property
    def gymnasium_ids(self) -> dict[str, dict[str, Any]]:
        """The single-agent ids of the registered env and the keyword arguments each fixes."""
        return self.env.gymnasium_ids

    @property
    def env_module(self) -> Any:
        """The registered env module (already imported: it registered itself on import)."""
        return importlib.import_module(self.env.module)

    def env_kwargs(self, game: Any) -> dict[str, Any]:
        """The env module's arguments that make ``game``: an m,n,k game's size, k and rule (none for a fixed one),
        another game's parameters (``game.rows``, ...), and ``game=`` this entry's name where the env module
        serves several entries (so that it builds this one's game, not another's); an opening rule's name."""
        if isinstance(game, OpeningRuleGame):
            return {**self.env_kwargs(game.base), "opening_rule": game.opening.name}
        if self.factory is not None:
            module = self.env.module
            shared = sum(entry.module == module for entry in ENVS.values()) > 1
            return {**({"game": self.name} if shared else {}), **read_back(game, self.parameters)}
        if self.fixed:
            return {}
        return {"board_size": game.size, "win_length": game.win_length, "rule": game.rule}

    def game(
        self, board_size: int | None = None, win_length: int | None = None, rule: str | None = None,
        opening_rule: Any = None, **parameters: Any,
    ) -> Any:  # fmt: skip
        """The Game for these arguments (None: the default); arguments that do not apply raise ``ValueError``.

        ``parameters``: a factory entry's declared parameters by name (``rows=3``), each within its choices.

        ``opening_rule`` (a name such as ``"soosorv8"`` or ``"swap2"``, or
        True for the rule's default) plays the game under that tournament
        opening rule (:class:`~boardgame_envs.games.opening_game.OpeningRuleGame`);
        None or False: from the empty board.
        """
        if opening_rule is not None and opening_rule is not False:
            if not self.opening_rules:
                raise ValueError(f"{self.name} takes no opening rule (opening_rule={opening_rule!r}); gomoku and "
                                 f"renju do: {valid_names()}")  # fmt: skip
            return OpeningRuleGame(self.game(board_size, win_length, rule, **parameters), opening_rule)
        if self.factory is not None:
            given = {"board_size": board_size, "win_length": win_length, "rule": rule}
            bad = [f"{k}={v!r}" for k, v in given.items() if v is not None]
            if bad:
                raise ValueError(f"{self.name} takes no board size, k or rule; {', '.join(bad)} does not apply")
            return build(load(self.factory), self.name, self.arguments, choose(self.name, self.parameters, parameters))
        if parameters:
            raise ValueError(f"{self.name} takes board_size, win_length and rule; {', '.join(parameters)} does not apply")
        if self.fixed:
            defaults = {"board_size": self.default_size, "win_length": self.default_win_length, "rule": self.default_rule}
            given = {"board_size": board_size, "win_length": win_length, "rule": rule}
            bad = [f"{k}={v!r}" for k, v in given.items() if v is not None and v != defaults[k]]
            if bad:
                gomoku = GAMES.get("gomoku")
                wider = gomoku is not None and gomoku is not self and gomoku.sizes[0] <= self.default_size <= gomoku.sizes[1]
                other = " (use gomoku for other sizes and rules)" if wider else ""
                raise ValueError(f"{self.name} is played on a fixed board and rule; {', '.join(bad)} does not apply{other}")
        size = self.default_size if board_size is None else board_size
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not self.sizes[0] <= size <= self.sizes[1]:
            raise ValueError(f"board_size must be an integer in {self.sizes[0]}..{self.sizes[1]}, got {size!r}")
        k = self.default_win_length if win_length is None else win_length
        rule = self.default_rule_for(k) if rule is None else rule
        if rule not in self.rules:
            raise ValueError(f"unknown rule {rule!r}; expected one of {', '.join(self.rules)}")
        return MNKGame(int(size), k, rule, name=self.name)

    def default_rule_for(self, win_length: int) -> str:
        """The rule when none is given: the game's default where it is defined (renju: five in a row only),
        else the first rule of the game (freestyle)."""
        if self.default_rule == "renju" and win_length != 5:
            return self.rules[0]
        return self.default_rule


GAMES: dict[str, GameInfo] = {
    "tictactoe": GameInfo(
        name="tictactoe", summary="3x3, three in a row", sizes=(3, 3), default_size=3, default_win_length=3,
        rules=("freestyle",), default_rule="freestyle",
    ),
    "gomoku": GameInfo(
        name="gomoku", summary="N x N (5..19), k in a row; freestyle, standard or renju", sizes=(5, 19),
        default_size=15, default_win_length=5, rules=RULES, default_rule="renju", opening_rules=True,
    ),
    "renju": GameInfo(
        name="renju", summary="gomoku on 15x15 under the RIF renju rules (black's forbidden moves)",
        sizes=(15, 15), default_size=15, default_win_length=5, rules=("renju",), default_rule="renju",
        opening_rules=True,
    ),
    "connect_four": GameInfo(
        name="connect_four", summary="6x7, gravity, four in a row (a drop-in for PettingZoo's connect_four_v3)",
        factory="boardgame_envs.games.connect_four:ConnectFourGame",
    ),
}  # fmt: skip


def game_info(name: str) -> GameInfo:
    """The catalog entry of ``name``; an unknown name raises ``ValueError`` listing the games."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(GAMES)}") from None


@dataclass(frozen=True)
class EnvEntry:
    """The env an env module offers for a catalog game: what the module said of itself in :func:`register_env`."""

    module: str  # the env module's dotted name, with env() and raw_env()
    pettingzoo_id: str  # "boardgame_envs/NAME-v0", for pettingzoo.make (games may share one: renju, gomoku)
    gymnasium_ids: dict[str, dict[str, Any]]  # the single-agent ids -> the keyword arguments each fixes


# Catalog name -> its env, filled by the env modules as they are imported: the catalog never names one itself.
ENVS: dict[str, EnvEntry] = {}


def register_env(
    game: str, module: str, pettingzoo_id: str, gymnasium_ids: dict[str, dict[str, Any]] | None = None,
) -> EnvEntry:  # fmt: skip
    """Say that env module ``module`` (its ``__name__``) plays catalog game ``game``, under these registry ids.

    An env module calls this on import, once per game it plays (``gomoku_v0``
    plays gomoku and renju); the package registers the ids with PettingZoo and
    Gymnasium after importing every env module. Registering the same entry
    again (a reload) is a no-op; a different one for a game that has one, an
    unknown game or a malformed id raises :class:`CatalogError`.
    """
    if game not in GAMES:
        raise CatalogError(f"register_env: {game!r} is no catalog game; add its entry to GAMES first ({', '.join(GAMES)})")
    if not isinstance(module, str) or not all(part.isidentifier() for part in module.split(".")):
        raise CatalogError(f"catalog entry {game!r}: module must be the env module's dotted name (its __name__), got {module!r}")
    if not isinstance(pettingzoo_id, str) or "/" not in pettingzoo_id:
        raise CatalogError(f"catalog entry {game!r}: pettingzoo_id must be namespaced like 'boardgame_envs/NAME-v0', "
                           f"got {pettingzoo_id!r}")  # fmt: skip
    ids = {} if gymnasium_ids is None else gymnasium_ids
    if not isinstance(ids, dict) or not all(isinstance(k, str) and "/" in k and isinstance(v, dict) for k, v in ids.items()):
        raise CatalogError(f"catalog entry {game!r}: gymnasium_ids must map namespaced ids to keyword dicts, got {ids!r}")
    entry = EnvEntry(module, pettingzoo_id, {k: dict(v) for k, v in ids.items()})
    if ENVS.get(game, entry) != entry:
        raise CatalogError(f"catalog entry {game!r}: {ENVS[game].module} already registered its env; {module} cannot "
                           "register another")  # fmt: skip
    ENVS[game] = entry
    return entry


# Old names (alphazero_defaults, 0.1.0) answer with a DeprecationWarning naming the new one: _compat.RENAMED.
__getattr__ = renamed_attributes(__name__)
