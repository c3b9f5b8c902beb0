"""GomocupEngine: our own brain in another process, a misbehaving fake brain for every fault, no orphans."""

from __future__ import annotations

import functools
import logging
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ascii_boards import env_from
from boardgame_envs import gomoku_v0
from boardgame_envs.arena import play_game
from boardgame_envs.cli import main
from boardgame_envs.envs.single_agent import SingleAgentEnv
from boardgame_envs.games.notation import parse_point
from boardgame_envs.gomocup import (
    EngineCrashed, EngineIllegalMove, EngineProtocolError, EngineStartError, EngineTimeout, GomocupEngine,
    write_launcher,
)  # fmt: skip
from boardgame_envs.policies import RandomPolicy, make_policy
from boardgame_envs.policies.registry import PolicySpecError, check_spec

sys.path.insert(0, str(Path(__file__).parent))
from gomocup_helpers import FAKE, after_one_move, gone  # noqa: E402  (the shared fakes and process checks)

DOUBLE_THREE = """
O . . . . . . . O
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . X X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O . . . . . . . O
"""


def fake(mode: str, *args: str, **kwargs) -> GomocupEngine:
    kwargs.setdefault("turn_time_ms", 200)
    kwargs.setdefault("tolerance_ms", 3000)
    kwargs.setdefault("start_timeout_ms", 10_000)
    return GomocupEngine([sys.executable, FAKE, mode, *args], name="fake", **kwargs)


@pytest.fixture(scope="module")
def our_brain(tmp_path_factory):
    """Our own brain (random moves) behind one engine for the whole module: one process start."""
    launcher = write_launcher(tmp_path_factory.mktemp("brain") / "pbrain-random", "random")
    engine = GomocupEngine(str(launcher), turn_time_ms=5000, tolerance_ms=30_000, start_timeout_ms=120_000)
    yield engine
    engine.close()


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_full_games_against_our_brain(our_brain, rule):
    for seat in range(2):  # the engine plays black, then white
        env_fn = functools.partial(gomoku_v0.raw_env, board_size=9, rule=rule)
        players = (our_brain, RandomPolicy(seed=seat)) if seat == 0 else (RandomPolicy(seed=seat), our_brain)
        winner, moves = play_game(env_fn, *players)  # the raw env raises on any illegal move
        assert len(moves) >= 9 and winner in (0, 1, 2)
    transcript = our_brain.transcript
    assert f"> INFO rule {dict(freestyle=0, standard=1, renju=4)[rule]}" in transcript
    assert "> BEGIN" in transcript and "> RESTART" in transcript and "< OK" in transcript


def test_our_brain_plays_on_under_the_unlimited_time_left(our_brain):
    # INFO time_left 2147483647 is the protocol's "no limit" (ten digits); INFO max_memory of a
    # gigabyte or more too. An ERROR to either was read as the answer to the next move: a forfeit.
    info = {"time_left": 2147483647, "max_memory": 4 * 2**30}
    engine = GomocupEngine(our_brain.argv, turn_time_ms=5000, tolerance_ms=30_000, start_timeout_ms=120_000,
                           info=info)  # fmt: skip
    for seat in range(2):
        env_fn = functools.partial(gomoku_v0.raw_env, board_size=9, rule="renju")
        players = (engine, RandomPolicy(seed=seat)) if seat == 0 else (RandomPolicy(seed=seat), engine)
        winner, moves = play_game(env_fn, *players)
        assert len(moves) >= 9 and winner in (0, 1, 2)  # a forfeit ends the game at the engine's first move
    assert not any(line.startswith("< ERROR") for line in engine.transcript), engine.transcript
    engine.close()


def test_board_mid_game_then_takeback(our_brain):
    # A renju position the engine has never seen: RESTART, then BOARD in an order our brain accepts.
    env = env_from(DOUBLE_THREE, rule="renju")
    env.step(parse_point("b2", 9))  # black elsewhere; white (the engine) to move
    move = our_brain.act(env)
    transcript = our_brain.transcript
    board = transcript[transcript.index("> BOARD") :]
    assert board[9] == "> 1,7,2" and board[10] == "> DONE"  # b2 (x 1, y 7) last, as the opponent's stone
    assert env.unwrapped.game_state.illegal_reason(move) is None
    env.step(move)
    reply, other = (parse_point(p, 9) for p in (("i5", "a5") if move != parse_point("i5", 9) else ("i4", "a5")))
    if other == move:
        other = parse_point("a4", 9)
    env.step(reply)
    second = our_brain.act(env)
    assert our_brain.transcript[-2] == f"> TURN {reply % 9},{reply // 9}"
    # Take both moves back and play another: the engine hears TAKEBACK twice, then TURN.
    replay = env_from(DOUBLE_THREE, rule="renju")
    for action in (parse_point("b2", 9), move, other):
        replay.step(action)
    before = len(our_brain.transcript)
    third = our_brain.act(replay)
    sent = [line for line in our_brain.transcript[before:] if line.startswith(">")]
    assert sent == [f"> TAKEBACK {second % 9},{second // 9}", f"> TAKEBACK {reply % 9},{reply // 9}",
                    f"> TURN {other % 9},{other // 9}"]  # fmt: skip
    assert replay.unwrapped.game_state.illegal_reason(third) is None


