"""PPO in one file (CleanRL style) on the batched engine, with self-play through an opponent pool.

One process, one thread. The learner plays ``num_envs`` games at once on the
batched engine (:class:`~boardgame_envs.vector.gym_env.SingleAgentVectorEnv`: numba kernels
where the game has them, its states in a loop otherwise) against an
:class:`~boardgame_envs.selfplay.OpponentPool`: the ladder's bottom
levels (``random`` and ``greedy:epsilon=E``, batched in numba) and the learner's
own frozen snapshots (each a batched callable: one forward pass for all the
games waiting for it), one member drawn per game, uniformly. A masked-action CNN (3x3 convolutions that
keep the board, ``--blocks N`` residual blocks after them, a 1x1 policy head with one logit per
point, reduced to one per column where an action is a column: connect four, and a logit per other
action, a pass or a swap, from the pooled board; :func:`~boardgame_envs.selfplay.boardnet.head_of`
derives it from the game) is trained by clipped PPO with GAE.

``--game`` is any catalog game, sized as the command line sizes it (``--board-size``, ``--win-length``,
``--rule``, ``--param KEY=VALUE``), or a ladder's name (``gomoku9``: 9x9 freestyle); it is rated on its
ladder (a game without a shipped one on one built by ``boardgame-envs ladder build GAME``, or unrated
with ``--rate-games 0``). A game under an opening rule is refused in one line: the batched games start
from the empty board (the AlphaZero trainer trains under one).

Resume is exact: every ``checkpoint_every`` updates a snapshot of the learner
joins the pool, the run writes its state (network, optimiser, pool, torch RNG,
counters, CPU time) to ``--out`` and then,
killed or not, goes on *from what it wrote*: the pool is loaded back and new
games start from a seed fixed by the update count (a game cut there is
bootstrapped by the value, as any truncation). So a rerun with the same
``--out`` computes what the unbroken run computes. The budget is the process
CPU time (``time.process_time``) from the start of training, summed across resumes (each
session's set-up, seconds of building and compiling, is not counted).

Every ``rate_minutes`` of CPU the greedy policy is rated on the game's ladder
(``boardgame_envs.ladder.rate``, ``rate_games`` games, in this process, starting
near the last estimate) and a row ``cpu_hours, steps, elo, low, high, ...`` goes
to ``--out/curve.csv``; the rating's own CPU counts in the budget and in the CSV,
and the interval between ratings stretches to keep them under ``rate_share``.

    python baselines/ppo_selfplay.py --game gomoku9 --cpu-hours 2 --out runs/ppo-gomoku9-s0
    python baselines/ppo_selfplay.py --game renju --cpu-hours 4 --out runs/ppo-renju-s0
    python baselines/ppo_selfplay.py --game connect_four --cpu-hours 2 --layers 1 --blocks 3 --rate-games 100 \
        --out runs/ppo-c4-s0
    python baselines/ppo_selfplay.py --game tictactoe --cpu-hours 0.01 --layers 2 --out runs/ppo-tictactoe-s0

Run it again with the same ``--out`` to resume (a larger ``--cpu-hours`` extends it).

The run folder is held by one process at a time and stamped ``run.json`` (recipe, game,
format: :class:`~boardgame_envs.selfplay.rundir.RunFolder`); a folder of another recipe or game,
or one that is not a run folder, is refused and left as it is. Resuming runs no code from the
folder: ``checkpoint.pt`` holds tensors and plain values only and is read with
``weights_only=True`` (:func:`boardgame_envs.safeio.load_tensors`), the settings as JSON.
A folder of this script from before the stamp reads the same way and is stamped on resume.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

import boardgame_envs  # noqa: F401  (registers the Gymnasium ids)
from boardgame_envs.ladder.rating import check_rating_games
from boardgame_envs.arena.lock import InUseError
from boardgame_envs.cliargs import OneLineParser, add_game_options, parameters_of
from boardgame_envs.ladder import LadderError
from boardgame_envs.safeio import (
    DiskFullError,
    FileRefusedError,
    atomic_save_tensors,
    atomic_write_text,
    load_tensors,
    read_json,
)
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.selfplay.boardnet import BoardNet, BoardNetPolicy, load_net, save_net
from boardgame_envs.selfplay.progress import RunProgress
from boardgame_envs.selfplay.recipe_game import RecipeGame, recipe_game
from boardgame_envs.selfplay.rundir import RunFolder, RunFolderError
from boardgame_envs.selfplay.runclock import RunClock
from boardgame_envs.vector.gym_env import SingleAgentVectorEnv

RECIPE = "ppo_selfplay"
FORMAT = 2  # of the run folder: 1, unstamped (the same files, read the same way); 2, stamped run.json

# The game's options, declared by the command line's own (boardgame_envs.cliargs.add_game_options), not per field;
# those that may be None (the game's default), with the type of their other values.
GAME_OPTIONS = ("board_size", "win_length", "rule", "param")
OPTIONAL = {"board_size": int, "win_length": int, "rule": str}


@dataclass
class Config:
    """Every knob of a run; the defaults are the recipe."""

    game: str = "gomoku9"
    """Game to train and rate: a catalog game (``tictactoe``, ``renju``, ``connect_four``, ``gomoku`` sized by the
    options below, any game added to the catalog) or a ladder's name (``gomoku9``: 9x9 freestyle)."""
    board_size: int | None = None
    """``--board-size``: an m,n,k game's board side (None: the game's default)."""
    win_length: int | None = None
    """``--win-length``: an m,n,k game's k."""
    rule: str | None = None
    """``--rule``: an m,n,k game's rule."""
    param: tuple[str, ...] = ()
    """``--param KEY=VALUE``: a parameter the game's catalog entry declares (``rows=3``)."""
    seed: int = 0
    """Seeds the network, the pool's draws, the games and the action sampling."""
    cpu_hours: float = 2.0
    """Budget: process CPU time of the run (training, opponents and ratings, not set-up), summed over resumes."""
    max_updates: int = 0
    """Stop after this many PPO updates as well (0: no limit; tests use it)."""
    num_envs: int = 128
    """Games played at once by the learner."""
    rollout: int = 32
    """Learner moves per game per update; a batch is ``num_envs * rollout`` steps."""
    epochs: int = 4
    """Passes of PPO over each batch."""
    minibatch: int = 1024
    """Steps per gradient step."""
    lr: float = 1e-3
    """Adam's learning rate (constant); best of 1e-4, 3e-4, 1e-3 in baselines/results/ppo_selfplay.md's sweep."""
    gamma: float = 0.99
    """Discount: a win sooner is worth more."""
    gae_lambda: float = 0.95
    """GAE's lambda."""
    clip: float = 0.2
    """PPO's ratio clip."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradient norm clip."""
    channels: int = 32
    """Convolution channels of the network."""
    layers: int = 5
    """3x3 convolution layers (the receptive field is ``2 * layers + 1`` points: 5 rows of five need 4)."""
    blocks: int = 0
    """Residual blocks (two 3x3 convolutions and a skip each) after the plain layers; 0, the plain network
    every run before this option trained (a run saved without the field resumes with 0)."""
    levels: tuple[str, ...] = ("random", "greedy:epsilon=0.75", "greedy:epsilon=0.5", "greedy:epsilon=0.25",
                               "greedy")  # fmt: skip
    """Built-in opponents in the pool (batched in numba), beside the learner's snapshots."""
    sampling: str = "uniform"
    """The pool's draw: ``uniform``, ``pfsp`` (by the learner's losses) or ``latest``. Under ``pfsp`` the learner
    met the greedy levels it lost to in most games from the start (scoring 2-4% in its first 10 updates);
    uniform was the best of the sweep's draws."""
    max_snapshots: int = 10
    """Snapshots kept in the pool (the oldest leaves first); each is about 180 KB at the defaults."""
    rate_games: int = 200
    """Games of each rating on the ladder (colour-swapped pairs); 200 games cost a few CPU-seconds on 9x9."""
    rate_minutes: float = 3.0
    """CPU minutes of training between two ratings (stretched to keep ratings under ``rate_share``)."""
    rate_share: float = 0.1
    """Most of the run's CPU that ratings may take."""
    checkpoint_every: int = 10
    """Updates between two checkpoints (and one at the end). At each, a snapshot of the learner joins the pool
    and the games restart from what was saved, killed or not (so no game is under way against a snapshot
    that has left the pool)."""
    random_moves: int = 0
    """Each game's learner plays its first k moves uniformly at random, k drawn per game from 0..random_moves
    (those moves are left out of the policy's loss, kept in the value's): games from varied openings. With 0
    every game starts from the empty board, and on connect four the learner found one line that beats the
    greedy levels from there (100 of 100 games) and lost 82 of 100 from the ladder's two random plies (+566)."""
    threads: int = 1
    """Torch threads: the development machine is shared."""


