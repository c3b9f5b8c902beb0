"""What every game's batched kernels share: the check of a batch's actions against its legal masks.

The batched engine (:mod:`boardgame_envs.vector`) steps each game's own kernels
(:meth:`Game.kernels`: the m,n,k family's arrays, connect four's bitboards); the check
that refuses an illegal action before a step changes anything is the same for
all of them, so it lives here, below both.
"""

from __future__ import annotations

from boardgame_envs.games.kernel_cache import cached_kernel


@cached_kernel()
def check_actions(legal, over, actions, where, illegal):
    """Flag in ``illegal`` the games flagged in ``where``, still going, whose action is not legal for their
    mover (out of range included); return how many."""
    bad = 0
    num_actions = legal.shape[1]
    for b in range(legal.shape[0]):
        flag = False
        if where[b] and not over[b]:
            a = actions[b]
            flag = a < 0 or a >= num_actions or not legal[b, a]
        illegal[b] = flag
        bad += flag
    return bad
