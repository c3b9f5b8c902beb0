"""``boardgame-envs train``: AlphaZero from the command line.

    boardgame-envs train tictactoe --minutes 5
    boardgame-envs train gomoku --board-size 9 --rule freestyle --minutes 60 --out runs/g9
    boardgame-envs train gomoku --board-size 9 --rule freestyle --opening-rule swap2 --minutes 20

``--opening-rule`` trains under a tournament opening rule (the game's, as
``gomoku_v0.env(opening_rule=...)``: docs/opening_rules.md).

Every :class:`AlphaZeroConfig` field is a flag (``--c-puct``, ``--no-augment``, ...),
shown in ``--help`` with its docstring and default; a flag left out keeps the
game's tuned default (:meth:`AlphaZeroConfig.for_game`). This module imports no
torch, so the command can describe itself (and say what is missing) on an
install without the ``train`` extra.
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from pathlib import Path
from typing import Any

from boardgame_envs.alphazero.config import BACKENDS, ROOTS, AlphaZeroConfig, field_docs
from boardgame_envs.alphazero.summary import SUMMARY
from boardgame_envs.cliargs import (
    add_game_arguments,
    add_opening_rule_argument,
    game_env_fn,
    say_interrupted,
)

CHOICES = {"backend": BACKENDS, "root": ROOTS}  # fields with a fixed list of values
SHOWN_DEFAULTS = {"out": "runs/GAME; gomoku: runs/gomokuN_RULE (_OPENINGRULE under one)"}  # defaults the command picks, not the dataclass


def _optional(kind: Any) -> Any:
    """argparse type for ``T | None``: ``none`` gives None."""

    def parse(text: str) -> Any:
        return None if text.strip().lower() == "none" else kind(text)

    parse.__name__ = kind.__name__  # argparse names the type in its error message
    return parse


def _tuple(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _show(value: Any) -> str:
    return ",".join(value) if isinstance(value, tuple) else str(value)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The game's arguments and a flag a config field; a flag left out is absent from the namespace, so
    that one given as ``none`` (``--warm-start none``) overrides a game's default with None."""
    add_game_arguments(parser)
    add_opening_rule_argument(parser)
    docs = field_docs()
    hints = typing.get_type_hints(AlphaZeroConfig)
    tictactoe, gomoku = AlphaZeroConfig.for_game("tictactoe"), AlphaZeroConfig.for_game("gomoku")
    for f in dataclasses.fields(AlphaZeroConfig):
        flag = "--" + f.name.replace("_", "-")
        base, other = getattr(tictactoe, f.name), getattr(gomoku, f.name)
        default = f"default {_show(base)}" + ("" if other == base else f"; gomoku 15x15: {_show(other)}")
        default = f"default {SHOWN_DEFAULTS[f.name]}" if f.name in SHOWN_DEFAULTS else default
        text = f"{docs.get(f.name, '')} ({default})".replace("%", "%%")
        hint = hints[f.name]
        args = typing.get_args(hint)
        if hint is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS, help=text)
        elif f.name in CHOICES:
            parser.add_argument(flag, choices=CHOICES[f.name], default=argparse.SUPPRESS, help=text)
        elif typing.get_origin(hint) is tuple:
            parser.add_argument(flag, type=_tuple, default=argparse.SUPPRESS, metavar="A,B", help=text)
        elif type(None) in args:
            kind = next(a for a in args if a is not type(None))
            parser.add_argument(flag, type=_optional(kind), default=argparse.SUPPRESS, metavar=kind.__name__.upper(), help=text)
        else:
            parser.add_argument(flag, type=hint, default=argparse.SUPPRESS, metavar=hint.__name__.upper(), help=text)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "minutes", None) is None and getattr(args, "iterations", None) is None:
        raise ValueError("give --minutes or --iterations (or both): training has no end otherwise")
    env_fn = game_env_fn(args)  # bad board arguments fail here, with the env's message
    board = env_fn().unwrapped.game
    names = [f.name for f in dataclasses.fields(AlphaZeroConfig)]
    overrides = {name: getattr(args, name) for name in names if hasattr(args, name)}
    opening = getattr(board, "opening", None)  # an opening rule's game (gomoku_v0.env(opening_rule=...))
    if args.game == "gomoku" and "out" not in overrides:
        overrides["out"] = f"runs/gomoku{board.size}_{board.rule}" + (f"_{opening.name}" if opening else "")
    elif "out" not in overrides:
        overrides["out"] = f"runs/{args.game}" + (f"_{opening.name}" if opening else "")
    config = AlphaZeroConfig.for_game(args.game, getattr(board, "size", None), **overrides)
    try:
        from boardgame_envs.alphazero.trainer import AlphaZeroTrainer
    except ImportError as exc:
        raise ValueError(f'train needs torch ({exc}); install it with: pip install "boardgame-envs[train]"') from None
    trainer = AlphaZeroTrainer(env_fn, config)
    start = trainer.iteration
    fresh = not start and trainer.saved_warm is None  # nothing in out/ to resume
    if not config.progress:  # with progress on, the trainer says it (and its budget's plan) itself
        print(trainer.opening_line(), flush=True)
    try:
        rows = trainer.train()
    except KeyboardInterrupt:
        kept, warm = trainer.saved_iteration, trainer.saved_warm
        where = "no checkpoint was written yet"
        if kept:
            where = f"checkpoint at iteration {kept} is kept ({config.out}/latest.pt)"
        elif warm is not None and warm["games"]:
            done = "its end" if warm["done"] else f"{warm['games']} games, {warm['steps']} learning steps"
            where = f"checkpoint of the warm start ({done}) is kept ({config.out}/latest.pt)"
        say_interrupted(f"interrupted; {where}")
        return 130
    since = f"resumed from {start}" if start else "a new run" if fresh else "resumed the warm start"
    if not config.progress:
        print(trainer.account())
    if not trainer.learned or (not trainer.iteration and not trainer.warm["done"]):
        # Nothing (or only part of a warm start) learned: the checkpoint is no result to play against.
        print("nothing to play against yet; the same command goes on with more minutes")
        return 0
    if config.iterations == 0:
        print(f"the warm start is done ({trainer.warm['games']} games, {trainer.warm['steps']} learning steps); "
              "copy its latest.pt into a run's folder to branch a run from it")
    else:
        print(f"{len(rows)} iterations (now {trainer.iteration}, {since}); {trainer.games_played} self-play games")
    for key, value in (rows[-1] if rows else {}).items():
        if key.startswith(("score_vs", "elo_vs", "loss")):
            print(f"  {key}: {value:.3f}")
    game_flags = "" if args.game != "gomoku" else f" --board-size {board.size} --win-length {board.win_length} --rule {board.rule}"
    game_flags += f" --opening-rule {opening.name}" if opening else ""
    print(f"checkpoint: {config.out}/latest.pt   (boardgame-envs play {args.game}{game_flags} --opponent {config.out}/latest.pt)")
    summary = Path(config.out) / SUMMARY
    if rows and summary.is_file():
        print(f"summary plot: {summary}")
    return 0
