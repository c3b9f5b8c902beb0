"""What a position's threats decide before any search: a win at once, a forced block, a win by fours.

:func:`leaf_threats` is the check the PUCT forest runs on every position it
adds to a tree (and at the root), so that a network search cannot miss what a
solver sees in a few hundred nodes:

* a move that wins at once (a five) is a proven win;
* when the opponent threatens to win at once, only the moves that stop it are
  worth a child; two such threats, or one whose only stop black may not play
  under renju (a forbidden block is no block), are a proven loss;
* otherwise a bounded continuous-four search
  (:func:`~boardgame_envs.policies.alphabeta_kernels.vcf`, the alpha-beta
  player's own) may prove a win and name its first move.

Every answer is a proof, never a guess: the VCF search gives up (and proves
nothing) when its budget of positions runs out. Each kernel works on a flat
``int8`` board and the ``rules`` array of :mod:`boardgame_envs.policies.kernels`.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import EMPTY, opponent
from boardgame_envs.policies.alphabeta_kernels import vcf
from boardgame_envs.policies.kernels import R_K, R_N, wins

# What leaf_threats found, for the player to move.
NOTHING, WIN_NOW, WIN_BY_FOURS, MUST_BLOCK, CANNOT_BLOCK = 0, 1, 2, 3, 4
MAX_FOURS = 12  # fours in a row the VCF search may play (the alpha-beta player's limit); its budget binds first


@cached_kernel()
def leaf_threats(board, rules, color, legal, vcf_nodes, blocks):
    """Threats of the position ``board`` with ``color`` to move and ``legal`` its legal points.

    Returns ``(status, move, count)``: ``status`` one of ``WIN_NOW`` (``move``
    makes a five), ``WIN_BY_FOURS`` (``move`` starts a win by continuous fours,
    found within ``vcf_nodes`` positions; 0 searches none), ``MUST_BLOCK`` (the
    opponent wins at one point next move and ``color`` may play there), ``CANNOT_BLOCK``
    (the opponent wins next move whatever ``color`` does) or ``NOTHING``. The
    ``count`` points where ``color`` may stop a win of the opponent's are written
    to ``blocks`` (every status but ``WIN_NOW``; ``CANNOT_BLOCK`` too, for a player who
    must still pick a move). A win at once comes before a block, and a win by
    fours is looked for with a threat to block too (its first four must then stop it).
    ``board`` is left as it was.
    """
    n = rules[R_N]
    k = rules[R_K]
    other = opponent(color)
    mine = 0
    theirs = 0
    for a in range(n * n):
        if board[a] == color:
            mine += 1
        elif board[a] == other:
            theirs += 1
    if mine >= k - 1:  # fewer stones than k - 1 can make no line of k
        for a in range(n * n):
            if legal[a] and wins(board, rules, a, color):
                return WIN_NOW, a, 0
    threats = 0
    count = 0
    if theirs >= k - 1:
        for a in range(n * n):
            # The opponent's win is a five, never a forbidden point: ``wins`` says all.
            if board[a] == EMPTY and wins(board, rules, a, other):
                threats += 1
                if legal[a]:
                    blocks[count] = a
                    count += 1
    # A stone stops a win only by standing on its point, so two points cannot both be stopped.
    if threats > 1 or (threats == 1 and count == 0):
        return CANNOT_BLOCK, -1, count
    if vcf_nodes > 0 and mine >= k - 2:
        found = vcf(board, rules, color, MAX_FOURS, np.array([vcf_nodes], dtype=np.int64))
        if found >= 0:
            return WIN_BY_FOURS, found, count
    return (MUST_BLOCK if threats == 1 else NOTHING), -1, count
