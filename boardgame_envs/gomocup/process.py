"""An external engine's process: lines in, lines out, wall-clock deadlines, bounded chatter, and no orphans.

:class:`EngineProcess` runs a program with pipes on its stdin, stdout and stderr. Its
output is read in the caller's thread with ``select`` on the raw file descriptors, so
a deadline is a deadline on the clock whatever the engine prints, and nothing ever
blocks on a pipe that a grandchild of the engine still holds open. Every failure
raises a typed :class:`EngineError` naming the engine and, where it helps, its exit
code and last stderr lines (control characters escaped); a process that failed is ended.

Bounds: a line longer than :data:`~boardgame_envs.gomocup.protocol.MAX_LINE_BYTES`, or
more than :data:`MAX_CHATTER_LINES` lines / :data:`MAX_CHATTER_BYTES` bytes of
``MESSAGE``/``DEBUG``/blank chatter while we wait for one answer, is a fault
(:class:`EngineProtocolError`).

No orphans: the engine runs in its own session (its own process group), and the whole
group is ended (``SIGTERM``, then ``SIGKILL`` after :data:`KILL_GRACE_S`) on
:meth:`EngineProcess.close`, on any fault, when the object is garbage-collected, at
interpreter exit, when a ``multiprocessing`` worker exits, and on ``SIGTERM`` to our
process (a pool's ``terminate()``). If our process dies without any of these
(``SIGKILL``), a keeper process sees its pipe from us end and ends every engine group we
left (:mod:`~boardgame_envs.gomocup.reaper`). On Linux the engine is started through a
subreaper shim (:mod:`~boardgame_envs.gomocup.subreaper`), which also ends the descendants
that left its group (``setsid``); the process we start, and whose group we end, is then the
shim's. POSIX only: Windows has no ``select`` on pipes.
"""

from __future__ import annotations

import logging
import os
import select
import shlex
import signal
import subprocess
import time
from collections import deque
from collections.abc import Sequence

from boardgame_envs.games.mnk import IllegalMoveError
from boardgame_envs.gomocup import reaper, subreaper
from boardgame_envs.gomocup.protocol import MAX_LINE_BYTES, clip, printable
from boardgame_envs.policies.base import Forfeit

log = logging.getLogger("boardgame_envs.gomocup")

END_GRACE_S = 1.0  # how long close() waits after END before it ends the group
KILL_GRACE_S = 0.3  # between SIGTERM and SIGKILL
SHIM_SLACK_S = 1.0  # past KILL_GRACE_S, how long a subreaper shim may take to end the engine's descendants
STDERR_LINES = 20  # the engine's last stderr lines kept for error messages
TRANSCRIPT_LINES = 400  # the last protocol lines kept in EngineProcess.transcript
MAX_CHATTER_LINES = 1000  # chatter lines (MESSAGE, DEBUG, blank) allowed while waiting for one answer
MAX_CHATTER_BYTES = 1_000_000
POLL_S = 0.05  # how often a wait checks whether the engine's own process is still there
_CHATTER = ("MESSAGE", "DEBUG", "SUGGEST")  # lines an engine may print at any time; logged, never answers


class EngineError(RuntimeError):
    """A Gomocup engine that could not be used; the message names the engine and what happened."""


class EngineStartError(EngineError):
    """The engine did not start: no such program, it exited or stayed silent, or it refused START or the rule."""


class EngineFault(EngineError, Forfeit):
    """The engine failed during a game, which it loses."""


class EngineCrashed(EngineFault):
    """The engine's process ended (or closed its pipes) in the middle of a game."""


class EngineTimeout(EngineFault):
    """The engine did not answer within the move's time limit plus the tolerance; it was killed."""


class EngineProtocolError(EngineFault):
    """The engine answered something that is not a move (or ``ERROR``), or flooded us with lines."""


class EngineIllegalMove(EngineFault, IllegalMoveError):
    """The engine played off the board, on a stone, or (black, renju) on a forbidden point."""


