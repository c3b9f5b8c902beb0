"""Searches written against the Game/State protocol alone: they play every game of the package.

The built-in policies (:class:`~boardgame_envs.policies.mcts.MCTSPolicy`,
:class:`~boardgame_envs.policies.uct.UCTPolicy`,
:class:`~boardgame_envs.policies.alphabeta.AlphaBetaPolicy`,
:class:`~boardgame_envs.policies.greedy.GreedyPolicy`) run their numba
kernels on the m,n,k family and these functions on every other game, with
the same arguments and the same meaning of a budget. They use only
``clone``, ``play``, ``legal_actions``, ``terminal``, ``to_move`` and
``returns``, plus two optional fast paths a game may offer on its states:

* ``rollout(seed) -> winner``: a uniformly random playout to the end, in a
  kernel (else one is played through ``clone``/``play``); a game whose
  returns are not those of a winner (:func:`~boardgame_envs.games.protocol.returns_of`)
  returns them instead, as a pair;
* ``evaluate() -> float`` in [-1, 1]: a heuristic value for the player to move
  (else 0), which alpha-beta scores its leaves with;

and alpha-beta's transposition table keys a position by ``search_key()`` where
a state has one (a state whose board and player to move do not tell it apart:
a step of a tournament opening), else by the board and the player to move.
The table keeps a lower and an upper bound per position, a win or a loss as
its distance from that position (so it serves at any ply), and a subtree
searched to the end of every line as good for any depth: small games are
solved outright (misère tic-tac-toe from any position within the default
4,000 nodes, 2x2 dots and boxes from the empty board in about 7,200).

Every search scores a finished game by its ``returns()`` for the player it
searches for (:func:`~boardgame_envs.games.protocol.outcome_for`), never as a
win for whoever moved last: in some games the player who ends the game loses.
Nor do they assume that turns alternate: a child's value is negated only when
its player to move is the other one.

A budget is a count (simulations, nodes), never time, so a named player plays
the same moves on every machine.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from boardgame_envs.games.protocol import outcome_for, returns_of

WIN, LOSS, UNPROVEN = 1, -1, 0
WIN_SCORE = 1_000_000  # alpha-beta: a win in p plies scores WIN_SCORE - p


def random_playout(state: Any, rng: np.random.Generator) -> tuple[float, float]:
    """The returns ``(first, second)`` of uniformly random play from ``state``, which is left unchanged."""
    if state.terminal:
        return tuple(state.returns())
    fast = getattr(state, "rollout", None)
    if fast is not None:
        result = fast(int(rng.integers(2**31)))
        return tuple(result) if isinstance(result, tuple) else returns_of(int(result))
    state = state.clone()
    while not state.terminal:
        legal = state.legal_actions()
        state.play(int(legal[rng.integers(len(legal))]))
    return tuple(state.returns())


class _Node:
    """A position of the tree, seen from the player who moved into it (``mover``)."""

    __slots__ = ("state", "mover", "children", "untried", "visits", "value", "proof")

    def __init__(self, state: Any, mover: int, rng: np.random.Generator) -> None:
        self.state = state
        self.mover = mover
        self.children: dict[int, _Node] = {}
        self.untried = [] if state.terminal else list(rng.permutation(state.legal_actions()))
        self.visits = 0
        self.value = 0.0  # summed rewards for ``mover``
        self.proof = UNPROVEN  # WIN: the move into this node wins for ``mover``; LOSS: it loses
        if state.terminal:
            result = outcome_for(state, mover)
            self.proof = WIN if result > 0 else LOSS if result < 0 else UNPROVEN


def mcts(state: Any, simulations: int, c: float, rng: np.random.Generator, solver: bool = True,
         draw: float = 0.0) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """UCT over the protocol: visit counts and proofs (WIN/LOSS/UNPROVEN) of the root's moves.

    Each simulation walks the tree by UCB1 (``mean + c * sqrt(ln N / n)``,
    unvisited children first), adds one child, plays a random playout from it
    and backs the result up: each node gets the playout's return for the
    player who moved into it (+1 a win, -1 a loss), ``draw`` for a draw. With
    ``solver`` (MCTS-Solver) a move into a won position is proven, a position
    all of whose moves are proven losses is proven, and proven positions are
    not searched again; the search stops once the root is decided.
    """
    root = _Node(state, 3 - state.to_move, rng)
    done = 0
    while done < simulations and not (solver and root.proof != UNPROVEN):
        done += 1
        path = [root]
        node = root
        while not node.untried and node.children and not (solver and node.proof != UNPROVEN):
            node = _select(node, c, solver)
            path.append(node)
        if node.untried and not (solver and node.proof != UNPROVEN):
            action = int(node.untried.pop())
            child_state = node.state.clone()
            child_state.play(action)
            child = _Node(child_state, node.state.to_move, rng)
            node.children[action] = child
            node = child
            path.append(node)
        result = random_playout(node.state, rng)
        for n in reversed(path):
            n.visits += 1
            reward = result[n.mover - 1]
            n.value += draw if reward == 0 else reward
        if solver:
            _prove(path)
    num_actions = state.game.num_actions
    visits = np.zeros(num_actions)
    proofs = np.zeros(num_actions, dtype=np.int64)
    for action, child in root.children.items():
        visits[action] = child.visits
        proofs[action] = child.proof
    return visits, proofs


def _select(node: _Node, c: float, solver: bool) -> _Node:
    log_n = math.log(max(node.visits, 1))
    best, best_score = None, -math.inf
    for child in node.children.values():
        if solver and child.proof == WIN:
            return child  # a winning move: the node above is proven by _prove
        if solver and child.proof == LOSS:
            score = -math.inf if best is not None else -1e300  # chosen only if every move loses
        elif child.visits == 0:
            score = math.inf
        else:
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def _prove(path: list[_Node]) -> None:
    """Propagate proofs up ``path`` (MCTS-Solver): a child won for the player to move proves the node won
    for that player, all children lost proves it lost; each proof is kept for the node's ``mover``."""
    for node in reversed(path):
        if node.proof != UNPROVEN or node.state.terminal:
            continue
        proofs = [child.proof for child in node.children.values()]  # for the player to move here
        if WIN in proofs:
            proven = WIN  # the player to move here has a winning move
        elif not node.untried and proofs and all(p == LOSS for p in proofs):
            proven = LOSS
        else:
            break  # nothing proven here, so nothing above changes
        node.proof = proven if node.state.to_move == node.mover else -proven


