"""How often can anything win against ``MCTSPolicy`` when MCTS moves first? A table of matches.

    python baselines/studies/mcts_first_seat.py --checkpoint runs/az/latest.pt --out report.md

Small boards where the first player wins by force make the second seat hard:
a player wins there only when MCTS misses its win. This script plays a set of
players against ``MCTSPolicy(simulations=--mcts-sims)`` through the arena,
seats alternated, and reports each seat. The players:

* ``AlphaBetaPolicy`` searching full width to each ``--depths`` depth, without a time limit;
* with ``--checkpoint``: the trained ``NetworkPolicy`` (``--simulations`` PUCT
  simulations a move), and the same network **with an alpha-beta veto**: it
  plays a forced win that a ``--veto-depth`` search finds, and otherwise its
  most visited move among those that the search does not prove lost. The
  veto is an experiment kept here, not a policy of the package;
* with ``--exact``: a player that knows the exact value of every move, from
  the package's exact solver (``boardgame_envs.games.solver``). It plays a winning
  move when it has one, the first it proves in centre-first order; otherwise
  it values every move and plays one of the best, the one a depth
  ``--veto-depth`` alpha-beta search scores highest. In a lost position that
  is the longest defence the search sees, and any mistake MCTS makes is
  taken at once. With ``--traps-from N``, lost positions of N stones or
  more pick instead the move that leaves MCTS the fewest winning replies.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import NetworkPolicy
from boardgame_envs.arena import match
from boardgame_envs.policies.alphabeta import AlphaBetaPolicy
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.solver import Solver
from boardgame_envs.policies.alphabeta_kernels import WIN
from boardgame_envs.policies.base import game_state_of, random_argmax
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # baselines/, for report.py (the recipes' too)
from report import command_line, publish  # noqa: E402

PROVEN = WIN - 100  # a score beyond this is a forced win (or, negated, a forced loss) within the search


class VetoedNetwork:
    """A network's PUCT choice, overruled where an alpha-beta search proves a win or a loss."""

    name = "network+veto"

    def __init__(self, net: NetworkPolicy, depth: int, seed: int) -> None:
        self.net = net
        self.search = AlphaBetaPolicy(depth=depth, time_limit=None, width=64, seed=seed)
        self.rng = np.random.default_rng(seed)

    def act(self, env: Any) -> int:
        scores = self.search.move_scores(env)
        if scores.max() >= PROVEN:
            return random_argmax(np.where(scores == scores.max(), 1.0, -1.0), self.rng)
        legal = game_state_of(env).legal_mask()
        visits = self.net.distribution(env)
        safe = legal & (scores > -PROVEN)  # searched (above -INF) and not proven lost
        return random_argmax(np.where(safe if safe.any() else legal, visits, -1.0), self.rng)


@functools.lru_cache(maxsize=None)
def _solver(size: int, win_length: int) -> Solver:
    # One a process, so that exact values carry over from game to game (the arena builds a player a game).
    return Solver(MNKGame(size, win_length))


class ExactPlayer:
    """A winning move if there is one; else a move of the best exact value, alpha-beta breaking ties."""

    name = "exact"

    def __init__(self, size: int, win_length: int, depth: int, seed: int, traps_from: int | None = None) -> None:
        self.solver = _solver(size, win_length)
        self.search = AlphaBetaPolicy(depth=depth, time_limit=None, width=64, seed=seed)
        self.rng = np.random.default_rng(seed)
        self.traps_from = traps_from

    def _winning_replies(self, child: Any) -> int:
        # How many of the opponent's moves in ``child`` keep its win: fewer, the easier to go wrong.
        count = 0
        for action in child.legal_actions():
            reply = child.clone()
            reply.play(int(action))
            count += self.solver.wins_by_force(reply)
        return count

    def act(self, env: Any) -> int:
        state = game_state_of(env)
        win = self.solver.winning_move(state)
        if win is not None:
            return win
        children = {}
        for action in state.legal_actions().tolist():
            children[action] = state.clone()
            children[action].play(action)
        values = np.full(state.game.num_actions, -2)
        for action, child in children.items():
            values[action] = 0 if child.terminal else -self.solver.board_value(child.board)
        best = values == values.max()
        if values.max() == -1 and self.traps_from is not None and state.num_moves >= self.traps_from:
            fewest = np.array([-self._winning_replies(children[a]) if best[a] else -np.inf for a in range(len(best))])
            return random_argmax(fewest, self.rng)
        return random_argmax(np.where(best, self.search.move_scores(env), -np.inf), self.rng)


