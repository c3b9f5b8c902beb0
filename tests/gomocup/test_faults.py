"""Hostile and quirky engines: helpers that hold the pipes, floods, huge fields, dropped commands; no process left."""

from __future__ import annotations

import functools
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from gomocup_helpers import FAKE, after_one_move, gone, launcher, none_left, recorded  # noqa: E402

from boardgame_envs import gomoku_v0  # noqa: E402
from boardgame_envs.arena import match, play_game  # noqa: E402
from boardgame_envs.gomocup import (  # noqa: E402
    EngineCrashed, EngineProtocolError, EngineStartError, EngineTimeout, GomocupEngine,
)  # fmt: skip
from boardgame_envs.policies import RandomPolicy, make_policy  # noqa: E402
from boardgame_envs.policies.registry import PolicySpecError  # noqa: E402


def engine(path: str, **kwargs) -> GomocupEngine:
    kwargs.setdefault("turn_time_ms", 200)
    kwargs.setdefault("tolerance_ms", 3000)
    kwargs.setdefault("start_timeout_ms", 10_000)
    return GomocupEngine(path, name="fake", **kwargs)


def test_a_helper_holding_the_pipes_neither_hangs_close_nor_survives(tmp_path):
    env_fn = functools.partial(gomoku_v0.env, board_size=9)
    player = engine(launcher(tmp_path, "good", helper=True))
    started = time.monotonic()
    winner, moves = play_game(env_fn, player, RandomPolicy(seed=0))
    player.close()
    assert winner in (0, 1, 2) and len(moves) >= 9
    assert time.monotonic() - started < 30
    assert len(recorded(tmp_path)) == 2 and none_left(tmp_path)


@pytest.mark.parametrize("mode", ["good", "crash"])
def test_an_engine_that_exits_or_crashes_leaves_no_child(tmp_path, mode):
    player = engine(launcher(tmp_path, mode, helper=True))
    if mode == "crash":
        with pytest.raises(EngineCrashed, match="exit code 3"):
            player.act(after_one_move())
    else:
        player.act(after_one_move())
        first = player.pid
        player._process._proc.stdin.close()  # the engine reads its end of input and exits by itself
        assert gone(first)
        assert player.act(after_one_move()) == 0  # a new engine; the old one's helper was ended with it
        assert len(recorded(tmp_path)) == 4
        player.close()
    assert none_left(tmp_path)


@pytest.mark.parametrize("mode, error, message", [
    ("flood", EngineProtocolError, "flooded us with more than 1000 lines"),
    ("blank", EngineProtocolError, "flooded us with more than 1000 lines"),
    ("trickle", EngineTimeout, "did not answer 'TURN .*' within 0.70 s"),
    ("huge", EngineProtocolError, r"not a move 'x,y'"),
    ("longline", EngineProtocolError, "wrote a line longer than 65536 bytes"),
])  # fmt: skip
def test_chatter_and_huge_answers_are_faults_within_the_deadline(tmp_path, mode, error, message):
    player = engine(launcher(tmp_path, mode), turn_time_ms=200, tolerance_ms=500)
    env = after_one_move()
    if mode in ("flood", "blank", "trickle"):
        env.step(player.act(env))  # its first move is fine
        env.step(8)
    started = time.monotonic()
    with pytest.raises(error, match=message) as caught:
        player.act(env)
    assert time.monotonic() - started < 5
    assert len(str(caught.value)) < 400  # the 4,301 digits are not quoted in full
    player.close()
    assert none_left(tmp_path)


def test_a_garbage_answer_forfeits_the_game_not_the_match(tmp_path):
    env_fn = functools.partial(gomoku_v0.env, board_size=9)
    result = match(env_fn, f"pbrain:{launcher(tmp_path, 'huge')}:tolerance_ms=3000", "random", games=2,
                   progress=False)  # fmt: skip
    assert result.games == 2 and none_left(tmp_path)