@pytest.mark.parametrize(
    "mode, args, error, message",
    [
        ("garbage", [], EngineProtocolError, "answered 'TURN 4,4' with 'hello there', not a move"),
        ("error", [], EngineProtocolError, "answered 'TURN 4,4' with 'ERROR no idea'"),
        ("crash", [], EngineCrashed, "exited while we waited .*exit code 3.*boom"),
        ("silent", [], EngineTimeout, "did not answer 'TURN 4,4' within .* killed"),
        ("slow", ["30"], EngineTimeout, "did not answer 'TURN 4,4' within .* killed"),
        ("fixed", ["9,3"], EngineIllegalMove, r"fake \(white\) played 9,3: off the 9x9 board"),
        ("fixed", ["4,4"], EngineIllegalMove, r"played 4,4 \(e5\): e5 is occupied \(by black\)"),
    ],
)
def test_faults_raise_typed_errors(mode, args, error, message):
    engine = fake(mode, *args, tolerance_ms=300 if mode in ("silent", "slow") else 3000)
    with pytest.raises(error, match=message):
        engine.act(after_one_move())
    if error is not EngineIllegalMove:
        assert engine.pid is None  # killed or gone
    engine.close()


def test_forbidden_move_under_renju():
    env = env_from(DOUBLE_THREE, rule="renju")
    engine = fake("fixed", "4,4", rule="renju")
    message = r"fake \(black\) played 4,4 \(e5\): e5 is forbidden for black: double-three"
    with pytest.raises(EngineIllegalMove, match=message):
        engine.act(env)
    assert isinstance(EngineIllegalMove("x"), ValueError)  # also an IllegalMoveError
    engine.close()


@pytest.mark.parametrize(
    "mode, message", [("refuse", "refused START 9: ERROR unsupported size"), ("exit", "exited while we waited"),
                      ("mute", "did not answer 'START 9' within")],  # fmt: skip
)
def test_start_failures(mode, message):
    with pytest.raises(EngineStartError, match=message):
        fake(mode, start_timeout_ms=500).act(after_one_move())


def test_missing_program_and_bad_arguments():
    with pytest.raises(EngineStartError, match="/nonexistent/pbrain-none does not exist"):
        GomocupEngine("/nonexistent/pbrain-none").act(after_one_move())
    with pytest.raises(ValueError, match="turn_time_ms must be an integer >= 0"):
        GomocupEngine("x", turn_time_ms=-1)
    with pytest.raises(ValueError, match="is not a directory"):
        GomocupEngine("x", cwd="/nonexistent")
    four = gomoku_v0.raw_env(board_size=9, win_length=4)
    four.reset()
    with pytest.raises(ValueError, match="Gomocup engines play five in a row; this game needs 4"):
        fake("good").act(four)
    with pytest.raises(ValueError, match="fake is set up for renju, but the game is freestyle"):
        fake("good", rule="renju").act(after_one_move())


def test_slow_answer_within_tolerance_is_kept(caplog):
    engine = fake("slow", "0.3", turn_time_ms=10, tolerance_ms=20_000)
    with caplog.at_level(logging.WARNING, logger="boardgame_envs.gomocup"):
        move = engine.act(after_one_move())
    assert move == 0 and "over its 10 ms limit" in caplog.text
    engine.close()


def test_engine_without_restart_is_started_again():
    engine = fake("norestart")
    env = after_one_move()
    engine.act(env)
    assert engine.act(after_one_move()) == 0  # a new game: RESTART refused, START again
    transcript = engine.transcript
    at = transcript.index("> RESTART")
    assert transcript[at : at + 4] == ["> RESTART", "< UNKNOWN RESTART", "> START 9", "< OK"]
    assert transcript[-3:] == ["> TURN 4,4", "< MESSAGE thinking", "< 0,0"]
    engine.close()


def test_unasked_lines_are_skipped(caplog):
    engine = fake("extra")
    env = after_one_move()
    with caplog.at_level(logging.WARNING, logger="boardgame_envs.gomocup"):
        env.step(engine.act(env))
        time.sleep(0.2)  # the unasked OK arrives
        env.step(2)
        assert engine.act(env) == 1  # the first empty point, not a protocol error
    assert "said 'OK' unasked; ignored" in caplog.text
    engine.close()