def argv_of(command: str | Sequence[str]) -> list[str]:
    """The argv of ``command``: an existing file as its absolute path, else a command line split as a shell would.

    (A command relative to ``cwd`` is found there, as ``subprocess`` does on POSIX.)
    """
    if isinstance(command, str):
        path = os.path.expanduser(command)
        argv = [os.path.abspath(path)] if os.path.isfile(path) else shlex.split(command)
    elif isinstance(command, Sequence) and all(isinstance(c, str) for c in command):
        argv = list(command)
    else:
        argv = []
    if not argv:
        raise ValueError(f"command must be a program path, a command line or a list of strings, got {command!r}")
    return argv


def check_program(program: str, cwd: str | None, name: str) -> None:
    """Raise :class:`EngineStartError` naming ``program`` if it cannot be run (missing, a folder, not executable)."""
    if os.sep not in program and (os.altsep is None or os.altsep not in program):
        import shutil

        if shutil.which(program) is None and not (cwd and os.path.isfile(os.path.join(cwd, program))):
            raise EngineStartError(f"cannot run {name}: {program!r} is not an executable file or on the PATH")
        return
    path = program if cwd is None or os.path.isabs(program) else os.path.join(cwd, program)
    if not os.path.exists(path):
        raise EngineStartError(f"cannot run {name}: {path} does not exist (not an executable file)")
    if os.path.isdir(path):
        raise EngineStartError(f"cannot run {name}: {path} is a directory, not an executable file")
    if not os.access(path, os.X_OK):
        raise EngineStartError(f"cannot run {name}: {path} is not an executable file (chmod +x it?)")


