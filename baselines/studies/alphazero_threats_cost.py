"""What the threat-aware PUCT costs per simulation: the same positions searched with threats off and on.

    python baselines/studies/alphazero_threats_cost.py --simulations 200 --plies 6 16

Positions: each of the 26 RIF openings (15x15 renju), played on by
``alphabeta:nodes=300`` (seeded) for each number of ``--plies``; the search:
``pretrained:renju-15x15-v1``'s network, one tree a position (as ``NetworkPolicy``
runs it), then one forest of all positions searched in lockstep with one
network call a round (as self-play runs it). Each variant (``--variants``,
``off`` or ``vcf=N``: threats on with a VCF budget of N positions a leaf) runs
on every position in turn, the variants' order rotating, so a change of load
falls on all alike. Prints, per variant: milliseconds a move and a simulation
(CPU time of this process), network evaluations a move, and the share of
positions whose root was proven (those stop early).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from boardgame_envs.games import opening_positions as openings
from boardgame_envs.alphazero import NetworkPolicy
from boardgame_envs.alphazero.policy import net_evaluator
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.policies import make_policy
from boardgame_envs.policies.puct import PUCTForest


def positions(plies: list[int], seed: int) -> list:
    game = MNKGame(15, 5, "renju")
    player = make_policy("alphabeta:nodes=300", seed=seed)
    out = []
    for opening in openings.load("rif26"):
        state = game.new_state()
        for a in opening.moves:
            state.play(int(a))
        done = 0
        for target in sorted(plies):
            while done < target and not state.terminal:
                state.play(player.act(state))
                done += 1
            if not state.terminal:
                out.append(state.clone())
    return out


def variant(text: str) -> tuple[bool, int]:
    if text == "off":
        return False, 0
    if text.startswith("vcf="):
        return True, int(text[4:])
    raise argparse.ArgumentTypeError(f"a variant is off or vcf=N, got {text!r}")


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--batch-simulations", type=int, default=64, help="simulations of the lockstep forest")
    parser.add_argument("--plies", type=int, nargs="+", default=[6, 16])
    parser.add_argument("--variants", type=variant, nargs="+", default=[variant(v) for v in ("off", "vcf=0", "vcf=50",
                                                                                             "vcf=300")])  # fmt: skip
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    states = positions(args.plies, args.seed)
    network = NetworkPolicy.from_pretrained("renju-15x15-v1")
    game = states[0].game
    evaluate = net_evaluator(network.net, network._encoder(game))
    names = ["off" if not t else f"vcf={v}" for t, v in args.variants]
    one = {name: [0.0, 0, 0, 0] for name in names}  # cpu s, simulations, evaluations, proven roots

    def counting(forest, leaves):
        counting.calls += len(leaves)
        return evaluate(forest, leaves)

    # Compile (or load) every kernel before any clock starts.
    for threats, vcf_nodes in args.variants:
        forest = PUCTForest(1, game, 1 + 3 * game.num_actions, threats=threats, vcf_nodes=vcf_nodes)
        forest.set_root(0, states[0])
        forest.search(2, evaluate)
    for i, state in enumerate(states):
        order = [(i + j) % len(names) for j in range(len(names))]
        for j in order:
            threats, vcf_nodes = args.variants[j]
            forest = PUCTForest(1, game, 1 + args.simulations * game.num_actions, threats=threats, vcf_nodes=vcf_nodes)
            forest.set_root(0, state)
            counting.calls = 0
            start = time.process_time()
            forest.search(args.simulations, counting)
            row = one[names[j]]
            row[0] += time.process_time() - start
            row[1] += int(forest.tree_f[0, 0, 0]) - 1  # root visits, less the round that expanded it
            row[2] += counting.calls
            row[3] += not np.isnan(forest.proven_values()[0])
    print(f"{len(states)} positions (rif26, plies {args.plies}); one tree, {args.simulations} simulations a move")
    print(f"{'variant':<10} {'ms/move':>9} {'ms/sim':>8} {'evals/move':>11} {'proven':>7}")
    for name in names:
        cpu, sims, evals, proven = one[name]
        print(f"{name:<10} {1000 * cpu / len(states):9.1f} {1000 * cpu / max(sims, 1):8.3f} "
              f"{evals / len(states):11.1f} {proven / len(states):7.2f}")  # fmt: skip
    print(f"lockstep forest of {len(states)} roots, {args.batch_simulations} simulations (one net call a round)")
    print(f"{'variant':<10} {'ms/round':>9} {'ms/leaf':>8}")
    for j in [k % len(names) for k in range(len(names))]:
        threats, vcf_nodes = args.variants[j]
        forest = PUCTForest(len(states), game, 1 + args.batch_simulations * game.num_actions, threats=threats,
                            vcf_nodes=vcf_nodes)  # fmt: skip
        forest.set_roots(states)
        counting.calls = 0
        start = time.process_time()
        forest.search(args.batch_simulations, counting)
        cpu = time.process_time() - start
        per_round, per_leaf = 1000 * cpu / (args.batch_simulations + 1), 1000 * cpu / max(counting.calls, 1)
        print(f"{names[j]:<10} {per_round:9.1f} {per_leaf:8.3f}")


if __name__ == "__main__":
    main()
