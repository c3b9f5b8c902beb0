"""The referee: policies act on a copy of the state, results come from the rules, faults are named."""

from __future__ import annotations

import functools

import pytest

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.arena import match, play_record
from boardgame_envs.arena.referee import fault_kind
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.policies.random import RandomPolicy
from faulty_policies import Cheater, cheater, glitchy

GOMOKU9 = functools.partial(gomoku_v0.env, board_size=9, rule="freestyle")


def replayed_winner(record) -> int:
    """The winner the rules give to the record's moves, played from the empty board."""
    state = MNKGame(record.board_size, record.win_length, record.rule).new_state()
    for action in record.moves:
        state.play(action)
    return int(state.winner)


def test_a_policy_that_writes_a_five_on_its_state_fakes_nothing():
    record = play_record(GOMOKU9, Cheater(seed=0), RandomPolicy(seed=1), ("cheater", "random"))
    # The cheater wrote black stones a9..e9 and "black won" on its copy at its first move;
    # the game went on by the rules, and its result is the one its moves give.
    assert len(record.moves) > 1 and record.winner == replayed_winner(record)
    r = match(GOMOKU9, cheater, "random", games=6, progress=False)
    assert all(rec.winner == replayed_winner(rec) for rec in r.records)
    assert r.wins < 6  # a random mover that cannot fake its wins loses some of them


class Fault(Forfeit):
    """A forfeit carrying its kind, as the engine layer's faults do."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"engine fault: {kind}")
        self.kind = kind


class EngineTimeout(Forfeit):
    """Named as the engine layer's timeout, without a kind attribute: the class name says it."""


class FailsAt(RandomPolicy):
    def __init__(self, error: BaseException, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.error = error

    def act(self, state):
        if state.num_moves >= 2:
            raise self.error
        return super().act(state)


def test_fault_kinds_from_a_kind_attribute_or_the_class_name():
    assert fault_kind(Fault("crash")) == "crash" and fault_kind(EngineTimeout("slow")) == "timeout"
    assert fault_kind(Forfeit("?")) == "forfeit"


def test_the_summary_names_each_fault():
    # The first policy built is match()'s check before any game; the games' come after it.
    faults = iter([Fault("never raised"), Fault("crash"), EngineTimeout("no answer within 0.70 s"), Fault("bad answer"),
                   Fault("crash")])  # fmt: skip
    r = match(tictactoe_v0.env, lambda seed: FailsAt(next(faults), seed), "random", games=4, progress=False)
    assert [rec.fault for rec in r.records] == ["crash", "timeout", "bad answer", "crash"]
    assert r.records[1].reason == "O (<lambda>) forfeits (timeout): no answer within 0.70 s"  # A is O (second) in game 2
    assert r.faults() == {"crash": 2, "bad answer": 1, "timeout": 1}
    assert "4 game(s) lost by a fault: 2 by a crash, 1 by a bad answer, 1 by a timeout (see the records)" in str(r)
    assert "illegal move" not in str(r)


def test_glitches_recovered_are_counted_per_game_and_shown():
    r = match(tictactoe_v0.env, glitchy, "random", games=2, progress=False)
    for i, rec in enumerate(r.records):  # glitchy counts one per move it makes: black in game 1, white in game 2
        black_moves, white_moves = (len(rec.moves) + 1) // 2, len(rec.moves) // 2
        assert rec.glitches == ((black_moves, 0) if i % 2 == 0 else (0, white_moves))
    total = sum(sum(rec.glitches) for rec in r.records)
    assert f"{total} engine glitch(es) recovered without a forfeit" in str(r)
    plain = match(tictactoe_v0.env, "random", "random", games=2, progress=False)
    assert "glitch" not in str(plain)


def test_a_glitch_counter_that_is_not_a_number_counts_as_none():
    policy = RandomPolicy(seed=0)
    policy.glitches = "many"
    assert play_record(tictactoe_v0.env, policy, RandomPolicy(seed=1)).glitches == (0, 0)


@pytest.mark.parametrize("kind", ["timeout", "crash"])
def test_a_named_fault_survives_the_sgf_round_trip(kind):
    from boardgame_envs.arena import records

    record = play_record(tictactoe_v0.env, FailsAt(Fault(kind)), RandomPolicy(seed=1))
    assert record.forfeit and record.fault == kind
    assert records.from_sgf(records.to_sgf(record)) == record and f"FK[{kind}]" in records.to_sgf(record)
