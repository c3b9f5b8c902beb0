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

from boardgame_envs.games.protocol import FIRST, IllegalMoveError, State, cell_symmetries, check_action, other_actions
from conformance.exact import ExactValues, TooBig
from conformance.known_positions import Known
from conformance.state_check import assert_unchanged, differences, snapshot

NOT_ACTIONS = [-1, 10**6, True, 1.5, None, "3"]
# The protocol's own searches, each with a small budget: the kit hands each of them positions and checks that
# the state comes back as it was handed (a search that plays on the state itself, or on a clone that shares
# a field with it, shows here).
SEARCHES = ("random", "greedy", "mcts:simulations=60", "uct:playouts=60", "alphabeta:nodes=300")
# A game that random play has not ended after this many plies is taken for one that never ends (a rule that ends
# it, or a pass, missing), and fails in one line instead of looping until the kit's time limit stops it.
MAX_PLIES = 10_000


def endless(game: Any) -> AssertionError:
    return AssertionError(f"{game.name}: a game went on past {MAX_PLIES} plies of random moves without ending; a "
                          "rule that ends it (two passes running, a full board) is missing")  # fmt: skip


def random_game(game: Any, seed: int) -> list[Any]:
    """The states of one uniformly random game, the start and the end included."""
    rng = np.random.default_rng(seed)
    state, states = game.new_state(), []
    for _ in range(MAX_PLIES + 1):
        states.append(state.clone())
        if state.terminal:
            return states
        state.play(int(rng.choice(state.legal_actions())))
    raise endless(game)


