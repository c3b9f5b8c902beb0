"""The trainer's bookkeeping: what a run keeps on disk, what it resumes from, and what it tells the user.

:class:`RunLedger` is a part of :class:`~boardgame_envs.alphazero.trainer.AlphaZeroTrainer`
(a base class holding these methods; the trainer holds the state they read). It opens a run's
``out`` folder (its lock, a save cut short, the resume from ``out/latest.pt``), writes the checkpoint
(:meth:`RunLedger.checkpoint`, saved atomically) and the snapshots ``out/snapshots/iter-NNNN.pt``,
logs scalars to TensorBoard, draws ``out/summary.png``, and words the run for the user (where a call
starts, :meth:`RunLedger.account`).

Invariant: ``out/latest.pt`` holds everything a run needs to go on as if it had not stopped (the
network, optimizer, replay buffer, counters, warm start, pace and random state), ``saved_iteration``
and ``saved_warm`` say what it holds, and ``out/metrics.jsonl`` never holds an iteration past it
(:func:`~boardgame_envs.alphazero.summary.sync_metrics` drops them when the run is opened). A
checkpoint of another game or network shape, or with weights that are not finite, is refused in one
line, never resumed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from tqdm.auto import tqdm

from boardgame_envs.alphazero.budget import needed_minutes, warm_step_target
from boardgame_envs.alphazero.checkpoint import (
    LATEST,
    LOCK,
    CheckpointError,
    RunLock,
    first_nonfinite,
    game_to_dict,
    load_checkpoint,
    save_checkpoint,
    stale_temporaries,
)  # fmt: skip
from boardgame_envs.alphazero.summary import METRICS, SUMMARY, plot_summary, read_metrics, sync_metrics
from boardgame_envs.arena.lock import PID_SUFFIX
from boardgame_envs.safeio import stale_temporaries as temporaries_in

__all__ = ["RunLedger", "check_own_folder"]

#: What a run of the trainer keeps in ``out`` (its temporaries too, ``.NAME.*.tmp``): a folder holding anything
#: else and no ``latest.pt`` is another tool's (a PPO recipe's run, an SB3 model, a project) and is refused.
OWN_ENTRIES = {LATEST, LOCK, LOCK + PID_SUFFIX, METRICS, SUMMARY, "snapshots", "tensorboard"}  # (.pid: no flock)


def check_own_folder(out: Path) -> None:
    """Refuse ``out`` in one :class:`CheckpointError` line when it holds another tool's files and no checkpoint of
    this trainer to resume: a fresh run would write beside them (the PPO recipes refuse such a folder too)."""
    if not out.is_dir() or (out / LATEST).is_file():
        return  # a new folder, or a run to resume (load_checkpoint says what a bad latest.pt is)
    own = OWN_ENTRIES | {p.name for p in temporaries_in(out)}  # a write cut short by a kill is the trainer's
    foreign = sorted(p.name for p in out.iterdir() if p.name not in own)
    if not foreign:
        return
    shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
    whose = " (a run of a PPO recipe: its run.json)" if "run.json" in foreign else ""
    raise CheckpointError(f"{out}: not an AlphaZero run (no {LATEST}) and not empty: it holds {shown}{whose}; "
                          "it is left as it is: pick a new --out")  # fmt: skip


class RunLedger:
    """The bookkeeping methods of :class:`~boardgame_envs.alphazero.trainer.AlphaZeroTrainer`: opening ``out``,
    checkpoints and snapshots, TensorBoard, the summary plot, and the lines that tell the user about the run.

    They read and write the trainer's state: ``config``, ``game``, ``net``, ``optimizer``, ``buffer``, ``rng``,
    ``device``, the counters (``iteration``, ``games_played``, ``cpu_s``, ``warm``, ``rates``, ``stopped``) and
    ``out``, ``_lock``, ``_writer``, ``saved_iteration``, ``saved_warm``, which they keep."""

    # ------------------------------------------------------------- the run's folder
    def _open_run(self) -> None:
        """Take ``config.out`` (its lock, the temporaries a kill left), resume from its checkpoint if it holds
        one, and drop the metrics logged after that checkpoint."""
        cfg = self.config
        self.out = Path(cfg.out) if cfg.out is not None else None
        if self.out is not None:
            check_own_folder(self.out)  # another tool's run: refused before anything in it is touched
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
        if not resuming and cfg.init_network is not None:
            try:
                self._start_from_network(cfg.init_network)
            except BaseException:
                self.release_lock()
                raise

    def _start_from_network(self, source: str) -> None:
        """A fresh run's first weights from ``source`` (``pretrained:NAME``, a checkpoint file or a run folder):
        of this run's game and network shape, finite, or one :class:`CheckpointError` line. The optimizer and
        the replay buffer start empty, and there is no warm start to play."""
        if source.startswith("pretrained:"):
            from boardgame_envs.alphazero.pretrained import pretrained

            entry = pretrained(source.partition(":")[2])
            if entry.kind != "alphazero":
                raise CheckpointError(f"init_network: {source} is a {entry.kind} network, not an AlphaZero one")
            path = entry.path
        else:
            path = Path(source)
        self._load_network(load_checkpoint(path), f"init_network: {source}", " (set blocks and channels to its)")
        self.warm["done"] = True

    def _load_network(
        self, checkpoint: dict[str, Any], source: str, shape_hint: str = "", weights_hint: str = ""
    ) -> None:
        """``checkpoint``'s weights into the network, if they are for this run's game and network shape and
        finite; else one :class:`CheckpointError` line naming ``source``, with the hints that say what to do."""
        if checkpoint["game"] != game_to_dict(self.game):
            raise CheckpointError(f"{source} is for {checkpoint['game']}, not {game_to_dict(self.game)}")
        if checkpoint["net_hparams"] != self.net.hparams:
            raise CheckpointError(f"{source} is a network of shape {checkpoint['net_hparams']}, the config asks for "
                                  f"{self.net.hparams}{shape_hint}")  # fmt: skip
        bad = first_nonfinite(checkpoint["net"])
        if bad:  # training on from NaN weights would only spread them
            raise CheckpointError(f"{source}: its weights are not finite ({bad}){weights_hint}")
        self.net.load_state_dict(checkpoint["net"])

    def release_lock(self) -> None:
        """Let another trainer use ``out`` (done at the end of :meth:`train`)."""
        if self._lock is not None:
            self._lock.release()

    # ------------------------------------------------------------- messages
    def opening_line(self) -> str:
        """What a call to :meth:`train` starts from: a new run, the warm start under way, or an iteration."""
        if self.iteration:
            return f"resuming from iteration {self.iteration} ({self.out}/{LATEST})"
        if self.saved_warm is not None and not self.warm["done"]:
            return f"resuming the warm start ({self.out}/{LATEST}; {self._warm_so_far()})"
        if self.saved_warm is not None:
            return f"resuming after the warm start ({self.out}/{LATEST})"
        start = f" from {self.config.init_network}" if self.config.init_network is not None and not self.iteration else ""
        if self.out is None:
            return f"starting a new run{start} (no out folder: nothing is kept)"
        return f"starting a new run in {self.out}{start}"

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

    # ------------------------------------------------------------- checkpoints and logs
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
        self._load_network(checkpoint, str(self.out / LATEST), weights_hint="; resume from an earlier snapshot of the "
                           "run (copy it over latest.pt) or start a new run")  # fmt: skip
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
