"""The numba kernels of the PUCT forest (:mod:`boardgame_envs.policies.puct`): a simulation's two halves
over flat node tables, the threat check of a new leaf and the MCTS-Solver's proofs.

A tree is two tables, ``tree_i[b]`` (integer columns ``PARENT``, ``MOVE``,
``FIRST``, ``COUNT``, ``OUTCOME``) and ``tree_f[b]`` (``VISITS``,
``VALUE_SUM``, ``PRIOR``), one row a node. The constants live here because
numba freezes a global into the machine code it caches.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.kernel_cache import cached_kernel
from boardgame_envs.games.lines import BLACK, EMPTY, makes_win, opponent
from boardgame_envs.games.renju import forbidden_mask_flat
from boardgame_envs.policies.kernels import R_K, R_N, R_RENJU, exact_win
from boardgame_envs.policies.threats import (
    CANNOT_BLOCK,
    MUST_BLOCK,
    WIN_BY_FOURS,
    WIN_NOW,
    leaf_threats,
)

# Columns of the integer and float node tables.
PARENT, MOVE, FIRST, COUNT, OUTCOME = range(5)
VISITS, VALUE_SUM, PRIOR = range(3)
# OUTCOME of a node, for the player who moved into it: a terminal position, or one proven by threats or
# from its children (LOST only in a forest with threats).
OPEN, WON, DRAWN, LOST = 0, 1, 2, 3


@cached_kernel()
def select_leaves(rules, c_puct, vcf_nodes, active, root_move, roots, root_color, root_last, tree_i, tree_f,
                  sizes, leaf_node, leaf_board, leaf_color, leaf_last, leaf_legal, leaf_forbidden, pending,
                  blocks):  # fmt: skip
    """Walk every tree from its root to a leaf; finish terminal (and proven) leaves at once.

    For each tree ``b`` that reaches an unexpanded, non-terminal node, fills
    ``leaf_*[b]`` (board, colour to move, last move, legal actions, black's
    forbidden points) and sets ``pending[b]``: that leaf awaits an evaluation.
    ``vcf_nodes`` below 0 is a plain search; 0 or more turns the threat check and
    the solver on (:func:`_threats_at_leaf`), with that VCF budget; ``blocks`` is scratch for it.
    Trees not ``active`` (their simulations spent) are left alone; a tree with ``root_move[b] >= 0``
    goes from its root into that move's child, by PUCT from there on.
    """
    n = rules[R_N]
    renju = rules[R_RENJU] != 0
    solver = vcf_nodes >= 0
    for b in range(roots.shape[0]):
        pending[b] = False
        if not active[b]:
            continue
        board = leaf_board[b]
        board[:] = roots[b]
        color = root_color[b]
        last = root_last[b]
        node = 0
        while tree_i[b, node, COUNT] > 0 and tree_i[b, node, OUTCOME] == OPEN:
            first = tree_i[b, node, FIRST]
            sqrt_n = np.sqrt(max(tree_f[b, node, VISITS], 1.0))
            # An unvisited child starts at the parent's mean value for the chooser (not 0): with a value head
            # sure of a loss, 0 would send the search to every unvisited move instead of the prior's best.
            fpu = -tree_f[b, node, VALUE_SUM] / tree_f[b, node, VISITS] if tree_f[b, node, VISITS] > 0 else 0.0
            best = first
            best_score = -1e300
            for ch in range(first, first + tree_i[b, node, COUNT]):
                if node == 0 and root_move[b] >= 0:
                    if tree_i[b, ch, MOVE] == root_move[b]:
                        best = ch  # the root child the caller chose (a Gumbel root's schedule)
                        break
                    continue
                if tree_i[b, ch, OUTCOME] == LOST:
                    continue  # a proven loss; an open node always has a child that is not one
                visits = tree_f[b, ch, VISITS]
                q = tree_f[b, ch, VALUE_SUM] / visits if visits > 0 else fpu
                score = q + c_puct * tree_f[b, ch, PRIOR] * sqrt_n / (1.0 + visits)
                if score > best_score:
                    best_score = score
                    best = ch
            node = best
            last = tree_i[b, node, MOVE]
            board[last] = color
            color = opponent(color)
        leaf_node[b] = node
        outcome = tree_i[b, node, OUTCOME]
        if outcome == OPEN and tree_i[b, node, COUNT] == 0:
            # A new leaf: its legal moves decide whether it needs the evaluator.
            forbidden = leaf_forbidden[b]
            if renju:
                forbidden_mask_flat(board, n, forbidden)
            else:
                forbidden[:] = False
            count = 0
            for a in range(n * n):
                legal = board[a] == EMPTY and not (color == BLACK and forbidden[a])
                leaf_legal[b, a] = legal
                count += legal
            if count == 0:
                tree_i[b, node, OUTCOME] = DRAWN  # full board, or black with only forbidden points
                outcome = DRAWN
                if solver:
                    _settle(tree_i[b], tree_i[b, node, PARENT])
            elif solver:
                outcome = _threats_at_leaf(rules, vcf_nodes, tree_i[b], tree_f[b], sizes, b, node, board, color,
                                           leaf_legal[b], blocks[b])  # fmt: skip
            if outcome == OPEN:
                leaf_color[b] = color
                leaf_last[b] = last
                pending[b] = True
        if outcome != OPEN:
            # The player to move at a won node has lost, at a lost one has won; a drawn one scores 0.
            _backup(tree_i[b], tree_f[b], node, -1.0 if outcome == WON else (1.0 if outcome == LOST else 0.0))


@cached_kernel()
def _threats_at_leaf(rules, vcf_nodes, nodes_i, nodes_f, sizes, b, node, board, color, legal, blocks):
    """Settle a new leaf by its threats (:func:`~boardgame_envs.policies.threats.leaf_threats`); its outcome.

    A win (at once or by fours) gives the leaf its one child, the winning move,
    marked won, and proves the leaf lost for the player who moved into it. A
    proven loss is the leaf's outcome at once, except at the root, which still
    needs moves to choose from: its children are then the blocks, if any. A
    threat to block leaves only the blocks legal. An open leaf (outcome ``OPEN``)
    awaits the evaluator with ``legal`` as its children.
    """
    status, move, count = leaf_threats(board, rules, color, legal, vcf_nodes, blocks)
    if status == WIN_NOW or status == WIN_BY_FOURS:
        child = sizes[b]
        if child < nodes_i.shape[0]:
            nodes_i[child, PARENT] = node
            nodes_i[child, MOVE] = move
            nodes_i[child, FIRST] = -1
            nodes_i[child, COUNT] = 0
            nodes_i[child, OUTCOME] = WON
            nodes_f[child, VISITS] = 0.0
            nodes_f[child, VALUE_SUM] = 0.0
            nodes_f[child, PRIOR] = 1.0
            nodes_i[node, FIRST] = child
            nodes_i[node, COUNT] = 1
            sizes[b] = child + 1
        nodes_i[node, OUTCOME] = LOST
    elif status == CANNOT_BLOCK and node != 0:
        nodes_i[node, OUTCOME] = WON
    elif status == MUST_BLOCK or (status == CANNOT_BLOCK and count > 0):
        legal[:] = False
        for i in range(count):
            legal[blocks[i]] = True
    if nodes_i[node, OUTCOME] != OPEN:
        _settle(nodes_i, nodes_i[node, PARENT])
    return nodes_i[node, OUTCOME]


@cached_kernel()
def _settle(nodes_i, node):
    """MCTS-Solver: prove ``node`` from its children, then its parent, ..., up to the first that stays open.

    A node with a won child is lost for the player who moved into it (the
    player to move there takes that child); one whose children are all lost is
    won; all proven with a draw among them, drawn.
    """
    while node >= 0 and nodes_i[node, OUTCOME] == OPEN and nodes_i[node, COUNT] > 0:
        first = nodes_i[node, FIRST]
        won = False
        unproven = False
        drawn = False
        for ch in range(first, first + nodes_i[node, COUNT]):
            outcome = nodes_i[ch, OUTCOME]
            if outcome == WON:
                won = True
                break
            if outcome == OPEN:
                unproven = True
            elif outcome == DRAWN:
                drawn = True
        if won:
            nodes_i[node, OUTCOME] = LOST
        elif unproven:
            return
        else:
            nodes_i[node, OUTCOME] = DRAWN if drawn else WON
        node = nodes_i[node, PARENT]


@cached_kernel()
def _backup(nodes_i, nodes_f, node, value):
    """Add ``value`` (for the player to move at ``node``) up the path to the root."""
    while node >= 0:
        value = -value
        nodes_f[node, VISITS] += 1.0
        nodes_f[node, VALUE_SUM] += value
        node = nodes_i[node, PARENT]


@cached_kernel()
def expand_leaves(rules, solver, tree_i, tree_f, sizes, leaf_node, leaf_board, leaf_color, leaf_legal, pending, priors,
            values):  # fmt: skip
    """Give each pending leaf its children (priors renormalised over legal moves) and back its value up;
    with the ``solver``, a leaf whose children are all terminal is proven at once."""
    n = rules[R_N]
    capacity = tree_i.shape[1]
    for b in range(leaf_node.shape[0]):
        if not pending[b]:
            continue
        node = leaf_node[b]
        color = leaf_color[b]
        board = leaf_board[b]
        exact = exact_win(rules, color)
        stones = 0
        total = 0.0
        count = 0
        for a in range(n * n):
            if board[a] != EMPTY:
                stones += 1
            if leaf_legal[b, a]:
                count += 1
                total += max(priors[b, a], 0.0)
        first = sizes[b]
        if first + count <= capacity:  # a full tree keeps the leaf as a leaf, value still counted
            child = first
            for a in range(n * n):
                if not leaf_legal[b, a]:
                    continue
                tree_i[b, child, PARENT] = node
                tree_i[b, child, MOVE] = a
                tree_i[b, child, FIRST] = -1
                tree_i[b, child, COUNT] = 0
                board[a] = color
                if makes_win(board, n, a, color, rules[R_K], exact):
                    tree_i[b, child, OUTCOME] = WON
                elif stones + 1 == n * n:
                    tree_i[b, child, OUTCOME] = DRAWN
                else:
                    tree_i[b, child, OUTCOME] = OPEN
                board[a] = EMPTY
                tree_f[b, child, VISITS] = 0.0
                tree_f[b, child, VALUE_SUM] = 0.0
                tree_f[b, child, PRIOR] = max(priors[b, a], 0.0) / total if total > 0 else 1.0 / count
                child += 1
            tree_i[b, node, FIRST] = first
            tree_i[b, node, COUNT] = count
            sizes[b] = child
            if solver:
                _settle(tree_i[b], node)
        _backup(tree_i[b], tree_f[b], node, values[b])
