"""MaskablePPO (sb3-contrib) with an opponent pool: one command a game, a CPU-hour budget, exact resume, ladder Elo.

The learner trains against an :class:`~boardgame_envs.selfplay.OpponentPool`
(the ladder's bottom levels, ``random`` and ``greedy:epsilon=E``, plus its own
snapshots, one added at every checkpoint; one drawn per game, uniformly). Connect four plays in
``--n-envs`` single-agent envs (``DummyVecEnv``: how its recorded results were made; connect four has a
batched engine too, which this recipe does not use: ``SB3VecEnv`` over it is docs/selfplay.md's
"MaskablePPO on batched connect four"); gomoku9 and renju in one batched vector env
(``boardgame_envs.vector.sb3.SB3VecEnv``).
The policy and value nets are two ``--net``-wide layers each (256; 128 until 2026-11-27:
the wider net with ``--lr 5e-4`` reaches connect four's plateau in a fifth of the CPU,
``baselines/results/ppo_sb3_pool.md``), on the flat planes or on ``BoardCNN``'s features.

The run goes in chunks of ``--checkpoint-every`` rollouts. After each, the pool
(``pool/``) and ``state.pt`` (the policy's and its optimiser's state dicts, the
torch and numpy RNG states, the counters: steps, process CPU time summed over
sessions) are written to ``--out``, and the run goes on *from what it wrote*:
the model rebuilt from the run's settings and its state loaded back, the pool
loaded back. Each chunk's games start afresh from the same env seed, ``--seed`` (building the
model seeds its env with it; the pool's draws and the learner's sampling go on from their saved
states). So a rerun with the same ``--out`` (after a kill, or with a larger
``--cpu-hours``) computes what the unbroken run computes. ``model.zip`` is
written beside it for users (``sb3:OUT/model.zip`` rates it) and never read back.

Resuming runs no code from the folder: ``state.pt`` holds tensors and plain
values only, read with ``weights_only=True`` (:func:`boardgame_envs.safeio.load_tensors`),
and SB3's own loader, which unpickles, never reads the run folder. The folder is held
by one process at a time and stamped ``run.json`` (recipe, game, format:
:class:`~boardgame_envs.selfplay.rundir.RunFolder`); another recipe's or game's folder,
or one that is not a run folder, is refused and left as it is. A run of this script
from before the stamp (its state in numpy's pickled form) is refused too: it cannot be
read without unpickling.

Every ``--rate-minutes`` of CPU the greedy policy is rated on the game's ladder
(``boardgame_envs.ladder.rate``, ``--rate-games`` games, in this process, starting
near the last estimate); a row ``cpu_hours, steps, elo, low, high, ...`` goes to
``--out/curve.csv``; ratings count in the budget and stay under ``--rate-share`` of it.

The run shows itself as it goes (:class:`~boardgame_envs.selfplay.progress.RunProgress`): on a
terminal a bar on stderr (CPU-hours done of the budget and left, steps, the last Elo and its
interval); sent to a file or a pipe, plain lines on stdout, at most one every 30 seconds, beside
one line per rating and one per checkpoint.

    python baselines/ppo_sb3_pool.py --game connect_four --cpu-hours 2 --out runs/sb3-connect-four-s0
    python baselines/ppo_sb3_pool.py --game gomoku9 --cpu-hours 2 --out runs/sb3-gomoku9-s0
    python baselines/ppo_sb3_pool.py --game renju --cpu-hours 4 --out runs/sb3-renju-s0
    python baselines/ppo_sb3_pool.py --game tictactoe --cpu-hours 0.01 --out runs/sb3-tictactoe-s0

``--game`` is any catalog game, with the command line's game options (``--board-size``, ``--rule``,
``--param KEY=VALUE``), or a ladder's name (``gomoku9``); how it is played is derived from the game
(:func:`plan`), and a game under an opening rule is refused in one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import boardgame_envs  # noqa: F401  (registers the Gymnasium ids)
from boardgame_envs.cliargs import OneLineParser, add_game_options, param_arg, parameters_of
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.ladder import LadderError
from boardgame_envs.ladder.rating import check_rating_games
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.arena.lock import InUseError
from boardgame_envs.safeio import (
    DiskFullError,
    FileRefusedError,
    atomic_save_tensors,
    atomic_write,
    atomic_write_text,
    load_tensors,
    read_json,
)
from boardgame_envs.selfplay.boardnet import head_of
from boardgame_envs.selfplay.progress import RunProgress
from boardgame_envs.selfplay.recipe_game import RecipeGame, recipe_game
from boardgame_envs.selfplay.rundir import RunFolder, RunFolderError
from boardgame_envs.selfplay.runclock import RunClock

RECIPE = "ppo_sb3_pool"
FORMAT = 2  # of the run folder: 1, unstamped, model.zip and a pickled state.pt (refused); 2, stamped, tensors only

LEVELS = "random,greedy:epsilon=0.75,greedy:epsilon=0.5,greedy:epsilon=0.25,greedy"


def the_game(s: dict[str, Any]) -> RecipeGame:
    """The run's game (``--game`` and its options); ValueError, one line, for one that is not a game."""
    return recipe_game(s["game"], s.get("board_size"), s.get("win_length"), s.get("rule"),
                       parameters_of(list(s.get("param") or [])))  # fmt: skip


