"""Our Gomocup brain in-process: a fixed transcript, rules, BOARD orders, bad input, time limits."""

from __future__ import annotations

import io

import numpy as np
import pytest

from boardgame_envs import __version__
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.notation import parse_point
from boardgame_envs.gomocup.brain import Brain, move_time, serve
from boardgame_envs.policies import MCTSPolicy, RandomPolicy
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.gomocup.protocol import legal_order, rule_from_bits


class CentreFirst:
    """The legal point nearest the centre (Manhattan distance), ties in reading order: moves a reader can work out."""

    name = "centre-first"

    def act(self, env):
        state = game_state_of(env)
        n = state.game.size
        rows, cols = np.divmod(np.arange(n * n), n)
        distance = np.abs(rows - n // 2) + np.abs(cols - n // 2)
        legal = state.legal_actions()
        return int(legal[np.argmin(distance[legal])])


def run(lines, policy=None):
    out = []
    brain = Brain(policy or CentreFirst(), out.append)
    for line in lines:
        if not brain.handle(line):
            out.append("<stopped>")
            break
    return out, brain


def test_transcript():
    # On 9x9 the centre is 4,4 (e5). Renju from the start; black's double-three at e5
    # (the board drawn in tests/envs/test_renju_env.py) makes the brain take 5,4 instead.
    session = [
        ("ABOUT", [f'name="boardgame-envs centre-first", version="{__version__}", author="boardgame_envs", '
                   'country="n/a"']),
        ("TURN 0,0", ["ERROR no board yet: send START first"]),
        ("START 25", ["ERROR unsupported size 25: this brain plays boards of 5..19"]),
        ("RECTSTART 9,10", ["ERROR rectangular boards are not supported (9x10): use START n"]),
        ("START 9", ["OK"]),
        ("INFO timeout_turn 1000", []),
        ("INFO rule 4", []),
        ("INFO evaluate 3,3", []),
        ("INFO max_memory lots", ["MESSAGE INFO max_memory needs an integer, got 'lots'; ignored"]),
        ("BEGIN", ["4,4"]),
        ("TURN 4,4", ["ERROR TURN 4,4 is illegal: e5 is occupied (by black)"]),
        ("TURN 9,0", ["ERROR 9,0 is off the 9x9 board: x and y must be in 0..8"]),
        ("TURN 4", ["ERROR expected a point 'x,y' (two integers), got '4'"]),
        ("TURN 0,0", ["4,3"]),
        ("BEGIN", ["ERROR BEGIN needs an empty board; 3 stones are on it (RESTART first)"]),
        ("PLAY 2,0", ["ERROR PLAY places our own stone, but it is the opponent's turn"]),
        ("TAKEBACK 0,0", ["ERROR TAKEBACK takes back the last stone; 0,0 is not it (the last is 4,3)"]),
        ("TAKEBACK 4,3", ["OK"]),
        ("TURN 0,1", ["ERROR it is this brain's turn, not the opponent's (send BOARD or TAKEBACK first)"]),
        ("PLAY 3,4", ["3,4"]),
        ("frobnicate", ["UNKNOWN command 'frobnicate' is not supported"]),
        ("restart", ["OK"]),
        ("BOARD", []),
        *((line, []) for line in ("4,2,1", "0,0,2", "4,3,1", "8,0,2", "2,4,1", "0,8,2", "3,4,1", "8,8,2")),
        ("DONE", ["5,4"]),
        ("END", ["<stopped>"]),
        ("BEGIN", []),
    ]
    out, _ = run([line for line, _ in session])
    assert out == [answer for _, answers in session for answer in answers]


def test_turn_that_ends_the_game_is_refused_and_changes_nothing():
    # The opponent (black) has four on the top row and we (white) do not block it.
    out, brain = run(["START 9", "BOARD", "0,0,2", "1,0,2", "2,0,2", "3,0,2", "0,8,1", "2,8,1", "4,8,1", "DONE"])
    assert out == ["OK", "4,4"]
    moves = list(brain.moves)
    out.clear()
    brain.handle("TURN 4,0")
    assert out == ["ERROR TURN 4,0 ends the game (black wins): no move to answer"]
    assert brain.moves == moves
    brain.handle("TURN 5,5")
    assert out[-1] == "4,3" and brain.moves[-2:] == [5 * 9 + 5, 3 * 9 + 4]


def test_rule_bits_map_to_the_nearest_rule_with_a_message():
    assert rule_from_bits(0) == ("freestyle", 0)
    assert rule_from_bits(1) == ("standard", 0)
    assert rule_from_bits(4) == ("renju", 0)
    assert rule_from_bits(5) == ("renju", 0)
    assert rule_from_bits(2) == ("freestyle", 2)
    assert rule_from_bits(3) == ("standard", 2)
    assert rule_from_bits(8) == ("freestyle", 8)
    out, brain = run(["START 15", "INFO rule 3"])
    assert out == ["OK", "MESSAGE rule bits 2 are not supported (2 is the continuous game); playing standard"]
    assert brain.state.game == MNKGame(15, 5, "standard")


def test_rule_switch_that_the_game_breaks_is_refused():
    # Under freestyle black (the opponent) played e5 last into a double-three; renju forbids it.
    black = ["4,2", "4,3", "2,4", "3,4", "4,4"]
    white = ["0,0", "8,0", "0,8", "8,8"]
    out, brain = run(["START 9", "BOARD", *(f"{p},2" for p in black), *(f"{p},1" for p in white), "DONE"])
    assert out == ["OK", "5,4"] and brain.rule == "freestyle"
    out.clear()
    brain.handle("INFO rule 4")
    assert out == ["MESSAGE cannot switch to renju: e5 is forbidden for black: double-three; ignored"]  # no answer
    assert brain.rule == "freestyle" and brain.state.game.rule == "freestyle"
    brain.handle("INFO rule 1")
    assert out[1:] == [] and brain.state.game.rule == "standard"


def _names(actions, n=9):
    return [parse_point(p, n) for p in actions]


def test_legal_order_keeps_a_legal_order_and_finds_one_under_renju():
    game = MNKGame(9, 5, "renju")
    # Black's e5 last would be a double-three (c5 d5 e5 across, e5 e6 e7 down); played first, it is not.
    black = _names(["c5", "d5", "e6", "e7", "e5"])
    white = _names(["a1", "i1", "a9", "i9"])
    order = legal_order(game, black, white)
    assert order[1::2] == white  # white's order was fine as given
    assert order[0::2] != black and sorted(order[0::2]) == sorted(black)
    state = game.new_state()
    for action in order:
        state.play(action)  # raises if any move is illegal
    freestyle = legal_order(MNKGame(9, 5, "freestyle"), black, white)
    assert freestyle[0::2] == black  # no restriction: the given order stands


def test_legal_order_refuses_impossible_positions():
    game = MNKGame(9, 5, "renju")
    with pytest.raises(ValueError, match="as many stones as white or one more"):
        legal_order(game, _names(["a1", "b1", "c1"]), _names(["a9"]))
    with pytest.raises(ValueError, match="cannot arise"):  # black's overline: forbidden in every order
        legal_order(game, _names(["a1", "b1", "c1", "d1", "e1", "f1"]), _names(["a9", "b9", "c9", "e9", "g9"]))


def test_board_replays_in_a_legal_order():
    # The same stones sent to the brain: it rebuilds the game without refusing e5.
    lines = ["START 9", "INFO rule 4", "BOARD", "2,4,2", "3,4,2", "4,3,2", "4,2,2", "4,4,2",
             "0,8,1", "8,8,1", "0,0,1", "8,0,1", "DONE"]  # fmt: skip
    out, brain = run(lines)
    assert out[0] == "OK" and not out[1].startswith("ERROR"), out
    assert brain.me == 2 and len(brain.moves) == 10
    assert brain.moves[8] != parse_point("e5", 9)  # e5, sent last, was replayed earlier


def test_board_refusals_leave_the_game_unchanged():
    out, brain = run(["START 9", "BEGIN", "TURN 0,0"])
    moves = list(brain.moves)
    for board, message in [
        (["4,4,3"], "field must be 1 (own stone) or 2"),
        (["4,4,1", "5,5,1"], "2 own and 0 opponent stones"),
        (["4,4,1", "4,4,2"], "two stones"),
    ]:
        collected = []
        brain.write = collected.append
        for line in ["BOARD", *board, "DONE"]:
            brain.handle(line)
        assert len(collected) == 1 and collected[0].startswith("ERROR") and message in collected[0], collected
        assert brain.moves == moves


def test_move_time_under_the_managers_limits():
    assert move_time(None, None, None) is None
    assert move_time(1000, None, None) == pytest.approx(1.0 * 0.8 - 0.03)
    assert move_time(0, None, None) == pytest.approx(0.005)  # "as fast as possible"
    assert move_time(10_000, 60_000, 20_000) == pytest.approx(20.0 / 20 * 0.8 - 0.03)  # time_left rules
    assert move_time(10_000, 0, None) == pytest.approx(10 * 0.8 - 0.03)  # timeout_match 0: no match limit
    assert move_time(None, 100_000, None) == pytest.approx(100 / 20 * 0.8 - 0.03)
    assert move_time(5000, 0, 2147483647) == pytest.approx(5 * 0.8 - 0.03)  # time_left "unlimited"


def test_time_aware_policy_is_capped_fixed_budget_is_not():
    timed = MCTSPolicy(simulations=30, time_limit=30.0, seed=0)
    _, brain = run(["START 9", "INFO timeout_turn 200", "BEGIN"], timed)
    assert timed.time_limit == pytest.approx(move_time(200, None, None))
    brain.handle("INFO time_left 1000")
    brain.handle("TURN 0,0")
    assert timed.time_limit == pytest.approx(move_time(200, None, 1000))
    fixed = MCTSPolicy(simulations=30, seed=0)
    run(["START 9", "INFO timeout_turn 200", "BEGIN"], fixed)
    assert fixed.time_limit is None


def test_serve_keeps_stdout_for_protocol_lines(capsys):
    class Chatty(RandomPolicy):
        def act(self, env):
            print("thinking out loud")
            return super().act(env)

    stdin, stdout = io.StringIO("START 9\nBEGIN\nEND\nBEGIN\n"), io.StringIO()
    assert serve(Chatty(seed=0), stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert lines[0] == "OK" and len(lines) == 2 and "," in lines[1]
    assert "thinking out loud" in capsys.readouterr().err


def test_policy_failure_is_an_error_line():
    class Broken:
        name = "broken"

        def act(self, env):
            raise RuntimeError("no network")

    out, brain = run(["START 9", "BEGIN", "BEGIN"], Broken())
    assert out[1:] == ["ERROR boardgame-envs broken could not move: RuntimeError: no network"] * 2
    assert brain.moves == []


def test_command_line_brain_and_launcher(tmp_path, monkeypatch, capsys):
    from boardgame_envs.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("START 9\nABOUT\nEND\n"))
    assert main(["pbrain", "--policy", "random", "--name", "Tester"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "OK", f'name="Tester", version="{__version__}", author="boardgame_envs", country="n/a"'
    ]
    assert main(["pbrain", "--policy", "random", "--write-launcher", str(tmp_path / "pbrain-r")]) == 0
    launcher = tmp_path / "pbrain-r"
    assert launcher.stat().st_mode & 0o111 and "pbrain --policy random --seed 0" in launcher.read_text()
    assert f"pbrain:{launcher}" in capsys.readouterr().out


def test_a_command_inside_board_ends_it():
    out, brain = run(["START 9", "BEGIN", "TURN 0,0", "BOARD", "4,4,1", "END"])
    assert out[-1] == "<stopped>"
    assert out[-2] == "ERROR BOARD ended by 'END' without DONE; the position is unchanged"
    assert len(brain.moves) == 3
