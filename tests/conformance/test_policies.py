"""Every kind in the policy registry, on every game: it plays a legal game to the end, or refuses in one line.

Kinds are read from the registry, so a kind registered later is held to this too. Each gets a small budget
where it takes one (below), and a kind that needs a target gets one that exists (a ladder level, a shipped
network) or one that does not (an engine path, a checkpoint), whose refusal must be one line.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.cli import expected_error
from boardgame_envs.ladder.ladders import LADDERS, LadderError, ladder_for
from boardgame_envs.policies.registry import kinds, make_policy
from conformance.cases import DEFAULTS, TEST_GAMES, case_fixture

PLAYS_EVERY_GAME = {"random", "greedy", "mcts", "uct", "alphabeta"}  # the protocol's searches: no refusal allowed
CHEAP = {"mcts": "simulations=30", "uct": "playouts=30", "alphabeta": "nodes=200", "pretrained": "simulations=2"}


def target_for(kind: str, case) -> str:
    """A target for a kind that needs one: real where it is cheap to find, else one that cannot exist."""
    if kind == "level":
        try:
            return f"{ladder_for(case.entry).name}/1"
        except LadderError:
            return f"{next(iter(LADDERS))}/1"
    if kind == "pretrained":
        from boardgame_envs.alphazero.pretrained import PRETRAINED

        return next(iter(PRETRAINED))
    return "no-such-target.pt" if kind == "checkpoint" else "/no/such/target"


KINDS = list(kinds())


def one_line_refusal(exc: BaseException) -> bool:
    """A failure the command line prints as one line (bad input, an engine that cannot start), not a bug."""
    return expected_error(exc) is not None and "\n" not in str(exc) and bool(str(exc))


case = pytest.fixture(params=DEFAULTS + TEST_GAMES, ids=lambda case: case.id)(case_fixture)


@pytest.mark.parametrize("kind", KINDS)
def test_every_registry_policy_plays_a_legal_game_or_refuses_in_one_line(kind, case):
    info = kinds()[kind]
    spec = kind if not info.target else f"{kind}:{target_for(kind, case)}"
    if kind in CHEAP:
        spec += f":{CHEAP[kind]}"
    game = case.game()
    try:
        policy = make_policy(spec, seed=0)
        check = getattr(policy, "check_game", None)
        if callable(check):
            check(game)
    except Exception as exc:  # noqa: BLE001 (the test's point: what kind of error it is)
        assert kind not in PLAYS_EVERY_GAME and one_line_refusal(exc), f"{spec} on {case.id}: {type(exc).__name__}: {exc}"
        return
    state, rng, moves = game.new_state(), np.random.default_rng(0), 0
    while not state.terminal:
        if state.num_moves % 2 == 0:
            before = state.clone()
            try:
                action = policy.act(state)
            except Exception as exc:  # noqa: BLE001
                refused = kind not in PLAYS_EVERY_GAME and moves == 0 and one_line_refusal(exc)
                assert refused, f"{spec} on {case.id}: {type(exc).__name__}: {exc}"
                return  # refused at its first move, in one line
            assert np.array_equal(before.board, state.board) and before.num_moves == state.num_moves  # left alone
            assert state.illegal_reason(action) is None, (spec, case.id, action, state.illegal_reason(action))
            moves += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        state.play(int(action))
    assert moves > 0