# ------------------------------------------------------------------ the network
# BoardNet (3x3 convolutions that keep the board, a logit per point, a value over the board's mean and max)
# lives in the package, so that what this script trains plays anywhere as ``boardnet:PATH``.


class Sampler:
    """A frozen network as the batched env's opponent: ``(observations, masks) -> actions``, one forward pass.

    It samples from its policy (a snapshot that always played its argmax would be one fixed line of play).
    """

    def __init__(self, net: BoardNet, seed: int) -> None:
        self.net, self.gen = net, torch.Generator().manual_seed(seed)
        self.__name__ = "snapshot"

    @torch.no_grad()
    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits, _ = self.net(torch.from_numpy(obs), torch.from_numpy(masks))
        return torch.multinomial(torch.softmax(logits, 1), 1, generator=self.gen).squeeze(1).numpy()


# ------------------------------------------------------------------ the run
@dataclass
class Counters:
    updates: int = 0
    steps: int = 0
    games: int = 0
    clock: RunClock = dataclasses.field(default_factory=RunClock)  # the run's CPU, all sessions, and its ratings

    def state(self) -> dict[str, Any]:  # one flat dict in the checkpoint
        return {"updates": self.updates, "steps": self.steps, "games": self.games, **self.clock.state()}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Counters:
        return cls(state["updates"], state["steps"], state["games"], RunClock.from_state(state))