def plan(game: Any) -> dict[str, Any]:
    """How ``game`` is played, from the game alone: a square board whose actions are its cells (m,n,k) in one
    batched env with BoardCNN's features; any other (connect four's columns, a pass, lines) in ``--n-envs``
    single-agent envs with the MLP on the flat planes. The snapshots kept by default fall with the board's
    cells, so the run folder stays a few MB (5 up to 42 cells, 3 up to 81, 2 above)."""
    rows, cols = game.shape
    cnn = rows == cols and head_of(game)["head"] == "cells"
    cells = rows * cols
    return {"cnn": cnn, "max_snapshots": 5 if cells <= 42 else 3 if cells <= 81 else 2}
# Options that do not change the training: a resumed run may be given other values.
RESUME_MAY_CHANGE = {"cpu_hours", "max_rollouts", "rate_games", "rate_minutes", "rate_share"}


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="run folder: model, pool, counters, curve.csv (resumed if present)")
    p.add_argument("--game", default="connect_four",
                   help="a catalog game (sized by the options below) or a ladder's name (gomoku9); default connect_four")
    add_game_options(p)  # --board-size, --win-length, --rule, --param, as the package's commands take them
    p.add_argument("--opening-rule", metavar="NAME", default=None,
                   help="refused: the games start from the empty board (the AlphaZero trainer trains under one)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cpu-hours", type=float, default=2.0, help="budget: process CPU time, summed over resumes")
    p.add_argument("--max-rollouts", type=int, default=0, help="stop after this many rollouts too (0: no limit)")
    p.add_argument("--n-envs", type=int, default=16, help="games played at once")
    p.add_argument("--n-steps", type=int, default=128, help="PPO rollout length per game")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--net", type=int, default=256, help="width of the policy and value layers (two each)")
    p.add_argument("--activation", choices=("tanh", "relu"), default="tanh", help="the MLP layers' activation")
    p.add_argument("--levels", default=LEVELS, help="the pool's built-in members, comma separated")
    p.add_argument("--sampling", choices=("uniform", "pfsp", "latest"), default="uniform",
                   help="the pool's draw (pfsp, by the learner's losses, gave three games in four on connect four "
                        "to the three strongest greedy levels over the first 164k steps, at a 12%% score there)")
    p.add_argument("--max-snapshots", type=int, default=None,
                   help="snapshots kept (default per game, so the run folder stays a few MB)")
    p.add_argument("--checkpoint-every", type=int, default=10,
                   help="rollouts between checkpoints; at each, a snapshot of the model joins the pool and new games "
                        "start (none is left under way against a snapshot that left the pool)")
    p.add_argument("--rate-games", type=int, default=100, help="games of each ladder rating (0: none)")
    p.add_argument("--rate-minutes", type=float, default=4.0, help="CPU minutes of training between ratings")
    p.add_argument("--rate-share", type=float, default=0.1, help="most of the CPU that ratings may take")
    return p


def settings(args: argparse.Namespace) -> dict[str, Any]:
    s = {k: v for k, v in vars(args).items() if k not in ("out", "opening_rule")}
    if s["max_snapshots"] is None:
        s["max_snapshots"] = plan(the_game(s).game)["max_snapshots"]
    return s


def make_env(s: dict[str, Any], pool: OpponentPool) -> Any:
    game = the_game(s)
    if not plan(game.game)["cnn"]:
        kwargs = {**game.env_kwargs, "opponent": pool, "seat": "random", "flatten": True}
        return DummyVecEnv([lambda: SingleAgentEnv(**kwargs) for _ in range(s["n_envs"])])
    from boardgame_envs.vector.gym_env import SingleAgentVectorEnv
    from boardgame_envs.vector.sb3 import SB3VecEnv

    return SB3VecEnv(SingleAgentVectorEnv(s["n_envs"], opponent=pool, seat="random", channels_first=True,
                                          **game.env_kwargs))  # fmt: skip


