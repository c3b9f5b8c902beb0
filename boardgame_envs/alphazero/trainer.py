"""The AlphaZero loop: self-play, learn, evaluate, checkpoint; repeat.

A fresh run with ``config.warm_start`` (a policy spec) first plays
``warm_games`` games of that policy against itself and takes ``warm_steps``
learning steps on its moves (expert iteration's warm start,
:mod:`~boardgame_envs.alphazero.warmstart`); the checkpoint records it, so a
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
   that have a policy target) + value MSE, with L2 (``weight_decay``).
3. **Evaluate** every ``eval_every`` iterations with the arena against the
   built-in policies; win rate and Elo go to TensorBoard and the progress bar.
4. **Checkpoint** ``out/latest.pt`` atomically. ``train()`` on the same
   ``out`` resumes from it, so a kill loses at most the iteration under way.

Each iteration's scalars also go to ``out/metrics.jsonl``; at the end of
``train()`` they are drawn in ``out/summary.png`` (losses and evaluation
scores against iterations; needs matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F
from tqdm.auto import tqdm

from boardgame_envs.alphazero.budget import Clock, needed_minutes, warm_floor, warm_plan, warm_shares, warm_step_target
from boardgame_envs.alphazero.buffer import ReplayBuffer
from boardgame_envs.alphazero.checkpoint import (
    LATEST,
    CheckpointError,
    RunLock,
    first_nonfinite,
    game_to_dict,
    load_checkpoint,
    save_checkpoint,
    stale_temporaries,
)  # fmt: skip
from boardgame_envs.alphazero.config import AlphaZeroConfig
from boardgame_envs.alphazero.network import PolicyValueNet, resolve_device
from boardgame_envs.alphazero.policy import NetworkPolicy
from boardgame_envs.alphazero.selfplay import Examples, OutOfTime, SelfPlay, SelfPlayStats
from boardgame_envs.alphazero.summary import (
    SUMMARY,
    append_metrics,
    plot_summary,
    read_metrics,
    sync_metrics,
)
from boardgame_envs.alphazero.warmstart import play_warm_games, warm_targets, warm_tasks
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.games.lines import BLACK, EMPTY, WHITE
from boardgame_envs.games.protocol import cell_symmetries, as_family
from boardgame_envs.arena.progress import progress_bar
from boardgame_envs.games.symmetry import random_permutations, random_symmetries


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


def _cpu_with_children() -> float:
    """CPU seconds of this process and of its ended, waited-for children (the local warm-start workers)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


WARM_CHUNK = 50  # warm-start learning steps between progress updates and TensorBoard points
WARM_SAVE_EVERY = 250  # ... and between checkpoints (a multiple of WARM_CHUNK)


def schedule_progress(iteration: int, iterations: int | None, clock: tuple[float, float] | None) -> float:
    """How far through its learning-rate schedule a run is, from 0 to 1.

    By the run's ``iterations`` when they are set, counting resumed ones (a run split over several calls,
    each with its own ``minutes``, keeps one schedule); else by this call's ``clock``, ``(elapsed, budget)``
    in seconds; 0 with neither.
    """
    if iterations is not None:
        return min(1.0, iteration / iterations) if iterations else 1.0
    if clock is None:
        return 0.0
    elapsed, budget = clock
    return min(1.0, elapsed / budget) if budget > 0 else 1.0


