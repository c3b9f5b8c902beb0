"""Progress bars: tqdm's redrawn line on a terminal, plain lines at a sane rate in a file."""

from __future__ import annotations

import io
import subprocess
import sys

from boardgame_envs.arena import progress
from boardgame_envs.arena.progress import LineWriter, LogBar, progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_is_redrawn_in_place():
    out = Terminal()
    bar = progress_bar(total=3, desc="games", file=out)
    assert not isinstance(bar, LogBar)
    bar.update(3)
    bar.close()
    assert "\r" in out.getvalue()


def test_in_a_file_each_state_is_a_plain_line_and_the_end_is_kept(monkeypatch):
    monkeypatch.setattr(progress, "LOG_EVERY_S", 0.0)  # every update prints, so each one can be seen
    out = io.StringIO()
    bar = progress_bar(total=3, desc="games", unit="game", file=out, leave=False)
    for _ in range(3):
        bar.update()
    bar.close()
    text = out.getvalue()
    assert "\r" not in text and "\x1b" not in text and text.endswith("\n")
    lines = text.splitlines()
    assert lines[0].startswith("games:   0%") and lines[-1].startswith("games: 100%")  # kept despite leave=False
    assert all(line == line.rstrip() and line for line in lines)  # no padding meant to overwrite a longer line


def test_in_a_file_redraws_are_rate_limited():
    """400 updates with a postfix each (as rate() sets one a game) in well under LOG_EVERY_S: the start
    and the end only, where tqdm on a file wrote every one of them on one line."""
    out = io.StringIO()
    bar = progress_bar(total=400, desc="rating", file=out)
    for i in range(400):
        bar.update()
        bar.set_postfix_str(f"Elo {i}")
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "0/400" in lines[0] and "400/400" in lines[1] and "Elo 399" in lines[1]


def test_a_disabled_bar_in_a_file_takes_every_call_and_writes_nothing():
    out = io.StringIO()
    bar = progress_bar(total=2, desc="quiet", file=out, disable=True)
    bar.update()
    bar.set_postfix_str("Elo 0")  # as rate(progress=False) does
    bar.close()
    assert out.getvalue() == ""


def test_the_line_writer_drops_what_only_a_terminal_reads():
    out = io.StringIO()
    writer = LineWriter(out)
    writer.write("\rgames:  50%|#####     | 1/2   ")
    writer.write("\r          \r")  # tqdm clearing a bar
    writer.write("\n\x1b[Ainner: 1/3")  # a nested bar's cursor move
    assert out.getvalue() == "games:  50%|#####     | 1/2\ninner: 1/3\n"


def test_a_match_written_to_a_file_has_no_carriage_return(tmp_path):
    """The arena's bar through the command line, stderr sent to a file as nohup or CI would."""
    log = tmp_path / "log"
    with log.open("w") as err:
        done = subprocess.run([sys.executable, "-m", "boardgame_envs", "arena", "tictactoe", "random", "random",
                               "--games", "4"], stderr=err, stdout=subprocess.PIPE, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0
    text = log.read_text()
    assert "\r" not in text
    assert "vs random (B): 100%|" in text.splitlines()[-1]