def test_close_ends_an_engine_that_ignores_end_and_sigterm(tmp_path):
    player = engine(launcher(tmp_path, "stubborn"), turn_time_ms=100, tolerance_ms=100)
    with pytest.raises(EngineTimeout):
        player.act(after_one_move())
    other = engine(launcher(tmp_path, "stubborn"))
    other._start_game(after_one_move().unwrapped.game_state.game)
    started = time.monotonic()
    other.close()
    assert time.monotonic() - started < 5 and none_left(tmp_path)


@pytest.mark.parametrize("settle_ms, glitches", [(0, "some"), (5, "none")])  # the fake drops for 3 ms
def test_an_engine_that_drops_commands_after_answering_loses_no_game(tmp_path, settle_ms, glitches):
    # The fake drops a command word read within 3 ms of its answer, as Rapfi does while its
    # "thinking" flag is still set, and answers the argument with ERROR Unknown command.
    path = launcher(tmp_path, "race", "3")
    player = engine(path, settle_ms=settle_ms, match_time_ms=600_000, turn_time_ms=5000)
    env_fn = functools.partial(gomoku_v0.env, board_size=9)
    for seed in range(4):
        players = (player, RandomPolicy(seed=seed)) if seed % 2 == 0 else (RandomPolicy(seed=seed), player)
        winner, moves = play_game(env_fn, *players)
        assert winner in (0, 1, 2) and len(moves) >= 9  # a forfeit ends a game at the engine's first move
    assert (player.glitches > 0) == (glitches == "some"), player.glitches
    assert "> RESTART" in player.transcript
    player.close()
    assert none_left(tmp_path)


def test_a_move_command_lost_word_for_word_is_sent_again(tmp_path):
    # Under load Rapfi can lose both words of "TURN x,y" (its printing thread is held off with the
    # flag still set) and then says nothing: a move's whole time limit of silence would forfeit the
    # game. An engine heard talking while it thinks, silent for LOST_S after such a line, gets it again.
    player = engine(launcher(tmp_path, "racesilent", "50"), settle_ms=0, turn_time_ms=30_000)
    env_fn = functools.partial(gomoku_v0.env, board_size=9)
    started = time.monotonic()
    for seed in range(2):
        players = (player, RandomPolicy(seed=seed)) if seed % 2 == 0 else (RandomPolicy(seed=seed), player)
        winner, moves = play_game(env_fn, *players)
        assert winner in (0, 1, 2) and len(moves) >= 9  # no forfeit
    assert player.glitches > 0 and time.monotonic() - started < 60  # about a second a lost line, not 30
    sent = [line for line in player.transcript if line.startswith("> TURN")]
    assert len(sent) > len(set(sent))  # a TURN went twice
    player.close()
    assert none_left(tmp_path)


