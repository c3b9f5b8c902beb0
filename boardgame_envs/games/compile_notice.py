"""One line on stderr when numba must compile kernels that its on-disk cache does not hold.

Every kernel is compiled with ``cache=True``: the first run after an install
(or after a kernel's source changed) compiles, later processes load the
machine code in a fraction of a second. A user who waits ten seconds for a
first move should know why, and that it happens once. :func:`compile_notice`
guards a block that loads or compiles kernels and listens to numba's event
API: the ``"numba:compile"`` event starts only when a function is not in the
cache, so the line is printed exactly when a compilation begins, once per
block, and never for a load. It sits in ``games``, the lowest layer, so
the rules and every layer above may use it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from numba.core import event


class _FirstCompile(event.Listener):
    """Prints the notice when the first compilation in the block starts."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.said = False

    def on_start(self, ev: event.Event) -> None:
        if not self.said:
            self.said = True
            print(self.line, file=sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


@contextmanager
def compile_notice(what: str, estimate_s: float) -> Iterator[None]:
    """Print ``boardgame_envs: compiling WHAT, once: ~N s`` to stderr if numba compiles anything in the block.

    ``estimate_s`` is the compilation time measured on the development machine,
    a hint of how long the wait is. Nothing is printed when every kernel comes
    from the cache.
    """
    listener = _FirstCompile(f"boardgame_envs: compiling {what}, once: ~{estimate_s:.0f} s")
    with event.install_listener("numba:compile", listener):
        yield
