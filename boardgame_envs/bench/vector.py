"""The batched engine: random-play steps/s against pgx and OpenSpiel, prange, and PPO's env-time share.

Our loop is ``vec.step(vec.sample_legal_actions())`` over ``boardgame_envs.vector.make``
(observations, masks and auto-resets included); a *step* is one move in one game.
Rates are per second of the process's CPU time (``time.process_time``, all its
threads), which a machine shared with other jobs disturbs far less than wall
time; the prange comparison is in wall time, since spreading work over threads is its point.

* Tic-tac-toe and connect four, 1,024 games each: beside each, in the same run
  when ``pgx`` and ``jax`` import, pgx's ``tic_tac_toe`` / ``connect_four`` under
  ``jax.vmap`` with its auto-reset, random legal moves drawn in JAX, the whole
  loop one jitted ``lax.scan`` of 200 steps (batch 1,024, CPU, timed after its
  compilation). Ours and pgx take turns in slices so that a drifting machine
  slows both alike. Without pgx that half is skipped, and the line says so.
* 15x15 gomoku, 256 games, freestyle, standard and renju (exact forbidden
  masks): beside them, when ``open_spiel`` imports, OpenSpiel's C++ ``gomoku``
  (freestyle, five or more) from Python one game at a time (``legal_actions()``,
  a uniform choice by ``random.Random``, ``apply_action()``), with no
  observations; every ratio is to that one figure (OpenSpiel has no renju).
  All of them take turns in slices too.
* ``--parallel``: the same loops with ``parallel=True`` (numba ``prange`` over
  games), as a ratio to the serial figure.
* ``--ppo``: MaskablePPO (MlpPolicy) on ``Renju-v0`` against ``random`` through
  ``gymnasium.make_vec(..., num_envs=64)`` and ``SB3VecEnv``: the share of each
  rollout's wall time spent in the env (step, reset and action masks).

Neither pgx nor OpenSpiel is a dependency; without them our side prints alone.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from boardgame_envs.bench._openspiel import INSTALL_HINT, import_pyspiel, load_game

GOMOKU_RULES = ("freestyle", "standard", "renju")


def our_rate(vec: Any, seconds: float, clock: Callable[[], float] = time.process_time) -> tuple[int, float]:
    """Random legal moves in every game of ``vec`` for about ``seconds`` of ``clock``: ``(steps, elapsed)``."""
    steps = 0
    start = clock()
    while True:
        vec.step(vec.sample_legal_actions())
        steps += vec.num_envs
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps, elapsed


def pgx_runner(batch: int, length: int, env_id: str = "tic_tac_toe") -> Callable[[], int] | None:
    """``length`` random moves in ``batch`` games of pgx's ``env_id`` as one jitted scan; None without pgx."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make(env_id)
    step = jax.vmap(auto_reset(env.step, env.init))

    def body(carry, _):
        state, key = carry
        key, k_act, k_step = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_act, logits, axis=-1)
        return (step(state, action, jax.random.split(k_step, batch)), key), None

    @jax.jit
    def run(state, key):
        return jax.lax.scan(body, (state, key), None, length=length)[0]

    key = jax.random.PRNGKey(0)
    carry = [jax.jit(jax.vmap(env.init))(jax.random.split(key, batch)), key]

    def play() -> int:
        carry[:] = run(*carry)
        jax.block_until_ready(carry[0])
        return batch * length

    play()  # compile
    return play


def against_pgx(game: str, pgx_id: str, title: str, seconds: float, rounds: int, parallel: bool) -> None:
    """Ours and pgx's ``pgx_id`` on 1,024 games, taking turns in ``rounds`` slices; prints both and the ratio."""
    from boardgame_envs import vector

    batch = 1024
    vec = vector.make(game, batch, seed=0, parallel=parallel)
    our_rate(vec, 0.2)  # load the numba cache
    pgx_play = pgx_runner(batch, 200, pgx_id)
    ours = [0, 0.0]
    theirs = [0, 0.0]
    for _ in range(rounds):
        steps, elapsed = our_rate(vec, seconds / rounds)
        ours[0] += steps
        ours[1] += elapsed
        if pgx_play is not None:
            start = time.process_time()
            while time.process_time() - start < seconds / rounds:
                theirs[0] += pgx_play()
            theirs[1] += time.process_time() - start
    rate = ours[0] / ours[1]
    label = "parallel" if parallel else "serial"
    print(f"{f'{title}, 1,024 games, ours ({label})':<52} {rate / 1e6:>8.2f} M steps/s")
    if pgx_play is None:
        print(f"{title}: pgx is not installed, skipped: `pip install pgx` (it brings jax) to measure it side by "
              "side in this run")  # fmt: skip
        return
    ref = theirs[0] / theirs[1]
    print(f"{f'{title}, 1,024 games, pgx (vmap + jitted scan, CPU)':<52} {ref / 1e6:>8.2f} M steps/s")
    print(f"{f'{title} ratio ours / pgx':<52} {rate / ref:>8.2f}x")


def openspiel_moves(game: Any, seconds: float, rng: random.Random) -> tuple[int, float]:
    """Random games on OpenSpiel's bare states, one at a time, for about ``seconds``: ``(moves, elapsed)``."""
    steps = 0
    start = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps, elapsed