def test_errors_echoing_our_lines_forever_meet_the_move_deadline(tmp_path):
    # After its first move the fake meets "INFO time_left N" (sent just after that answer, so
    # it may have been lost) with "ERROR Unknown command: N" every 10 ms, forever: each looks
    # like a lost INFO's echo. The move's deadline is absolute: the limit plus the tolerance
    # from when the move was asked, however many lines come.
    import threading

    player = engine(launcher(tmp_path, "echoerror"), match_time_ms=60_000, turn_time_ms=300, tolerance_ms=300)
    env = after_one_move()
    env.step(player.act(env))
    env.step(2)
    outcome: list[BaseException] = []

    def second_move() -> None:
        try:
            player.act(env)
        except BaseException as exc:  # noqa: BLE001 (the test reads it)
            outcome.append(exc)

    thread = threading.Thread(target=second_move, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(15)
    took = time.monotonic() - started
    if thread.is_alive():  # stalled: end the engine so the thread and the test can finish
        os.killpg(player.pid, signal.SIGKILL)
        thread.join(10)
    assert took < 5, f"the second move took {took:.1f} s, past its 0.6 s deadline"
    assert len(outcome) == 1 and isinstance(outcome[0], EngineTimeout), outcome
    assert "did not answer 'TURN" in str(outcome[0])
    player.close()
    assert none_left(tmp_path)


def test_a_lost_restart_is_sent_again(tmp_path):
    # RESTART has no argument to echo: lost, it is met by silence, and sent again after a short wait.
    player = engine(launcher(tmp_path, "race", "50"), settle_ms=0)
    env = after_one_move()
    env.step(player.act(env))
    assert player._expect_ok("RESTART")
    assert player.glitches == 1 and player.transcript.count("> RESTART") == 2
    player.close()
    assert none_left(tmp_path)


def test_a_slow_restart_sent_twice_leaves_no_stray_ok(tmp_path):
    # RESTART just after a move, silent for 1.2 s: taken as lost and sent again; the first
    # copy's late OK must not be read as the next move.
    player = engine(launcher(tmp_path, "lazyrestart", "1.2"), settle_ms=0, turn_time_ms=5000)
    env = after_one_move()
    env.step(player.act(env))
    fresh = gomoku_v0.raw_env(board_size=9, rule="freestyle")
    fresh.reset()
    assert player.act(fresh) == 0  # RESTART (twice), then BEGIN: the first empty point
    assert player.glitches == 1 and player.transcript.count("> RESTART") == 2
    player.close()


def test_options_become_info_lines(tmp_path):
    path = launcher(tmp_path, "good")
    player = make_policy(f"pbrain:{path}:nodes=1000,depth=8,threads=1,info.caution_factor=2,info.PONDER=0")
    player.act(after_one_move())
    sent = [line for line in player.transcript if line.startswith("> INFO ")]
    for line in ("INFO MAX_NODE 1000", "INFO MAX_DEPTH 8", "INFO THREAD_NUM 1", "INFO caution_factor 2",
                 "INFO PONDER 0"):  # fmt: skip
        assert f"> {line}" in sent
    assert sent.index("> INFO rule 0") < sent.index("> INFO MAX_NODE 1000")
    player.close()
    with pytest.raises(PolicySpecError, match="'turn' is not an argument of policy 'pbrain'"):
        make_policy(f"pbrain:{path}:turn=100")
    with pytest.raises(ValueError, match="nodes must be a positive integer"):
        make_policy(f"pbrain:{path}:nodes=0")
    with pytest.raises(ValueError, match=r"info.MAX_NODE= is what nodes= sends .*; write nodes=10000000000000"):
        make_policy(f"pbrain:{path}:info.MAX_NODE=10000000000000")  # not past the stated maximum by another name
    with pytest.raises(ValueError, match="info.max_depth= is what depth= sends"):
        make_policy(f"pbrain:{path}:info.max_depth=9")
    with pytest.raises(ValueError, match="INFO key .a b.: expected letters"):
        GomocupEngine(path, info={"a b": 1})
    with pytest.raises(ValueError, match="expected one word"):
        GomocupEngine(path, info={"x": "1\nBEGIN"})
    assert none_left(tmp_path)


def test_programs_that_cannot_run_are_one_line_naming_the_path(tmp_path):
    text = tmp_path / "pbrain-text"
    text.write_text("not a program")
    cases = [("/nonexistent/pbrain-x", "/nonexistent/pbrain-x does not exist"),
             (str(text), f"{text} is not an executable file"), (str(tmp_path), f"{tmp_path} is a directory")]
    for path, message in cases:
        with pytest.raises(EngineStartError, match=message) as caught:
            GomocupEngine(path).act(after_one_move())
        assert "\n" not in str(caught.value)
    with pytest.raises(EngineStartError, match="does not exist"):
        make_policy("pbrain:/nonexistent").act(after_one_move())


def test_escape_sequences_from_an_engine_are_escaped(tmp_path, caplog):
    player = engine(launcher(tmp_path, "escape"))
    assert player.about()["name"] == "fake\\x1b[31m\\x07"
    with caplog.at_level(logging.INFO, logger="boardgame_envs.gomocup"):
        player.act(after_one_move())
    assert "\x1b" not in caplog.text and "\\x1b[2J" in caplog.text
    assert not any("\x1b" in line for line in player.transcript)
    player.close()


def _parent(script: str, folder: Path) -> subprocess.Popen:
    errors = open(folder / "parent.err", "w")  # read in failure messages
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE, text=True,
                            stderr=errors, cwd=str(folder))  # fmt: skip