def mcts_move(state: Any, simulations: int, c: float, rng: np.random.Generator) -> int:
    """MCTS-Solver's move: a proven win, else the most visited move not proven lost."""
    visits, proofs = mcts(state, simulations, c, rng)
    legal = state.legal_mask()
    won = np.flatnonzero(proofs == WIN)
    if won.size:
        return int(won[rng.integers(len(won))])
    pool = np.where(legal & (proofs != LOSS), visits, -1.0)
    if pool.max() < 0:  # every move loses: the most visited anyway
        pool = np.where(legal, visits, -1.0)
    return _argmax(pool, rng)


def _argmax(scores: np.ndarray, rng: np.random.Generator) -> int:
    best = np.flatnonzero(scores == scores.max())
    return int(best[rng.integers(len(best))])


# ------------------------------------------------------------------ alpha-beta
# Scores, for the player to move: an end of the game ``p`` plies below the root scores ``r * WIN_SCORE - sign(r) * p``
# for its return ``r`` (a win sooner, a loss later is better; a margin scales it), a heuristic leaf ``1000 *
# evaluate()``. A score beyond MATE_BOUND therefore comes from an end of the game, so long as a return that is not
# 0 is at least 0.01 in size (docs/games.md, "Returns"); the table keeps such a score counted from its own node
# rather than from the root (see _to_table), so a win or a loss found once is reused at any ply.
MATE_BOUND = 5_000
EXACT_DEPTH = 1 << 30  # a table entry whose every line ran to the end of the game: good for any depth
ROOT_MARGIN = 0.5  # a root move this far below the best so far is only bounded (see alphabeta_scores)


