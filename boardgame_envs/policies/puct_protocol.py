"""PUCT over the Game/State protocol: AlphaZero's search for games without the m,n,k kernels.

:class:`ProtocolForest` has :class:`~boardgame_envs.policies.puct.PUCTForest`'s
interface (``set_roots``, ``search``, ``root_visits``, ``add_root_noise``) and
its rules of search (children by ``Q + c_puct * P * sqrt(N) / (1 + n)``, an
unvisited child valued at its parent's mean for the chooser, terminal
positions scored by the game's own result), with trees of Python nodes that
hold cloned states (made when a node is first visited). A batch evaluator reads the pending leaves from
``forest.leaf_states``. :func:`make_forest` picks the numba forest for the
m,n,k family and this one for every other game.

**Turns need not alternate.** Under a tournament opening rule one player
may act several times in a row (Swap2's first three stones, a run of
fifth-move offers, the 4th stone and then the declaration), so every node
records its ``mover``, the player who took the move into it (at the root: the
opponent of the player to move there). A value is backed up with its sign
for each node's mover, the first-play urgency of a node's unvisited children
is the node's value for its own player to move, and a proof is turned into a
node's outcome for its mover. When turns alternate this is the plain rule
(negate at every ply), visit for visit the numba forest's.

With ``threats=True`` a new leaf is checked before it is evaluated, through
``clone``/``play`` alone: a move that wins at once proves it (its one child),
and a move after which the opponent wins at once is a proven loss (a child
the search never picks while another is left), so the blocks are all that
stay open; the proofs are backed up as in the numba forest (MCTS-Solver). The
continuous-four search is an m,n,k notion: ``vcf_nodes`` is unused here, except
for an m,n,k game under an opening rule
(:class:`~boardgame_envs.games.opening_game.OpeningRuleGame`): no threat exists
during its opening (it lays at most three stones of a colour and needs
``win_length >= 4``), so its leaves are not checked there, and once normal
play begins a leaf is checked by the numba forest's own
:func:`~boardgame_envs.policies.threats.leaf_threats` on the base game's
position (``state.base``: its point actions are the opening game's), with
``vcf_nodes`` for the continuous-four search.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from boardgame_envs.games.protocol import as_family, outcome_for
from boardgame_envs.policies.kernels import rules_of
from boardgame_envs.policies.puct import (
    DRAWN,
    LOST,
    OPEN,
    WON,
    LockstepSearch,
    PUCTForest,
    check_threats,
)
from boardgame_envs.policies.threats import (
    CANNOT_BLOCK,
    MUST_BLOCK,
    WIN_BY_FOURS,
    WIN_NOW,
    leaf_threats,
)


class _Node:
    """A position of a tree. Its children's moves and priors are lists (``actions`` ascending); a child's
    node is made only when the search first enters it (``children``), since most are never visited."""

    __slots__ = ("action", "actions", "children", "index", "mover", "next", "order", "outcome", "priors", "state",
                 "value_sum", "visits")  # fmt: skip

    def __init__(self, state: Any, action: int, index: int, outcome: int, mover: int) -> None:
        self.state = state  # the position after the move into this node; None until the node is first visited
        self.action = action  # the move into this node (-1 at a root)
        self.index = index  # its place among its parent's actions
        self.mover = mover  # the player who took it (at a root: the opponent of the player to move)
        self.visits = 0.0
        self.value_sum = 0.0  # from the view of the mover
        self.outcome = outcome  # OPEN, or proven (WON, LOST, DRAWN) for the mover
        self.actions: list[int] | None = None  # the children's moves, once expanded
        self.priors: list[float] = []
        self.children: dict[int, _Node] = {}  # by move: the children made so far
        self.order: list[int] = []  # indices of the children by prior, highest first (ties: lower move first)
        self.next = 0  # where in ``order`` the first child not yet made may be

    def expand(self, actions: list[int], priors: np.ndarray) -> None:
        self.actions = actions
        self.set_priors(priors)

    def set_priors(self, priors: np.ndarray) -> None:
        self.priors = priors.tolist()
        self.order = np.argsort(-priors, kind="stable").tolist()  # stable: equal priors keep the moves' order
        self.next = 0

    def child(self, i: int, outcome: int = OPEN, state: Any = None) -> _Node:
        """The node of child ``i`` (of ``actions``), made now if it is not yet."""
        action = self.actions[i]
        node = self.children.get(action)
        if node is None:
            node = self.children[action] = _Node(state, action, i, outcome, self.state.to_move)
        return node


FLIPPED = {OPEN: OPEN, WON: LOST, LOST: WON, DRAWN: DRAWN}
SCORE = {WON: 1.0, LOST: -1.0, DRAWN: 0.0}  # a proven outcome as a value for the player it is proven for


def _outcome_for(node: _Node, outcome: int, player: int) -> int:
    """``outcome`` proven for ``player``, as ``node``'s outcome (which is for its mover)."""
    return outcome if node.mover == player else FLIPPED[outcome]


