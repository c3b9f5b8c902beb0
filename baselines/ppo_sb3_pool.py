"""MaskablePPO (sb3-contrib) with an opponent pool: one command a game, a CPU-hour budget, exact resume, ladder Elo.

The learner trains against an :class:`~boardgame_envs.selfplay.OpponentPool`
(the ladder's bottom levels, ``random`` and ``greedy:epsilon=E``, plus its own
snapshots, one added at every checkpoint; one drawn per game, uniformly). Connect four plays in
``--n-envs`` single-agent envs (``DummyVecEnv``; it has no batched engine);
gomoku9 and renju in one batched vector env (``boardgame_envs.vector.sb3.SB3VecEnv``).
The policy and value nets are two ``--net``-wide layers each (256; 128 until 2026-11-27:
the wider net with ``--lr 5e-4`` reaches connect four's plateau in a fifth of the CPU,
``baselines/results/ppo_sb3_pool.md``), on the flat planes or on ``BoardCNN``'s features.

The run goes in chunks of ``--checkpoint-every`` rollouts. After each, the model
(zip, with its optimiser), the pool (``pool/``), the torch and numpy RNG states
and the counters (steps, process CPU time summed over sessions) are written to
``--out``, and the run goes on *from what it wrote*: model and pool loaded back,
new games seeded by the step count. So a rerun with the same ``--out`` (after a
kill, or with a larger ``--cpu-hours``) computes what the unbroken run computes.

Every ``--rate-minutes`` of CPU the greedy policy is rated on the game's ladder
(``boardgame_envs.ladder.rate``, ``--rate-games`` games, in this process, starting
near the last estimate); a row ``cpu_hours, steps, elo, low, high, ...`` goes to
``--out/curve.csv``; ratings count in the budget and stay under ``--rate-share`` of it.

    python baselines/ppo_sb3_pool.py --game connect_four --cpu-hours 2 --out runs/sb3-connect-four-s0
    python baselines/ppo_sb3_pool.py --game gomoku9 --cpu-hours 2 --out runs/sb3-gomoku9-s0
    python baselines/ppo_sb3_pool.py --game renju --cpu-hours 4 --out runs/sb3-renju-s0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import boardgame_envs  # noqa: F401  (registers the Gymnasium ids)
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.selfplay import OpponentPool
from boardgame_envs.selfplay.runclock import RunClock

LEVELS = "random,greedy:epsilon=0.75,greedy:epsilon=0.5,greedy:epsilon=0.25,greedy"
# game -> how it is played: in single-agent envs (connect four) or in one batched env (Gymnasium id and
# arguments), and the network (an MLP on flat planes; BoardCNN needs a square board)
GAMES: dict[str, dict[str, Any]] = {
    "connect_four": {"single": {"game": "connect_four"}, "cnn": False, "max_snapshots": 5},
    "gomoku9": {"vector": ("boardgame_envs/Gomoku-v0", {"board_size": 9, "rule": "freestyle"}), "cnn": True,
                "max_snapshots": 3},
    "renju": {"vector": ("boardgame_envs/Renju-v0", {}), "cnn": True, "max_snapshots": 2},
}  # fmt: skip
# Options that do not change the training: a resumed run may be given other values.
RESUME_MAY_CHANGE = {"cpu_hours", "max_rollouts", "rate_games", "rate_minutes", "rate_share"}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="run folder: model, pool, counters, curve.csv (resumed if present)")
    p.add_argument("--game", choices=tuple(GAMES), default="connect_four")
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
    s = {k: v for k, v in vars(args).items() if k != "out"}
    if s["max_snapshots"] is None:
        s["max_snapshots"] = GAMES[args.game]["max_snapshots"]
    return s


def make_env(s: dict[str, Any], pool: OpponentPool) -> Any:
    spec = GAMES[s["game"]]
    if "single" in spec:
        kwargs = {**spec["single"], "opponent": pool, "seat": "random", "flatten": True}
        return DummyVecEnv([lambda: SingleAgentEnv(**kwargs) for _ in range(s["n_envs"])])
    from boardgame_envs.vector.sb3 import SB3VecEnv

    env_id, kwargs = spec["vector"]
    return SB3VecEnv(gymnasium.make_vec(env_id, num_envs=s["n_envs"], vectorization_mode="vector_entry_point",
                                        opponent=pool, seat="random", channels_first=True, **kwargs))  # fmt: skip


def new_model(s: dict[str, Any], env: Any) -> MaskablePPO:
    # Runs saved before --activation existed hold no such key: they were tanh, SB3's default.
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[s.get("activation", "tanh")]
    policy_kwargs: dict[str, Any] = {"net_arch": [s["net"], s["net"]], "activation_fn": activation}
    if GAMES[s["game"]]["cnn"]:
        from boardgame_envs.vector.sb3 import BoardCNN

        policy_kwargs.update(features_extractor_class=BoardCNN,
                             features_extractor_kwargs={"features_dim": 64, "channels": 16, "layers": 3})  # fmt: skip
    return MaskablePPO("CnnPolicy" if GAMES[s["game"]]["cnn"] else "MlpPolicy", env, n_steps=s["n_steps"],
                       batch_size=s["batch_size"], n_epochs=s["epochs"], learning_rate=s["lr"], gamma=s["gamma"],
                       ent_coef=s["ent_coef"], seed=s["seed"], policy_kwargs=policy_kwargs, verbose=0, device="cpu")  # fmt: skip


def save_state(out: Path, model: MaskablePPO | None, pool: OpponentPool | None, counters: dict[str, Any],
               clock: RunClock) -> None:  # fmt: skip
    """The run's state, each file written whole; ``None`` keeps the model or pool last saved."""
    if model is not None:
        model.save(out / "model.tmp.zip")
        os.replace(out / "model.tmp.zip", out / "model.zip")
    if pool is not None:
        pool.save(out / "pool")
    rng = {"torch": torch.get_rng_state(), "numpy": np.random.get_state()}
    torch.save({"counters": {**counters, **clock.state()}, "rng": rng}, out / "state.pt.tmp")
    os.replace(out / "state.pt.tmp", out / "state.pt")