class _Search:
    """One alpha-beta search's budget, table and count of horizon nodes (a heuristic leaf, or an entry of the
    table that was not searched to the end): a subtree that added none is exact whatever the depth."""

    __slots__ = ("nodes", "table", "horizon")

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes
        self.table: dict[bytes, tuple[int, float, float, int]] = {}  # key -> (depth, lower, upper, best move)
        self.horizon = 0


class _OutOfNodes(Exception):
    pass


def _evaluate(state: Any) -> float:
    evaluate = getattr(state, "evaluate", None)
    return float(evaluate()) if evaluate is not None else 0.0


def _end_score(state: Any, player: int, ply: int) -> float:
    """A finished game ``ply`` plies below the root, scored for ``player``: ``WIN_SCORE - ply`` for a
    win (a return of +1; sooner is better), ``-(WIN_SCORE - ply)`` for a loss (later is better), 0 a draw;
    a return with a margin scales ``WIN_SCORE``."""
    result = outcome_for(state, player)
    return float(result * WIN_SCORE - np.sign(result) * ply)


def _to_table(value: float, ply: int) -> float:
    """A score ``ply`` plies below the root as the table keeps it: an end's distance counted from this node."""
    if value > MATE_BOUND:
        return value + ply
    if value < -MATE_BOUND:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    """A score of the table for a node ``ply`` plies below the root (the inverse of :func:`_to_table`)."""
    if value > MATE_BOUND:
        return value - ply
    if value < -MATE_BOUND:
        return value + ply
    return value


def _child_value(child: Any, player: int, depth: int, ply: int, alpha: float, beta: float, search: _Search) -> float:
    """The value for ``player``, who has just moved, of the position ``child`` (within ``(alpha, beta)``)."""
    if child.terminal:
        return _end_score(child, player, ply)
    if child.to_move == player:  # the same player moves again: no change of sides
        return _negamax(child, depth, ply, alpha, beta, search)
    return -_negamax(child, depth, ply, -beta, -alpha, search)


def _negamax(state: Any, depth: int, ply: int, alpha: float, beta: float, search: _Search) -> float:
    """Negamax with alpha-beta and a transposition table; the value of a live ``state`` for its player to move.

    The table keeps a lower and an upper bound per position, each good to the depth it was searched to
    (``EXACT_DEPTH``: whatever the depth), and a bound that does not settle the position still narrows its window.
    """
    if depth == 0:
        search.horizon += 1
        return 1000.0 * _evaluate(state)
    own_key = getattr(state, "search_key", None)
    key = own_key() if own_key is not None else state.board.tobytes() + bytes((state.to_move,))
    entry = search.table.get(key)
    first = -1
    horizon = search.horizon
    if entry is not None:
        e_depth, lower, upper, first = entry
        if e_depth >= depth:
            lower, upper = _from_table(lower, ply), _from_table(upper, ply)
            settled = lower if lower >= beta or lower == upper else upper if upper <= alpha else None
            if settled is not None or lower > alpha or upper < beta:
                if e_depth < EXACT_DEPTH:
                    search.horizon += 1  # a bound that stops at a horizon: what uses it stops there too
                if settled is not None:
                    return settled
                alpha, beta = max(alpha, lower), min(beta, upper)
    search.nodes -= 1  # a node is a position whose moves are tried: one the table settles costs nothing
    if search.nodes < 0:
        raise _OutOfNodes
    moves = [int(a) for a in state.legal_actions()]
    if first in moves:
        moves.remove(first)
        moves.insert(0, first)
    alpha0, best, best_move = alpha, -math.inf, moves[0]
    me = state.to_move
    for action in moves:
        child = state.clone()
        child.play(action)
        value = _child_value(child, me, depth - 1, ply + 1, alpha, beta, search)
        if value > best:
            best, best_move = value, action
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    lower = best if best > alpha0 else -math.inf  # fail-soft: above the window's floor, best is a lower bound
    upper = best if best < beta else math.inf  # below its ceiling, an upper bound; within it, exact
    stored = EXACT_DEPTH if search.horizon == horizon else depth  # every line ended: exact at any depth
    lower, upper = _to_table(lower, ply), _to_table(upper, ply)
    if entry is not None and entry[0] == stored and max(lower, entry[1]) <= min(upper, entry[2]):
        lower, upper = max(lower, entry[1]), min(upper, entry[2])  # the same depth: both searches' bounds hold
    if entry is None or stored >= entry[0]:
        search.table[key] = (stored, lower, upper, best_move)
    return best