def new_model(s: dict[str, Any], env: Any) -> MaskablePPO:
    # Runs saved before --activation existed hold no such key: they were tanh, SB3's default.
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[s.get("activation", "tanh")]
    policy_kwargs: dict[str, Any] = {"net_arch": [s["net"], s["net"]], "activation_fn": activation}
    cnn = plan(the_game(s).game)["cnn"]
    if cnn:
        from boardgame_envs.vector.sb3 import BoardCNN

        policy_kwargs.update(features_extractor_class=BoardCNN,
                             features_extractor_kwargs={"features_dim": 64, "channels": 16, "layers": 3})  # fmt: skip
    return MaskablePPO("CnnPolicy" if cnn else "MlpPolicy", env, n_steps=s["n_steps"],
                       batch_size=s["batch_size"], n_epochs=s["epochs"], learning_rate=s["lr"], gamma=s["gamma"],
                       ent_coef=s["ent_coef"], seed=s["seed"], policy_kwargs=policy_kwargs, verbose=0, device="cpu")  # fmt: skip


def save_state(out: Path, model: MaskablePPO, pool: OpponentPool | None, counters: dict[str, Any],
               clock: RunClock, zip_too: bool = True) -> None:  # fmt: skip
    """The run's state, each file written whole: the pool (``None`` keeps the one last saved), ``model.zip``
    for users (unless ``zip_too`` is false) and, last, ``state.pt``, the one a resume reads: tensors and
    plain values only (the numpy RNG state as numbers)."""
    if pool is not None:
        pool.save(out / "pool")
    if zip_too:
        atomic_write(out / "model.zip", model.save)
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    rng = {"torch": torch.get_rng_state(),
           "numpy": {"kind": kind, "keys": [int(k) for k in keys], "pos": int(pos), "has_gauss": int(has_gauss),
                     "cached_gaussian": float(cached)}}  # fmt: skip
    atomic_save_tensors({"counters": {**counters, **clock.state()}, "rng": rng, "policy": model.policy.state_dict(),
                         "optimizer": model.policy.optimizer.state_dict(), "num_timesteps": int(model.num_timesteps),
                         "n_updates": int(model._n_updates)}, out / "state.pt")  # fmt: skip