def the_game(cfg: Config) -> RecipeGame:
    """The run's game (``--game`` and its options); ValueError, one line, for one that is not a game."""
    return recipe_game(cfg.game, cfg.board_size, cfg.win_length, cfg.rule, parameters_of(list(cfg.param)))


def new_net(cfg: Config) -> BoardNet:
    """The run's network, shaped by its game: its planes in, a logit per point, column or other action out."""
    return BoardNet.for_game(the_game(cfg).game, cfg.channels, cfg.layers, cfg.blocks)


def snapshot_loader(path: str) -> Sampler:
    """The pool's loader for this script's snapshots, seeded by the file's name (the same after a resume)."""
    return Sampler(load_net(path)[0], seed=zlib.crc32(Path(path).name.encode()))


def new_pool(cfg: Config) -> OpponentPool:
    return OpponentPool(cfg.levels, sampling=cfg.sampling, seed=cfg.seed, max_snapshots=cfg.max_snapshots,
                        snapshot_loader=snapshot_loader)  # fmt: skip


def start_games(cfg: Config, out: Path, updates: int) -> tuple[Any, OpponentPool, tuple[torch.Tensor, ...]]:
    """The pool as last saved and fresh games drawn from a seed fixed by ``updates``: a resume starts the same way.

    The games are ``(observations, masks, random moves left)``; the last drawn from torch's RNG (saved with the run)."""
    pool = OpponentPool.load(out / "pool", snapshot_loader=snapshot_loader)
    env = SingleAgentVectorEnv(cfg.num_envs, opponent=pool, seat="random", channels_first=True,
                               **the_game(cfg).env_kwargs)  # fmt: skip
    obs, info = env.reset(seed=(cfg.seed * 1_000_003 + updates) % 2**31)
    return env, pool, (torch.from_numpy(obs), torch.from_numpy(info["action_mask"]), random_moves(cfg, cfg.num_envs))


