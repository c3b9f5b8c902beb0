"""The recipes' terminal check reads tqdm's last frame exactly: a closing frame shorter than the one before it
carries exactly the padding tqdm writes (the flaky case on a fresh clone: a pattern that allowed no spaces)."""

from __future__ import annotations

import io
import re

import pytest
from run_output import last_frame
from tqdm import tqdm


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _draw(*statuses: str) -> str:
    screen = Terminal()
    bar = tqdm(total=len(statuses), file=screen, desc="run", bar_format="{desc}: {postfix}")
    for status in statuses[:-1]:
        bar.set_postfix_str(status)  # drawn now
    bar.set_postfix_str(statuses[-1], refresh=False)
    bar.close()  # draws the last status over the one before, then ends the line
    return screen.getvalue()


@pytest.mark.parametrize("statuses", [
    ("a much longer status with an Elo", "short"),  # the last frame shorter: tqdm pads it
    ("short", "a much longer status with an Elo"),  # longer: no padding
    ("same length 1", "same length 2"),
])  # fmt: skip
def test_the_last_frame_is_read_whatever_tqdm_padded(statuses):
    screen = _draw(*statuses)
    padding = max(len(statuses[0]) - len(statuses[1]), 0)
    assert screen.endswith(f"run: , {statuses[-1]}" + " " * padding + "\n")  # what tqdm wrote
    assert last_frame(screen) == f"run: , {statuses[-1]}"
    assert re.fullmatch(re.escape(f"run: , {statuses[-1]}"), last_frame(screen))


def test_padding_that_is_not_tqdms_is_caught():
    screen = _draw("a much longer status with an Elo", "short")
    head, _, tail = screen.rpartition("\r")
    with pytest.raises(AssertionError):
        last_frame(head + "\r" + tail.replace("\n", "  \n"))  # two spaces more than tqdm writes