@pytest.mark.parametrize("stop", ["sigint", "workers_killed", "finish"])
def test_workers_leave_no_engine_behind(tmp_path, stop):
    mode = "good" if stop == "finish" else "stubborn"
    path = launcher(tmp_path, mode, helper=True)
    script = f"""
        import functools, sys
        from boardgame_envs import gomoku_v0
        from boardgame_envs.arena import match
        print("go", flush=True)
        env_fn = functools.partial(gomoku_v0.env, board_size=9)
        try:
            match(env_fn, "pbrain:{path}:turn_ms=60000,tolerance_ms=60000", "random", games=2, jobs=2,
                  progress=False)
        except KeyboardInterrupt:
            sys.exit(130)
    """
    parent = _parent(script, tmp_path)
    workers: set[int] = set()
    try:
        assert parent.stdout.readline().strip() == "go", (tmp_path / "parent.err").read_text()
        if stop != "finish":
            deadline = time.time() + 60
            while len(recorded(tmp_path)) < 4 and time.time() < deadline:  # both engines and their helpers
                time.sleep(0.1)
            assert len(recorded(tmp_path)) == 4
            engines = set(recorded(tmp_path))
            workers = {_worker_of(pid, parent.pid) for pid in engines} - {None}
            if stop == "sigint":  # Ctrl-C: the terminal signals the parent; its workers ignore SIGINT
                parent.send_signal(signal.SIGINT)
            else:  # workers killed as no handler can see (SIGKILL): each one's keeper ends its engines
                for worker in workers:
                    os.kill(worker, signal.SIGKILL)
                parent.kill()
        parent.wait(60)
        assert recorded(tmp_path) and none_left(tmp_path), _alive(recorded(tmp_path))
        deadline = time.time() + 10  # the workers end with the match, too: none is left to init
        while _alive(sorted(workers)) and time.time() < deadline:
            time.sleep(0.1)
        assert not _alive(sorted(workers)), _alive(sorted(workers))
    finally:  # whatever failed above, this test leaves nothing running
        parent.kill()
        for worker in workers:
            try:
                os.kill(worker, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _worker_of(pid: int, top: int) -> int | None:
    """The arena worker above ``pid``: its ancestor whose parent is ``top`` (the match's process). An engine's
    parent is its subreaper shim, not the worker, so the worker is found by walking up, not as the parent."""
    while pid not in (0, 1):
        up = _parent_of(pid)
        if up == top:
            return pid
        pid = up
    return None


def _alive(pids: list[int]) -> list[str]:
    """What is still running among ``pids``, for a failure message."""
    out = []
    for pid in pids:
        try:
            out.append(f"{pid}: {Path(f'/proc/{pid}/cmdline').read_bytes().replace(bytes(1), b' ').decode()}")
        except OSError:
            pass
    return out


@pytest.mark.parametrize("escape", [False, True])
def test_no_orphans_when_the_parent_is_killed(tmp_path, escape):
    # (escape: the engine's launcher also starts "setsid sleep 300", outside its group: the keeper's
    # SIGTERM reaches the shim, which ends it too.)
    if escape and not sys.platform.startswith("linux"):
        pytest.skip("the subreaper is Linux's (prctl)")
    path = launcher(tmp_path, "good", escape=escape)
    script = f"""
        import time
        from boardgame_envs import gomoku_v0
        from boardgame_envs.gomocup import GomocupEngine
        engine = GomocupEngine({path!r})
        env = gomoku_v0.raw_env(board_size=9); env.reset(); env.step(40)
        engine.act(env)
        print(engine.pid, flush=True)
        time.sleep(60)
    """
    parent = _parent(script, tmp_path)
    pid = int(parent.stdout.readline())
    parent.send_signal(signal.SIGKILL)
    parent.wait(60)
    assert gone(pid)  # its stdin closed: the brain ends at the end of its input
    assert os.path.exists(FAKE)
    assert len(recorded(tmp_path)) == (2 if escape else 1) and none_left(tmp_path)


def test_an_engine_that_ignores_its_node_budget_is_named_once(tmp_path, caplog):
    # The fake reads no INFO key: told MAX_NODE 1000, it still thinks 0.4 s of its 0.45 s clock.
    player = make_policy(f"pbrain:{launcher(tmp_path, 'slow', '0.4')}:nodes=1000,turn_ms=450,tolerance_ms=5000")
    env = after_one_move()
    with caplog.at_level(logging.WARNING, logger="boardgame_envs.gomocup"):
        env.step(player.act(env))
        env.step(8)
        player.act(env)
    warnings = [r.getMessage() for r in caplog.records if "under a budget" in r.getMessage()]
    assert len(warnings) == 1 and "(MAX_NODE 1000): does it read that INFO key?" in warnings[0]
    player.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's (prctl)")
@pytest.mark.parametrize("ending", ["close", "crash", "fault"])
def test_a_descendant_that_leaves_the_engines_session_ends_with_it(tmp_path, ending):
    # "setsid sleep 300" in a launcher: a new session and process group, so ending the engine's
    # group missed it, and it ran on after every game though no orphan should.
    player = engine(launcher(tmp_path, "crash" if ending == "crash" else "good", escape=True))
    deadline = time.monotonic() + 10
    if ending == "crash":
        with pytest.raises(EngineCrashed, match="exit code 3"):  # the engine's own exit code, as before
            player.act(after_one_move())
    else:
        player.act(after_one_move())
        while len(recorded(tmp_path)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        escaped = [pid for pid in recorded(tmp_path) if os.getsid(pid) != os.getsid(player.pid)]
        assert escaped and not gone(escaped[0], 0.2)  # it runs, outside the engine's session
        if ending == "fault":
            os.killpg(player.pid, signal.SIGTERM)  # the engine's group ended by another hand: a crash at the next move
            with pytest.raises(EngineCrashed):
                env = after_one_move()
                env.step(0)
                player.act(env)
    player.close()
    while len(recorded(tmp_path)) < 2 and time.monotonic() < deadline:  # (a crash may come before the sleep's touch)
        time.sleep(0.02)
    assert len(recorded(tmp_path)) == 2 and none_left(tmp_path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's (prctl)")
def test_only_the_shim_is_a_subreaper_and_other_children_are_undisturbed(tmp_path):
    # Our own process must not adopt the orphans of its other children (Ray's, pytest's) nor have
    # their exit statuses taken: a subprocess started beside the engines is waited for as usual.
    import ctypes

    def subreaper_flag() -> int:
        flag = ctypes.c_int(-1)
        assert ctypes.CDLL(None, use_errno=True).prctl(37, ctypes.byref(flag), 0, 0, 0) == 0  # PR_GET_CHILD_SUBREAPER
        return flag.value

    before = subreaper_flag()
    beside = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5); raise SystemExit(7)"])
    player = engine(launcher(tmp_path, "good", escape=True))
    player.act(after_one_move())
    assert subreaper_flag() == before == 0
    assert "prctl(36, 1" in Path(f"/proc/{player.pid}/cmdline").read_text()  # the process we started is the shim
    # a double fork beside the engines: its grandchild goes to init (or the machine's subreaper), not to us
    daemon = subprocess.run([sys.executable, "-c", "import os, subprocess, sys; "
                             "p = subprocess.Popen(['sleep', '5'], start_new_session=True); print(p.pid)"],
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    orphan = int(daemon.stdout)
    parent = int(Path(f"/proc/{orphan}/stat").read_text().rsplit(")", 1)[1].split()[1])
    assert parent != os.getpid()
    os.kill(orphan, signal.SIGKILL)
    player.close()
    assert beside.wait(60) == 7  # its status is still ours to read
    assert none_left(tmp_path)
