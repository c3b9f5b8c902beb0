"""Text from outside (a record's names and comments, an engine's messages) made safe to print on a terminal."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, and the C1 range (U+0080..U+009F, where a lone CSI is U+009B):
# any of them can start an escape sequence that retitles, recolours or clears the user's terminal.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with every control character but tab and newline written as a visible escape (``\\x1b``).

    Nothing is dropped, so the reader still sees that the text held an escape sequence.
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