class AlphaZeroTrainer:
    """Trains a :class:`PolicyValueNet` by self-play on the envs ``env_fn`` builds.

    Args:
        env_fn: builds a ``tictactoe_v0`` / ``gomoku_v0`` env (wrapped or raw);
            called once per parallel game.
        config: hyperparameters; ``AlphaZeroConfig.for_game(...)`` has defaults.

    If ``config.out`` holds a checkpoint, the trainer resumes from it (the
    network, optimizer, replay buffer, counters and random state), after
    checking it was made for the same game.
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
        self._mnk = as_family(self.game, "mnk") is not None  # the square board's 8 symmetries, else the game's own
        if cfg.torch_threads is not None:
            torch.set_num_threads(cfg.torch_threads)
        torch.manual_seed(cfg.seed)
        self.rng = np.random.default_rng(cfg.seed)
        self.device = resolve_device(cfg.device)
        self.net = PolicyValueNet(**network_shape(self.game, plane_shape), blocks=cfg.blocks,
                                  channels=cfg.channels).to(self.device)  # fmt: skip
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.buffer = ReplayBuffer(cfg.buffer_size, plane_shape, self.game.num_actions)
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
        self.out = Path(cfg.out) if cfg.out is not None else None
        self._lock = RunLock(self.out) if self.out is not None else None
        if self._lock is not None:
            self._lock.acquire()  # a live trainer on the same out: RunInUseError naming its pid
            for tmp in stale_temporaries(self.out):  # a save cut short by a kill
                tmp.unlink(missing_ok=True)
        resuming = self.out is not None and (self.out / LATEST).is_file()
        if resuming:
            try:
                checkpoint = load_checkpoint(self.out / LATEST, self.device)
                # A network alone (export_network's output, a pretrained network) has no optimizer, replay
                # buffer or iteration count: resuming from it would be another run under the same name.
                network_only = "optimizer" not in checkpoint
                if not network_only:
                    self._restore(checkpoint)
            except ValueError as exc:  # CheckpointError, or a checkpoint of another game or network shape
                self.release_lock()
                raise CheckpointError(f"cannot resume: {exc}; to start afresh, remove it or pick another out directory") from None
            if network_only:
                self.release_lock()
                raise CheckpointError(f"{self.out / LATEST} holds a network only (as export_network and the pretrained "
                                      "networks are written), not a training run; move it out to start a new run here")
        if self.out is not None:
            try:  # rows logged after the checkpoint are played again: dropped, so no iteration is logged twice
                sync_metrics(self.out, self.iteration, self.warm["done"])
            except BaseException:
                self.release_lock()
                raise
        self.saved_iteration = self.iteration  # the iteration of out/latest.pt (0: none written, or the warm start's)
        self.saved_warm = dict(self.warm) if resuming else None
        self._selfplay: Any = None
        self._writer: Any = None
        self._clock: Clock | None = None  # the budget of the train() call under way
        self._eval_s: float | None = None  # seconds of the last evaluation

    # ------------------------------------------------------------- messages
    def opening_line(self) -> str:
        """What a call to :meth:`train` starts from: a new run, the warm start under way, or an iteration."""
        if self.iteration:
            return f"resuming from iteration {self.iteration} ({self.out}/{LATEST})"
        if self.saved_warm is not None and not self.warm["done"]:
            return f"resuming the warm start ({self.out}/{LATEST}; {self._warm_so_far()})"
        if self.saved_warm is not None:
            return f"resuming after the warm start ({self.out}/{LATEST})"
        return f"starting a new run in {self.out}" if self.out is not None else "starting a new run (no out folder: nothing is kept)"

    @property
    def learned(self) -> bool:
        """Whether the network has learned anything: a warm-start learning step or a self-play iteration."""
        return self.iteration > 0 or self.warm["steps"] > 0

    def account(self) -> str:
        """The run so far in one line: the warm start (games, learning steps, whether cut to fit the budget) and
        the self-play iterations, or, for a network that has learned nothing, that it has not and why."""
        cfg = self.config
        parts = []
        if cfg.warm_start is not None or self.warm["games"]:
            if self.warm["done"] and self.warm.get("cut"):
                parts.append(f"warm start cut to fit the budget ({self._warm_so_far()})")
            elif self.warm["done"]:
                parts.append(f"warm start {self.warm['games']} games, {self.warm['steps']} learning steps")
            else:
                parts.append(f"warm start unfinished ({self._warm_so_far()}; the same call again goes on with it)")
        parts.append(f"{self.iteration} self-play iterations")
        line = "; ".join(parts)
        why = f": {self.stopped}" if self.stopped else ""
        if self.learned and (self.iteration or self.warm["done"]):
            return line + (f" ({self.stopped})" if self.stopped else "")
        need = needed_minutes(self.rates.get("game_s"), self.rates.get("step_s"), cfg.warm_games, cfg.warm_steps)
        hint = f"; a whole warm start needs a budget of about {need:.0f} minutes here" if need is not None and need >= 1 else ""
        what = "no learning" if not self.learned else "no self-play iterations, only part of the warm start"
        return f"{what}{why} ({line}){hint}"

    def _warm_so_far(self) -> str:
        cfg = self.config
        if not self.warm["games"]:
            return f"0 of {cfg.warm_games} games"
        target = warm_step_target(cfg.warm_steps, self.warm["games"], cfg.warm_games)
        return f"{self.warm['games']} of {cfg.warm_games} games, {self.warm['steps']} of {target} learning steps"

    def _say(self, line: str) -> None:
        """A line for the user, shown with the progress bars (``config.progress``)."""
        if self.config.progress:
            tqdm.write(line)

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
                self._anneal(schedule_progress(self.iteration, cfg.iterations, elapsed))
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

    def release_lock(self) -> None:
        """Let another trainer use ``out`` (done at the end of :meth:`train`)."""
        if self._lock is not None:
            self._lock.release()

    def release_workers(self) -> None:
        """Stop the Ray self-play workers, if any (``train()`` does it on its way out); the next iteration starts new ones."""
        close = getattr(self._selfplay, "close", None)
        if close is not None:
            close()
            self._selfplay = None

    def warm_start(self, deadline: float | None = None, games_deadline: float | None = None, final: bool = False,
                   floor_deadline: float | None = None) -> None:  # fmt: skip
        """Expert iteration's warm start: ``warm_games`` games of ``config.warm_start``, then learning steps.

        The games fill the replay buffer (one example per expert move, see
        :mod:`~boardgame_envs.alphazero.warmstart`) and are checkpointed; they stop
        at ``games_deadline`` (a ``time.perf_counter()`` value), and the games played
        by then are the warm start's (a warm start with none plays them at its next
        call). The learning steps, ``warm_steps`` for all the games and fewer in
        proportion for fewer (:func:`~boardgame_envs.alphazero.budget.warm_step_target`),
        are checkpointed as they go and stop at ``deadline``, or, short of their floor
        (:func:`~boardgame_envs.alphazero.budget.warm_floor`), at ``floor_deadline`` when
        it is later (self-play from a network short of its floor is not worth its time).
        Cut short, the warm start goes on at the next call, unless ``final`` (a budgeted
        run whose self-play follows) and it has its floor of steps: then it is complete
        at the size it reached, marked ``cut`` (as is one with fewer games than asked for).
        """
        cfg = self.config
        if cfg.warm_start is None:
            raise ValueError("config.warm_start names no policy: there is nothing to warm-start from")
        if self.warm["games"] == 0:
            self._play_warm_games(games_deadline)
            if self.warm["games"] == 0:
                return  # not one game before the clock: nothing to learn from
        target = warm_step_target(cfg.warm_steps, self.warm["games"], cfg.warm_games)
        self._anneal(0.0)
        bar = progress_bar(total=target, initial=min(self.warm["steps"], target), desc="warm-start learning steps", unit="step",
                   disable=not cfg.progress)  # fmt: skip
        losses: dict[str, float] = {}
        begun, taken, floor = time.perf_counter(), 0, warm_floor(target)
        late = deadline if floor_deadline is None or deadline is None else max(deadline, floor_deadline)
        while self.warm["steps"] < target:
            until = deadline if self.warm["steps"] >= floor else late
            if until is not None and time.perf_counter() >= until:
                break
            # Up to the next save point: a checkpoint every WARM_SAVE_EVERY steps, a progress update every WARM_CHUNK;
            # and not past the floor on the floor's clock.
            steps = min(WARM_CHUNK, target - self.warm["steps"], WARM_SAVE_EVERY - self.warm["steps"] % WARM_SAVE_EVERY)
            steps = steps if self.warm["steps"] >= floor else min(steps, floor - self.warm["steps"])
            cpu = time.process_time()
            chunk = self.learn(steps, until)
            self.cpu_s += time.process_time() - cpu
            done = int(chunk.pop("learn_steps", 0))
            losses = chunk or losses
            self.warm["steps"] += done
            taken += done
            bar.update(done)
            bar.set_postfix({k: f"{v:.3g}" for k, v in losses.items()})
            if done:
                self._log({f"warm_{k}": v for k, v in losses.items()}, step=self.warm["steps"])
            if self.warm["steps"] % WARM_SAVE_EVERY == 0 and self.warm["steps"] < target:
                self._save()
        bar.close()
        if taken:
            self.rates["step_s"] = (time.perf_counter() - begun) / taken
        # Cut to fit the budget, the warm start is complete at its size once it has its floor of steps; below
        # that it is unfinished, and self-play waits for the next call to take them.
        cut = final and self.warm["steps"] < target
        if cut:
            self._say(f"warm-start learning steps stopped at {self.warm['steps']} of {target}: their share of the budget is spent")
        if cut and self.warm["steps"] >= floor:
            self.warm["cut"] = True
        elif self.warm["steps"] >= target and self.warm["games"] < cfg.warm_games:
            self.warm["cut"] = True  # whole for the games it has, fewer games than asked for
        elif cut:
            self.stopped = (f"the budget's share for warm-start learning ended after {self.warm['steps']} steps, "
                            f"fewer than the {floor} a warm start takes at least")  # fmt: skip
        if self.warm["steps"] >= target or self.warm.get("cut"):
            self.warm["done"] = True
            if self.out is not None:
                append_metrics(self.out, {"iteration": 0.0, **self._warm_row(), **losses})
        self._save()

    def _play_warm_games(self, deadline: float | None = None) -> None:
        cfg = self.config
        cpu, begun = _cpu_with_children(), time.perf_counter()
        tasks = warm_tasks(self.env_fn, self.game, cfg.warm_start, cfg.warm_games, cfg.warm_random_moves, self.rng)
        played, positions, results = [], 0, {BLACK: 0, WHITE: 0, EMPTY: 0}
        bar = progress_bar(total=len(tasks), desc=f"warm-start games ({cfg.warm_start})", unit="game", disable=not cfg.progress)
        games = play_warm_games(tasks, cfg.workers, cfg.backend)
        try:
            # The clock is read as each game comes in: a game at a time, it overruns by at most one game's wait.
            while deadline is None or time.perf_counter() < deadline:
                game = next(games, None)
                if game is None:
                    break
                played.append(game)
                positions += len(game.actions)
                results[game.winner_color] += 1
                bar.update()
                bar.set_postfix(positions=positions, black_wins=results[BLACK], white_wins=results[WHITE])
        finally:
            games.close()  # stops the workers, also at the deadline, on Ctrl-C or an error
            bar.close()
        self.cpu_s += _cpu_with_children() - cpu  # the games' worker processes too, once they have ended
        if played:
            self.rates["game_s"] = (time.perf_counter() - begun) / len(played)
        if len(played) < len(tasks) and played:
            self._say(f"warm-start games stopped at {len(played)} of {len(tasks)}: their share of the budget is spent")
        elif not played:
            self.stopped = "the budget's share for warm-start games ended before the first game did"
        if not played:
            return  # nothing to keep: the next call plays them
        # Into the buffer only once all games are in: an interrupted warm start leaves no trace.
        for game in played:
            self.buffer.add(game.planes, game.masks, *warm_targets(game, cfg.value_decay, self.game.num_actions))
        self.warm.update(games=len(played), positions=positions, black_wins=results[BLACK], white_wins=results[WHITE],
                         draws=results[EMPTY])  # fmt: skip
        self._log(self._warm_row(), step=0)
        self._save()

    def _warm_row(self) -> dict[str, float]:
        """The warm start's games, examples and the expert's results by colour, for the logs."""
        games = max(self.warm["games"], 1)
        return {
            "warm_games": float(self.warm["games"]),
            "warm_positions": float(self.warm["positions"]),
            "warm_black_win_rate": self.warm.get("black_wins", 0) / games,
            "warm_white_win_rate": self.warm.get("white_wins", 0) / games,
            "warm_draw_rate": self.warm.get("draws", 0) / games,
        }

    def plot_summary(self) -> Path | None:
        """Draw ``out/summary.png`` from the whole run's ``metrics.jsonl``; None (and a note) without matplotlib."""
        if self.out is None:
            return None
        try:
            return plot_summary(read_metrics(self.out), self.out / SUMMARY, f"AlphaZero: {self.game.describe()}")
        except ValueError as exc:
            if self.config.progress:
                tqdm.write(f"no summary plot: {exc}")
            return None

    def _anneal(self, progress: float) -> None:
        """Cosine learning rate from ``lr`` at the start of the run to ``lr * lr_final`` at its end."""
        cfg = self.config
        factor = cfg.lr_final + (1.0 - cfg.lr_final) * 0.5 * (1.0 + math.cos(math.pi * min(max(progress, 0.0), 1.0)))
        for group in self.optimizer.param_groups:
            group["lr"] = cfg.lr * factor

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

    def snapshot(self) -> Path:
        """Keep the network as it is now in ``out/snapshots/iter-NNNN.pt`` (a checkpoint ``checkpoint:`` specs
        and ``NetworkPolicy.from_checkpoint`` read), with the iteration, games and CPU seconds so far."""
        assert self.out is not None
        path = self.out / "snapshots" / f"iter-{self.iteration:04d}.pt"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_checkpoint(path, {
            "config": self.config.to_dict(), "game": game_to_dict(self.game), "net_hparams": self.net.hparams,
            "net": self.net.state_dict(), "iteration": self.iteration, "games_played": self.games_played,
            "cpu_s": self.cpu_s,
        })  # fmt: skip
        return path

    def _save(self) -> None:
        if self.out is not None:
            save_checkpoint(self.out / LATEST, self.checkpoint())
            self.saved_iteration = self.iteration
            self.saved_warm = dict(self.warm)

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
        """``steps`` gradient steps on batches from the replay buffer, fewer when ``deadline`` (a
        ``time.perf_counter()`` value) comes first; their mean losses and ``learn_steps``, the steps taken
        (nothing without a step)."""
        cfg = self.config
        totals = {"loss": 0.0, "policy_loss": 0.0, "value_loss": 0.0}
        if steps == 0 or len(self.buffer) == 0:
            return {}
        self.net.train()
        taken = 0
        for _ in range(steps):
            if deadline is not None and taken and time.perf_counter() >= deadline:
                break  # at least one step: an iteration's games are not left unlearned
            planes, masks, policies, values = self.buffer.sample(cfg.batch_size, self.rng)
            planes = planes.transpose(0, 3, 1, 2)  # HWC -> CHW
            if cfg.augment and self._mnk:
                planes, masks, policies = random_symmetries(planes, masks, policies, self.rng, channels_first=True)
            elif cfg.augment:
                planes, masks, policies = random_permutations(planes, masks, policies, self.rng,
                                                              cell_symmetries(self.game), self.game.symmetries())  # fmt: skip
            x = torch.from_numpy(np.ascontiguousarray(planes)).to(self.device).float()
            mask = torch.from_numpy(np.ascontiguousarray(masks)).to(self.device)
            target_p = torch.from_numpy(np.ascontiguousarray(policies)).to(self.device)
            target_v = torch.from_numpy(values).to(self.device)
            logits, value = self.net(x, mask)
            # Illegal actions have -inf logits and zero targets: count them as 0, not 0 * -inf.
            log_p = F.log_softmax(logits, dim=-1).masked_fill(~mask, 0.0)
            # A target of zeros is none (a cheap search's move): the mean runs over the examples that have one.
            has_target = (target_p.sum(dim=-1) > 0).float()
            policy_loss = -(target_p * log_p).sum(dim=-1).sum() / has_target.sum().clamp(min=1.0)
            value_loss = F.mse_loss(value, target_v)
            loss = policy_loss + value_loss
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
            totals["loss"] += loss.item()
            totals["policy_loss"] += policy_loss.item()
            totals["value_loss"] += value_loss.item()
            taken += 1
        self.net.eval()
        return {**{k: v / taken for k, v in totals.items()}, "learn_steps": float(taken)}

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
            result = match(self.env_fn, lambda seed: self.policy(seed=seed), opponent, games=cfg.eval_games,
                           seed=cfg.seed + self.iteration, progress=False)  # fmt: skip
            out[f"score_vs_{opponent}"] = result.score()[0]
            out[f"elo_vs_{opponent}"] = result.elo()[0]
            out[f"losses_vs_{opponent}"] = float(result.losses)
        return out

    # ---------------------------------------------------------- bookkeeping
    def _log(self, row: dict[str, float], step: int) -> None:
        if self.out is None or not self.config.tensorboard:
            return
        if self._writer is None:
            from torch.utils.tensorboard import SummaryWriter

            self._writer = SummaryWriter(str(self.out / "tensorboard"))
        for key, value in row.items():
            if key != "iteration":
                self._writer.add_scalar(key, value, step)

    def checkpoint(self) -> dict[str, Any]:
        """Everything :meth:`train` needs to resume, as tensors and plain values."""
        return {
            "config": self.config.to_dict(),
            "game": game_to_dict(self.game),
            "net_hparams": self.net.hparams,
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "buffer": self.buffer.state_dict(),
            "iteration": self.iteration,
            "games_played": self.games_played,
            "cpu_s": self.cpu_s,
            "warm_start": dict(self.warm),
            "pace": dict(self.rates),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }

    def _restore(self, checkpoint: dict[str, Any]) -> None:
        if checkpoint["game"] != game_to_dict(self.game):
            raise ValueError(f"checkpoint in {self.out} is for {checkpoint['game']}, not {game_to_dict(self.game)}")
        if checkpoint["net_hparams"] != self.net.hparams:
            raise ValueError(f"checkpoint in {self.out} has network {checkpoint['net_hparams']}, "
                             f"the config asks for {self.net.hparams}")  # fmt: skip
        bad = first_nonfinite(checkpoint["net"])
        if bad:  # training on from NaN weights would only spread them
            raise CheckpointError(f"{self.out / LATEST}: its weights are not finite ({bad}); resume from an earlier "
                                  "snapshot of the run (copy it over latest.pt) or start a new run")  # fmt: skip
        self.net.load_state_dict(checkpoint["net"])
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        self.buffer.load_state_dict(checkpoint["buffer"])
        self.iteration = int(checkpoint["iteration"])
        self.games_played = int(checkpoint["games_played"])
        self.cpu_s = float(checkpoint.get("cpu_s", 0.0))  # a checkpoint from before CPU was counted: from here on
        # A checkpoint from before warm starts existed is past any warm start.
        self.warm = {"games": 0, "positions": 0, "steps": 0, **checkpoint.get("warm_start", {"done": True})}
        self.rates = {k: float(v) for k, v in checkpoint.get("pace", {}).items()}  # none before the pace was kept
        self.rng.bit_generator.state = checkpoint["rng"]
        torch.set_rng_state(checkpoint["torch_rng"])
