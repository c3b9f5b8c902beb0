"""Our brain against hostile managers: huge fields, huge lines, control characters, closed pipes; a fuzz test."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgame_envs.gomocup import Brain, LauncherError, serve, write_launcher
from boardgame_envs.gomocup.brain import MAX_MEMORY, UNLIMITED_MS, move_time
from boardgame_envs.gomocup.protocol import MAX_LINE_BYTES
from boardgame_envs.policies import MCTSPolicy, RandomPolicy

HUGE = "7" * 4301  # one digit past what int() reads by default


def run(lines, policy=None):
    out = []
    brain = Brain(policy or RandomPolicy(seed=0), out.append)
    for line in lines:
        brain.handle(line)
    return out, brain


@pytest.mark.parametrize("line", [
    f"TURN {HUGE},3", f"PLAY 3,{HUGE}", f"TAKEBACK {HUGE},{HUGE}", f"RECTSTART {HUGE},9", f"START {HUGE}",
])  # fmt: skip
def test_huge_numbers_are_one_short_error_and_the_brain_goes_on(line):
    out, brain = run(["START 9", "BEGIN", line, "TURN 0,0"])
    assert out[0] == "OK" and len(out) == 4, out
    assert out[2].startswith("ERROR") and len(out[2]) < 300
    assert "more characters" in out[2] or line.startswith("PLAY")  # (PLAY is refused first: not our turn)
    assert not out[3].startswith("ERROR") and len(brain.moves) == 3


@pytest.mark.parametrize("line, key, kept", [
    ("INFO time_left 2147483647", "time_left", UNLIMITED_MS),  # the protocol's own "no limit"
    ("INFO timeout_match 2147483647", "timeout_match", UNLIMITED_MS),
    ("INFO max_memory 1073741824", "max_memory", 1073741824),  # 1 GB: ten digits
    ("INFO max_memory 68719476736", "max_memory", 68719476736),  # 64 GB
    (f"INFO timeout_turn {HUGE}", "timeout_turn", UNLIMITED_MS),  # absurd: clamped
    ("INFO time_left 99999999999999999999999", "time_left", UNLIMITED_MS),
    ("INFO time_left -5", "time_left", 0),
    (f"INFO max_memory {HUGE}", "max_memory", MAX_MEMORY),
    ("INFO max_memory lots", "max_memory", None),  # unreadable: let go, said in a MESSAGE
    (f"INFO rule -{HUGE}", "rule", None),
], ids=lambda value: value[:40] if isinstance(value, str) else None)  # fmt: skip
def test_info_never_gets_an_answer_and_absurd_values_are_clamped(line, key, kept):
    # A manager reads the line after its next command as that command's answer: an ERROR
    # to INFO would be taken for a move. Only MESSAGE lines, which every manager skips, may come.
    out, brain = run(["START 9", "BEGIN", line, "TURN 0,0"])
    assert out[0] == "OK" and len(out) >= 3, out
    assert all(reply.startswith("MESSAGE ") and len(reply) < 300 for reply in out[2:-1]), out
    assert not out[-1].startswith(("ERROR", "MESSAGE")) and len(brain.moves) == 3, out
    assert brain.info.get(key) == kept
    if kept is None:
        assert len(out) == 4 and "ignored" in out[2], out


def test_unlimited_time_left_means_no_limit():
    timed = MCTSPolicy(simulations=20, time_limit=30.0, seed=0)
    out, _ = run(["START 9", "INFO timeout_turn 5000", "INFO time_left 2147483647", "BEGIN"], timed)
    assert len(out) == 2 and timed.time_limit == pytest.approx(move_time(5000, None, None))


def test_huge_board_lines_are_refused_and_change_nothing():
    out, brain = run(["START 9", "BEGIN", "TURN 0,0"])
    moves = list(brain.moves)
    for board in ([f"{HUGE},1,1"], [f"1,1,{HUGE}"], ["1,1,1"] * 500):
        out.clear()
        for line in ["BOARD", *board, "DONE"]:
            brain.handle(line)
        assert len(out) == 1 and out[0].startswith("ERROR") and len(out[0]) < 300, out
        assert brain.moves == moves


def test_control_characters_in_a_command_are_escaped():
    out, _ = run(["\x1b[2J\x07frob", "START 9", "TURN \x1b]2;owned\x07"])
    assert out[0] == "UNKNOWN command '\\x1b[2J\\x07frob' is not supported"
    assert "\x1b" not in out[2] and "\\x1b]2;owned\\x07" in out[2]
    _, named = run([], None)
    assert "\x1b" not in Brain(RandomPolicy(), print, name="a\x1b[31mb").name


def test_a_50_megabyte_command_is_not_echoed_in_full():
    stdin = io.StringIO("START 9\n" + "X" * 50_000_000 + "\nABOUT\nEND\n")
    stdout = io.StringIO()
    assert serve(RandomPolicy(seed=0), stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert lines[0] == "OK" and lines[1].startswith(f"ERROR a line longer than {MAX_LINE_BYTES} characters")
    assert len(lines[1]) < 300 and lines[2].startswith('name="')


def test_a_closed_pipe_ends_the_brain_quietly():
    code = "from boardgame_envs.gomocup import serve; from boardgame_envs.policies import RandomPolicy; " \
           "raise SystemExit(serve(RandomPolicy(seed=0)))"  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], input="START 9\n", capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "OK\n", "")
    # Our output closed (the manager went away): no traceback, status 0.
    read, write = os.pipe()
    os.close(read)
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=write, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    os.close(write)
    _, err = proc.communicate("START 9\nBEGIN\n", timeout=120)
    assert proc.returncode == 0 and "Traceback" not in err


WORDS = ["START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "DONE", "PLAY", "TAKEBACK", "ABOUT", "INFO",
         "rule", "timeout_turn", "time_left", "END", "frob"]  # fmt: skip
FIELD = st.one_of(
    st.integers(-3, 20).map(str),
    st.tuples(st.integers(-2, 20), st.integers(-2, 20)).map(lambda p: f"{p[0]},{p[1]}"),
    st.tuples(st.integers(0, 10), st.integers(0, 10), st.integers(0, 4)).map(lambda p: "%d,%d,%d" % p),
    st.text(max_size=12),
    st.just(HUGE),
)
LINE = st.one_of(st.builds(lambda w, f: f"{w} {f}", st.sampled_from(WORDS), FIELD), st.sampled_from(WORDS), FIELD)


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, max_size=25))
def test_fuzz_the_brain_never_breaks(lines):
    out = []
    brain = Brain(RandomPolicy(seed=0), out.append)
    for line in ["START 9", *lines]:
        if "\n" in line or "\r" in line:
            continue  # a line is a line: serve() splits the input at line breaks
        if not brain.handle(line):
            break
        # The brain's own game is always one the rules produced from its list of moves.
        if brain.state is not None:
            assert brain.state.num_moves == len(brain.moves)
    assert all(len(answer) < 400 and "\x1b" not in answer for answer in out)
    assert not any(answer.startswith("ERROR internal") for answer in out), out


def test_launcher_refuses_injection_overwrites_and_missing_folders(tmp_path):
    target = tmp_path / "brain.cmd"
    with pytest.raises(LauncherError, match="may run commands there"):
        write_launcher(target, "random", name='a" & calc.exe & echo "%PATH%')
    assert not target.exists()
    for bad in ("50%", "a|b", "a^b", "a>b", "a!b"):
        with pytest.raises(LauncherError):
            write_launcher(target, "random", name=bad)
    path = write_launcher(target, "mcts:simulations=200", name="My brain (v1.0)")
    assert '"--name" "My brain (v1.0)"' in path.read_text()
    with pytest.raises(LauncherError, match="exists; pass force=True"):
        write_launcher(target, "random")
    write_launcher(target, "random", force=True)
    with pytest.raises(LauncherError, match="there is no folder"):
        write_launcher(tmp_path / "missing" / "pbrain-x", "random")
    posix = write_launcher(tmp_path / "pbrain-x", "random", name='a" & calc.exe & echo "%PATH%')
    assert "'a\" & calc.exe & echo \"%PATH%'" in posix.read_text()  # shlex quotes it: one argument


def test_command_line_launcher_needs_force_to_overwrite(tmp_path, capsys):
    from boardgame_envs.cli import main

    target = tmp_path / "pbrain-r"
    assert main(["pbrain", "--policy", "random", "--write-launcher", str(target)]) == 0
    assert main(["pbrain", "--policy", "random", "--write-launcher", str(target)]) == 2
    assert capsys.readouterr().err.strip().endswith("exists; pass force=True (--force on the command line) to overwrite it")
    assert main(["pbrain", "--policy", "greedy", "--write-launcher", str(target), "--force"]) == 0
    assert "--policy greedy" in target.read_text()
    bad = ["pbrain", "--policy", "random", "--write-launcher", str(tmp_path / "x.cmd"), "--name", 'a" & calc.exe']
    assert main(bad) == 2 and not (tmp_path / "x.cmd").exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "may run commands there" in err


def test_a_bug_while_reading_info_is_a_message_not_an_answer(monkeypatch):
    out, brain = run(["START 9", "BEGIN"])

    def broken(bits):
        raise RuntimeError("a bug")

    monkeypatch.setattr(brain, "_set_rule", broken)
    brain.handle("INFO rule 4")
    assert out[2:] == ["MESSAGE INFO rule ignored: internal error: RuntimeError: a bug"]