def read_state(out: Path) -> dict[str, Any]:
    """``out/state.pt``, read safely and checked for the keys a resume uses."""
    path = out / "state.pt"
    state = load_tensors(path, what="run state")
    try:
        counters, rng = state["counters"], state["rng"]
        int(counters["rollouts"]), int(counters["steps"]), rng["torch"], rng["numpy"]["keys"]
        state["policy"].keys(), state["optimizer"].keys(), int(state["num_timesteps"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FileRefusedError(path, f"not the state of a run of this script ({type(exc).__name__}: {exc})") from None
    return state


def restore(out: Path, state: dict[str, Any], model: MaskablePPO) -> None:
    """Put the saved policy, optimiser, step count and RNG states into ``model`` (built from the run's settings)."""
    try:
        model.policy.load_state_dict(state["policy"])
        model.policy.optimizer.load_state_dict(state["optimizer"])
        model.num_timesteps = int(state["num_timesteps"])
        model._n_updates = int(state.get("n_updates", 0))
        torch.set_rng_state(state["rng"]["torch"])
        numpy = state["rng"]["numpy"]
        np.random.set_state((numpy["kind"], np.array(numpy["keys"], dtype=np.uint32), numpy["pos"], numpy["has_gauss"],
                             numpy["cached_gaussian"]))  # fmt: skip
    except (KeyError, TypeError, ValueError, RuntimeError) as exc:
        why = " ".join(str(exc).split())[:200]
        raise FileRefusedError(out / "state.pt", f"does not fit this run's model ({type(exc).__name__}: {why})") from None


def is_older_run(path: Path) -> bool:
    """Whether ``path`` is a run of this script from before the stamp (format 1: state.pt, settings.json)."""
    return (path / "state.pt").is_file() and (path / "settings.json").is_file()


def rate_now(s: dict[str, Any], model: MaskablePPO, counters: dict[str, Any], clock: RunClock, out: Path,
             progress: RunProgress) -> None:  # fmt: skip
    """Rate the greedy policy on the ladder; a row in curve.csv and a line; its CPU counted in the run and apart."""
    from boardgame_envs.selfplay import Sb3Policy

    rating = clock.rate(Sb3Policy(model, name="maskable_ppo"), the_game(s).ladder_or_raise(), s["rate_games"],
                        counters["rollouts"],
                        out / "curve.csv", {"steps": counters["steps"], "rollouts": counters["rollouts"]},
                        say=progress.write)  # fmt: skip
    progress.rated(rating)


class ShowProgress(BaseCallback):
    """Moves the bar after each rollout (a chunk is ``--checkpoint-every`` of them); touches no RNG."""

    def __init__(self, clock: RunClock, progress: RunProgress) -> None:
        super().__init__()
        self.clock, self.progress = clock, progress

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        self.clock.tick()
        self.progress.update(self.model.num_timesteps, self.clock.hours)


def train(s: dict[str, Any], out: Path) -> dict[str, Any]:
    """Run (or resume) the run in ``out`` until its CPU budget (or ``max_rollouts``) is spent, holding its folder."""
    folder = RunFolder(out, RECIPE, s["game"], FORMAT, older=is_older_run)
    if folder.check() == "older":  # before the lock: the folder is left byte for byte
        raise RunFolderError(f"{out}: a run of an older ppo_sb3_pool.py (no run.json), whose state.pt reads only by "
                             "unpickling, which this script never does; it is left as it is: start a new --out "
                             f"(its model zip still plays as sb3:{out / 'model.zip'})")  # fmt: skip
    folder.open()
    try:
        return _train(s, out)
    finally:
        folder.close()


def _train(s: dict[str, Any], out: Path) -> dict[str, Any]:
    torch.set_num_threads(1)  # the machine is shared: one process, one thread
    if not (out / "state.pt").exists():  # a new run: its state at step 0 is what every chunk starts from
        pool = OpponentPool([m for m in s["levels"].split(",") if m], sampling=s["sampling"], seed=s["seed"],
                            max_snapshots=s["max_snapshots"])  # fmt: skip
        torch.manual_seed(s["seed"])
        np.random.seed(s["seed"])
        env = make_env(s, pool)
        save_state(out, new_model(s, env), pool, {"rollouts": 0, "steps": 0}, RunClock(), zip_too=False)
        env.close()
    atomic_write_text(out / "settings.json", json.dumps(s, indent=1))
    saved = read_state(out)["counters"]
    counters = {"rollouts": int(saved["rollouts"]), "steps": int(saved["steps"])}
    clock = RunClock.from_state(saved)  # the run's CPU, all sessions, and its ratings; this session's counts from here
    clock.sync_curve(out / "curve.csv")  # drop ratings made after the checkpoint: they are made again
    if counters["rollouts"]:
        print(f"resumed from {out}: {counters['rollouts']} rollouts, {counters['steps']} steps, "
              f"{clock.hours:.3f} CPU-hours", flush=True)  # fmt: skip

    def budget_left() -> bool:
        return clock.cpu_s < s["cpu_hours"] * 3600 and not (
            s["max_rollouts"] and counters["rollouts"] >= s["max_rollouts"])

    model = None
    clock.tick()
    with RunProgress(s["cpu_hours"], clock.hours, counters["steps"], desc=f"ppo_sb3_pool {s['game']}") as progress:
        while budget_left():
            model = _chunk(s, out, counters, clock, progress)
        clock.tick()
        if s["rate_games"] and clock.cpu_s >= s["cpu_hours"] * 3600 and model is not None:
            rate_now(s, model, counters, clock, out, progress)  # the budget's last point
            save_state(out, model, None, counters, clock, zip_too=False)
        progress.update(counters["steps"], clock.hours)
    return {**counters, **clock.state()}


def _chunk(s: dict[str, Any], out: Path, counters: dict[str, Any], clock: RunClock,
           progress: RunProgress) -> MaskablePPO:  # fmt: skip
    """One chunk of ``--checkpoint-every`` rollouts from the saved state, in an unbroken run as in a resumed
    one, and its checkpoint; the model as it ends."""
    per_rollout = s["n_envs"] * s["n_steps"]
    pool = OpponentPool.load(out / "pool")
    env = make_env(s, pool)
    model = new_model(s, env)  # seeds the env with --seed: each chunk's games start from it
    restore(out, read_state(out), model)
    if s["rate_games"] and clock.rating_due(s["rate_minutes"] * 60, s["rate_share"]):
        rate_now(s, model, counters, clock, out, progress)
    chunk = s["checkpoint_every"]
    if s["max_rollouts"]:
        chunk = min(chunk, s["max_rollouts"] - counters["rollouts"])
    model.learn(chunk * per_rollout, reset_num_timesteps=False, callback=ShowProgress(clock, progress))
    counters["rollouts"] = model.num_timesteps // per_rollout
    pool.add_snapshot(model, name=f"snapshot-{counters['rollouts']}")
    counters["steps"] = model.num_timesteps
    clock.tick()
    save_state(out, model, pool, counters, clock)
    env.close()
    results = pool.results()
    progress.write(f"rollouts {counters['rollouts']} steps {counters['steps']} cpu_h {clock.hours:.3f} "
                   f"pool {', '.join(f'{k} {w}-{d}-{l}' for k, (w, d, l) in list(results.items())[:8])}")  # fmt: skip
    progress.update(counters["steps"], clock.hours)
    return model


# What ends a run in one line (exit status 2): a folder it will not use, a file it will not read, a full disk.
REFUSALS = (RunFolderError, InUseError, FileRefusedError, DiskFullError, FileNotFoundError)


def saved_settings(path: Path, p: argparse.ArgumentParser) -> dict[str, Any]:
    """The settings a run saved (``settings.json``), each of the type its option takes (keys this script lacks
    left out); :class:`~boardgame_envs.safeio.FileRefusedError` for a file that is not such settings."""
    data = read_json(path, limit=1 << 20, what="run settings")
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise FileRefusedError(path, "not the settings of a run of this script (a JSON object naming its game)")
    kept = {}
    for a in p._actions:
        if a.dest not in data or a.dest in ("help", "out", "opening_rule"):
            continue
        value, kind = data[a.dest], a.type or str
        if a.type is param_arg:  # --param's list of KEY=VALUE
            try:
                kept[a.dest] = [param_arg(v) for v in value] if isinstance(value, list) else param_arg(value)
            except (argparse.ArgumentTypeError, TypeError) as exc:
                raise FileRefusedError(path, f"param is {str(value)[:40]!r}, not --param KEY=VALUE ({exc})") from None
            continue
        if value is None and a.default is None:  # an option left at its default (a game's board size)
            kept[a.dest] = value
            continue
        if kind is float and type(value) is int:
            value = float(value)
        if not (type(value) is kind or value is None and a.default is None) or a.choices and value not in a.choices:
            raise FileRefusedError(path, f"{a.dest} is {str(value)[:40]!r}, not a value of --{a.dest.replace('_', '-')}")
        kept[a.dest] = value
    try:
        the_game(kept)
    except ValueError as exc:  # a game this package does not know (or no longer: a built ladder gone)
        raise FileRefusedError(path, f"not the settings of a run of this script: {exc}") from None
    return kept


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if not args.cpu_hours >= 0:  # nan too
        p.error(f"--cpu-hours must be a number of CPU-hours, 0 or more, got {args.cpu_hours}")
    if args.opening_rule is not None:
        p.error(f"--opening-rule {args.opening_rule}: this recipe's games start from the empty board; train under an "
                "opening rule with the AlphaZero trainer (boardgame-envs train GAME --opening-rule NAME)")  # fmt: skip
    if args.rate_games:  # refused at the start, not at the first rating an hour in
        try:
            check_rating_games(args.rate_games)
        except ValueError as exc:
            p.error(f"--rate-games: {exc}")
    out = Path(args.out)
    try:
        s = settings(args)
    except ValueError as exc:  # no game, or options it does not take
        p.error(str(exc))
    saved = out / "settings.json"
    if saved.exists():  # a resumed run keeps its recipe; only the budget and the ratings may change
        try:
            old = saved_settings(saved, p)
        except FileRefusedError as exc:
            print(f"ppo_sb3_pool.py: {exc}", file=sys.stderr)
            return 2
        given = {a.dest for a in p._actions if a.dest in s and a.default != getattr(args, a.dest)}
        changed = {k for k in given if s[k] != old.get(k)} - RESUME_MAY_CHANGE
        if changed:
            p.error(f"{out} holds a run with other settings ({', '.join(sorted(changed))}); on resume only "
                    f"{', '.join('--' + k.replace('_', '-') for k in sorted(RESUME_MAY_CHANGE))} may change")  # fmt: skip
        s = {**old, **{k: s[k] for k in given}}
    try:
        if s["rate_games"]:
            the_game(s).ladder_or_raise()
    except LadderError as exc:
        p.error(f"{exc}; or train it unrated with --rate-games 0")
    except ValueError as exc:
        p.error(str(exc))
    try:
        counters = train(s, out)
    except REFUSALS as exc:
        print(f"ppo_sb3_pool.py: {exc}", file=sys.stderr)
        return 2
    print(f"done: {counters['rollouts']} rollouts, {counters['steps']} steps, {counters['cpu_s'] / 3600:.3f} "
          f"CPU-hours ({counters['rate_cpu_s'] / max(counters['cpu_s'], 1e-9):.1%} of it rating)", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