def alphabeta_scores(state: Any, depth: int, nodes: int | None) -> tuple[np.ndarray, int]:
    """Iterative deepening to ``depth`` within ``nodes``: the root scores of the deepest complete iteration.

    Scores are for the player to move (``WIN_SCORE - p`` a win in ``p`` plies,
    ``-inf`` for illegal moves; a return with a margin scales ``WIN_SCORE``);
    returns them and the depth reached. The best moves' scores are exact (ties
    too); any other move's is an upper bound at least ``ROOT_MARGIN`` below the
    best, so a score at or below ``-(WIN_SCORE - depth)`` proves a loss while a
    higher one does not prove the move safe. The deepening stops early once a move
    wins, every move loses, or an iteration reached the end of the game in
    every line (its scores are then exact).
    """
    moves = [int(a) for a in state.legal_actions()]
    scores = np.full(state.game.num_actions, -np.inf)
    best_scores, reached = scores.copy(), 0
    search = _Search(10**12 if nodes is None else int(nodes))
    me = state.to_move
    # Without evaluate() a shallow iteration finds only the ends within its reach, so it is a poor guide for the
    # next one: such a game deepens by half again each time (1, 2, 3, 4, 6, 9, 13, ...), one with it ply by ply.
    step = (lambda d: d + 1) if hasattr(state, "evaluate") else (lambda d: max(d + 1, d * 3 // 2))
    d = 0
    while d < depth:
        d = min(depth, step(d))
        scores = np.full(state.game.num_actions, -np.inf)
        horizon = search.horizon
        try:
            for action in moves:
                child = state.clone()
                child.play(action)
                # A move that cannot come within ROOT_MARGIN of the best so far gets a bound below it, not its
                # score: the best moves' scores are exact, ties included, and no other move can pass for one.
                floor = scores.max() - ROOT_MARGIN
                scores[action] = _child_value(child, me, d - 1, 1, floor, math.inf, search)
        except _OutOfNodes:
            break
        best_scores, reached = scores, d
        moves.sort(key=lambda a: -scores[a])  # the best first in the next iteration
        if abs(scores.max()) >= WIN_SCORE - d or search.horizon == horizon:
            break  # decided: a move wins, every legal move loses (illegal ones are -inf), or every line ended
    return best_scores, reached


# ---------------------------------------------------------------------- greedy
def greedy_scores(state: Any) -> np.ndarray:
    """One ply, for the player to move: a move that ends the game scores twice its return (2 a win, 0 a
    draw, -2 a loss); a move after which the opponent can win at once -1.5 (a block is any move that avoids
    that); else the heuristic value after the move in (-1, 1); -inf for illegal moves. A move after which
    the same player moves again scores +1.5 if it can then win at once."""
    me = state.to_move
    scores = np.full(state.game.num_actions, -np.inf)
    for action in map(int, state.legal_actions()):
        child = state.clone()
        child.play(action)
        if child.terminal:
            scores[action] = 2.0 * outcome_for(child, me)
        elif child.to_move == me:
            scores[action] = 1.5 if _wins_at_once(child) else 0.999 * _evaluate(child)
        elif _wins_at_once(child):
            scores[action] = -1.5
        else:
            scores[action] = -0.999 * _evaluate(child)
    return scores


def _wins_at_once(state: Any) -> bool:
    """Whether the player to move has a move that ends the game in their win on the spot."""
    me = state.to_move
    for reply in map(int, state.legal_actions()):
        child = state.clone()
        child.play(reply)
        if child.terminal and outcome_for(child, me) > 0:
            return True
    return False
