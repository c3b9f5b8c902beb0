"""An external engine's process: lines in, lines out, time limits, and no orphans.

:class:`EngineProcess` runs a program with pipes on its stdin, stdout and stderr; a
thread per output pipe reads lines, so that :meth:`EngineProcess.answer` can wait with
a timeout. Every failure raises a typed :class:`EngineError` naming the engine and,
where it helps, its exit code and last stderr lines; a process that failed is killed.

No orphans: the process ends on :meth:`EngineProcess.close` (``END``, then a kill after
:data:`END_GRACE_S`), when the object is garbage-collected, and at interpreter exit. On
POSIX it runs in its own process group, so the kill reaches any children it started. If
our process dies without any of these (``SIGKILL``), the engine's stdin closes; brains
that stop at the end of their input (ours included) exit then.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from typing import Any

from boardgame_envs.games.mnk import IllegalMoveError
from boardgame_envs.policies.base import Forfeit

log = logging.getLogger("boardgame_envs.policies.gomocup")

END_GRACE_S = 1.0  # how long close() waits after END before it kills
STDERR_LINES = 20  # the engine's last stderr lines kept for error messages
TRANSCRIPT_LINES = 400  # the last protocol lines kept in EngineProcess.transcript
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
    """The engine answered something that is not a move (or ``ERROR``)."""


class EngineIllegalMove(EngineFault, IllegalMoveError):
    """The engine played off the board, on a stone, or (black, renju) on a forbidden point."""


_LIVE: weakref.WeakSet[EngineProcess] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for process in list(_LIVE):
        process.close()


def _pump(stream: Any, put: Any) -> None:
    """Copy ``stream``'s lines to ``put`` until it ends, then put None (runs in a thread; holds no engine)."""
    try:
        for line in stream:
            put(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    put(None)


class EngineProcess:
    """A running engine: :meth:`send` a line, :meth:`answer` the next one; raises :class:`EngineError` kinds."""

    def __init__(self, argv: list[str], cwd: str | None, name: str, transcript: deque[str] | None = None) -> None:
        self.name = name
        # "> sent" and "< received" lines; the caller may share one deque across processes
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES) if transcript is None else transcript
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str | None] = deque(maxlen=STDERR_LINES)
        program = argv[0]
        if shutil.which(program) is None and not (cwd and shutil.which(os.path.join(cwd, program))):
            raise EngineStartError(f"cannot run {name}: {program!r} is not an executable file or on the PATH")
        try:
            self._proc: subprocess.Popen | None = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, text=True,
                encoding="utf-8", errors="replace", bufsize=1, start_new_session=os.name == "posix",
            )  # fmt: skip
        except OSError as exc:
            raise EngineStartError(f"cannot run {name} ({' '.join(argv)}): {exc}") from None
        for stream, put in ((self._proc.stdout, self._lines.put), (self._proc.stderr, self._stderr.append)):
            threading.Thread(target=_pump, args=(stream, put), daemon=True, name=f"{name}-pipe").start()
        _LIVE.add(self)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self.alive else None

    def send(self, line: str, starting: bool = False) -> None:
        """Write one line to the engine; :class:`EngineCrashed` if it is gone (:class:`EngineStartError` while ``starting``).

        A program that cannot start (a missing file next to a launcher script, say) may
        exit before its first command is written: that is a failure to start, as when it
        exits before answering that command.
        """
        self.transcript.append(f"> {line}")
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (AttributeError, OSError, ValueError):
            kind = EngineStartError if starting else EngineCrashed
            self.fail(kind, f"{self.name} is gone (it could not be sent {line!r})")

    def drain(self) -> None:
        """Discard (and log) lines the engine sent unasked, before a new command; a closed output is a crash."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.fail(EngineCrashed, f"{self.name} exited between moves")
            self.transcript.append(f"< {line.strip()}")
            if line.strip() and not line.strip().upper().startswith(_CHATTER):
                log.warning("%s said %r unasked; ignored", self.name, line.strip())

    def answer(self, command: str, timeout_s: float, starting: bool = False) -> str:
        """The engine's next line that is not chatter (``MESSAGE``, ``DEBUG``: logged), within ``timeout_s``.

        Silence kills the engine and raises :class:`EngineTimeout`, an exit :class:`EngineCrashed`;
        both are :class:`EngineStartError` instead while ``starting``.
        """
        deadline = time.perf_counter() + timeout_s
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                kind = EngineStartError if starting else EngineTimeout
                self.fail(kind, f"{self.name} did not answer {command!r} within {timeout_s:.2f} s; killed")
            if line is None:
                kind = EngineStartError if starting else EngineCrashed
                self.fail(kind, f"{self.name} exited while we waited for its answer to {command!r}")
            text = line.strip()
            self.transcript.append(f"< {text}")
            if text.upper().startswith(_CHATTER):
                log.info("%s: %s", self.name, text)
            elif text:
                return text

    def fail(self, kind: type[EngineError], message: str) -> None:
        """Kill the engine and raise ``kind(message)``, with its exit code and last stderr lines."""
        proc, self._proc = self._proc, None
        details = ""
        if proc is not None:
            try:  # a process that closed its output is usually exiting: give it a moment to say how
                proc.wait(0 if kind is EngineTimeout else 0.5)
                details = f" (exit code {proc.returncode})"
            except subprocess.TimeoutExpired:
                _kill(proc)
            deadline = time.perf_counter() + 0.5
            while (not self._stderr or self._stderr[-1] is not None) and time.perf_counter() < deadline:
                time.sleep(0.01)  # let the stderr thread read the last lines
        tail = [line for line in self._stderr if line]
        if tail:
            details += "; its stderr ended with: " + " | ".join(tail)
        raise kind(message + details)

    def close(self) -> None:
        """Send ``END``, give the engine :data:`END_GRACE_S` to leave, then kill it; idempotent."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None:
                try:
                    proc.stdin.write("END\n")
                    proc.stdin.close()
                except (OSError, ValueError):
                    pass
                try:
                    proc.wait(END_GRACE_S)
                except subprocess.TimeoutExpired:
                    _kill(proc)
        finally:
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter exit, modules may already be gone
            pass


def _kill(proc: subprocess.Popen) -> None:
    """Kill ``proc`` (on POSIX its whole process group) and reap it."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except OSError:
        pass
    proc.wait()
