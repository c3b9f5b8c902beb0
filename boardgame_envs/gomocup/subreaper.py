"""An engine's descendants end with it, even those that leave its session: a subreaper between us and the engine.

An engine runs in a session and process group of its own, and ending that group ends what
it started, unless a descendant left the group: ``setsid``, a daemon's double fork. Such a
process outlived every game. On Linux each engine is therefore started through a small
shim (:data:`SHIM_CODE`, ``python -S -c``, no import from this package): it marks itself a
*child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so that every orphaned descendant of
the engine is re-parented to it instead of to init, forks and ``exec`` s the engine (same
group, same pipes), reaps whatever it is given, and when the engine ends, by itself or by
``SIGTERM`` to the group, it ends all the rest: ``SIGTERM``, then ``SIGKILL`` after
:data:`~boardgame_envs.gomocup.process.KILL_GRACE_S`, every process of the group and every
child it adopted, until none is left; then it exits with the engine's exit status.

Only the shim is a subreaper: our own process is not, so the orphans of our other children
(Ray's, pytest's, a ``multiprocessing`` pool's) still go where they went, and no
``subprocess`` wait of ours is disturbed. The shim's pid is what :class:`EngineProcess` sees
as the engine's (its group's id).

Limits: where ``prctl`` is missing (not Linux) or refused, the engine runs as before,
without a shim, and a descendant that leaves its process group is not ended. A descendant
that leaves the session *and* whose parent is still alive when the engine ends is ended too
(the shim kills its way down: each kill orphans the next generation to the shim). A process
the engine hands to another service (``systemd-run``, ``at``, a container runtime) was never
its descendant and is not ended. ``kill -9`` of the shim itself re-parents the descendants
to init, as before.
"""

from __future__ import annotations

import sys

#: Whether engines start through the shim here (Linux: ``prctl`` is there).
AVAILABLE = sys.platform.startswith("linux")

# argv: GRACE_S PROGRAM ARGS...  stdin/stdout/stderr are the engine's pipes.
SHIM_CODE = r"""
import ctypes, os, signal, sys, time
grace, argv = float(sys.argv[1]), sys.argv[2:]
try:
    subreaper = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
except (OSError, AttributeError):
    subreaper = False


def run():
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(2, ("cannot run %s: %s\n" % (argv[0], exc.strerror)).encode())
        os._exit(127)


if not subreaper:
    run()  # the engine in our place: as without a shim
WAKE = {signal.SIGTERM, signal.SIGCHLD}
# Both are taken by sigtimedwait, never by a handler: nothing interrupts the cleanup half-way.
signal.pthread_sigmask(signal.SIG_BLOCK, WAKE)
engine = os.fork()
if engine == 0:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, WAKE)  # (a signal mask outlives exec)
    run()
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):  # the pipes are the engine's alone: they end when it ends
    os.dup2(null, fd)
me = os.getpid()
# The group is the engine's only if we lead it (started in a session of our own, as EngineProcess does);
# else it is our parent's, whose other members are none of ours to end.
group = me if os.getpgid(0) == me else None


def reap():
    # Every child of ours is the engine or an orphan of its: reaping any of them is ours to do.
    # Returns the engine's status if it was reaped now, and whether no child is left.
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status, True
        if pid == 0:
            return status, False
        if pid == engine:
            status = code


def others():
    # The processes to end: our children (the engine's orphans) and the engine's group, but us.
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and (int(fields[1]) == me or group is not None and int(fields[2]) == group):
            found.append(int(entry))
    return found


status, stopped, none = None, False, False
while status is None and not none:
    status, none = reap()
    if status is None and not none:
        info = signal.sigtimedwait(WAKE, 1.0)
        stopped = info is not None and info.si_signo == signal.SIGTERM
        if stopped:
            break
if stopped:  # SIGTERM, to the group (the engine has it too) or to us alone: the engine's grace, then SIGKILL
    try:
        os.kill(engine, signal.SIGTERM)
    except OSError:
        pass
    end = time.monotonic() + grace
    while status is None and not none and time.monotonic() < end:
        status, none = reap()
        time.sleep(0.005)
    if status is None and not none:
        os.kill(engine, signal.SIGKILL)
        try:
            status = os.waitpid(engine, 0)[1]
        except ChildProcessError:
            pass
for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
    end = time.monotonic() + wait
    while True:
        left = others()
        for pid in left:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        if (reap()[1] and not left) or time.monotonic() > end:
            break
        time.sleep(0.01)
    if not others():
        break
reap()
if status is None or os.WIFEXITED(status):
    os._exit(0 if status is None else os.WEXITSTATUS(status))
sig = os.WTERMSIG(status)  # the engine died of a signal: so do we, for our parent to read
try:
    signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
except (OSError, ValueError):
    pass
os.kill(me, sig)
os._exit(128 + sig)
"""


def launch_argv(argv: list[str], grace_s: float) -> list[str]:
    """The argv that starts the engine ``argv`` through the shim (``argv`` itself where there is none)."""
    if not AVAILABLE:
        return list(argv)
    return [sys.executable, "-S", "-c", SHIM_CODE, f"{grace_s:g}", *argv]
