"""AlphaZero on tic-tac-toe from scratch, then measured against perfect play.

    python baselines/alphazero_tictactoe.py --minutes 2 --seed 0 --out baselines/results/alphazero_tictactoe.md

Trains with ``AlphaZeroConfig.for_game("tictactoe")`` for ``--minutes`` of
wall time (everything included: self-play, learning, checkpoints), then:

* plays the trained ``NetworkPolicy`` against ``PerfectPolicy`` (the exact
  solver, random among value-optimal moves), ``--games`` games with seats
  alternated, greedy (policy head only) and with ``--simulations`` PUCT
  simulations;
* checks its move (greedy, and after the search) at each of the 4,520
  non-terminal positions reachable from the empty board against the solver:
  the share of positions where the move keeps the game-theoretic value.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
import time

import numpy as np

from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, NetworkPolicy
from boardgame_envs.alphazero.policy import net_evaluator
from boardgame_envs.arena import match
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.solver import solver_for
from boardgame_envs.policies.perfect import PerfectPolicy
from boardgame_envs.policies.puct import PUCTForest
from report import command_line, publish  # baselines/report.py, beside this script


def reachable_positions(root: MNKState) -> list[MNKState]:
    """Every non-terminal position reachable from ``root`` by legal play, each once."""
    seen: dict[bytes, MNKState] = {}
    frontier = [root]
    while frontier:
        state = frontier.pop()
        key = state.board.tobytes()
        if state.terminal or key in seen:
            continue
        seen[key] = state
        for action in state.legal_actions():
            child = state.clone()
            child._place(int(action))
            frontier.append(child)
    return list(seen.values())


def value_optimal_share(net, simulations: int) -> tuple[int, int]:
    """(positions where the move keeps the value, positions) over all reachable non-terminal ones.

    The move is the policy head's most probable legal one (``simulations=0``)
    or the most visited after a PUCT search; where several tie, all of them
    must keep the value.
    """
    env = tictactoe_v0.raw_env()
    positions = reachable_positions(env.game.new_state())
    if simulations == 0:
        observations = [env.observe_state(s) for s in positions]
        planes = np.stack([o["observation"] for o in observations])
        masks = np.stack([o["action_mask"] for o in observations]).astype(bool)
        scores = np.where(masks, net.predict(planes, masks)[0], -1.0)
    else:  # every position searched at once, one tree each
        forest = PUCTForest(len(positions), env.game, 1 + simulations * env.game.num_actions)
        forest.set_roots(positions)
        forest.search(simulations, net_evaluator(net, env))
        scores = forest.root_visits()
    solver = solver_for(env.game)
    good = 0
    for state, row in zip(positions, scores):
        chosen = np.flatnonzero(row == row.max())
        good += bool(np.isin(chosen, solver.optimal_actions(state)).all())
    return good, len(positions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=2.0, help="training wall time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000, help="games against perfect play, seats alternated")
    parser.add_argument("--simulations", type=int, default=50, help="PUCT simulations of the searching variant")
    parser.add_argument("--out", default=None, help="write the report (markdown) here")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="override an AlphaZeroConfig field, e.g. --set temperature_moves=9")
    args = parser.parse_args(argv)
    overrides = {k: ast.literal_eval(v) for k, v in (item.split("=", 1) for item in args.set)}

    run_dir = tempfile.mkdtemp(prefix="az_tictactoe_")
    config = AlphaZeroConfig.for_game("tictactoe", minutes=args.minutes, seed=args.seed, out=run_dir,
                                      eval_every=0, progress=False, **overrides)  # fmt: skip
    started = time.perf_counter()
    trainer = AlphaZeroTrainer(tictactoe_v0.env, config)
    rows = trainer.train()
    train_s = time.perf_counter() - started
    last = rows[-1]

    report = [
        "# AlphaZero on tic-tac-toe, from scratch",
        "",
        f"Command: `{command_line(argv)}`  ",
        f"Seed {args.seed}; `AlphaZeroConfig.for_game('tictactoe')` defaults: {config.blocks} residual blocks x "
        f"{config.channels} channels, {config.simulations} simulations a move, {config.parallel_games} games in "
        f"lockstep, torch on {config.torch_threads} thread(s)"
        + (f"; overrides {overrides}" if overrides else "") + ".  ",
        f"Training wall time {train_s:.0f} s (everything, JIT warm-up included): {trainer.iteration} iterations, "
        f"{trainer.games_played} self-play games; last losses: policy {last['policy_loss']:.3f}, "
        f"value {last['value_loss']:.3f}.",
        "",
        "| trained policy | seat | games | wins | draws | losses |",
        "|---|---|---|---|---|---|",
    ]
    t0 = time.perf_counter()
    for sims in (0, args.simulations):
        label = "greedy (policy head)" if sims == 0 else f"PUCT, {sims} simulations"

        def network(seed: int, sims: int = sims) -> NetworkPolicy:
            return NetworkPolicy(trainer.net, trainer.game, simulations=sims, seed=seed)

        result = match(tictactoe_v0.env, network, lambda seed: PerfectPolicy(seed=seed), games=args.games,
                       seed=args.seed + 1, progress=False, openings=None)  # fmt: skip
        for seat, (w, d, l) in result.by_seat.items():
            report.append(f"| {label} | {seat} | {w + d + l} | {w} | {d} | {l} |")
            print(report[-1], flush=True)
    report += ["", "| trained policy | positions where its move keeps the game-theoretic value |", "|---|---|"]
    for sims in (0, args.simulations):
        good, total = value_optimal_share(trainer.net, sims)
        label = "greedy (policy head)" if sims == 0 else f"PUCT, {sims} simulations"
        report.append(f"| {label} | **{good} of {total}** ({100 * good / total:.2f}%) |")
    report += [
        "",
        "All non-terminal positions reachable from the empty board, checked against the exact solver.  ",
        f"Evaluation wall time {time.perf_counter() - t0:.0f} s.",
        "",
    ]
    publish(report, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