def random_moves(cfg: Config, games: int) -> torch.Tensor:
    """How many of its first moves the learner plays at random in each of ``games`` new games (0..random_moves)."""
    if not cfg.random_moves:
        return torch.zeros(games, dtype=torch.long)  # no draw: torch's RNG as it was before the option
    return torch.randint(0, cfg.random_moves + 1, (games,))


def checkpoint(out: Path, net: BoardNet, opt: torch.optim.Optimizer, pool: OpponentPool | None, counters: Counters,
               cfg: Config) -> None:  # fmt: skip
    """Everything the run needs to go on, each file written whole (a kill never leaves half of one).

    ``pool=None`` keeps the pool last saved (the counters alone moved, by a rating).
    """
    if pool is not None:
        pool.save(out / "pool")
    data = {"config": dataclasses.asdict(cfg), "net": net.state_dict(), "opt": opt.state_dict(),
            "counters": counters.state(), "torch_rng": torch.get_rng_state()}  # fmt: skip
    atomic_save_tensors(data, out / "checkpoint.pt")  # tensors and plain values: read back with weights_only=True


def resume(out: Path, net: BoardNet, opt: torch.optim.Optimizer) -> Counters:
    """Load ``out/checkpoint.pt`` into ``net`` and ``opt`` and set torch's RNG; the counters. Anything that
    is not this run's checkpoint is :class:`~boardgame_envs.safeio.FileRefusedError`, one line naming it."""
    path = out / "checkpoint.pt"
    data = load_tensors(path, what="run checkpoint")
    try:
        net.load_state_dict(data["net"])
        opt.load_state_dict(data["opt"])
        counters = Counters.from_state(data["counters"])
        torch.set_rng_state(data["torch_rng"])
    except (KeyError, TypeError, ValueError, RuntimeError) as exc:
        why = " ".join(str(exc).split())[:200]
        raise FileRefusedError(path, f"not a checkpoint of this run ({type(exc).__name__}: {why})") from None
    return counters


def is_older_run(path: Path) -> bool:
    """Whether ``path`` is a run of this script from before the stamp (format 1: its files, no run.json)."""
    return (path / "checkpoint.pt").is_file() and (path / "config.json").is_file()


def rate_now(cfg: Config, net: BoardNet, counters: Counters, out: Path, progress: RunProgress) -> None:
    """Rate the greedy policy on the ladder, append a row to curve.csv, say it; its CPU is counted apart too."""
    rating = counters.clock.rate(BoardNetPolicy(net, name="ppo"), the_game(cfg).ladder_or_raise(), cfg.rate_games,
                                 counters.updates,
                                 out / "curve.csv", {"steps": counters.steps, "updates": counters.updates},
                                 say=progress.write)  # fmt: skip
    progress.rated(rating)


