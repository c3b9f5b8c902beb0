"""What a training recipe shows as it runs, read back from its output: the two PPO recipes' tests share it.

A recipe run with a budget shows a status (``RunProgress``): CPU-hours done of the budget and left, steps,
the last Elo with its interval. In a log (stderr not a terminal) it is plain lines on stdout beside the
run's rating lines, and stderr stays empty; on a terminal it is a bar redrawn on stderr, and stdout keeps
the run's own lines.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any, Callable


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is when a person watches the run."""

    def isatty(self) -> bool:
        return True


def check_shows_itself(main: Callable[[list[str]], int], argv: list[str], desc: str, capsys: Any,
                       monkeypatch: Any, terminal: bool) -> None:  # fmt: skip
    """Run ``main(argv)`` (a budget of a fraction of a CPU-second, rated with 4 games) and check what it showed."""
    screen = Terminal()
    if terminal:
        monkeypatch.setattr(sys, "stderr", screen)
    assert main(argv) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    ratings = [line for line in lines if line.startswith("rating at ")]
    curve = Path(argv[argv.index("--out") + 1]) / "curve.csv"
    assert len(ratings) == len(curve.read_text().splitlines()) - 1 >= 1, out  # one line a rating, as it is made
    last = re.fullmatch(r"rating at .*?: (.*) \(4 games, \d+ CPU-s\)", ratings[-1])
    assert last is not None and "Elo" in last[1] and "95%" in last[1], ratings[-1]
    # The status at the end: the budget spent, none left, the steps, the last rating with its interval.
    status = rf"{re.escape(desc)}: 100%\|.*\| \d\.\d{{3}}/0\.000 CPU-h \[.*, [\d,]+ steps, 0\.000 CPU-h left, "
    status += re.escape(last[1]) + r"\]"
    bars = [line for line in lines if line.startswith(f"{desc}:")]
    if terminal:
        body = last_frame(screen.getvalue())
        assert re.fullmatch(status, body), body
        assert bars == []  # the bar stays on the terminal; stdout keeps the run's lines
    else:
        assert err == "" and "\r" not in out  # a log gets whole lines, and stderr is left to errors
        assert len(bars) >= 2 and re.fullmatch(status, bars[-1]), bars
        assert re.search(r" 0\.000/0\.000 CPU-h \[.*, 0 steps, 0\.000 CPU-h left\]$", bars[0]), bars[0]
        assert lines.index(bars[-1]) > lines.index(ratings[-1])  # written after the rating it shows


def last_frame(screen: str) -> str:
    """The text of the last frame a tqdm bar drew on a terminal (``screen``: all it wrote), its padding checked.

    tqdm writes each frame over the one before (``"\\r" + text``) and pads a frame shorter than the one
    before it with exactly the spaces that blank the rest of that one; the closing frame ends the line.
    So the padding is exact, never a pattern's guess: it is the previous frame's length less this one's.
    """
    frames = [frame for frame in screen.split("\r") if frame.strip()]
    assert len(frames) >= 2 and frames[-1].endswith("\n"), frames[-3:]
    body, previous = frames[-1][:-1].rstrip(" "), frames[-2].rstrip(" ")
    assert len(frames[-1]) - 1 - len(body) == max(len(previous) - len(body), 0), frames[-2:]
    return body
