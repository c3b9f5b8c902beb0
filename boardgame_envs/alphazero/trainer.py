"""The AlphaZero loop: self-play, learn, evaluate, checkpoint; repeat.

A fresh run with ``config.warm_start`` (a policy spec) first plays
``warm_games`` games of that policy against itself and takes ``warm_steps``
learning steps on its moves (expert iteration's warm start,
:mod:`~boardgame_envs.alphazero.warm_phase`); the checkpoint records it, so a
resumed run never repeats it. ``config.minutes`` is the whole call's budget,
warm start included: the warm start gets a share of it and is scaled down to
fit (:mod:`~boardgame_envs.alphazero.budget`). Then, one iteration:

1. **Self-play** ``games_per_iteration`` games with the current network
   (:class:`~boardgame_envs.alphazero.selfplay.SelfPlay`: envs built by
   ``env_fn``, PUCT with Dirichlet noise at the root, visits sampled for the
   first ``temperature_moves`` moves; the search options of
   :class:`~boardgame_envs.alphazero.AlphaZeroConfig`: threats, playout cap
   randomization), into the replay buffer.
2. **Learn**: ``train_steps`` Adam steps on random batches, each example moved
   by a random board symmetry; loss = policy cross-entropy (over the examples
   that have a policy target) + value MSE, with L2 (``weight_decay``)
   (:mod:`~boardgame_envs.alphazero.learner`).
3. **Evaluate** every ``eval_every`` iterations with the arena against the
   built-in policies; win rate and Elo go to TensorBoard and the progress bar.
4. **Checkpoint** ``out/latest.pt`` atomically. ``train()`` on the same
   ``out`` resumes from it, so a kill loses at most the iteration under way
   (the bookkeeping: :mod:`~boardgame_envs.alphazero.ledger`).

Each iteration's scalars also go to ``out/metrics.jsonl``; at the end of
``train()`` they are drawn in ``out/summary.png`` (losses and evaluation
scores against iterations; needs matplotlib, the ``plot`` extra).

This module holds the loop and what one iteration does; the invariant it keeps
is that an iteration counts (``iteration``, the logs, the checkpoint) only once
its self-play and learning are both done: one cut short by the budget is dropped.
``schedule_progress``, ``WARM_CHUNK`` and ``WARM_SAVE_EVERY`` are importable from
here as before.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from boardgame_envs.alphazero.budget import Clock, warm_plan, warm_shares
from boardgame_envs.alphazero.buffer import ReplayBuffer
from boardgame_envs.alphazero.config import AlphaZeroConfig
from boardgame_envs.alphazero.learner import Learner, schedule_progress
from boardgame_envs.alphazero.ledger import RunLedger
from boardgame_envs.alphazero.network import PolicyValueNet, resolve_device
from boardgame_envs.alphazero.policy import NetworkPolicy
from boardgame_envs.alphazero.selfplay import Examples, OutOfTime, SelfPlay, SelfPlayStats
from boardgame_envs.alphazero.summary import append_metrics
from boardgame_envs.alphazero.warm_phase import WARM_CHUNK, WARM_SAVE_EVERY, WarmStartPhase
from boardgame_envs.arena.progress import progress_bar
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.games.protocol import as_family

__all__ = ["WARM_CHUNK", "WARM_SAVE_EVERY", "AlphaZeroTrainer", "network_shape", "schedule_progress"]


def network_shape(game: Any, plane_shape: tuple[int, ...]) -> dict[str, int]:
    """The :class:`PolicyValueNet` arguments that fit ``game`` and its observation planes ``(rows, cols, C)``:
    a square m,n,k board as since the first networks; any other game with its rows and action count, and
    under an opening rule the number of its decisions (the actions after the board's points)."""
    rows, cols, planes = plane_shape
    shape = {"in_planes": planes, "board_size": cols}
    if as_family(game, "mnk") is None:
        shape.update(rows=rows, num_actions=game.num_actions)
        if as_family(game, "opening_rule") is not None:
            shape["decisions"] = len(game.decisions)
    return shape


class AlphaZeroTrainer(WarmStartPhase, RunLedger):
    """Trains a :class:`PolicyValueNet` by self-play on the envs ``env_fn`` builds.

    Args:
        env_fn: builds a ``tictactoe_v0`` / ``gomoku_v0`` env (wrapped or raw);
            called once per parallel game.
        config: hyperparameters; ``AlphaZeroConfig.for_game(...)`` has defaults.

    If ``config.out`` holds a checkpoint, the trainer resumes from it (the
    network, optimizer, replay buffer, counters and random state), after
    checking it was made for the same game.

    The loop and the iteration are here; the warm start's methods come from
    :class:`~boardgame_envs.alphazero.warm_phase.WarmStartPhase`, the bookkeeping
    (checkpoints, logs, messages) from :class:`~boardgame_envs.alphazero.ledger.RunLedger`,
    and the gradient steps are :attr:`learner`'s.
    """

    def __init__(self, env_fn: Callable[[], Any], config: AlphaZeroConfig | None = None) -> None:
        self.env_fn = env_fn
        self.config = cfg = config if config is not None else AlphaZeroConfig()
        probe = env_fn()
        if not isinstance(probe.unwrapped, GameAECEnv):
            raise TypeError(f"env_fn must build an env of this package (tictactoe_v0, gomoku_v0, ...), got {type(probe).__name__}")
        self.game = probe.unwrapped.game
        agent = probe.possible_agents[0]
        plane_shape = probe.observation_space(agent)["observation"].shape
        if cfg.torch_threads is not None:
            torch.set_num_threads(cfg.torch_threads)
        torch.manual_seed(cfg.seed)
        self.rng = np.random.default_rng(cfg.seed)
        self.device = resolve_device(cfg.device)
        self.net = PolicyValueNet(**network_shape(self.game, plane_shape), blocks=cfg.blocks,
                                  channels=cfg.channels).to(self.device)  # fmt: skip
        self.buffer = ReplayBuffer(cfg.buffer_size, plane_shape, self.game.num_actions)
        self.learner = Learner(self.net, self.buffer, self.rng, self.game, cfg, self.device)  # owns the optimizer
        self.iteration = 0
        self.games_played = 0
        # CPU seconds of training (self-play on whichever backend, learning, the warm start; not evaluation), checkpointed.
        self.cpu_s = 0.0
        # The warm start's progress (checkpointed): games played, examples kept, learning steps taken, finished.
        self.warm = {"games": 0, "positions": 0, "steps": 0, "done": cfg.warm_start is None}
        # The run's pace as last measured (seconds a warm-start game, a learning step, an iteration; checkpointed,
        # so a resumed call knows what fits its budget before it starts), and why this call stopped early, if it did.
        self.rates: dict[str, float] = {}
        self.stopped: str | None = None
        self._open_run()  # out's lock, and the resume from out/latest.pt (RunLedger)
        self._selfplay: Any = None
        self._writer: Any = None
        self._clock: Clock | None = None  # the budget of the train() call under way
        self._eval_s: float | None = None  # seconds of the last evaluation

    @property
    def optimizer(self) -> torch.optim.Optimizer:
        """The network's Adam optimizer (the learner's; checkpointed with the run)."""
        return self.learner.optimizer

    # ------------------------------------------------------------------ loop
    def train(self) -> list[dict[str, float]]:
        """Run iterations until ``config.iterations`` (in all, counting resumed ones) or ``config.minutes``.

        Returns the per-iteration scalars of this call (also in TensorBoard).
        """
        cfg = self.config
        if cfg.iterations is None and cfg.minutes is None:
            raise ValueError("set config.iterations or config.minutes: training has no end otherwise")
        self._clock = clock = Clock(cfg.minutes)
        self.stopped = None
        rows: list[dict[str, float]] = []
        if self._lock is not None:
            self._lock.acquire()  # again, for a second train() on a trainer whose lock the first released
        self._say(self.opening_line())
        try:
            if not self.warm["done"]:
                games_share, steps_share = warm_shares(cfg.iterations)
                if cfg.minutes is not None:
                    games_left = 0 if self.warm["games"] else cfg.warm_games
                    self._say(warm_plan(cfg.minutes, cfg.iterations, games_left, cfg.warm_steps, cfg.warm_start or ""))
                self.warm_start(clock.at(steps_share), games_deadline=clock.at(games_share),
                                final=cfg.minutes is not None and cfg.iterations != 0, floor_deadline=clock.deadline)  # fmt: skip
            origin = None if self.out is None else self.out / "snapshots" / "iter-0000.pt"
            if origin is not None and self.warm["done"] and not self.iteration and cfg.snapshot_every and not origin.exists():
                self.snapshot()  # a curve's first point: the warm start's network (or the untrained one), 0 iterations
            # The bar counts all iterations: a resumed run starts it where the checkpoint was.
            bar = progress_bar(total=cfg.iterations, initial=self.iteration, desc="iterations", unit="it", disable=not cfg.progress)
            started, took = time.perf_counter(), None
            while self.warm["done"] and (cfg.iterations is None or self.iteration < cfg.iterations):
                # The last iteration's time (this call's, else the run's last); before any, its learning steps at
                # the warm start's pace, a lower bound.
                guess = took if took is not None else self.rates.get("iteration_s", cfg.train_steps * self.rates.get("step_s", 0.0))
                if clock.passed() or not clock.fits(guess):
                    if not clock.passed():
                        what = "" if "iteration_s" in self.rates else "; its learning steps alone"
                        need = "" if rows else f"; one needs a budget of about {math.ceil(guess / 60 + clock.elapsed() / 60)} min"
                        self.stopped = f"the next iteration (about {guess:.0f} s{what}) would end past the budget{need}"
                    break
                elapsed = None if clock.seconds is None else (time.perf_counter() - started, clock.start + clock.seconds - started)
                self.learner.anneal(schedule_progress(self.iteration, cfg.iterations, elapsed))
                begun = time.perf_counter()
                try:
                    row = self.run_iteration()
                except OutOfTime as exc:
                    self.stopped = f"the budget ended inside iteration {self.iteration + 1} ({exc}), which is dropped"
                    # An iteration takes at least this long: kept, so the next call knows before it starts one.
                    self.rates["iteration_s"] = max(self.rates.get("iteration_s", 0.0), time.perf_counter() - begun)
                    self._save()
                    break
                took = time.perf_counter() - begun
                rows.append(row)
                bar.update()
                bar.set_postfix({k: f"{v:.3g}" for k, v in row.items() if k in ("games_per_s", "loss") or k.startswith("score")})
            bar.close()
            self._say(self.account())
        finally:
            self._clock = None
            self.release_workers()
            self.release_lock()
        if self._writer is not None:
            self._writer.flush()
        if rows and self.out is not None:
            self.plot_summary()
        return rows

    def release_workers(self) -> None:
        """Stop the Ray self-play workers, if any (``train()`` does it on its way out); the next iteration starts new ones."""
        close = getattr(self._selfplay, "close", None)
        if close is not None:
            close()
            self._selfplay = None

    # ------------------------------------------------------------- one iteration
    def run_iteration(self) -> dict[str, float]:
        """One self-play / learn / (evaluate) / checkpoint round; returns its scalars."""
        cfg = self.config
        deadline = None if self._clock is None else self._clock.deadline
        t0 = time.perf_counter()
        examples, stats = self.self_play(cfg.games_per_iteration, deadline)  # OutOfTime past the deadline
        t1, cpu1 = time.perf_counter(), time.process_time()
        self.buffer.add(examples.planes, examples.masks, examples.policies, examples.values)
        losses = self.learn(cfg.train_steps, deadline)
        t2 = time.perf_counter()
        self.cpu_s += stats.cpu_s + time.process_time() - cpu1
        self.iteration += 1
        self.games_played += stats.games
        row = {
            "iteration": float(self.iteration),
            "games": float(self.games_played),
            "games_per_s": stats.games / max(t1 - t0, 1e-9),
            "moves_per_game": stats.moves / max(stats.games, 1),
            "first_player_win_rate": stats.results["first"] / max(stats.games, 1),
            "draw_rate": stats.results["draw"] / max(stats.games, 1),
            **self._opening_row(stats),
            **({"full_search_share": stats.full_searches / max(stats.moves, 1)} if cfg.full_search_prob < 1 else {}),
            "learn_s": t2 - t1,
            "cpu_s": self.cpu_s,
            "lr": self.optimizer.param_groups[0]["lr"],
            **losses,
        }
        if cfg.eval_every and self.iteration % cfg.eval_every == 0:
            # An evaluation is left out when the last one (or, before any, this iteration's self-play) would not fit.
            guess = self._eval_s if self._eval_s is not None else t1 - t0
            if self._clock is None or self._clock.fits(guess):
                t3 = time.perf_counter()
                row.update(self.evaluate())
                self._eval_s = time.perf_counter() - t3
            else:
                self._say(f"iteration {self.iteration}: evaluation left out, it would end past the budget")
        self._log(row, step=self.iteration)
        if self.out is not None:
            append_metrics(self.out, row)
        self.rates["iteration_s"] = time.perf_counter() - t0
        self._save()
        if self.out is not None and cfg.snapshot_every and self.iteration % cfg.snapshot_every == 0:
            self.snapshot()
        return row

    def _opening_row(self, stats: SelfPlayStats) -> dict[str, float]:
        """Under an opening rule: black's share of the self-play wins (the rule decides who holds it) and each
        decision's count per game (``opening_swap``, ``opening_more``, ...); nothing otherwise."""
        if as_family(self.game, "opening_rule") is None:
            return {}
        games = max(stats.games, 1)
        row = {"black_win_rate": stats.black_wins / games}
        row.update({f"opening_{name}": stats.decisions.get(name, 0) / games for name in self.game.decisions})
        return row

    # ------------------------------------------------------------- the parts
    def self_play(self, games: int, deadline: float | None = None) -> tuple[Examples, SelfPlayStats]:
        """Play ``games`` games with the current network (local or on Ray workers); :class:`OutOfTime`
        when ``deadline`` (a ``time.perf_counter()`` value) comes first (Ray workers are then stopped)."""
        if self._selfplay is None:
            seed = int(self.rng.integers(2**31))
            if self.config.backend == "ray":
                from boardgame_envs.alphazero.distributed import RaySelfPlay

                self._selfplay = RaySelfPlay(self.env_fn, self.config, seed)
            else:
                self._selfplay = SelfPlay(self.env_fn, self.config, seed)
        return self._selfplay.play(self.net, games, deadline)

    def learn(self, steps: int, deadline: float | None = None) -> dict[str, float]:
        """``steps`` gradient steps on batches from the replay buffer (:meth:`Learner.learn
        <boardgame_envs.alphazero.learner.Learner.learn>`): their mean losses and ``learn_steps``."""
        return self.learner.learn(steps, deadline)

    def policy(self, simulations: int | None = None, seed: int | None = None) -> NetworkPolicy:
        """The current network as a policy (``simulations`` defaults to ``config.eval_simulations``)."""
        sims = self.config.eval_simulations if simulations is None else simulations
        return NetworkPolicy(self.net, self.game, simulations=sims, c_puct=self.config.c_puct, seed=seed,
                             torch_threads=self.config.torch_threads, threats=self.config.threats,
                             vcf_nodes=self.config.vcf_nodes)  # fmt: skip

    def evaluate(self) -> dict[str, float]:
        """Arena matches against ``config.eval_opponents``: score and Elo difference for each."""
        from boardgame_envs.arena import match

        cfg = self.config
        out = {}
        for opponent in cfg.eval_opponents:
            # from the empty board, seats alternated: what the runs' curves have always measured
            result = match(self.env_fn, lambda seed: self.policy(seed=seed), opponent, games=cfg.eval_games,
                           seed=cfg.seed + self.iteration, progress=False, openings=None)  # fmt: skip  # fmt: skip
            out[f"score_vs_{opponent}"] = result.score()[0]
            out[f"elo_vs_{opponent}"] = result.elo()[0]
            out[f"losses_vs_{opponent}"] = float(result.losses)
        return out

