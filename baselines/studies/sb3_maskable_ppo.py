"""MaskablePPO (sb3-contrib) through the Gymnasium view, with an opponent curriculum, then a seat-by-seat evaluation.

Training runs in stages (``--stages random=0.05,mcts=0.05,alphabeta=0.9``: the
share of ``--steps`` spent against each opponent, seats drawn at random).
From the second stage on, ``--keep`` of the envs keep playing earlier
opponents (default one env in 8, so random play stays in the mix). With
``--noise p`` the search opponents play a random legal move with probability
p in training (``--noise 0:1`` draws p uniformly for every game). With
``--opening K`` (default 2) every training game starts with 0..K uniformly
random learner moves, each answered by the opponent, before the learner plays.
``--lr`` sets Adam's rate, ``--lr-decay`` takes it linearly to 0 over the
whole run, ``--ent-decay END`` does the same to the entropy bonus (from
``--ent-coef`` to END); ``--n-steps``, ``--batch-size``, ``--epochs`` and ``--ent-coef``
are PPO's own. The greedy policy (argmax over legal actions) is then played
through ``boardgame_envs.arena.match`` against each ``--eval`` opponent,
``--games`` games in each seat, and the table is printed (and written to
``--out``). On tic-tac-toe the report adds an exact audit: in every position
the learner can reach in each seat, whether its move keeps the
game-theoretic value.

    python baselines/studies/sb3_maskable_ppo.py --out baselines/studies/results/sb3_maskable_ppo_tictactoe.md
    python baselines/studies/sb3_maskable_ppo.py --game gomoku --board-size 9 --cnn --steps 140000 --keep 0 --ent-coef 0.01 \\
        --opening 0 --stages random=0.5,mcts=0.5 --eval random,mcts --games 50 \\
        --out baselines/studies/results/sb3_maskable_ppo_gomoku9.md

Three defaults matter on tic-tac-toe, and the results file shows why:

* Exploring starts (``--opening 2``). Against an exact opponent the learner
  sees few positions, and a position it never meets there can still be
  reached by a weaker player; without the random openings nine runs of
  fourteen lost 1.8-3.7% of their second-seat games to random play (and
  some to alpha-beta), with them all nine seeds tried met the target. The openings put
  the learner in positions after its own mistakes, with an opponent that
  still punishes the next one: the defences it missed are what it practises.
* The alpha-beta stage plays exactly (no ``--noise``). Against a noisy
  opponent a risky reply often pays (a corner answered with a corner wins
  when the opponent errs), so PPO learns it, and exact play then punishes it.
* The entropy bonus is 0.1, not SB3's 0.01. Once the policy is nearly sure
  of a losing move in some position, the critic learns that the position is
  lost, the losing move's advantage is about 0, and only a sampled
  alternative can show that a block draws; with 0.01 such samples became too
  rare and the second seat kept missing one-move blocks.

Everything is seeded and training is measured in steps (not wall time), and
the wall time is reported. A seed repeats its run on the same machine and
install; on another day's machine two reruns gave different tables (see
baselines/studies/results/sb3_maskable_ppo_tictactoe.md, section "Seeds before exploring
starts"), so judge settings by several seeds. See baselines/studies/results/sb3_maskable_ppo_*.md
(tic-tac-toe and 9x9 gomoku) for what it reaches.

A study, not the recipe: to train with SB3, run ``baselines/ppo_sb3_pool.py`` (MaskablePPO
against an opponent pool, a CPU-hour budget, exact resume, the ladder's Elo as it trains).
This script stays for what that one does not do: the staged curriculum against search
opponents and tic-tac-toe's exact audit, which its results file records.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.arena import match
from boardgame_envs.envs.single_agent import SingleAgentEnv, make_opponent
from boardgame_envs.policies.base import game_state_of
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # baselines/, for report.py (the recipes' too)
from report import command_line, publish  # noqa: E402


def opponent_spec(name: str, args: argparse.Namespace) -> Any:
    """Training/evaluation opponents; search budgets are small on big boards so training stays fast."""
    small = args.game == "tictactoe"
    if name == "random":
        return "random"
    if name == "mcts":
        return ("mcts", {"simulations": args.mcts_sims})
    if name == "alphabeta":
        return "alphabeta" if small else ("alphabeta", {"depth": 2, "time_limit": None})
    raise SystemExit(f"unknown opponent {name!r}; expected random, mcts or alphabeta")


def parse_stages(text: str) -> list[tuple[str, float]]:
    stages = []
    for part in text.split(","):
        name, _, share = part.partition("=")
        stages.append((name.strip(), float(share or 1.0)))
    total = sum(s for _, s in stages)
    return [(name, share / total) for name, share in stages]


def parse_noise(text: str) -> tuple[tuple[float, float], ...]:
    """``0.3`` or ``0,0.3,0.6`` (fixed levels) or ``0:1`` (a level drawn uniformly each game), as (lo, hi) pairs."""
    values = []
    for part in text.split(","):
        lo, _, hi = part.partition(":")
        try:
            pair = (float(lo), float(hi or lo))
        except ValueError:
            raise argparse.ArgumentTypeError(f"noise must be numbers or lo:hi ranges, got {text!r}") from None
        if not 0.0 <= pair[0] <= pair[1] <= 1.0:
            raise argparse.ArgumentTypeError(f"noise values must be in [0, 1] (lo <= hi), got {text!r}")
        values.append(pair)
    return tuple(values)


def noise_text(noise: tuple[float, float]) -> str:
    lo, hi = noise
    return f"{lo}" if lo == hi else f"U({lo}, {hi}) a game"


class NoisyPolicy:
    """A uniformly random legal move with probability ``level``, else ``inner``'s: a strong opponent that
    still walks into the odd unusual position, so the learner sees more of the board than the best lines.
    ``noise`` is ``(lo, hi)``: ``level`` is drawn uniformly from it at the start of every game."""

    name = "noisy"

    def __init__(self, inner: Any, noise: tuple[float, float], seed: int) -> None:
        self.inner, self.noise = inner, noise
        self.rng = np.random.default_rng(seed)
        self.level = noise[0]

    def act(self, env: Any) -> int:
        state = game_state_of(env)
        if state.num_moves < 2:  # the opponent's first move of a game, in either seat
            self.level = self.rng.uniform(*self.noise)
        if self.rng.random() < self.level:
            legal = state.legal_actions()
            return int(legal[self.rng.integers(len(legal))])
        return int(self.inner.act(env))


class LearningRate:
    """Constant, or linear from ``lr`` to 0 over ``steps`` of the whole run: SB3's own schedules restart their
    progress at every ``learn()`` call, i.e. at every stage."""

    def __init__(self, lr: float, steps: int | None) -> None:
        self.lr, self.steps, self.model = lr, steps, None

    def __call__(self, _progress_remaining: float) -> float:
        if self.steps is None or self.model is None:
            return self.lr
        return self.lr * max(0.0, 1.0 - self.model.num_timesteps / self.steps)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "model": None}  # a saved model must not pickle itself (and its envs) again


class RandomOpening(gymnasium.Wrapper):
    """Exploring starts: each game opens with ``0..max_moves`` (uniform) uniformly random learner moves, each
    answered by the opponent as usual, and only then does the learner play. The positions that follow are
    ones in which the learner has erred and the opponent still plays its best, so defending them is what
    the learner gets to practise; the opening moves themselves are not training steps."""

    def __init__(self, env: gymnasium.Env, max_moves: int) -> None:
        super().__init__(env)
        self.max_moves = max_moves

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        obs, info = self.env.reset(**kwargs)
        rng = self.env.unwrapped.np_random
        while True:
            for _ in range(int(rng.integers(self.max_moves + 1))):
                legal = np.flatnonzero(info["action_mask"])
                obs, _, terminated, truncated, info = self.env.step(int(legal[rng.integers(len(legal))]))
                if terminated or truncated:  # the opening ended the game: draw another
                    break
            else:
                return obs, info
            obs, info = self.env.reset()


class EntropyDecay(BaseCallback):
    """Take PPO's entropy bonus linearly from ``start`` to ``end`` over ``steps`` of the whole run (across stages),
    updated at every rollout: a wide policy early, for exploration, and a sharp one at the end, so that the
    greedy policy that is evaluated is the one that was trained."""

    def __init__(self, start: float, end: float, steps: int) -> None:
        super().__init__()
        self.start, self.end, self.steps = start, end, steps

    def _on_rollout_start(self) -> None:
        done = min(1.0, self.model.num_timesteps / self.steps)
        self.model.ent_coef = self.start + (self.end - self.start) * done

    def _on_step(self) -> bool:
        return True


class ModelPolicy:
    """The trained model as an arena policy: greedy over the legal actions of the player to move."""

    name = "maskable_ppo"

    def __init__(self, model: MaskablePPO, encoder: SingleAgentEnv) -> None:
        self.model = model
        self.encoder = encoder  # borrowed for its observation encoding only

    def act(self, position: Any) -> int:
        state = game_state_of(position)  # a state, as the arena hands it (an env is accepted too)
        obs = self.encoder._encode(state.planes(state.to_move))
        action, _ = self.model.predict(obs, action_masks=state.legal_mask(), deterministic=True)
        return int(action)


def audit_seats(policy: ModelPolicy) -> list[str]:
    """Tic-tac-toe only: in every position the learner can reach in each seat (it plays its greedy move, the
    opponent anything), whether its move keeps the game-theoretic value, by the exact solver."""
    from boardgame_envs.games.solver import solver_for

    env = tictactoe_v0.raw_env()
    solver = solver_for(env.game)
    rows = []
    for seat, learner in (("first", 1), ("second", 2)):
        seen: set[bytes] = set()
        wrong: list[str] = []
        stack = [env.game.new_state()]
        while stack:
            state = stack.pop()
            key = state.board.tobytes()
            if state.terminal or key in seen:
                continue
            seen.add(key)
            if state.to_move != learner:
                stack.extend(_child(state, int(a)) for a in state.legal_actions())
                continue
            view = env.observe_state(state)
            obs = policy.encoder._encode(view["observation"])
            action = int(policy.model.predict(obs, action_masks=view["action_mask"].astype(bool), deterministic=True)[0])
            values = solver.action_values(state)
            if values[action] < np.nanmax(values):
                wrong.append(f"{''.join('.XO'[v] for v in state.board)}:{action}")
            stack.append(_child(state, action))
        rows.append(f"| {seat} | {len(seen)} | {len(wrong)} | {' '.join(sorted(wrong)[:6])} |")
    return rows


def _child(state: Any, action: int) -> Any:
    child = state.clone()
    child._place(action)
    return child


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("tictactoe", "gomoku"), default="tictactoe")
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--win-length", type=int, default=5)
    parser.add_argument("--steps", type=int, default=900_000, help="total training steps (learner moves)")
    parser.add_argument("--stages", default="random=0.05,mcts=0.05,alphabeta=0.9")
    parser.add_argument("--keep", type=float, default=0.125,
                        help="share of envs kept on earlier opponents (default 0.125: one env in 8)")
    parser.add_argument("--opening", type=int, default=2, metavar="K",
                        help="exploring starts: each training game opens with 0..K random learner moves (default 2)")
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--mcts-sims", type=int, default=200)
    parser.add_argument("--noise", type=parse_noise, default=((0.0, 0.0),),
                        help="in training, search opponents play a random legal move with this probability; "
                             "a comma list gives env j the j-th value, round-robin (e.g. 0,0.3,0.6); "
                             "lo:hi draws the probability uniformly for each game (e.g. 0:1)")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per env")
    parser.add_argument("--batch-size", type=int, default=512, help="PPO minibatch size")
    parser.add_argument("--epochs", type=int, default=10, help="PPO epochs over each rollout")
    parser.add_argument("--ent-coef", type=float, default=0.1,
                        help="PPO entropy bonus (default 0.1; SB3's 0.01 lets a losing move set in, see the docstring)")
    parser.add_argument("--ent-decay", type=float, default=None, metavar="END",
                        help="take the entropy bonus linearly from --ent-coef to END over --steps")
    parser.add_argument("--lr-decay", action="store_true",
                        help="decay the learning rate linearly to 0 over --steps (across all stages)")
    parser.add_argument("--cnn", action="store_true", help="BoardCNN on CHW planes instead of an MLP on flat planes")
    parser.add_argument("--eval", default="random,alphabeta", help="opponents to evaluate against")
    parser.add_argument("--eval-mcts-sims", type=int, default=None,
                        help="MCTS simulations in evaluation (default: --mcts-sims)")
    parser.add_argument("--games", type=int, default=1000, help="evaluation games in each seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="write the report (markdown) here")
    parser.add_argument("--save", default=None, help="save the model here (.zip)")
    args = parser.parse_args(argv)
    if args.opening < 0:
        parser.error(f"--opening must be 0 or more, got {args.opening}")
    torch.set_num_threads(1)  # the machine is shared; one process, one thread

    env_kwargs = {"game": args.game, "seat": "random", "opponent": "random"}
    if args.game == "gomoku":
        env_kwargs.update(board_size=args.board_size, win_length=args.win_length)
    env_kwargs.update({"channels_first": True} if args.cnn else {"flatten": True})
    opening = {"wrapper_class": RandomOpening, "wrapper_kwargs": {"max_moves": args.opening}} if args.opening else {}
    vec = make_vec_env(SingleAgentEnv, n_envs=args.n_envs, seed=args.seed, env_kwargs=env_kwargs, vec_env_cls=DummyVecEnv,
                       **opening)  # fmt: skip
    policy_kwargs: dict[str, Any] = {"net_arch": [128, 128]}
    if args.cnn:
        from boardgame_envs.vector.sb3 import BoardCNN

        policy_kwargs.update(features_extractor_class=BoardCNN, features_extractor_kwargs={"features_dim": 128})
    learning_rate = LearningRate(args.lr, args.steps if args.lr_decay else None)
    model = MaskablePPO(
        "CnnPolicy" if args.cnn else "MlpPolicy", vec, n_steps=args.n_steps, batch_size=args.batch_size,
        n_epochs=args.epochs, learning_rate=learning_rate, gamma=0.99, ent_coef=args.ent_coef, seed=args.seed,
        policy_kwargs=policy_kwargs, verbose=0,
    )  # fmt: skip
    learning_rate.model = model

    stages = parse_stages(args.stages)
    log = []
    started = time.perf_counter()
    for i, (name, share) in enumerate(stages):
        earlier = [n for n, _ in stages[:i]]
        kept = int(round(args.keep * args.n_envs)) if earlier else 0
        for j in range(args.n_envs):
            # Envs at the end of the list replay earlier opponents, round-robin.
            who = earlier[(j - (args.n_envs - kept)) % len(earlier)] if j >= args.n_envs - kept else name
            seed = args.seed * 1000 + i * 100 + j
            spec = opponent_spec(who, args)
            noise = args.noise[j % len(args.noise)]
            if noise[1] > 0 and who != "random":
                spec = NoisyPolicy(make_opponent(spec, seed), noise, seed)
            vec.env_method("set_opponent", spec, seed=seed, indices=[j])
        t0, before = time.perf_counter(), model.num_timesteps
        callback = EntropyDecay(args.ent_coef, args.ent_decay, args.steps) if args.ent_decay is not None else None
        model.learn(int(round(share * args.steps)), reset_num_timesteps=False, callback=callback)
        steps = model.num_timesteps - before  # whole rollouts of n_envs * n_steps: can exceed the share
        log.append(f"| {i + 1} | {name} | {kept} of {args.n_envs} envs on {', '.join(earlier) or '-'} | {steps} "
                   f"| {time.perf_counter() - t0:.0f} |")  # fmt: skip
        print(log[-1], flush=True)
    train_s = time.perf_counter() - started
    if args.save:
        model.save(args.save)

    encoder = SingleAgentEnv(**env_kwargs)
    if args.game == "tictactoe":
        env_fn = tictactoe_v0.env
    else:
        env_fn = partial(gomoku_v0.env, board_size=args.board_size, win_length=args.win_length)
    rows = []
    t0 = time.perf_counter()
    for name in args.eval.split(","):
        spec = opponent_spec(name, args) if name != "mcts" or args.eval_mcts_sims is None else (
            "mcts", {"simulations": args.eval_mcts_sims})  # fmt: skip
        result = match(env_fn, lambda seed: ModelPolicy(model, encoder), spec, games=2 * args.games,
                       seed=args.seed + 1, progress=False, openings=None)  # by seat, from the empty board  # fmt: skip
        for seat, (w, d, l) in result.by_seat.items():
            n = w + d + l
            rows.append(f"| {name if isinstance(spec, str) else spec} | {seat} | {n} | {w} ({100 * w / n:.1f}%) "
                        f"| {d} ({100 * d / n:.1f}%) | {l} ({100 * l / n:.1f}%) |")  # fmt: skip
            print(rows[-1], flush=True)
    eval_s = time.perf_counter() - t0
    audit = audit_seats(ModelPolicy(model, encoder)) if args.game == "tictactoe" else []

    command = command_line(argv)
    report = [
        f"# MaskablePPO on {args.game}" + (f" {args.board_size}x{args.board_size}" if args.game == "gomoku" else ""),
        "",
        f"Command: `{command}`  ",
        f"Seed {args.seed}; {args.steps} training steps requested ({model.num_timesteps} played, in whole rollouts) "
        f"with {args.n_envs} envs in one process (DummyVecEnv), "
        f"torch on 1 thread; {'BoardCNN' if args.cnn else 'MLP 128x128 on flat planes'}; "
        f"learning rate {args.lr}{' decaying linearly to 0' if args.lr_decay else ''}; "
        f"PPO rollouts of {args.n_steps} steps an env, minibatches of {args.batch_size}, {args.epochs} epochs, "
        f"entropy bonus {args.ent_coef}"
        + (f" decaying linearly to {args.ent_decay}" if args.ent_decay is not None else "") + "; "
        f"training opponents' noise {', '.join(map(noise_text, args.noise))}"
        + (f" (env j: value j mod {len(args.noise)})" if len(args.noise) > 1 else "") + "; "
        + (f"each training game opens with 0..{args.opening} random learner moves" if args.opening
           else "no random openings") + ".  ",
        f"Training wall time {train_s:.0f} s; evaluation {eval_s:.0f} s (greedy policy, via boardgame_envs.arena.match).",
        "",
        "| stage | opponent | replaying earlier opponents | steps | wall s |",
        "|---|---|---|---|---|",
        *log,
        "",
        "| opponent | learner's seat | games | wins | draws | losses |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    if audit:
        report += [
            "Exact audit: every position the learner reaches in each seat (its greedy move, any opponent move), "
            "and those where its move loses game-theoretic value (board row by row as `.XO`, then the move; "
            "the first six shown):",
            "",
            "| learner's seat | positions | value-losing moves | e.g. |",
            "|---|---|---|---|",
            *audit,
            "",
        ]
    publish(report, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
