"""The warm start's place in a run: expert games into the replay buffer, then learning steps, within a budget.

:class:`WarmStartPhase` is a part of :class:`~boardgame_envs.alphazero.trainer.AlphaZeroTrainer`
(a base class holding these methods; the trainer holds the state they read). A fresh run with
``config.warm_start`` (a policy spec) first plays ``warm_games`` games of that policy against itself
(the games themselves: :mod:`~boardgame_envs.alphazero.warmstart`) and then takes ``warm_steps``
learning steps on its moves, expert iteration's warm start; the budget's shares and the floor of steps
worth self-play come from :mod:`~boardgame_envs.alphazero.budget`.

Invariant: the warm start happens once per run. Its progress (``trainer.warm``: games, examples,
learning steps, ``done``, ``cut``) is checkpointed as it goes, the games enter the replay buffer only
once all of them are in (an interrupted warm start leaves no trace), and a resumed run goes on where
the checkpoint left it, never playing the games or taking the steps again.
"""

from __future__ import annotations

import time

from boardgame_envs.alphazero.budget import warm_floor, warm_step_target
from boardgame_envs.alphazero.summary import append_metrics
from boardgame_envs.alphazero.warmstart import play_warm_games, warm_targets, warm_tasks
from boardgame_envs.arena.progress import progress_bar
from boardgame_envs.games.lines import BLACK, EMPTY, WHITE

__all__ = ["WARM_CHUNK", "WARM_SAVE_EVERY", "WarmStartPhase"]


def _cpu_with_children() -> float:
    """CPU seconds of this process and of its ended, waited-for children (the local warm-start workers)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


WARM_CHUNK = 50  # warm-start learning steps between progress updates and TensorBoard points
WARM_SAVE_EVERY = 250  # ... and between checkpoints (a multiple of WARM_CHUNK)


class WarmStartPhase:
    """The warm-start methods of :class:`~boardgame_envs.alphazero.trainer.AlphaZeroTrainer`.

    They read and write the trainer's ``warm``, ``buffer``, ``rates``, ``cpu_s`` and ``stopped``, and use its
    ``learn``, ``learner``, ``_save``, ``_log`` and ``_say``."""

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
        self.learner.anneal(0.0)
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
