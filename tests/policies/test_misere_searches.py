"""Every built-in search on a game where the player who ends it loses: scored by the rules, not by the last mover.

"Avoid three" (tests/games/misere_game.py: three in a row LOSES) is solved here
by a plain memoised negamax over the protocol; then, in every decided position
reachable from the start (one of each set of symmetric ones), alpha-beta's proven values must equal the exact ones,
greedy must take an immediate win and never make (or allow at once) a loss it
can avoid, and MCTS / UCT must never prove a value that is wrong nor choose a
proven-losing move where a better one exists.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.games.protocol import outcome_for
from boardgame_envs.policies import make_policy
from boardgame_envs.policies.generic import LOSS, WIN, WIN_SCORE, greedy_scores, mcts
from games.misere_game import AvoidThreeGame, TwoStonesGame

class Oracle:
    """Exact values of every position of a small game, by memoised negamax over the protocol alone."""

    def __init__(self, game) -> None:
        self.game = game
        self._values: dict[tuple[bytes, int], int] = {}
        self.positions = self._positions()
        self.decided = [s for s in self.positions if self.exact(s) != 0]

    def exact(self, state) -> int:
        """The value (+1, 0, -1) of a live ``state`` for its player to move."""
        key = (state.board.tobytes(), state.to_move)
        if key not in self._values:
            self._values[key] = max(self.move_values(state).values())
        return self._values[key]

    def move_values(self, state) -> dict[int, int]:
        """The exact value of each legal move for the player to move (a child with the same player to move
        keeps its sign: turns need not alternate)."""
        me, out = state.to_move, {}
        for action in map(int, state.legal_actions()):
            child = state.clone()
            child.play(action)
            if child.terminal:
                out[action] = int(outcome_for(child, me))
            else:
                out[action] = self.exact(child) if child.to_move == me else -self.exact(child)
        return out

    def _positions(self):
        """Every live position reachable from the start, once each up to the board's symmetries (a mirrored
        or turned position has the mirrored or turned values: the searches are checked on one of them)."""
        perms = self.game.symmetries()
        seen, stack, out = set(), [self.game.new_state()], []
        while stack:
            state = stack.pop()
            images = []
            for perm in perms:
                image = np.empty_like(state.board)
                image[perm] = state.board
                images.append(image.tobytes())
            key = (min(images), state.to_move)
            if key in seen or state.terminal:
                continue
            seen.add(key)
            out.append(state)
            for action in map(int, state.legal_actions()):
                child = state.clone()
                child.play(action)
                stack.append(child)
        return out


GAME = AvoidThreeGame()
ORACLE = Oracle(GAME)
exact, move_values, POSITIONS, DECIDED = ORACLE.exact, ORACLE.move_values, ORACLE.positions, ORACLE.decided
TWO_STONES = Oracle(TwoStonesGame())


def test_the_game_punishes_the_player_who_ends_it():
    #   a b c
    # 1 X X *      X plays c1, completes the top row and so loses: O is the winner.
    # 2 O O .
    # 3 O . X
    state = GAME.new_state()
    for name in "a1 a2 b1 b2 c3 a3".split():
        state.play(GAME.parse_action(name))
    state.play(GAME.parse_action("c1"))
    assert state.terminal and state.winner == 2 and state.returns() == (-1.0, 1.0)
    assert len(POSITIONS) > 600 and len(DECIDED) > 400  # a real game, with decided positions (up to symmetry)
    assert exact(GAME.new_state()) == 0  # misère tic-tac-toe is a draw (X takes the centre, then mirrors)


def test_alphabeta_keeps_the_exact_value_in_every_decided_position():
    policy = make_policy("alphabeta:nodes=none", seed=0)
    wrong = []
    for state in DECIDED:
        scores = policy.move_scores(state)
        truth = move_values(state)
        for action, value in truth.items():
            proven = abs(scores[action]) >= WIN_SCORE - 100
            if proven and np.sign(scores[action]) != value:
                wrong.append((state.board.tolist(), action, value, scores[action]))
        if truth[int(np.argmax(scores))] != exact(state):
            wrong.append((state.board.tolist(), "best", exact(state)))
        # Full depth: the best move's score is proven, and proven for the exact value.
        assert abs(scores.max()) >= WIN_SCORE - 100 and np.sign(scores.max()) == exact(state)
    assert not wrong, wrong[:5]


def test_searches_keep_exact_values_when_a_player_moves_twice_in_a_row():
    game = TwoStonesGame()
    state = game.new_state()
    for name, to_move in (("b2", 2), ("a1", 2), ("a2", 1), ("c3", 1), ("c1", 2)):
        state.play(game.parse_action(name))
        assert state.to_move == to_move  # X once, then two stones each
    oracle = TWO_STONES
    assert len(oracle.decided) > 500
    policy = make_policy("alphabeta:nodes=none", seed=0)
    rng = np.random.default_rng(0)
    for state in oracle.decided:
        scores, truth = policy.move_scores(state), oracle.move_values(state)
        assert np.sign(scores.max()) == oracle.exact(state) and abs(scores.max()) >= WIN_SCORE - 100
        for action, value in truth.items():
            if abs(scores[action]) >= WIN_SCORE - 100:
                assert np.sign(scores[action]) == value, (state.board, action)
    for state in oracle.decided[::2]:
        _, proofs = mcts(state, 60, 1.4, rng)
        truth = oracle.move_values(state)
        for action, value in truth.items():
            assert proofs[action] in (0, value), (state.board, action, proofs[action], value)


def test_alphabeta_plays_value_keeping_moves():
    policy = make_policy("alphabeta:nodes=none", seed=1)
    for state in DECIDED[::7]:
        assert move_values(state)[policy.act(state)] == exact(state)


def _ends_in_my_loss(state, action) -> bool:
    child = state.clone()
    child.play(action)
    return child.terminal and outcome_for(child, state.to_move) < 0


def _gives_a_win_at_once(state, action) -> bool:
    child = state.clone()
    child.play(action)
    return not child.terminal and any(_wins_now(child, reply) for reply in map(int, child.legal_actions()))


def _wins_now(state, action) -> bool:
    child = state.clone()
    child.play(action)
    return child.terminal and outcome_for(child, state.to_move) > 0


def test_greedy_takes_wins_and_never_makes_an_avoidable_loss_at_once():
    policy = make_policy("greedy", seed=0)
    for state in DECIDED:
        legal = [int(a) for a in state.legal_actions()]
        move = policy.act(state)
        scores = greedy_scores(state)
        if any(_wins_now(state, a) for a in legal):
            assert _wins_now(state, move), state.board
        safe = [a for a in legal if not _ends_in_my_loss(state, a) and not _gives_a_win_at_once(state, a)]
        if safe:
            assert move in safe, (state.board, move, safe)
        for a in legal:
            if _ends_in_my_loss(state, a):
                assert scores[a] == -2.0  # a move that completes a line is a loss, not a win


@pytest.mark.parametrize("solver", [True, False])
def test_mcts_proofs_are_never_wrong(solver):
    rng = np.random.default_rng(0)
    for state in DECIDED[::3]:
        visits, proofs = mcts(state, 60, 1.4, rng, solver=solver)
        truth = move_values(state)
        for action, value in truth.items():
            if proofs[action] == WIN:
                assert value == 1, (state.board, action)
            elif proofs[action] == LOSS:
                assert value == -1, (state.board, action)


def test_mcts_never_chooses_a_proven_losing_move_where_a_better_one_exists():
    policy = make_policy("mcts:simulations=400", seed=0)
    for state in DECIDED:
        if len(state.legal_actions()) > 5:
            continue  # deep positions are not proven within the budget; their proofs are checked above
        truth = move_values(state)
        assert truth[policy.act(state)] == exact(state), state.board


def test_uct_picks_value_keeping_moves_near_the_end():
    policy = make_policy("uct:playouts=300", seed=0)
    for state in DECIDED:
        if len(state.legal_actions()) > 3:
            continue
        truth = move_values(state)
        assert truth[policy.act(state)] == exact(state), state.board


def uniform(forest, leaves):
    """An evaluator that knows nothing: uniform priors, value 0; what the search proves comes from the rules."""
    return np.full((len(leaves), GAME.num_actions), 1.0 / GAME.num_actions), np.zeros(len(leaves))


@pytest.mark.parametrize("threats", [True, False])
def test_puct_over_the_protocol_proves_only_exact_values_and_keeps_them(threats):
    from boardgame_envs.policies.puct import DRAWN, LOST, WON
    from boardgame_envs.policies.puct_protocol import ProtocolForest

    states = [s for s in DECIDED if len(s.legal_actions()) <= 4]
    forest = ProtocolForest(len(states), GAME, threats=threats)
    forest.set_roots(states)
    forest.search(200, uniform)
    as_value = {WON: 1, LOST: -1, DRAWN: 0}
    policy = forest.root_policy()  # what self-play and NetworkPolicy play from: a proven win at once
    for b, state in enumerate(states):
        truth = move_values(state)
        actions, visits, _, _, outcomes = forest.root_children(b)
        for action, outcome in zip(actions.tolist(), outcomes.tolist()):
            if outcome in as_value:  # proven for the player to move at the root
                assert as_value[outcome] == truth[action], (state.board, action, outcome)
        if forest.root_outcome(b) in as_value:  # the root's proof is for the player who moved into it
            assert -as_value[forest.root_outcome(b)] == exact(state), state.board
        chosen = int(np.argmax(policy[b]))
        assert truth[chosen] == exact(state), (state.board, chosen)