def sample(states: Sequence[Any]) -> list[Any]:
    """The start, the middle and the last live position of a game (its end, if it ended at once)."""
    live = [s for s in states if not s.terminal] or list(states)
    return [live[0], live[len(live) // 2], live[-1]]


def check_symmetries(game: Any, seeds: Sequence[int] = (0, 1)) -> None:
    """Each declared symmetry keeps the start position, the identity first, and maps legal masks to legal masks
    and planes to planes along random games; a failure names the symmetry, in one line."""
    actions, cells = list(game.symmetries()), list(cell_symmetries(game))
    assert len(actions) == len(cells) >= 1, "symmetries() and cell_symmetries() must list the same symmetries"
    assert np.array_equal(actions[0], np.arange(game.num_actions)), "symmetries(): the identity comes first"
    for perm in actions:
        assert sorted(perm.tolist()) == list(range(game.num_actions)), "a symmetry is a permutation of the actions"
    count = len(actions)

    def named(i: int) -> str:  # a symmetry by its number and an action it moves
        moved = [a for a in range(game.num_actions) if actions[i][a] != a]
        shown = f": it takes {game.action_name(moved[0])} to {game.action_name(int(actions[i][moved[0]]))}" if moved else ""
        return f"symmetry {i} of {count}{shown}"

    start = game.new_state()
    for i in range(count):
        if _seen_through(start, actions[i], cells[i], start) is not None:
            raise AssertionError(f"{game.name}: {named(i)}, which does not keep the start position (its legal moves "
                                 "or planes move); declare only the symmetries that map the start onto itself "
                                 "(docs/games.md, Symmetries)")  # fmt: skip
    rng = np.random.default_rng(0)
    for _ in seeds:
        images = [game.new_state() for _ in actions]
        state, moves = game.new_state(), []
        while not state.terminal:
            if len(moves) > MAX_PLIES:
                raise endless(game)
            action = int(rng.choice(state.legal_actions()))
            state.play(action)
            moves.append(game.action_name(action))
            for i, (image, perm) in enumerate(zip(images, actions)):
                try:
                    image.play(int(perm[action]))  # the same game, seen through the symmetry
                except IllegalMoveError as exc:
                    raise AssertionError(f"{game.name}: {named(i)}; after {' '.join(moves[:-1]) or 'no move'!r} "
                                         f"{moves[-1]} is legal, its image is not: {exc}") from None  # fmt: skip
                why = _seen_through(state, perm, cells[i], image)
                if why is not None:
                    raise AssertionError(f"{game.name}: {named(i)}; after {' '.join(moves)!r} {why}")


def _seen_through(state: Any, perm: np.ndarray, cell_perm: np.ndarray, image: Any) -> str | None:
    """How ``image`` differs from ``state`` seen through a symmetry (in words), or None where it does not."""
    mask, planes = state.legal_mask(), state.planes(state.to_move).reshape(-1, state.game.num_planes)
    moved = np.zeros_like(mask)
    moved[perm] = mask
    if not np.array_equal(image.legal_mask(), moved):
        return "the image's legal moves are not the legal moves' images"
    moved_planes = np.zeros_like(planes)
    moved_planes[cell_perm] = planes
    if not np.array_equal(image.planes(state.to_move).reshape(-1, state.game.num_planes), moved_planes):
        return "the image's planes are not the planes' images"
    if (image.terminal, image.winner, image.to_move) != (state.terminal, state.winner, state.to_move):
        return "the image's player to move or outcome differs"
    return None


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
    for _ in range(MAX_PLIES):
        if state.terminal:
            return
        state.play(int(rng.choice(state.legal_actions())))
    raise endless(state.game)


def check_policy_game(policy: Any, game: Any, seat: int = FIRST, seed: int = 0,
                      on_error: Callable[[Exception, int], bool] | None = None) -> int:  # fmt: skip
    """``policy`` plays ``seat`` (every move whose ``to_move`` is ``seat``: extra turns too) against random moves to
    the end; each of its moves is legal and leaves every field of the handed state as it was. Returns its move
    count. ``on_error(exc, moves)``: a failure of ``act`` it accepts (returns True: the game stops there)."""
    state, rng, moves = game.new_state(), np.random.default_rng(seed), 0
    while not state.terminal:
        if state.num_moves > MAX_PLIES:
            raise endless(game)
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
    on = "".join(f", {key}={value}" for key, value in known.parameters.items())  # the variant it is played on
    where = f"{game.name}{on}, after {known.moves or 'no move'!r}" + (f" ({known.note})" if known.note else "")
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


def missing_known(game: Any, known: Sequence[Known], always_legal: Sequence[str] = ()) -> str | None:
    """What the kit asks of a game's known positions that ``known`` does not give, in one line, or None.

    Every game: a finished game with its outcome, and a position with its player
    to move or its legal moves. Each action that is no cell (a pass, a swap):
    a position where it is forced (``legal="pass"``, the only legal move) and
    one where it is illegal (``illegal="pass"``, or a ``legal`` list without
    it), unless the author declares it legal in every position that goes on
    (``always_legal``, which :func:`check_always_legal` holds them to).
    """
    where = "tests/conformance/known_positions.py"
    if not known:
        return f"{game.name} has no known positions: write some in {where}"
    if not any(k.outcome is not None for k in known):
        return f"{game.name}: give a finished game and its outcome in {where}"
    if not any(k.to_move is not None or k.legal is not None for k in known):
        return f"{game.name}: give a position with its player to move or its legal moves in {where}"
    for action in other_actions(game):
        name = game.action_name(action)
        if name in always_legal:
            continue
        forced = any(k.legal is not None and k.legal.split() == [name] for k in known)
        illegal = any(name in k.illegal.split() or (k.legal is not None and name not in k.legal.split()) for k in known)
        missing = [f"forced (legal={name!r})" * (not forced), f"illegal (illegal={name!r})" * (not illegal)]
        missing = [m for m in missing if m]
        if missing:
            return (f"{game.name}: {name} is an action that is no cell: give a known position where it is "
                    f"{' and one where it is '.join(missing)} in {where} (a forgotten or silent {name} shows only "
                    "there)")  # fmt: skip
    return None


def check_always_legal(game: Any, names: Sequence[str], seeds: Sequence[int] = (0, 1)) -> None:
    """The author's claim that each of ``names`` (actions that are no cell) is legal wherever the game goes on."""
    actions = {name: game.parse_action(name) for name in names}
    for seed in seeds if actions else ():
        for state in random_game(game, seed)[:-1]:
            for name, action in actions.items():
                if not state.legal_mask()[action]:
                    raise AssertionError(f"{game.name}: {name} is declared legal in every position that goes on, "
                                         f"but is not after {state.num_moves} moves: {state.illegal_reason(action)}")  # fmt: skip


def check_known_positions(game: Any, known: Sequence[Known], always_legal: Sequence[str] = (),
                          variant: Callable[..., Any] | None = None) -> None:  # fmt: skip
    """Every known position, after :func:`missing_known` (what the kit asks for) and :func:`check_always_legal`.

    ``variant(**parameters)``: the game a position with ``parameters`` is played on (default: ``game``'s class
    built with them, a subclass included: how a mutant is played on a small board)."""
    why = missing_known(game, known, always_legal)
    if why is not None:
        raise AssertionError(why)
    check_always_legal(game, always_legal)
    build = variant or (lambda **parameters: type(game)(**parameters))
    exact = ExactValues()
    for position in known:
        check_known_position(build(**position.parameters) if position.parameters else game, position, exact)


RULE_CHECKS: dict[str, Callable[..., None]] = {
    "symmetries": check_symmetries,
    "illegal moves": check_illegal_moves,
    "outcomes": check_outcomes,
    "clones": check_clones_are_their_own,
    "searches leave the state alone": check_searches_leave_the_state_alone,
    "known positions": check_known_positions,
}


def run_rule_checks(game: Any, known: Sequence[Known], always_legal: Sequence[str] = ()) -> dict[str, str | None]:
    """Every check on ``game`` (its known positions given): the failure of each, or None where it passed."""
    out: dict[str, str | None] = {}
    for name, check in RULE_CHECKS.items():
        try:
            check(game, known, always_legal) if name == "known positions" else check(game)
        except AssertionError as exc:
            out[name] = str(exc) or "failed"
        else:
            out[name] = None
    return out