def test_match_time_is_told_and_counted():
    engine = fake("good", match_time_ms=60_000)
    env = after_one_move()
    env.step(engine.act(env))
    env.step(2)
    engine.act(env)
    times = [int(line.split()[-1]) for line in engine.transcript if line.startswith("> INFO time_left")]
    assert len(times) == 2 and 60_000 >= times[0] >= times[1]
    engine.close()


def test_working_directory(tmp_path):
    (tmp_path / "brain.py").write_text(Path(FAKE).read_text())
    script = tmp_path / "pbrain-here"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} brain.py good\n")  # brain.py only next to it
    script.chmod(0o755)
    with GomocupEngine("./pbrain-here", cwd=str(tmp_path)) as engine:
        assert engine.act(after_one_move()) == 0
    with pytest.raises(EngineStartError, match="exit code 2.*brain.py"):  # elsewhere, no brain.py next to it
        GomocupEngine(str(script)).act(after_one_move())


def test_a_program_gone_before_start_is_a_start_error(tmp_path, monkeypatch):
    """A program that exits before START can be written (a busy machine makes this order likely)
    fails to start; it has not crashed in a game."""
    from boardgame_envs.gomocup import process

    class ExitsAtOnce(process.EngineProcess):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._proc.wait(10)  # the program is gone before the first line is sent

    monkeypatch.setattr("boardgame_envs.gomocup.engine.EngineProcess", ExitsAtOnce)
    script = tmp_path / "pbrain-gone"
    script.write_text("#!/bin/sh\nexit 2\n")
    script.chmod(0o755)
    with pytest.raises(EngineStartError, match="exit code 2"):
        GomocupEngine(str(script)).act(after_one_move())


def test_close_and_garbage_collection_end_the_process():
    engine = fake("good")
    engine.act(after_one_move())
    pid = engine.pid
    engine.close()
    assert engine.pid is None and gone(pid)
    engine = fake("good")
    engine.act(after_one_move())
    pid = engine.pid
    del engine
    assert gone(pid)


@pytest.mark.parametrize("ending", ["exit", "kill"])
def test_no_orphans_when_the_parent_ends(ending):
    script = textwrap.dedent(f"""
        import sys, time
        from boardgame_envs import gomoku_v0
        from boardgame_envs.policies import GomocupEngine
        engine = GomocupEngine([sys.executable, {FAKE!r}, "good"])
        env = gomoku_v0.raw_env(board_size=9); env.reset(); env.step(40)
        engine.act(env)
        print(engine.pid, flush=True)
        if {ending!r} == "kill":
            time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pid = int(parent.stdout.readline())
    if ending == "kill":
        parent.send_signal(signal.SIGKILL)
    parent.wait(60)
    assert gone(pid)


def test_forfeits_in_the_arena_and_the_single_agent_view():
    env_fn = functools.partial(gomoku_v0.env, board_size=9)
    assert play_game(env_fn, fake("garbage"), RandomPolicy(seed=0))[0] == 2
    assert play_game(env_fn, RandomPolicy(seed=0), fake("fixed", "40,40"))[0] == 1
    view = SingleAgentEnv("gomoku", board_size=9, opponent=fake("crash"))
    view.reset(seed=0)
    _, reward, terminated, _, info = view.step(40)
    assert reward == 1.0 and terminated and "exited" in info["opponent_forfeit"]
    assert not view.action_masks().any()


def test_match_in_worker_processes(tmp_path):
    from boardgame_envs.arena import match

    launcher = tmp_path / "pbrain-fake"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} good\n")
    launcher.chmod(0o755)
    env_fn = functools.partial(gomoku_v0.env, board_size=9)
    result = match(env_fn, f"pbrain:{launcher}", "random", games=2, jobs=2, progress=False)
    assert result.games == 2


def test_registry_spec_and_command_line(tmp_path, capsys):
    launcher = tmp_path / "pbrain-fake"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} good\n")
    launcher.chmod(0o755)
    engine = make_policy(f"pbrain:{launcher}:turn_ms=100,match_ms=5000")
    assert (engine.turn_time_ms, engine.match_time_ms, engine.name) == (100, 5000, "pbrain-fake")
    with pytest.raises(PolicySpecError, match="'turn' is not an argument of policy 'pbrain'"):
        make_policy(f"pbrain:{launcher}:turn=100")
    with pytest.raises(PolicySpecError, match="needs a target"):
        check_spec("pbrain")
    assert main(["arena", "gomoku", f"pbrain:{launcher}", "random", "--games", "2", "--board-size", "9"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert main(["arena", "gomoku", "pbrain:/nonexistent/pbrain-x", "random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/nonexistent/pbrain-x does not exist" in err