def rate_now(s: dict[str, Any], model: MaskablePPO, counters: dict[str, Any], clock: RunClock, out: Path) -> None:
    """Rate the greedy policy on the ladder; a row in curve.csv; its CPU counted in the run and apart."""
    from boardgame_envs.selfplay import Sb3Policy

    clock.rate(Sb3Policy(model, name="maskable_ppo"), s["game"], s["rate_games"], counters["rollouts"],
               out / "curve.csv", {"steps": counters["steps"], "rollouts": counters["rollouts"]})  # fmt: skip


def train(s: dict[str, Any], out: Path) -> dict[str, Any]:
    """Run (or resume) the run in ``out`` until its CPU budget (or ``max_rollouts``) is spent."""
    torch.set_num_threads(1)  # the machine is shared: one process, one thread
    out.mkdir(parents=True, exist_ok=True)
    per_rollout = s["n_envs"] * s["n_steps"]
    if not (out / "state.pt").exists():  # a new run: its state at step 0 is what every chunk starts from
        pool = OpponentPool([m for m in s["levels"].split(",") if m], sampling=s["sampling"], seed=s["seed"],
                            max_snapshots=s["max_snapshots"])  # fmt: skip
        torch.manual_seed(s["seed"])
        np.random.seed(s["seed"])
        env = make_env(s, pool)
        save_state(out, new_model(s, env), pool, {"rollouts": 0, "steps": 0}, RunClock())
        env.close()
    (out / "settings.json").write_text(json.dumps(s, indent=1))
    saved = torch.load(out / "state.pt", weights_only=False)["counters"]
    counters = {"rollouts": saved["rollouts"], "steps": saved["steps"]}
    clock = RunClock.from_state(saved)  # the run's CPU, all sessions, and its ratings; this session's counts from here
    clock.sync_curve(out / "curve.csv")  # drop ratings made after the checkpoint: they are made again
    if counters["rollouts"]:
        print(f"resumed from {out}: {counters['rollouts']} rollouts, {counters['steps']} steps, "
              f"{clock.hours:.3f} CPU-hours", flush=True)  # fmt: skip

    def budget_left() -> bool:
        return clock.cpu_s < s["cpu_hours"] * 3600 and not (
            s["max_rollouts"] and counters["rollouts"] >= s["max_rollouts"])

    model = None
    while budget_left():
        # Every chunk starts from the saved state, in an unbroken run as in a resumed one.
        pool = OpponentPool.load(out / "pool")
        env = make_env(s, pool)
        env.seed((s["seed"] * 1_000_003 + counters["steps"]) % 2**31)
        model = MaskablePPO.load(out / "model.zip", env=env, device="cpu")
        rng = torch.load(out / "state.pt", weights_only=False)["rng"]
        torch.set_rng_state(rng["torch"])
        np.random.set_state(rng["numpy"])
        if s["rate_games"] and clock.rating_due(s["rate_minutes"] * 60, s["rate_share"]):
            rate_now(s, model, counters, clock, out)
        chunk = s["checkpoint_every"]
        if s["max_rollouts"]:
            chunk = min(chunk, s["max_rollouts"] - counters["rollouts"])
        model.learn(chunk * per_rollout, reset_num_timesteps=False)
        counters["rollouts"] = model.num_timesteps // per_rollout
        pool.add_snapshot(model, name=f"snapshot-{counters['rollouts']}")
        counters["steps"] = model.num_timesteps
        clock.tick()
        save_state(out, model, pool, counters, clock)
        env.close()
        results = pool.results()
        print(f"rollouts {counters['rollouts']} steps {counters['steps']} cpu_h {clock.hours:.3f} "
              f"pool {', '.join(f'{k} {w}-{d}-{l}' for k, (w, d, l) in list(results.items())[:8])}", flush=True)  # fmt: skip
    clock.tick()
    if s["rate_games"] and clock.cpu_s >= s["cpu_hours"] * 3600 and model is not None:
        rate_now(s, model, counters, clock, out)  # the budget's last point
        save_state(out, None, None, counters, clock)
    return {**counters, **clock.state()}


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    out = Path(args.out)
    s = settings(args)
    saved = out / "settings.json"
    if saved.exists():  # a resumed run keeps its recipe; only the budget and the ratings may change
        old = json.loads(saved.read_text())
        given = {a.dest for a in p._actions if a.dest in s and a.default != getattr(args, a.dest)}
        changed = {k for k in given if s[k] != old.get(k)} - RESUME_MAY_CHANGE
        if changed:
            p.error(f"{out} holds a run with other settings ({', '.join(sorted(changed))}); on resume only "
                    f"{', '.join('--' + k.replace('_', '-') for k in sorted(RESUME_MAY_CHANGE))} may change")  # fmt: skip
        s = {**old, **{k: s[k] for k in given}}
    counters = train(s, out)
    print(f"done: {counters['rollouts']} rollouts, {counters['steps']} steps, {counters['cpu_s'] / 3600:.3f} "
          f"CPU-hours ({counters['rate_cpu_s'] / max(counters['cpu_s'], 1e-9):.1%} of it rating)", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
