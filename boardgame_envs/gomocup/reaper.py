"""No engine outlives us: whatever way our process ends, the engines it started end too.

Every :class:`~boardgame_envs.gomocup.process.EngineProcess` is tracked here while it runs.
They are closed at interpreter exit (``atexit``), when a ``multiprocessing`` worker exits
(its finalizers: workers leave through ``os._exit``, which skips ``atexit``), and on
``SIGTERM`` (a pool's ``terminate()``), after which the signal takes its course. For the
one way no handler sees, ``SIGKILL``, a keeper process (one per process that runs
engines, started with the first) holds a pipe whose write end only we hold, with the list
of our engines' process groups; when the pipe ends, it ends every group still listed.
"""

from __future__ import annotations

import atexit
import multiprocessing.util
import os
import signal
import subprocess
import sys
import threading
import weakref
from typing import Any


def track(process: Any, group: int) -> None:
    """Close ``process`` (its group is ``group``) however we end, until :func:`untrack`."""
    _LIVE.add(process)
    _tell_keeper(f"+{group}")
    _guard_sigterm()


def untrack(process: Any, group: int) -> None:
    _LIVE.discard(process)
    _tell_keeper(f"-{group}")


_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()
_previous_sigterm: Any = None


def _close_all(quick: bool = False) -> None:
    for process in list(_LIVE):
        try:
            process.close(grace_s=0.0) if quick else process.close()
        except Exception:  # at exit, best effort for every engine
            pass


def _stop_keeper() -> None:
    """At a clean exit, after our engines are closed: end the keeper (it has nothing left to do) and reap it."""
    global _keeper
    keeper, _keeper = _keeper, None
    if keeper is not None:
        try:
            keeper[0].stdin.close()
            keeper[0].wait(2)
        except (OSError, subprocess.TimeoutExpired):
            pass


atexit.register(_stop_keeper)  # atexit runs last-registered first: this one after _close_all
atexit.register(_close_all)
# multiprocessing workers leave through os._exit, which skips atexit; its finalizers do run.
multiprocessing.util.Finalize(None, _close_all, exitpriority=100)


# The keeper: one small process per Python process that runs engines, in a session of its
# own. It holds the read end of a pipe whose write end only we hold, and a list of our
# engines' process groups; when the pipe ends (our process is gone, even by SIGKILL, which
# no handler of ours can see), it ends every group still listed.
_KEEPER_CODE = """
import os, signal, sys, time
groups = set()
for line in sys.stdin:
    sign, group = line[:1], int(line[1:])
    (groups.add if sign == "+" else groups.discard)(group)
for sig in (signal.SIGTERM, signal.SIGKILL):
    for group in groups:
        try:
            os.killpg(group, sig)
        except OSError:
            pass
    # A subreaper shim ends the descendants outside its group after SIGTERM (within about 0.3 s):
    # SIGKILL only the groups still there after that, and no sooner.
    end = time.monotonic() + (1.3 if sig == signal.SIGTERM else 0)
    while time.monotonic() < end:
        live = set()
        for group in groups:
            try:
                os.killpg(group, 0)
                live.add(group)
            except OSError:
                pass
        groups = live
        if not groups:
            break
        time.sleep(0.02)
"""
_keeper: Any = None  # (the keeper's Popen, our write end) in the process that started it


def _tell_keeper(line: str) -> None:
    global _keeper
    if os.name != "posix":
        return
    if _keeper is None or _keeper[0].poll() is not None:
        try:
            proc = subprocess.Popen([sys.executable, "-S", "-c", _KEEPER_CODE], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        except OSError:  # no keeper: the other paths (close, atexit, SIGTERM) still end our engines
            return
        _keeper = (proc, proc.stdin.fileno())
    try:
        os.write(_keeper[1], (line + "\n").encode())
    except OSError:
        pass


def _forget_keeper() -> None:
    """In a forked child: the parent's keeper is the parent's; this process starts its own when it needs one."""
    global _keeper
    if _keeper is not None:
        proc, _ = _keeper
        try:
            proc.stdin.close()  # so that the parent's keeper sees its pipe end when the parent ends
        except OSError:
            pass
        proc.returncode = 0  # not our child: nothing here may wait for it or warn that it runs
    _keeper = None
    _LIVE.clear()  # the parent's engines are the parent's to end


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_keeper)


def _on_sigterm(signum: int, frame: Any) -> None:
    """End our engines, then die of SIGTERM as we would have (or run the handler that was there)."""
    _close_all(quick=True)
    previous = _previous_sigterm
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


def _guard_sigterm() -> None:
    """Install :func:`_on_sigterm` once, from the main thread (the only one that may)."""
    global _previous_sigterm
    if _previous_sigterm is not None or threading.current_thread() is not threading.main_thread():
        return
    current = signal.getsignal(signal.SIGTERM)
    if current is _on_sigterm:
        return
    _previous_sigterm = signal.SIG_DFL if current is None else current
    signal.signal(signal.SIGTERM, _on_sigterm)


