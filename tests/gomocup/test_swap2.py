"""Gomocup's SWAP2BOARD both ways: our brain's answers (a transcript), GomocupEngine driving fake engines."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

from boardgame_envs.arena import play_record
from boardgame_envs.envs.factory import make_env
from boardgame_envs.games.protocol import IllegalMoveError
from boardgame_envs.gomocup import GomocupEngine, swap2
from boardgame_envs.gomocup.brain import Brain, serve
from boardgame_envs.gomocup.protocol import ProtocolError
from boardgame_envs.policies import make_policy

sys.path.insert(0, str(Path(__file__).parent))
from gomocup_helpers import launcher  # noqa: E402

SWAP2_9 = functools.partial(make_env, "gomoku", 9, 5, "freestyle", opening_rule="swap2")


class Scripted:
    """Swap2 by a script: as the first player h8 i8 j6 (7,7 8,7 9,9 on 15x15, e5 f5 g3 on 9x9), then ``colour``;
    as the second player ``choice``; every other action the lowest legal one (a point: the top-left empty one)."""

    name = "scripted"

    def __init__(self, choice: str = "black", colour: str = "black") -> None:
        self.choice, self.colour = choice, colour

    def act(self, state) -> int:
        game = state.game
        phase = state.phase if getattr(state, "in_opening", False) else "play"  # the brain hands plain states too
        if phase == "stone" and state.to_move == 1 and state.base.num_moves < 3:
            c = game.size // 2
            row, col = ((c, c), (c, c + 1), (c + 2, c + 2))[state.base.num_moves]
            return row * game.size + col
        if phase in ("swap2", "colour"):
            return game.parse_action(self.choice if phase == "swap2" else self.colour)
        return int(state.legal_actions()[0])


def run(lines, policy):
    out = []
    brain = Brain(policy, out.append)
    for line in lines:
        brain.handle(line)
    return out, brain


THREE = ["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]  # h8 (black), i8 (white), j6 (black) on 15x15
FIVE = ["SWAP2BOARD", "7,7,1", "8,7,2", "9,9,1", "8,8,2", "8,6,1", "DONE"]  # with fields, as Rapfi reads them


def test_brain_transcript_of_each_case():
    start = ["START 15", "INFO rule 1"]
    out, _ = run([*start, "SWAP2BOARD", "DONE"], Scripted())
    assert out == ["OK", "7,7 8,7 9,9"]  # the first player's three stones: black, white, black
    # Three stones: the second player takes black (SWAP), keeps white and plays the 4th, or lays two more.
    out, brain = run([*start, *THREE], Scripted("black"))
    assert out == ["OK", "SWAP"] and brain.me == 1 and brain.moves == [112, 113, 144]
    out, brain = run([*start, *THREE, "TURN 0,0"], Scripted("black"))
    assert out == ["OK", "SWAP", "1,0"]  # white's 4th at 0,0; black (us) answers the lowest legal point
    out, brain = run([*start, *THREE], Scripted("white"))
    assert out == ["OK", "0,0"] and brain.me == 2 and brain.moves == [112, 113, 144, 0]
    out, brain = run([*start, *THREE], Scripted("more"))
    assert out == ["OK", "0,0 1,0"] and brain.me is None and len(brain.moves) == 5  # the other player chooses
    # Five stones: the first player takes black (SWAP) or white and plays the 6th.
    out, brain = run([*start, *FIVE], Scripted(colour="black"))
    assert out == ["OK", "SWAP"] and brain.me == 1
    out, brain = run([*start, *FIVE], Scripted(colour="white"))
    assert out == ["OK", "0,0"] and brain.me == 2 and brain.state.num_moves == 6


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (["SWAP2BOARD", "7,7", "8,7", "DONE"], "ERROR SWAP2BOARD refused: SWAP2BOARD sends 0, 3 or 5 stones, got 2"),
        (["SWAP2BOARD", "7,7", "7,7", "9,9", "DONE"], "ERROR SWAP2BOARD refused: action 2 (112): h8 is occupied"),
        (["SWAP2BOARD", "7,7", "8,7", "15,9", "DONE"], "ERROR SWAP2BOARD refused: 15,9 is off the 15x15 board"),
        (["INFO rule 4", *THREE], "ERROR SWAP2BOARD refused: SWAP2BOARD is for freestyle and standard gomoku"),
        (["SWAP2BOARD", "7,7", "TURN 1,1"], "ERROR SWAP2BOARD ended by 'TURN' without DONE"),
    ],
)
def test_brain_refusals(lines, error):
    out, _ = run(["START 15", *lines], Scripted())
    assert out[1].startswith(error)


def test_a_failing_policy_is_an_error_line_and_the_brain_goes_on():
    class Broken:
        name = "broken"

        def act(self, state):
            raise RuntimeError("no idea")

    out, _ = run(["START 15", *THREE, "ABOUT"], Broken())
    assert out[1] == "ERROR boardgame-envs broken could not answer SWAP2BOARD: RuntimeError: no idea"
    assert out[2].startswith('name="boardgame-envs broken"')


def test_a_built_in_policy_answers_every_case_with_what_the_rules_accept():
    import io

    script = "START 15\nINFO rule 0\nSWAP2BOARD\nDONE\n" + "\n".join(THREE) + "\n" + "\n".join(FIVE) + "\nEND\n"
    out = io.StringIO()
    serve(make_policy("greedy", seed=0), io.StringIO(script), out)
    answers = out.getvalue().splitlines()[1:]
    game = swap2.swap2_game(15, "freestyle")
    for stones, text in zip(([], [112, 113, 144], [112, 113, 144, 128, 98]), answers):
        state = swap2.opening_of(game, stones)
        assert swap2.engine_actions(state, text)  # SWAP, or points the rules accept in that case


@pytest.mark.parametrize(
    ("stones", "text", "error", "message"),
    [
        ([], "SWAP", ProtocolError, "on an empty board SWAP2BOARD wants three stones"),
        ([], "1,1 2,2", ProtocolError, "expected three points"),
        ([112, 113, 144], "1,1 2,2 3,3", ProtocolError, "expected SWAP, one point or two"),
        ([112, 113, 144, 128, 98], "1,1 2,2", ProtocolError, "expected SWAP or one point"),
        ([112, 113, 144], "hello", ProtocolError, "neither SWAP nor points"),
        ([112, 113, 144], "7,7", IllegalMoveError, "h8 is occupied"),
        ([], "0,0 15,0 1,1", IllegalMoveError, "15,0 is off the 15x15 board"),
    ],
)
def test_engine_answers_the_rules_refuse(stones, text, error, message):
    state = swap2.opening_of(swap2.swap2_game(15, "freestyle"), stones)
    with pytest.raises(error, match=message):
        swap2.engine_actions(state, text)


def test_engine_answers_as_actions():
    game = swap2.swap2_game(15, "standard")
    three = swap2.opening_of(game, [112, 113, 144])
    assert [game.action_name(a) for a in swap2.engine_actions(three, "swap")] == ["black"]
    assert [game.action_name(a) for a in swap2.engine_actions(three, "0,0")] == ["white", "a15"]
    assert [game.action_name(a) for a in swap2.engine_actions(three, "0,0 1,14")] == ["more", "a15", "b1"]
    five = swap2.opening_of(game, [112, 113, 144, 128, 98])
    assert [game.action_name(a) for a in swap2.engine_actions(five, "0,0")] == ["white", "a15"]
    assert swap2.stone_lines(five) == ["SWAP2BOARD", "7,7,1", "8,7,2", "9,9,1", "8,8,2", "8,6,1", "DONE"]


def test_the_engine_lays_three_stones_then_takes_a_colour(tmp_path):
    """The engine first: SWAP2BOARD on the empty board (a9 b9 c9), the opponent lays two more (d9 e9), the engine
    is asked again at five stones and answers SWAP: it takes black."""
    engine = GomocupEngine(launcher(tmp_path, "swap2", "stay,swap"))
    try:
        record = play_record(SWAP2_9, engine, Scripted("more"), ("fake", "scripted"))
        sent = engine.transcript
    finally:
        engine.close()
    assert record.notation().startswith("a9 b9 c9 more d9 e9 black ")
    assert (record.black, record.white, record.black_seat) == ("fake", "scripted", 1) and not record.forfeit
    assert "> INFO rule 0" in sent
    i = sent.index("> SWAP2BOARD")
    assert sent[i + 1] == "> DONE" and sent[i + 2] == "< 0,0 1,0 2,0"
    j = sent.index("> SWAP2BOARD", i + 1)
    assert sent[j:j + 7] == ["> SWAP2BOARD", "> 0,0,1", "> 1,0,2", "> 2,0,1", "> 3,0,2", "> 4,0,1", "> DONE"]
    assert sent[j + 7] == "< SWAP"
    assert "> RESTART" in sent[j:] and "> BOARD" in sent[j:]  # normal play: the position sent again


@pytest.mark.parametrize(
    ("answer", "opening", "engine_black"),
    [
        ("stay", "e5 f5 g3 white a9", False),  # keeps white and plays the 4th stone
        ("swap", "e5 f5 g3 black", True),  # takes black
        ("more", "e5 f5 g3 more a9 b9 black", False),  # two more; the scripted first player takes black
    ],
)
def test_the_engine_as_the_second_player(tmp_path, answer, opening, engine_black):
    engine = GomocupEngine(launcher(tmp_path, "swap2", f"{answer},swap"))
    try:
        record = play_record(SWAP2_9, Scripted(colour="black"), engine, ("scripted", "fake"))
    finally:
        engine.close()
    assert record.notation().startswith(opening + " ") and not record.forfeit
    assert (record.black == "fake") == engine_black
    assert record.state(record.opening_moves).phase == "play"


def test_an_engine_without_swap2board_forfeits_and_other_rules_are_refused(tmp_path):
    engine = GomocupEngine(launcher(tmp_path, "good"))
    try:
        record = play_record(SWAP2_9, engine, Scripted(), ("fake", "scripted"))
    finally:
        engine.close()
    assert record.forfeit and record.fault == "bad answer" and "UNKNOWN SWAP2BOARD" in record.reason
    soosorv = make_env("renju", opening_rule="soosorv8").unwrapped.game.new_state()
    with pytest.raises(ValueError, match="no opening rule but swap2 .SWAP2BOARD., not soosorv8"):
        engine.act(soosorv)