def _network(checkpoint: str, simulations: int, seed: int) -> NetworkPolicy:
    import torch

    torch.set_num_threads(1)  # one thread a process: the match runs --jobs processes on a small machine
    return NetworkPolicy.from_checkpoint(checkpoint, simulations=simulations, seed=seed)


def _vetoed(checkpoint: str, simulations: int, depth: int, seed: int) -> VetoedNetwork:
    return VetoedNetwork(_network(checkpoint, simulations, seed), depth, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board-size", type=int, default=6)
    parser.add_argument("--win-length", type=int, default=4)
    parser.add_argument("--mcts-sims", type=int, default=1000)
    parser.add_argument("--depths", type=int, nargs="*", default=[6, 8, 10], help="alpha-beta depths to play")
    parser.add_argument("--checkpoint", default=None, help="an AlphaZero checkpoint to play, plain and vetoed")
    parser.add_argument("--simulations", type=int, default=400, help="the network's PUCT simulations a move")
    parser.add_argument("--veto-depth", type=int, default=6, help="the veto's search depth, and the exact player's")
    parser.add_argument("--exact", action="store_true", help="also play the exact player (at most 36 cells)")
    parser.add_argument("--traps-from", type=int, default=None,
                        help="the exact player's lost positions with this many stones or more: fewest winning replies")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None, help="write the report (markdown) here")
    args = parser.parse_args(argv)
    if args.games < 2 or any(d < 1 for d in args.depths) or args.veto_depth < 1:
        parser.error("--games must be at least 2 and every depth at least 1")
    if not args.depths and not args.checkpoint and not args.exact:
        parser.error("nothing to play: give --depths, --checkpoint, --exact or a mix")
    if args.exact and args.board_size**2 > 36:
        parser.error("--exact solves boards of at most 36 cells")
    if args.traps_from is not None and (not args.exact or args.traps_from < 0):
        parser.error("--traps-from needs --exact and a stone count of 0 or more")

    env_fn = functools.partial(gomoku_v0.env, board_size=args.board_size, win_length=args.win_length)
    players: list[tuple[str, Any]] = [
        (f"`AlphaBetaPolicy(depth={d}, width=64)`", ("alphabeta", {"depth": d, "time_limit": None, "width": 64}))
        for d in args.depths
    ]
    if args.checkpoint:
        players.append((f"network, {args.simulations} simulations",
                        functools.partial(_network, args.checkpoint, args.simulations)))  # fmt: skip
        players.append((f"network, {args.simulations} simulations, depth-{args.veto_depth} veto",
                        functools.partial(_vetoed, args.checkpoint, args.simulations, args.veto_depth)))  # fmt: skip
    if args.exact:
        label = f"exact values, depth-{args.veto_depth} alpha-beta between equals"
        if args.traps_from is not None:
            label += f" (fewest winning replies from {args.traps_from} stones)"
        players.append((label, functools.partial(ExactPlayer, args.board_size, args.win_length, args.veto_depth,
                                                 traps_from=args.traps_from)))  # fmt: skip
    opponent = ("mcts", {"simulations": args.mcts_sims})
    lines = [
        f"Command: `{command_line(argv)}`",
        "",
        f"Each player against `MCTSPolicy(simulations={args.mcts_sims})` on {args.board_size}x{args.board_size}, "
        f"{args.win_length} in a row, {args.games} games, seats alternated, match seed {args.seed}.",
        "",
        "| player | first seat W-D-L | second seat W-D-L | wins | time |",
        "|---|---|---|---|---|",
    ]
    for label, spec in players:
        started = time.perf_counter()
        result = match(env_fn, spec, opponent, games=args.games, seed=args.seed, jobs=args.jobs, progress=False,
                       openings=None)  # the first seat's advantage from the empty board is what is measured
        first, second = ("-".join(map(str, result.by_seat[seat])) for seat in ("first", "second"))
        lines.append(f"| {label} | {first} | {second} | {100 * result.wins / result.games:.1f}% "
                     f"| {time.perf_counter() - started:.0f} s |")  # fmt: skip
        print(lines[-1], flush=True)
    publish(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