class EngineProcess:
    """A running engine: :meth:`send` a line, :meth:`answer` the next one; raises :class:`EngineError` kinds."""

    def __init__(self, argv: list[str], cwd: str | None, name: str, transcript: deque[str] | None = None) -> None:
        self.name = name
        # "> sent" and "< received" lines; the caller may share one deque across processes
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES) if transcript is None else transcript
        self._lines: deque[str] = deque()  # complete lines read, not yet taken
        self._partial = bytearray()
        self._err_partial = bytearray()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._eof = False
        self._overlong = False
        self.lines_heard = 0  # every line the engine has written so far, chatter included
        check_program(argv[0], cwd, name)
        try:
            self._proc: subprocess.Popen | None = subprocess.Popen(
                subreaper.launch_argv(argv, KILL_GRACE_S), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=cwd, bufsize=0, start_new_session=os.name == "posix",
            )  # fmt: skip
        except OSError as exc:
            raise EngineStartError(f"cannot run {name} ({' '.join(argv)}): {exc}") from None
        self._owner = os.getpid()  # a forked child holds a copy of this object, not the engine
        self._fds = {self._proc.stdout.fileno(): "out", self._proc.stderr.fileno(): "err"}
        for fd in self._fds:
            os.set_blocking(fd, False)
        reaper.track(self, self._proc.pid)

    # ------------------------------------------------------------ state
    @property
    def alive(self) -> bool:
        return self._proc is not None and not self._exited()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self.alive else None

    def _exited(self) -> bool:
        """Whether the engine's own process has ended (without reaping it: its group id stays reserved)."""
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    # ------------------------------------------------------------ reading
    def _read(self, timeout_s: float) -> bool:
        """Read what the engine has written within ``timeout_s``; whether anything (or the end) came."""
        if self._proc is None or not self._fds:
            return False
        try:
            ready, _, _ = select.select(list(self._fds), [], [], max(0.0, timeout_s))
        except (OSError, ValueError):
            return False
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if self._fds.get(fd) == "out":
                self._take(chunk)
            else:
                self._take_stderr(chunk)
            if not chunk:
                self._fds.pop(fd, None)
        return bool(ready)

    def _take(self, chunk: bytes) -> None:
        if not chunk:
            self._eof = True
            if self._partial:
                self._lines.append(self._partial.decode("utf-8", "replace"))
                self._partial.clear()
            return
        self._partial += chunk
        *complete, rest = self._partial.split(b"\n")
        for raw in complete:
            self._lines.append(raw.rstrip(b"\r").decode("utf-8", "replace"))
        self.lines_heard += len(complete)
        self._partial = bytearray(rest)
        if len(self._partial) > MAX_LINE_BYTES:
            self._overlong = True
            self._partial.clear()

    def _take_stderr(self, chunk: bytes) -> None:
        self._err_partial += chunk
        *complete, rest = self._err_partial.split(b"\n")
        for raw in complete:
            self._stderr.append(clip(printable(raw.decode("utf-8", "replace").rstrip("\r")), 200))
        self._err_partial = bytearray(rest[-MAX_LINE_BYTES:])
        if not chunk and self._err_partial:
            self._stderr.append(clip(printable(self._err_partial.decode("utf-8", "replace")), 200))
            self._err_partial.clear()

    def _next(self, deadline: float) -> str | None:
        """The next output line by ``deadline`` (wall clock), None at the end of the output; raises TimeoutError."""
        while True:
            if self._overlong:
                self._overlong = False
                self.fail(EngineProtocolError, f"{self.name} wrote a line longer than {MAX_LINE_BYTES} bytes")
            if self._lines:
                return self._lines.popleft()
            if self._eof:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if not self._read(min(left, POLL_S)) and self._exited():
                # The process is gone; a grandchild may hold the pipe open, so do not wait for its end.
                self._read(0)
                if not self._lines:
                    return None

    # ------------------------------------------------------------ the protocol's side
    def send(self, line: str, starting: bool = False) -> None:
        """Write one line to the engine; :class:`EngineCrashed` if it is gone (:class:`EngineStartError` while ``starting``).

        A program that cannot start (a missing file next to a launcher script, say) may
        exit before its first command is written: that is a failure to start, as when it
        exits before answering that command.
        """
        self.transcript.append(f"> {line}")
        try:
            data = (line + "\n").encode()
            while data:
                data = data[os.write(self._proc.stdin.fileno(), data) :]
        except (AttributeError, OSError, ValueError):
            kind = EngineStartError if starting else EngineCrashed
            self.fail(kind, f"{self.name} is gone (it could not be sent {line!r})")

    def drain(self) -> None:
        """Discard (and log) lines the engine sent unasked, before a new command; a closed output is a crash."""
        volume = [0, 0]
        while self._read(0) or self._lines:
            while self._lines:
                line = self._lines.popleft()
                self._note(line, volume, "between moves")
                if line.strip() and not line.strip().upper().startswith(_CHATTER):
                    log.warning("%s said %r unasked; ignored", self.name, clip(printable(line.strip())))
        if self._eof or self._exited():
            self.fail(EngineCrashed, f"{self.name} exited between moves")

    def answer(
        self, command: str, timeout_s: float, starting: bool = False, patient: bool = False,
        silent_s: float | None = None, deadline: float | None = None,
    ) -> str | None:  # fmt: skip
        """The engine's next line that is not chatter (``MESSAGE``, ``DEBUG``, blank: logged), within ``timeout_s``.

        The limit is on the wall clock from this call, whatever the engine prints, or, given
        ``deadline`` (a ``time.monotonic()`` instant), from when the caller's ``timeout_s``
        began: several answers read for one move share its one deadline. Silence
        kills the engine and raises :class:`EngineTimeout`, an exit :class:`EngineCrashed`,
        too much chatter :class:`EngineProtocolError`; the first two are
        :class:`EngineStartError` instead while ``starting``. With ``patient``, silence
        returns None and the engine lives on (a probe, not a move's deadline). With
        ``silent_s``, an engine that writes no line at all, not even chatter, within that
        time returns None too (it did not hear the command); once it has spoken, the
        full ``timeout_s`` applies.
        """
        if deadline is None:
            deadline = time.monotonic() + timeout_s
        quiet = None if silent_s is None else time.monotonic() + silent_s
        volume = [0, 0]
        while True:
            try:
                line = self._next(deadline if quiet is None else min(deadline, quiet))
            except TimeoutError:
                if patient or quiet is not None and time.monotonic() < deadline:
                    return None
                kind = EngineStartError if starting else EngineTimeout
                self.fail(kind, f"{self.name} did not answer {command!r} within {timeout_s:.2f} s; killed")
            if line is None:
                kind = EngineStartError if starting else EngineCrashed
                self.fail(kind, f"{self.name} exited while we waited for its answer to {command!r}")
            quiet = None  # it spoke: it heard the command
            text = line.strip()
            if text and not text.upper().startswith(_CHATTER):
                self.transcript.append(f"< {clip(printable(text))}")
                return text
            self._note(line, volume, f"while we waited for its answer to {command!r}")

    def _note(self, line: str, volume: list[int], when: str) -> None:
        """Log one line of chatter and count it against the bounds (a flood is a fault)."""
        text = printable(line.strip())
        self.transcript.append(f"< {clip(text)}")
        if text:
            log.info("%s: %s", self.name, clip(text, 500))
        volume[0] += 1
        volume[1] += len(line) + 1
        if volume[0] > MAX_CHATTER_LINES or volume[1] > MAX_CHATTER_BYTES:
            self.fail(EngineProtocolError, f"{self.name} flooded us with more than {MAX_CHATTER_LINES} lines or "
                                           f"{MAX_CHATTER_BYTES} bytes of chatter {when}")  # fmt: skip

    def fail(self, kind: type[EngineError], message: str) -> None:
        """End the engine's process group and raise ``kind(message)``, with its exit code and last stderr lines."""
        proc = self._proc
        details = ""
        if proc is not None:
            deadline = time.monotonic() + (0 if kind is EngineTimeout else 0.5)
            while not self._exited() and time.monotonic() < deadline:  # exiting: give it a moment to say how
                self._read(0.02)
            exited = self._exited()
            end = time.monotonic() + 0.2
            while "err" in self._fds.values() and time.monotonic() < end and self._read(0.02):
                pass  # its last stderr lines
            self._end(grace_s=0.0)
            if exited and proc.returncode is not None:
                details = f" (exit code {proc.returncode})"
        tail = [line for line in self._stderr if line]
        if tail:
            details += "; its stderr ended with: " + " | ".join(tail)
        raise kind(message + details)

    def close(self, grace_s: float = END_GRACE_S) -> None:
        """Send ``END``, give the engine ``grace_s`` to leave, then end its whole group; idempotent, never blocks."""
        proc = self._proc
        if proc is None:
            return
        if not self._exited():
            try:
                os.write(proc.stdin.fileno(), b"END\n")
            except (OSError, ValueError):
                pass
            deadline = time.monotonic() + grace_s
            while not self._exited() and time.monotonic() < deadline:
                time.sleep(0.01)
        self._end(grace_s=KILL_GRACE_S)

    def _end(self, grace_s: float) -> None:
        """End the whole process group (SIGTERM, ``grace_s``, SIGKILL), reap our child, close our pipe ends."""
        proc, self._proc = self._proc, None
        if proc is None or os.getpid() != self._owner:
            return
        # SIGTERM, then SIGKILL: the group may outlive its leader (children it started), so whatever is left
        # goes; a process the second wait does not see end is stuck in the kernel and left to init. A shim
        # (Linux) ends the rest itself on SIGTERM, within its grace: it is given that long before SIGKILL,
        # which would leave the descendants outside the group to init.
        shim_s = KILL_GRACE_S + SHIM_SLACK_S if subreaper.AVAILABLE else 0.0
        for stage, wait_s in (("TERM", max(grace_s, shim_s)), ("KILL", 5.0)):
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, getattr(signal, "SIG" + stage))
                else:  # no process groups: the process alone
                    (proc.terminate if stage == "TERM" else proc.kill)()
            except OSError:
                pass
            try:
                proc.wait(wait_s)
            except subprocess.TimeoutExpired:
                pass
        reaper.untrack(self, proc.pid)
        for stream in (proc.stdin, proc.stdout, proc.stderr):  # nobody else reads them: closing cannot block
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        self._fds = {}

    def __del__(self) -> None:
        try:
            self._end(grace_s=0.0)
        except Exception:  # at interpreter exit, modules may already be gone
            pass