class ProtocolForest(LockstepSearch):
    """One PUCT tree per game over protocol states, searched in lockstep with batched leaf evaluation."""

    def __init__(self, batch: int, game: Any, capacity: int = 0, c_puct: float = 1.5, threats: bool = False,
                 vcf_nodes: int = 0) -> None:  # fmt: skip
        if batch < 1:
            raise ValueError(f"need batch >= 1, got {batch}")
        self.threats, self.vcf_nodes = check_threats(threats, vcf_nodes)
        self.game = game
        self.c_puct = float(c_puct)
        # An m,n,k game under an opening rule: its normal play's leaves get the numba threat check.
        base = getattr(game, "base", None) if as_family(game, "opening_rule") is not None else None
        self._base_rules = rules_of(base.new_state()) if as_family(base, "mnk") is not None else None
        self._blocks = np.zeros(game.num_actions, dtype=np.int64)  # scratch of that check
        self.roots: list[_Node | None] = [None] * batch
        self.leaf_states: list[Any] = [None] * batch  # the positions awaiting an evaluation
        self._paths: list[list[_Node]] = [[] for _ in range(batch)]
        # Per pending leaf with threats: each legal move's position and outcome, found by the threat check.
        self._moves: list[dict[int, tuple[Any, int]] | None] = [None] * batch
        self.pending = np.zeros(batch, dtype=np.bool_)
        self.active = np.ones(batch, dtype=np.bool_)  # the trees select() walks
        self.root_move = np.full(batch, -1, dtype=np.int64)  # a root child chosen by the caller, -1: PUCT's

    @property
    def batch(self) -> int:
        return len(self.roots)

    def set_root(self, b: int, state: Any) -> None:
        """Start tree ``b`` afresh at (a clone of) ``state``."""
        if state.terminal:
            raise ValueError("the game is over: there is nothing to search")
        if state.game != self.game:
            raise ValueError(f"state of {state.game} in a forest of {self.game}")
        self.roots[b] = _Node(state.clone(), -1, -1, OPEN, 3 - state.to_move)

    def set_roots(self, states: list[Any]) -> None:
        for b, state in enumerate(states):
            self.set_root(b, state)

    def select(self) -> np.ndarray:
        """Walk each tree to a leaf; the trees whose leaf needs an evaluation (terminal leaves back up at once)."""
        self.pending[:] = False
        for b, root in enumerate(self.roots):
            if not self.active[b]:
                continue
            node, path = root, [root]
            while node.actions is not None and node.outcome == OPEN:
                forced = self.root_move[b] if node is root else -1
                if forced >= 0:
                    parent, node = node, node.child(node.actions.index(int(forced)))
                else:
                    parent, node = node, self._child(node)
                if node.state is None:  # positions are made when first visited: most children never are
                    node.state = parent.state.clone()
                    node.state.play(node.action)
                path.append(node)
            if self.threats:
                if node.outcome == OPEN and node.state.terminal:
                    node.outcome = _terminal_outcome(node.state, node.mover)
                if node.outcome == OPEN and node.actions is None:
                    self._check_threats(b, path)
                if node.outcome != OPEN:
                    self._settle(path[:-1])
                    self._backup(path, SCORE[node.outcome], node.mover)
                    continue
            elif node.state.terminal:
                self._backup(path, SCORE[_terminal_outcome(node.state, node.mover)], node.mover)
                continue
            self._paths[b] = path
            self.leaf_states[b] = node.state
            self.pending[b] = True
        return np.flatnonzero(self.pending)

    def _check_threats(self, b: int, path: list[_Node]) -> None:
        """Prove the new leaf ``path[-1]`` by a win at once or mark the moves that lose at once (see the module)."""
        leaf = path[-1]
        state, me = leaf.state, leaf.state.to_move
        if self._base_rules is not None:
            if not state.in_opening:  # during the opening no threat exists
                self._check_base_threats(b, path)
            return
        moves: dict[int, tuple[Any, int]] = {}
        for action in state.legal_actions().tolist():
            after = state.clone()
            after.play(action)
            if after.terminal:
                if outcome_for(after, me) > 0:
                    leaf.expand([action], np.ones(1))
                    leaf.child(0, WON, after)
                    leaf.outcome = _outcome_for(leaf, WON, me)
                    return
                moves[action] = (after, _terminal_outcome(after, me))
            else:
                wins = _wins_at_once(after)  # for the player to move there, who loses for me if it is the other
                moves[action] = (after, OPEN if not wins else LOST if after.to_move != me else WON)
        if len(path) > 1 and all(outcome == LOST for _, outcome in moves.values()):
            # every move lets the opponent win; the root still needs children to choose from
            leaf.outcome = _outcome_for(leaf, LOST, me)
        else:
            self._moves[b] = moves

    def _check_base_threats(self, b: int, path: list[_Node]) -> None:
        """The numba forest's threat check of a new leaf (:func:`leaf_threats`) on an opening-rule state in
        normal play: a win (at once or by fours) is the leaf's one child, a lost position is proven (but at
        the root), and a four to stop leaves only its blocks as children."""
        leaf = path[-1]
        state, me = leaf.state, leaf.state.to_move
        base = state.base
        status, move, count = leaf_threats(base.board.copy(), self._base_rules, base.to_move, base.legal_mask(),
                                           self.vcf_nodes, self._blocks)  # fmt: skip
        if status in (WIN_NOW, WIN_BY_FOURS):
            leaf.expand([int(move)], np.ones(1))
            leaf.child(0, WON)
            leaf.outcome = _outcome_for(leaf, WON, me)
        elif status == CANNOT_BLOCK and len(path) > 1:
            leaf.outcome = _outcome_for(leaf, LOST, me)
        elif status == MUST_BLOCK or (status == CANNOT_BLOCK and count > 0):
            self._moves[b] = {int(a): (None, OPEN) for a in self._blocks[:count]}

    def _child(self, node: _Node) -> _Node:
        """The child PUCT enters: the best score, ties to the lower move; of the children not made yet (all
        unvisited, none proven) only the one of the highest prior can be the best, so only it is scored."""
        sqrt_n = math.sqrt(max(node.visits, 1.0))
        fpu = 0.0  # an unvisited child starts at the node's mean value for the chooser
        if node.visits > 0:
            fpu = node.value_sum / node.visits * (1.0 if node.mover == node.state.to_move else -1.0)
        priors, c_puct = node.priors, self.c_puct
        best, best_score, best_action = -1, -math.inf, -1
        for child in node.children.values():
            if child.outcome == LOST:
                continue  # a proven loss; an open node always has a child that is not one
            q = child.value_sum / child.visits if child.visits > 0 else fpu
            score = q + c_puct * priors[child.index] * sqrt_n / (1.0 + child.visits)
            if score > best_score or (score == best_score and child.action < best_action):
                best, best_score, best_action = child.index, score, child.action
        order, actions, made = node.order, node.actions, node.children
        while node.next < len(order) and actions[order[node.next]] in made:
            node.next += 1
        if node.next < len(order):
            i = order[node.next]
            score = fpu + c_puct * priors[i] * sqrt_n / (1.0 + 0.0)
            if score > best_score or (score == best_score and actions[i] < best_action):
                best = i
        return node.child(best)

    @staticmethod
    def _settle(path: list[_Node]) -> None:
        """MCTS-Solver up ``path`` (root first): prove each node from its children, deepest first,
        until one stays open. The children's outcomes are for the player to move at the node."""
        for node in reversed(path):
            if node.outcome != OPEN or node.actions is None:
                return
            outcomes = [child.outcome for child in node.children.values()]
            if len(node.children) < len(node.actions):
                outcomes.append(OPEN)  # a child not made yet is open
            if WON in outcomes:
                proven = WON
            elif OPEN in outcomes:
                return
            else:
                proven = DRAWN if DRAWN in outcomes else LOST
            node.outcome = _outcome_for(node, proven, node.state.to_move)

    @staticmethod
    def _backup(path: list[_Node], value: float, player: int) -> None:
        """Add ``value`` (for ``player``) up ``path``: to each node with the sign for its mover."""
        for node in reversed(path):
            node.visits += 1.0
            node.value_sum += value if node.mover == player else -value

    def expand(self, priors: np.ndarray, values: np.ndarray) -> None:
        """Expand the pending leaves with ``priors`` (batch, num_actions) and ``values`` (batch,)."""
        for b in np.flatnonzero(self.pending):
            path = self._paths[b]
            leaf = path[-1]
            moves = self._moves[b]  # with threats: the moves left open (all legal ones, or the blocks)
            legal = np.flatnonzero(leaf.state.legal_mask()) if moves is None else np.array(sorted(moves))
            p = np.maximum(priors[b, legal], 0.0)
            total = p.sum()
            p = p / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
            me = leaf.state.to_move
            leaf.expand(legal.tolist(), p)
            if moves is not None:  # the threat check's positions and outcomes: children made at once
                for i, action in enumerate(leaf.actions):
                    child, outcome = moves[action]
                    if child is not None or outcome != OPEN:
                        leaf.child(i, outcome, child)
            self._moves[b] = None
            if self.threats:
                self._settle(path)
            self._backup(path, float(values[b]), me)
        self.pending[:] = False

    def add_root_noise(self, rng: np.random.Generator, alpha: float, fraction: float,
                       roots: np.ndarray | None = None) -> None:  # fmt: skip
        """Mix ``Dirichlet(alpha)`` noise into the priors of every expanded root (of those in the mask ``roots``)."""
        for b, root in enumerate(self.roots):
            if root.actions and (roots is None or roots[b]):
                noise = rng.dirichlet(np.full(len(root.actions), alpha))
                root.set_priors((1 - fraction) * np.array(root.priors) + fraction * noise)

    def root_children(self, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        root = self.roots[b]
        actions = root.actions or []
        visits, value_sums = np.zeros(len(actions)), np.zeros(len(actions))
        outcomes = np.full(len(actions), OPEN, dtype=np.int64)
        for child in root.children.values():
            visits[child.index], value_sums[child.index], outcomes[child.index] = (child.visits, child.value_sum,
                                                                                   child.outcome)  # fmt: skip
        return np.array(actions, dtype=np.int64), visits, value_sums, np.array(root.priors), outcomes

    def root_outcome(self, b: int) -> int:
        return self.roots[b].outcome

    def root_mean_value(self, b: int) -> float:
        root = self.roots[b]  # its mover is the opponent of its player to move
        return -root.value_sum / root.visits if root.visits > 0 else 0.0

    def leaf_state(self, b: int) -> Any:
        """The pending leaf of tree ``b`` (for per-position evaluators)."""
        return self.leaf_states[b]


def _terminal_outcome(state: Any, player: int) -> int:
    """A finished game's result for ``player``, by its returns (the player who ends a game may lose it)."""
    result = outcome_for(state, player)
    return WON if result > 0 else LOST if result < 0 else DRAWN


def _wins_at_once(state: Any) -> bool:
    """Whether the player to move at ``state`` has a move that wins the game."""
    me = state.to_move
    for action in state.legal_actions().tolist():
        after = state.clone()
        after.play(action)
        if after.terminal and outcome_for(after, me) > 0:
            return True
    return False


def make_forest(batch: int, game: Any, capacity: int, c_puct: float = 1.5, threats: bool = False,
                vcf_nodes: int = 0) -> Any:  # fmt: skip
    """The PUCT forest for ``game``: the numba one for the m,n,k family, :class:`ProtocolForest` otherwise."""
    if as_family(game, "mnk") is not None:
        return PUCTForest(batch, game, capacity, c_puct, threats, vcf_nodes)
    return ProtocolForest(batch, game, capacity, c_puct, threats, vcf_nodes)
