"""Every kind in the policy registry, on every game: it plays a legal game to the end, or refuses in one line,
and leaves every field of each state it is handed as it was.

Kinds are read from the registry, so a kind registered later is held to this too. Each gets a small budget
where it takes one (below), and a kind that needs a target gets one that exists (a ladder level, a shipped
network) or one that does not (an engine path, a checkpoint), whose refusal must be one line.
"""

from __future__ import annotations

import pytest

from boardgame_envs.cli import expected_error
from boardgame_envs.games.protocol import FIRST
from boardgame_envs.ladder.ladders import LADDERS, LadderError, ladder_for
from boardgame_envs.policies.registry import kinds, make_policy
from conformance.cases import DEFAULTS, TEST_GAMES, case_fixture
from conformance.checks import check_policy_game

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

    def refused(exc, moves):  # only at its first move, in one line, and only by a kind that may refuse
        ok = kind not in PLAYS_EVERY_GAME and moves == 0 and one_line_refusal(exc)
        assert ok, f"{spec} on {case.id}: {type(exc).__name__}: {exc}"
        return True

    # It plays the first player's every move, extra turns included (who moves is the state's to_move), and each
    # of its moves must leave every field of the state it was handed as it was (tests/conformance/state_check.py).
    moves = check_policy_game(policy, game, FIRST, seed=0, on_error=refused)
    assert moves > 0 or kind not in PLAYS_EVERY_GAME


def test_the_policy_check_follows_to_move_through_extra_turns():
    """In dots and boxes a player who closes a box draws again: the policy is asked for each of those moves."""
    from games.dots_and_boxes import DotsAndBoxesGame

    asked = []

    class Recorder:
        name = "recorder"

        def act(self, state):  # closes a box where it can, so that it earns extra turns
            asked.append((state.to_move, state.num_moves))
            for action in map(int, state.legal_actions()):
                child = state.clone()
                child.play(action)
                if not child.terminal and child.to_move == state.to_move:
                    return action
            return int(state.legal_actions()[0])

    runs = 0
    for seed in range(10):
        asked.clear()
        moves = check_policy_game(Recorder(), DotsAndBoxesGame(), FIRST, seed=seed)
        assert moves == len(asked) and {p for p, _ in asked} == {FIRST}
        plies = [n for _, n in asked]
        runs += sum(b == a + 1 for a, b in zip(plies, plies[1:]))  # two moves running: an extra turn, asked for
    assert runs > 0
