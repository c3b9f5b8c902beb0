"""RunProgress: a run's CPU budget as a bar on a terminal, plain lines in a log; RunClock hands it its rating lines."""

from __future__ import annotations

import io
import math
import re
import sys
import warnings

import pytest

from boardgame_envs.ladder.rating import Rating
from boardgame_envs.selfplay.progress import RunProgress
from boardgame_envs.selfplay.runclock import RunClock


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is when a person watches the run."""

    def isatty(self) -> bool:
        return True


RATING = Rating("ppo", "gomoku9", elo=512.0, low=430.0, high=594.0, games=200)
# The bar's status: CPU-hours done of the budget, steps, hours left, the last Elo and its interval.
STATUS = r"ppo gomoku9: +{pct}%\|.*\| {done}/2\.000 CPU-h \[.*, {steps} steps, {left} CPU-h left{elo}\]"


def test_in_a_log_it_writes_plain_lines_on_stdout_beside_the_runs_own_and_none_on_stderr(capsys):
    with RunProgress(2.0, done_hours=0.25, steps=1_000, desc="ppo gomoku9") as progress:
        progress.write("rating at 0.250 CPU-h: ...")
        progress.rated(RATING)
        progress.update(9_000, 0.5)
    out, err = capsys.readouterr()
    assert err == "" and "\r" not in out and "\x1b" not in out
    lines = out.splitlines()
    assert re.fullmatch(STATUS.format(pct="12", done="0.250", steps="1,000", left="1.750", elo=""), lines[0]), lines[0]
    assert lines[1] == "rating at 0.250 CPU-h: ..."
    elo = re.escape(", Elo +512 (95% +430 .. +594)")
    assert re.fullmatch(STATUS.format(pct="25", done="0.500", steps="9,000", left="1.500", elo=elo), lines[-1]), out
    assert len(lines) == 3  # the updates in between wait for the log's interval; the last state is written at the end


def test_on_a_terminal_it_draws_a_bar_on_stderr_and_the_runs_lines_on_stdout(capsys, monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    progress = RunProgress(2.0, steps=0, desc="ppo gomoku9")
    progress.update(4_096, 0.1)
    progress.rated(RATING)
    progress.write("rating at 0.100 CPU-h: ...")
    progress.update(8_192, 0.2)
    progress.close()
    progress.close()  # closing twice does nothing
    out = capsys.readouterr().out
    assert out == "rating at 0.100 CPU-h: ...\n"  # the bar stays on the terminal
    frames = [f for f in terminal.getvalue().split("\r") if f.strip()]
    elo = re.escape(", Elo +512 (95% +430 .. +594)")
    assert re.fullmatch(STATUS.format(pct="10", done="0.200", steps="8,192", left="1.800", elo=elo) + "\n",
                        frames[-1]), frames  # fmt: skip
    assert len(frames) >= 2 and terminal.getvalue().count("\n") == 1  # redrawn in place, one line left at the end


def test_past_the_budget_the_bar_stays_full_and_warns_nothing(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # tqdm warns when a bar is filled past its total
        with RunProgress(0.001, desc="ppo gomoku9") as progress:
            progress.update(64, 0.0015)  # the budget's last rating goes a little past it
    last = capsys.readouterr().out.splitlines()[-1]
    assert "100%" in last and "0.001/0.001 CPU-h" in last and "0.000 CPU-h left" in last and "<00:00" in last


def test_without_a_budget_it_counts_the_hours_alone(capsys):
    with RunProgress(math.inf, desc="ppo gomoku9") as progress:
        progress.update(64, 0.25)
    last = capsys.readouterr().out.splitlines()[-1]
    assert re.fullmatch(r"ppo gomoku9: 0\.250 CPU-h \[.*, 64 steps\]", last), last


@pytest.mark.parametrize("bad", [math.nan, -1.0, "2", True])
def test_a_budget_that_is_not_hours_is_refused(bad):
    with pytest.raises(ValueError, match="cpu_hours must be a number of CPU-hours"):
        RunProgress(bad)
    with pytest.raises(ValueError, match="done_hours"):
        RunProgress(2.0, done_hours=math.inf)


def test_disabled_it_shows_nothing_but_the_runs_lines(capsys):
    with RunProgress(2.0, disable=True) as progress:
        progress.update(64, 0.5)
        progress.write("update 1")
    assert capsys.readouterr() == ("update 1\n", "")


def test_runclock_hands_its_rating_line_to_say_instead_of_printing_it(tmp_path, capsys):
    heard = []
    rating = RunClock().rate("random", "tictactoe", games=4, seed=0, csv_path=tmp_path / "curve.csv",
                             columns={"steps": 0}, say=heard.append)  # fmt: skip
    assert capsys.readouterr().out == ""
    assert len(heard) == 1 and heard[0].startswith("rating at ") and rating.describe() in heard[0]