def rollout(cfg: Config, env: Any, net: BoardNet, games: tuple[torch.Tensor, ...]) -> dict[str, Any]:
    """``cfg.rollout`` learner moves in every game (the opponents' replies happen inside ``env.step``)."""
    obs, mask, left = games
    b, t = cfg.num_envs, cfg.rollout
    obs_buf = torch.zeros((t, *obs.shape), dtype=torch.uint8)
    mask_buf = torch.zeros((t, *mask.shape), dtype=torch.bool)
    act_buf, logp_buf, val_buf, rew_buf, done_buf = (torch.zeros((t, b)) for _ in range(5))
    policy_buf = torch.ones((t, b), dtype=torch.bool)  # the moves the policy chose (not the random openings)
    scores = []
    for i in range(t):
        obs_buf[i], mask_buf[i] = obs, mask
        with torch.no_grad():
            logits, value = net(obs, mask)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            chance = left > 0
            if chance.any():  # uniform over the legal moves
                action[chance] = torch.multinomial(mask[chance].float(), 1).squeeze(1)
                left = left - chance.long()
        act_buf[i], logp_buf[i], val_buf[i], policy_buf[i] = action, dist.log_prob(action), value, ~chance
        o, r, term, trunc, info = env.step(action.numpy())
        done = term | trunc
        scores.extend((r[done] + 1) / 2)
        obs, mask = torch.from_numpy(o), torch.from_numpy(info["action_mask"])
        if cfg.random_moves and done.any():
            left[torch.from_numpy(done)] = random_moves(cfg, int(done.sum()))
        rew_buf[i], done_buf[i] = torch.from_numpy(r).float(), torch.from_numpy(done).float()
    with torch.no_grad():
        _, next_value = net(obs, mask)
    # GAE over the learner's moves; a game still going at the end is bootstrapped by its value.
    adv = torch.zeros_like(rew_buf)
    last = torch.zeros(b)
    for i in reversed(range(t)):
        nxt = next_value if i == t - 1 else val_buf[i + 1]
        live = 1.0 - done_buf[i]
        delta = rew_buf[i] + cfg.gamma * nxt * live - val_buf[i]
        last = delta + cfg.gamma * cfg.gae_lambda * live * last
        adv[i] = last
    return {"obs": obs_buf.flatten(0, 1), "mask": mask_buf.flatten(0, 1), "act": act_buf.flatten().long(),
            "logp": logp_buf.flatten(), "adv": adv.flatten(), "ret": (adv + val_buf).flatten(),
            "policy": policy_buf.flatten(), "games": len(scores), "score": float(np.mean(scores)) if scores else math.nan,
            "next": (obs, mask, left)}  # fmt: skip