def gomoku(seconds: float, rounds: int, rules: tuple[str, ...], parallel: bool) -> None:
    """Ours under each rule and OpenSpiel's freestyle gomoku, taking turns in ``rounds`` slices."""
    from boardgame_envs import vector

    batch = 256
    pyspiel = import_pyspiel()
    game = None
    if pyspiel is not None:
        game, about = load_game(pyspiel, "gomoku 15x15 freestyle")
        if game is None:
            print(about)
    else:
        print(INSTALL_HINT)
    vecs = {rule: vector.make("gomoku", batch, board_size=15, rule=rule, seed=0, parallel=parallel) for rule in rules}
    for vec in vecs.values():
        our_rate(vec, 0.2)  # load the numba cache; start past the openings
    totals = {name: [0, 0.0] for name in (*rules, "openspiel")}
    rng = random.Random(0)
    for _ in range(rounds):
        for rule, vec in vecs.items():
            for i, value in enumerate(our_rate(vec, seconds / rounds)):
                totals[rule][i] += value
        if game is not None:
            for i, value in enumerate(openspiel_moves(game, seconds / rounds, rng)):
                totals["openspiel"][i] += value
    ref = totals["openspiel"][0] / totals["openspiel"][1] if game is not None else None
    if ref is not None:
        print(f"{'OpenSpiel ' + about + ', one game at a time':<52} {ref / 1e6:>8.3f} M steps/s")
    label = "parallel" if parallel else "serial"
    for rule in rules:
        rate = totals[rule][0] / totals[rule][1]
        line = f"{f'15x15 {rule}, 256 games, ours ({label})':<52} {rate / 1e6:>8.3f} M steps/s"
        if ref is not None:
            line += f"   {rate / ref:>6.1f}x OpenSpiel freestyle"
        print(line)


def prange_gain(seconds: float) -> None:
    """Serial against parallel in alternating slices, on each configuration."""
    import numba

    from boardgame_envs import vector

    print(f"prange over games on {numba.get_num_threads()} numba threads (ratio parallel / serial, same run):")
    cases = [("tictactoe", 1024, {}), *(("gomoku", 256, {"board_size": 15, "rule": r}) for r in GOMOKU_RULES)]
    for game, batch, kwargs in cases:
        vecs = [vector.make(game, batch, seed=0, parallel=p, **kwargs) for p in (False, True)]
        totals = [[0, 0.0], [0, 0.0]]
        for vec in vecs:
            our_rate(vec, 0.2)
        for _ in range(6):
            for vec, total in zip(vecs, totals):
                steps, elapsed = our_rate(vec, seconds / 6, time.perf_counter)  # wall time: threads are the point
                total[0] += steps
                total[1] += elapsed
        serial, parallel = (t[0] / t[1] for t in totals)
        name = f"{game} {kwargs.get('rule', '')}".strip()
        print(f"  {name:<20} serial {serial / 1e6:>7.3f}  parallel {parallel / 1e6:>7.3f} M steps/s   "
              f"{parallel / serial:.2f}x")  # fmt: skip


def ppo_share(steps: int) -> None:
    """Env time in MaskablePPO's rollouts on Renju-v0 with 64 games."""
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecEnvWrapper

    import boardgame_envs  # noqa: F401  (registers the ids)
    from boardgame_envs.vector.sb3 import SB3VecEnv

    class Timed(VecEnvWrapper):
        """Adds up the wall time spent inside the env."""

        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.env_time = 0.0

        def _timed(self, fn: Callable, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.env_time += time.perf_counter() - start

        def reset(self):
            return self._timed(self.venv.reset)

        def step_async(self, actions):
            return self._timed(self.venv.step_async, actions)

        def step_wait(self):
            return self._timed(self.venv.step_wait)

        def env_method(self, *args, **kwargs):
            return self._timed(self.venv.env_method, *args, **kwargs)

    envs = gymnasium.make_vec("boardgame_envs/Renju-v0", num_envs=64, opponent="random", flatten=True)
    venv = Timed(SB3VecEnv(envs))
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=512, seed=0, verbose=0)
    rollout = [0.0]
    collect = model.collect_rollouts

    def timed_collect(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return collect(*args, **kwargs)
        finally:
            rollout[0] += time.perf_counter() - start

    model.collect_rollouts = timed_collect
    model.learn(64 * 64)  # warm-up: compile, first allocations
    venv.env_time = rollout[0] = 0.0
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    total = time.perf_counter() - start
    share = venv.env_time / rollout[0]
    print(f"MaskablePPO MlpPolicy, Renju-v0 vs random, make_vec num_envs=64, n_steps=64: "
          f"{steps} steps in {total:.1f} s")  # fmt: skip
    print(f"  rollouts {rollout[0]:.2f} s, of which env (step, reset, masks) {venv.env_time:.2f} s: "
          f"{share:.1%} of rollout time; training {total - rollout[0]:.2f} s")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="boardgame-envs bench vector", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=10,
                        help="the measured loops take turns in this many slices (default 10)")  # fmt: skip
    parser.add_argument("--pgx-only", action="store_true",
                        help="only the loops measured against pgx (tic-tac-toe, connect four)")  # fmt: skip
    parser.add_argument("--parallel", action="store_true", help="also time parallel=True against serial")
    parser.add_argument("--ppo", type=int, default=0, metavar="STEPS",
                        help="also time MaskablePPO for STEPS steps on Renju-v0 (e.g. 16384)")  # fmt: skip
    args = parser.parse_args(argv)
    against_pgx("tictactoe", "tic_tac_toe", "tic-tac-toe", args.seconds, args.rounds, parallel=False)
    against_pgx("connect_four", "connect_four", "connect four", args.seconds, args.rounds, parallel=False)
    if args.pgx_only:
        return
    gomoku(args.seconds, args.rounds, GOMOKU_RULES, parallel=False)
    if args.parallel:
        prange_gain(args.seconds)
    if args.ppo:
        ppo_share(args.ppo)
