"""A Gumbel root for the PUCT forests: Gumbel-top-k, sequential halving and the improved policy.

After Danihelka et al., "Policy improvement by planning with Gumbel" (ICLR
2022), for searches of few simulations (8 to 32), where visit counts are a
poor policy target:

1. The root is evaluated; each legal child ``a`` gets ``g(a) + logit(a)``,
   ``g`` a Gumbel(0, 1) sample (0 when not sampling) and ``logit`` the log of
   the evaluator's prior. The ``k`` best are the candidates (at most the
   budget's simulations, and never a proven loss while others are left).
2. Sequential halving spends the budget: in each phase every remaining
   candidate gets ``max(1, n // (phases * remaining))`` simulations (forced
   into it at the root, PUCT below it: ``forest.root_move``), then the better
   half by ``g + logit + sigma(q)`` goes on; the phase that reaches two
   candidates (or one) takes what is left, so the budget ``n`` is spent exactly.
3. The move played is the best remaining candidate by ``g + logit + sigma(q)``;
   the policy target is ``softmax(logit + sigma(completed q))``.

``q(a)`` is a child's mean value for the player to move at the root; an
unvisited child's is completed with the "mixed value" (the root's evaluation
and the visited children's values weighed by their priors); completed values are
rescaled to [0, 1] over the root's children, and ``sigma(q) = (C_VISIT +
max visits) * C_SCALE * q``. Below the root the search is the forest's PUCT
(the paper's deterministic non-root rule is not used). A root proven by the
threat check plays its proof (:meth:`~boardgame_envs.policies.puct.LockstepSearch.root_policy`).
"""

from __future__ import annotations

import math

import numpy as np

from boardgame_envs.policies.puct import LOST, OPEN, WON, BatchEvaluator

C_VISIT = 50.0  # sigma's constants, as in the paper's experiments
C_SCALE = 0.1