def learn(cfg: Config, net: BoardNet, opt: torch.optim.Optimizer, batch: dict[str, Any]) -> dict[str, float]:
    """Clipped PPO on one batch: ``epochs`` passes of shuffled minibatches."""
    n = len(batch["act"])
    stats = []
    for _ in range(cfg.epochs):
        for idx in torch.randperm(n).split(cfg.minibatch):
            logits, value = net(batch["obs"][idx], batch["mask"][idx])
            vf = ((value - batch["ret"][idx]) ** 2).mean()
            own = batch["policy"][idx]
            if int(own.sum()) < 2:  # random opening moves alone (or one move of the policy): the value learns
                pg = ent = torch.zeros(())
            else:
                if not own.all():  # the random opening moves teach the value only
                    idx, logits = idx[own], logits[own]
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(batch["act"][idx])
                ratio = (logp - batch["logp"][idx]).exp()
                adv = batch["adv"][idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg = torch.max(-adv * ratio, -adv * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                # Entropy over the legal points only (masked logits carry -1e9, whose p * log p is 0).
                ent = dist.entropy().mean()
            loss = pg + cfg.vf_coef * vf - cfg.ent_coef * ent
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
            opt.step()
            stats.append((pg.item(), vf.item(), ent.item()))
    pg, vf, ent = np.mean(stats, 0)
    return {"pg": pg, "vf": vf, "ent": ent}


def train(cfg: Config, out: Path) -> Counters:
    """Run (or resume) the run in ``out`` until its CPU budget (or ``max_updates``) is spent, holding its folder."""
    folder = RunFolder(out, RECIPE, cfg.game, FORMAT, older=is_older_run)
    kind = folder.open()
    try:
        return _train(cfg, out, kind == "older")
    finally:
        folder.close()


def _train(cfg: Config, out: Path, older: bool) -> Counters:
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    net = new_net(cfg)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    counters = Counters()
    if (out / "checkpoint.pt").exists():
        counters = resume(out, net, opt)
        if older:  # read the same way as a stamped run: it is one now
            RunFolder(out, RECIPE, cfg.game, FORMAT).write_stamp()
        print(f"resumed from {out}: {counters.updates} updates, {counters.steps} steps, "
              f"{counters.clock.hours:.3f} CPU-hours", flush=True)  # fmt: skip
    else:
        checkpoint(out, net, opt, new_pool(cfg), counters, cfg)  # the state every resume starts from
    atomic_write_text(out / "config.json", json.dumps(dataclasses.asdict(cfg), indent=1))
    env, pool, games = start_games(cfg, out, counters.updates)
    clock = counters.clock
    clock.sync_curve(out / "curve.csv")  # drop ratings made after the checkpoint: they are made again
    clock.start()  # this session's CPU counts from here (not its set-up), on top of the earlier sessions'

    def budget_left() -> bool:
        return clock.cpu_s < cfg.cpu_hours * 3600 and not (cfg.max_updates and counters.updates >= cfg.max_updates)

    # On a terminal a bar (CPU-hours of the budget, steps, the last Elo); in a log, plain lines beside the run's.
    with RunProgress(cfg.cpu_hours, clock.hours, counters.steps, desc=f"ppo_selfplay {cfg.game}") as progress:
        while budget_left():
            if cfg.rate_games and clock.rating_due(cfg.rate_minutes * 60, cfg.rate_share):
                rate_now(cfg, net, counters, out, progress)
            batch = rollout(cfg, env, net, games)
            games = batch["next"]
            stats = learn(cfg, net, opt, batch)
            counters.updates += 1
            counters.steps += cfg.num_envs * cfg.rollout
            counters.games += batch["games"]
            clock.tick()
            progress.update(counters.steps, clock.hours)
            if counters.updates % 10 == 0 or counters.updates == 1:
                weights = dict(zip(pool.names, pool.weights()))
                top = sorted(weights, key=weights.get, reverse=True)[:3]
                progress.write(f"update {counters.updates} steps {counters.steps} games {counters.games} "
                               f"cpu_h {clock.hours:.3f} score {batch['score']:.2f} pg {stats['pg']:.3f} "
                               f"vf {stats['vf']:.3f} ent {stats['ent']:.2f} most drawn {', '.join(top)}")  # fmt: skip
            if counters.updates % cfg.checkpoint_every == 0 or not budget_left():
                save_net(net, out / "latest.pt")
                pool.add_snapshot(out / "latest.pt", name=f"snapshot-{counters.updates}")
                checkpoint(out, net, opt, pool, counters, cfg)
                env.close()
                env, pool, games = start_games(cfg, out, counters.updates)  # the path a resume takes from here
        clock.tick()
        if cfg.rate_games and clock.cpu_s >= cfg.cpu_hours * 3600 and clock.trained_since_rating():
            rate_now(cfg, net, counters, out, progress)  # the budget's last point
            checkpoint(out, net, opt, None, counters, cfg)
    save_net(net, out / "final.pt", game=the_game(cfg).game)  # plays as boardnet:PATH, on its game only
    return counters


# Options that do not change the training: a resumed run may be given other values.
RESUME_MAY_CHANGE = {"cpu_hours", "max_updates", "rate_games", "rate_minutes", "rate_share"}


def parse_args(argv: list[str] | None) -> tuple[Config, Path]:
    """``--out DIR`` plus one flag per :class:`Config` field (``--cpu-hours 2``, ``--levels random,greedy``)."""
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True,
                        help="run folder: checkpoint, pool, curve.csv (resumed if present)")
    for f in dataclasses.fields(Config):
        if f.name in GAME_OPTIONS:
            continue
        default = f.default
        kind = type(default)
        flag = "--" + f.name.replace("_", "-")
        if kind is tuple:
            parser.add_argument(flag, type=lambda s: tuple(p for p in s.split(",") if p), default=None)
        else:
            parser.add_argument(flag, type=kind, default=None)
    add_game_options(parser)  # --board-size, --win-length, --rule, --param, as the package's commands take them
    parser.add_argument("--opening-rule", metavar="NAME", default=None,
                        help="refused: the games start from the empty board (the AlphaZero trainer trains under one)")
    args = parser.parse_args(argv)
    if args.opening_rule is not None:
        parser.error(f"--opening-rule {args.opening_rule}: this recipe's batched games start from the empty board; "
                     "train under an opening rule with the AlphaZero trainer (boardgame-envs train GAME --opening-rule "
                     "NAME)")  # fmt: skip
    args.param = tuple(args.param) or None  # none given: the run's own
    out = Path(args.out)
    saved = out / "config.json"
    kept = saved_config(saved) if saved.exists() else {}
    base = Config(**kept)  # a run's own recipe (keys an older script wrote and this one lacks are left out)
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(Config)
             if getattr(args, f.name) is not None}  # fmt: skip
    if saved.exists():  # a resumed run keeps its recipe; only the budget and the stop may change
        changed = {k for k, v in given.items() if v != getattr(base, k)} - RESUME_MAY_CHANGE
        if changed:
            parser.error(f"{out} holds a run with other settings ({', '.join(sorted(changed))}); on resume only "
                         f"{', '.join('--' + k.replace('_', '-') for k in sorted(RESUME_MAY_CHANGE))} may change")  # fmt: skip
    cfg = dataclasses.replace(base, **given)
    try:
        game = the_game(cfg)
        if cfg.rate_games:
            game.ladder_or_raise()
    except LadderError as exc:
        parser.error(f"{exc}; or train it unrated with --rate-games 0")
    except ValueError as exc:  # no game, or options it does not take
        parser.error(str(exc))
    if not cfg.cpu_hours >= 0:  # nan too
        parser.error(f"--cpu-hours must be a number of CPU-hours, 0 or more, got {cfg.cpu_hours}")
    if cfg.sampling not in ("pfsp", "uniform", "latest"):
        parser.error(f"--sampling must be pfsp, uniform or latest, got {cfg.sampling!r}")
    if cfg.rate_games:  # refused at the start, not at the first rating an hour in
        try:
            check_rating_games(cfg.rate_games)
        except ValueError as exc:
            parser.error(f"--rate-games: {exc}")
    return cfg, out


