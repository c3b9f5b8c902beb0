"""The conformance kit's checks of a game's rules, as plain functions: each raises ``AssertionError`` naming what broke.

The kit's test files run them over the catalog's games (tests/conformance/cases.py);
:func:`run_rule_checks` runs them all on one game object and says which failed,
which is how ``test_mutants.py`` holds the kit itself to catching broken rules
(a winner inverted, an extra turn missing, a clone that shares a list), and how
an author checks a game before it has a catalog entry. A check knows the
protocol alone, never a particular game; what only the author knows (who wins
this position, what is legal there, what it is worth) comes from the author's
known positions (tests/conformance/known_positions.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boardgame_envs.games.protocol import FIRST, IllegalMoveError, State, cell_symmetries, check_action
from conformance.exact import ExactValues, TooBig
from conformance.known_positions import Known
from conformance.state_check import assert_unchanged, differences, snapshot

NOT_ACTIONS = [-1, 10**6, True, 1.5, None, "3"]
# The protocol's own searches, each with a small budget: the kit hands each of them positions and checks that
# the state comes back as it was handed (a search that plays on the state itself, or on a clone that shares
# a field with it, shows here).
SEARCHES = ("random", "greedy", "mcts:simulations=60", "uct:playouts=60", "alphabeta:nodes=300")


def random_game(game: Any, seed: int) -> list[Any]:
    """The states of one uniformly random game, the start and the end included."""
    rng = np.random.default_rng(seed)
    state, states = game.new_state(), []
    while True:
        states.append(state.clone())
        if state.terminal:
            return states
        state.play(int(rng.choice(state.legal_actions())))


def sample(states: Sequence[Any]) -> list[Any]:
    """The start, the middle and the last live position of a game (its end, if it ended at once)."""
    live = [s for s in states if not s.terminal] or list(states)
    return [live[0], live[len(live) // 2], live[-1]]


def check_symmetries(game: Any, seeds: Sequence[int] = (0, 1)) -> None:
    """Symmetries map legal masks to legal masks and planes to planes, the identity first, along random games."""
    actions, cells = list(game.symmetries()), list(cell_symmetries(game))
    assert len(actions) == len(cells) >= 1, "symmetries() and cell_symmetries() must list the same symmetries"
    np.testing.assert_array_equal(actions[0], np.arange(game.num_actions), "the identity comes first")
    for perm in actions:
        assert sorted(perm.tolist()) == list(range(game.num_actions)), "a symmetry is a permutation of the actions"
    rng = np.random.default_rng(0)
    for _ in seeds:
        images = [game.new_state() for _ in actions]
        state = game.new_state()
        while not state.terminal:
            action = int(rng.choice(state.legal_actions()))
            state.play(action)
            for image, perm in zip(images, actions):
                image.play(int(perm[action]))  # the same game, seen through the symmetry
            mask, planes = state.legal_mask(), state.planes(state.to_move).reshape(-1, game.num_planes)
            for image, perm, cperm in zip(images, actions, cells):
                moved = np.zeros_like(mask)
                moved[perm] = mask
                np.testing.assert_array_equal(image.legal_mask(), moved)
                moved_planes = np.zeros_like(planes)
                moved_planes[cperm] = planes
                np.testing.assert_array_equal(image.planes(state.to_move).reshape(-1, game.num_planes), moved_planes)
                assert (image.terminal, image.winner, image.to_move) == (state.terminal, state.winner, state.to_move)


def check_illegal_moves(game: Any, seed: int = 3) -> None:
    """An illegal move (or no action at all) raises ``IllegalMoveError`` with ``illegal_reason``'s one line and
    changes no field of the state; a legal one has no reason."""
    for state in sample(random_game(game, seed)) + [random_game(game, seed)[-1]]:
        assert isinstance(state, State)
        before = snapshot(state, warm=True)
        illegal = [int(a) for a in np.flatnonzero(~state.legal_mask())] + NOT_ACTIONS
        for action in illegal:
            reason = state.illegal_reason(action)
            assert isinstance(reason, str) and reason and "\n" not in reason, (action, reason)
            try:
                state.play(action)
            except IllegalMoveError as exc:
                assert str(exc) == reason, (action, str(exc), reason)
            else:
                raise AssertionError(f"play({action!r}) is illegal ({reason}) but raised nothing")
            assert_unchanged(before, state, f"the illegal move {action!r}")
        for action in map(int, state.legal_actions()):
            assert state.illegal_reason(action) is None, (action, state.illegal_reason(action))
    for action in NOT_ACTIONS:
        assert check_action(game, action) is not None


def check_outcomes(game: Any, seeds: Sequence[int] = range(4)) -> None:
    """A finished game has no legal move, zero-sum returns in [-1, 1], and ``winner`` is the player they favour."""
    for seed in seeds:
        end = random_game(game, seed)[-1]
        assert end.terminal and not end.legal_mask().any() and len(end.legal_actions()) == 0
        first, second = (float(r) for r in end.returns())
        assert first == -second and -1.0 <= first <= 1.0, f"returns {end.returns()} are not zero-sum in [-1, 1]"
        assert first == 0.0 or abs(first) >= 0.01, f"a return that is not 0 is at least 0.01 in size: {first}"
        favoured = 1 if first > 0 else 2 if first < 0 else 0
        assert end.winner == favoured, f"winner {end.winner}, but the returns {end.returns()} favour {favoured}"


def check_clones_are_their_own(game: Any, seeds: Sequence[int] = (0, 1, 2)) -> None:
    """A clone holds the same values in every field, and playing on it (to the end) changes no field of the state
    it came from, nor playing on that state any field of the clone: no list, array or dict is shared."""
    for seed in seeds:
        for state in sample(random_game(game, seed)):
            before = snapshot(state, warm=True)
            clone = state.clone()
            same = differences(before, snapshot(clone, warm=True))
            assert not same, f"clone() differs from its state: {'; '.join(same)}"
            play_out(clone, seed)
            assert_unchanged(before, state, "playing on its clone")
            original, clone = state.clone(), state.clone()
            before = snapshot(clone, warm=True)
            play_out(original, seed)
            assert_unchanged(before, clone, "playing on the state it was cloned from")


def play_out(state: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    while not state.terminal:
        state.play(int(rng.choice(state.legal_actions())))


def check_policy_game(policy: Any, game: Any, seat: int = FIRST, seed: int = 0,
                      on_error: Callable[[Exception, int], bool] | None = None) -> int:  # fmt: skip
    """``policy`` plays ``seat`` (every move whose ``to_move`` is ``seat``: extra turns too) against random moves to
    the end; each of its moves is legal and leaves every field of the handed state as it was. Returns its move
    count. ``on_error(exc, moves)``: a failure of ``act`` it accepts (returns True: the game stops there)."""
    state, rng, moves = game.new_state(), np.random.default_rng(seed), 0
    while not state.terminal:
        if state.to_move == seat:
            before = snapshot(state, warm=True)
            try:
                action = policy.act(state)
            except Exception as exc:  # noqa: BLE001 (the caller says which failures are a refusal)
                if on_error is not None and on_error(exc, moves):
                    return moves
                raise
            assert_unchanged(before, state, f"{getattr(policy, 'name', policy)}.act")
            reason = state.illegal_reason(action)
            assert reason is None, f"{getattr(policy, 'name', policy)} chose {action!r}: {reason}"
            moves += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        state.play(int(action))
    return moves


def check_searches_leave_the_state_alone(game: Any, specs: Sequence[str] = SEARCHES, seed: int = 5) -> None:
    """Each search, handed positions of a random game, returns a legal move and leaves every field as it was."""
    from boardgame_envs.policies import make_policy

    for state in sample(random_game(game, seed)):
        for spec in specs:
            before = snapshot(state, warm=True)
            action = make_policy(spec, seed=0).act(state)
            assert_unchanged(before, state, f"{spec}.act")
            assert state.illegal_reason(action) is None, (spec, action)


def known_state(game: Any, known: Known) -> Any:
    """The position ``known.moves`` reaches from the start (each move read by ``parse_action`` and played)."""
    state = game.new_state()
    for i, name in enumerate(known.moves.split(), 1):
        try:
            state.play(game.parse_action(name))
        except ValueError as exc:
            raise AssertionError(f"known position {known.moves!r}: move {i} ({name}) cannot be played: {exc}") from None
    return state


def check_known_position(game: Any, known: Known, exact: ExactValues | None = None) -> None:
    """The author's known position: who is to move, what is legal, how a finished game came out, what it is
    worth with best play (the kit's exact minimax, and the package's alpha-beta, must both say so)."""
    state = known_state(game, known)
    where = f"after {known.moves or 'no move'!r}" + (f" ({known.note})" if known.note else "")
    if known.outcome is not None:
        assert state.terminal, f"{where}: the game should be over, but it goes on"
        assert tuple(map(float, state.returns())) == tuple(known.outcome), f"{where}: returns {state.returns()}, " \
                                                                         f"not {known.outcome}"  # fmt: skip
        return
    assert not state.terminal, f"{where}: the game ended ({state.returns()}), but it should go on"
    if known.to_move is not None:
        assert state.to_move == known.to_move, f"{where}: player {state.to_move} is to move, not {known.to_move}"
    names = {game.action_name(int(a)) for a in state.legal_actions()}
    if known.legal is not None:
        assert names == set(known.legal.split()), f"{where}: legal {sorted(names)}, not {sorted(known.legal.split())}"
    for name in known.illegal.split():
        assert name not in names, f"{where}: {name} should be illegal"
    if known.value is not None:
        exact = exact or ExactValues()
        try:
            value = exact.value(state)
        except TooBig:
            raise AssertionError(f"{where}: too big to solve exactly; give a value only where few moves are left") from None
        assert value == known.value, f"{where}: worth {value} to the player to move, not {known.value}"
        _check_alphabeta_value(state, known.value, where)


def _check_alphabeta_value(state: Any, value: float, where: str) -> None:
    from boardgame_envs.policies import make_policy
    from boardgame_envs.policies.generic import WIN_SCORE

    scores = make_policy("alphabeta:nodes=none", seed=0).move_scores(state)
    found = round(float(scores.max()) / WIN_SCORE, 2)
    assert found == value, f"{where}: alpha-beta finds {found}, the position is worth {value}"


def check_known_positions(game: Any, known: Sequence[Known]) -> None:
    exact = ExactValues()
    for position in known:
        check_known_position(game, position, exact)


RULE_CHECKS: dict[str, Callable[..., None]] = {
    "symmetries": check_symmetries,
    "illegal moves": check_illegal_moves,
    "outcomes": check_outcomes,
    "clones": check_clones_are_their_own,
    "searches leave the state alone": check_searches_leave_the_state_alone,
    "known positions": check_known_positions,
}


def run_rule_checks(game: Any, known: Sequence[Known]) -> dict[str, str | None]:
    """Every check on ``game`` (its known positions given): the failure of each, or None where it passed."""
    out: dict[str, str | None] = {}
    for name, check in RULE_CHECKS.items():
        try:
            check(game, known) if name == "known positions" else check(game)
        except AssertionError as exc:
            out[name] = str(exc) or "failed"
        else:
            out[name] = None
    return out