def halving_phase(remaining: int, phases: int, budget: int, left: int) -> int:
    """Simulations each of ``remaining`` candidates gets in the next phase of sequential halving over
    ``budget`` simulations in ``phases`` phases, ``left`` of them unspent (the last phase takes them all)."""
    if remaining <= 2:
        return math.ceil(left / remaining)
    return max(1, budget // (phases * remaining))


def completed_q(visits: np.ndarray, value_sums: np.ndarray, priors: np.ndarray, root_value: float) -> np.ndarray:
    """Each child's mean value, an unvisited child's completed by the mixed value of the root."""
    seen = visits > 0
    q = np.where(seen, value_sums / np.maximum(visits, 1.0), 0.0)
    total = visits.sum()
    mixed = root_value
    if total > 0:
        weight = priors[seen].sum()
        searched = (priors[seen] * q[seen]).sum() / weight if weight > 0 else q[seen].mean()
        mixed = (root_value + total * searched) / (1.0 + total)
    return np.where(seen, q, mixed)


def sigma(q: np.ndarray, visits: np.ndarray) -> np.ndarray:
    """The monotone transform of (completed) values: rescaled to [0, 1], times ``(C_VISIT + max N) * C_SCALE``."""
    low, high = q.min(initial=0.0), q.max(initial=0.0)
    scaled = (q - low) / max(high - low, 1e-8)
    return (C_VISIT + visits.max(initial=0.0)) * C_SCALE * scaled


def improved_policy(logits: np.ndarray, visits: np.ndarray, value_sums: np.ndarray, priors: np.ndarray,
                    root_value: float, alive: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """``softmax(logit + sigma(completed q))`` over a root's children (none on those not ``alive`` while any is)."""
    improved = logits + sigma(completed_q(visits, value_sums, priors, root_value), visits)
    if alive is not None and alive.any():
        improved = np.where(alive, improved, -np.inf)
    improved = np.exp(improved - improved.max())
    return improved / improved.sum()


def gumbel_search(
    forest, simulations: int | np.ndarray, evaluate: BatchEvaluator, k: int = 16,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Search every root of ``forest`` (roots set) with a Gumbel root; ``(moves (batch,), policies (batch, A))``.

    ``simulations`` is one budget or one a tree; ``rng`` samples the Gumbel
    noise (self-play), ``None`` leaves it out (the best move by the search).
    The policies are the improved policy targets (a proven root's: its proof). With threats a tree
    stops once its move is decided (proven, or one move left).
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"gumbel_k must be a positive integer, got {k!r}")
    batch, num_actions = forest.batch, forest.game.num_actions
    budgets = np.broadcast_to(np.asarray(simulations, dtype=np.int64), (batch,)).copy()
    forest.active[:] = True
    forest.root_move[:] = -1
    _round(forest, evaluate)  # expands the roots
    logits, scores, candidates, root_moves, root_values = [], [], [], [], []
    for b in range(batch):
        moves, _, _, priors, outcomes = forest.root_children(b)
        logit = np.log(np.maximum(priors, 1e-30))
        score = logit + (rng.gumbel(size=len(moves)) if rng is not None else 0.0)
        alive = outcomes != LOST
        score_alive = np.where(alive if alive.any() else True, score, -np.inf)
        m = max(1, min(k, int(np.isfinite(score_alive).sum()), int(budgets[b])))
        logits.append(logit)
        scores.append(score)
        candidates.append(list(np.argsort(-score_alive, kind="stable")[:m]))  # child indices
        root_moves.append(moves)
        root_values.append(forest.root_mean_value(b))
    phases = [max(1, math.ceil(math.log2(len(c)))) if c else 1 for c in candidates]
    queues: list[list[int]] = [[] for _ in range(batch)]
    started = [False] * batch
    left = budgets.copy()
    while True:
        for b in range(batch):
            decided = forest.root_decided(b) if forest.threats else forest.root_outcome(b) != OPEN
            forest.active[b] = left[b] > 0 and len(candidates[b]) > 0 and not decided
            if not forest.active[b]:
                continue
            if not queues[b]:  # a phase ends: halve (after the first), then plan the next
                if started[b]:
                    candidates[b] = _halve(forest, b, candidates[b], scores[b], root_values[b])
                started[b] = True
                per = halving_phase(len(candidates[b]), phases[b], int(budgets[b]), int(left[b]))
                queues[b] = [c for _ in range(per) for c in candidates[b]]
            forest.root_move[b] = root_moves[b][queues[b].pop(0)]
        if not forest.active.any():
            break
        _round(forest, evaluate)
        left -= forest.active
    forest.active[:] = True
    forest.root_move[:] = -1
    moves_out = np.zeros(batch, dtype=np.int64)
    policies = np.zeros((batch, num_actions))
    proofs = forest.root_policy() if forest.threats else None
    for b in range(batch):
        moves, visits, value_sums, priors, outcomes = forest.root_children(b)
        if proofs is not None and (outcomes == WON).any():
            policies[b] = proofs[b]
            moves_out[b] = int(np.argmax(proofs[b]))
            continue
        alive = outcomes != LOST
        policies[b, moves] = improved_policy(logits[b], visits, value_sums, priors, root_values[b], alive)
        s = sigma(completed_q(visits, value_sums, priors, root_values[b]), visits)
        final = [c for c in candidates[b] if alive[c]] or candidates[b]  # a proven loss only if all are
        moves_out[b] = int(moves[max(final, key=lambda c: scores[b][c] + s[c])])
    return moves_out, policies


def _round(forest, evaluate: BatchEvaluator) -> None:
    """One simulation in every active tree: select, evaluate the pending leaves in one call, expand."""
    leaves = forest.select()
    if leaves.size:
        priors = np.zeros((forest.batch, forest.game.num_actions))
        values = np.zeros(forest.batch)
        priors[leaves], values[leaves] = evaluate(forest, leaves)
        forest.expand(priors, values)


def _halve(forest, b: int, candidates: list[int], score: np.ndarray, root_value: float) -> list[int]:
    """The better half of ``candidates`` (child indices) by ``g + logit + sigma(q)``, proven losses last."""
    if len(candidates) <= 1:
        return candidates
    _, visits, value_sums, priors, outcomes = forest.root_children(b)
    total = score + sigma(completed_q(visits, value_sums, priors, root_value), visits)
    total = np.where(outcomes == LOST, -np.inf, total)
    ranked = sorted(candidates, key=lambda c: -total[c])
    return ranked[: math.ceil(len(candidates) / 2)]