def saved_config(path: Path) -> dict[str, Any]:
    """The settings a run saved (``config.json``), as :class:`Config` fields (keys this script lacks left out);
    :class:`~boardgame_envs.safeio.FileRefusedError` for a file that is not such settings."""
    data = read_json(path, limit=1 << 20, what="run settings")
    if not isinstance(data, dict):
        raise FileRefusedError(path, "not run settings (a JSON object of Config fields)")
    kept = {}
    for f in dataclasses.fields(Config):
        if f.name not in data:
            continue
        value, kind = data[f.name], OPTIONAL.get(f.name, type(f.default))
        if value is None and f.name in OPTIONAL:  # a game option left at the game's default
            kept[f.name] = value
            continue
        if kind is tuple and isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = tuple(value)
        elif kind is float and type(value) is int:
            value = float(value)
        if type(value) is not kind:
            raise FileRefusedError(path, f"{f.name} is {str(value)[:40]!r}, not a {kind.__name__}")
        kept[f.name] = value
    return kept


# What ends a run in one line (exit status 2): a folder it will not use, a file it will not read, a full disk.
REFUSALS = (RunFolderError, InUseError, FileRefusedError, DiskFullError, FileNotFoundError)


def main(argv: list[str] | None = None) -> int:
    try:
        cfg, out = parse_args(argv)
        counters = train(cfg, out)
    except REFUSALS as exc:
        print(f"ppo_selfplay.py: {exc}", file=sys.stderr)
        return 2
    clock = counters.clock
    print(f"done: {counters.updates} updates, {counters.steps} steps, {clock.hours:.3f} CPU-hours "
          f"({clock.rate_cpu_s / max(clock.cpu_s, 1e-9):.1%} of it rating)", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
