"""One process at a time on a shared resource (a training run, a ladder's game log): a lock file with its holder's pid.

Holding the lock is holding ``flock(LOCK_EX)`` on the open lock file, an atomic primitive of the kernel:
two processes can never both hold it, whatever the interleaving, and the kernel lets go of it when its
holder dies, however it dies (``kill -9`` included). The pid written in the file only names the holder
in messages: a second process is refused with :class:`InUseError`, one line naming that pid; a file left
by a process that is gone is simply locked again, with a line on stderr saying whose it was; a lock this
process already holds is taken again (an object rebuilt on its own resource, as tests and notebooks do).

Invariant: a process unlinks the lock file only while it holds the lock on it, and a process that gets the
lock checks that the file it locked is still the one at the path (else it opens the path again), so no
process ever removes or takes a lock another one holds. Only a regular file is used (a FIFO, a device or
a symlink at the path is refused in one line), and reading its pid reads a few bytes at most. A full disk
while the pid is written is one line (:class:`~boardgame_envs.safeio.DiskFullError`), the lock let go and
its file removed. A lock holds processes of one machine apart: ``flock`` over a network file system may not.

Where the system has no ``flock`` (Windows), the kernel's lock on the file is taken through ``filelock`` (a
byte-range lock there, let go by the system when the holder dies too) and the pid is written to a file beside
it, ``<lock>.pid``; a refusal names that pid, but whether a previous holder is still running is not asked
(``os.kill(pid, 0)`` would end the process on Windows), so a takeover's line says only whose lock it was.
"""

from __future__ import annotations

import errno as errno_codes
import os
import stat
import sys
import threading
import time
from pathlib import Path

from boardgame_envs.safeio import DiskFullError, FileRefusedError
from boardgame_envs.safeio.errors import DISK_FULL
from boardgame_envs.safeio.files import refuse_irregular

try:
    import fcntl
except ImportError:  # pragma: no cover (Windows: no flock)
    fcntl = None  # type: ignore[assignment]

PID_SUFFIX = ".pid"  # without flock, the pid file beside the lock file: <lock>.pid
PID_BYTES = 32  # a pid line is under 12 bytes; a lock file is never read further
_OPEN_TRIES = 20  # a file unlinked between our open and our lock sends us round again; holders come and go
_OWNER_WAIT_S = 1.0  # a holder writes its pid right after it locks: how long a refused process waits to read it

# The locks this process holds, by the lock file's (device, inode): a second object on the same file shares the
# descriptor (flock conflicts between two descriptors of one process too). Without flock: filelock's locks, by path.
_HELD: dict[tuple[int, int], int] = {}
_PORTABLE: dict[str, object] = {}
_INHERITED: list[object] = []  # a forked child's copies of its parent's filelock objects (see _forget_in_child)
_HELD_GUARD = threading.Lock()


class InUseError(ValueError):
    """Another live process holds the lock; the message names it."""


class PidLock:
    """A lock file at ``path`` holding its owner's pid; :meth:`acquire`, :meth:`release`, or ``with``.

    Args:
        path: the lock file (its folder is created).
        subject: what the lock guards, as messages name it (a folder, a log file).
        holder: what holds it, as in "in use by another <holder>".
        advice: what the refused user can do, ending the refusal's line.
    """

    error: type[InUseError] = InUseError  # raised on refusal (a subclass may name its own)

    def __init__(self, path: str | os.PathLike, subject: str, holder: str, advice: str) -> None:
        self.path = Path(path)
        self.subject, self.holder, self.advice = subject, holder, advice
        self.held = False
        self._key: tuple[int, int] | None = None
        self._portable_key: str | None = None

    @property
    def pid_path(self) -> Path:
        """Where the holder's pid is written: the lock file itself, or beside it where there is no flock."""
        return self.path if fcntl is not None else self.path.with_name(self.path.name + PID_SUFFIX)

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            self._acquire_portable()
            return
        for _ in range(_OPEN_TRIES):
            fd = self._open()
            try:
                if self._take(fd):
                    return
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # the file was unlinked or replaced after we opened it: open the path again
        raise self.error(f"cannot lock {self.subject}: other processes kept taking it; try again")

    def _acquire_portable(self) -> None:
        """The lock without flock: filelock's exclusive lock on the lock file, the pid in :attr:`pid_path`."""
        from filelock import FileLock, Timeout

        key = str(self.path.resolve())
        with _HELD_GUARD:
            if key in _PORTABLE:  # this process holds it already: share it, as with flock
                self._portable_key, self.held = key, True
                return
            for path in (self.path, self.pid_path):
                try:
                    refuse_irregular(path, os.lstat(path).st_mode, "lock file")
                except FileNotFoundError:
                    pass
                except (FileRefusedError, IsADirectoryError) as exc:
                    raise self._refusal(exc) from None
            lock = FileLock(str(self.path), timeout=0, thread_local=False)
            try:
                lock.acquire()
            except Timeout:
                owner = self._wait_for_owner()
                who = f"pid {owner}" if owner is not None else "a process that has not written its pid yet"
                raise self.error(f"{self.subject} is in use by another {self.holder} ({who}); {self.advice}") from None
            previous = self.owner()
            if previous is not None and previous != os.getpid():
                print(f"taking over the lock of {self.subject} (pid {previous}, which no longer holds it)",
                      file=sys.stderr)  # fmt: skip
            try:
                with open(self.pid_path, "w", encoding="ascii") as out:
                    out.write(f"{os.getpid()}\n")
            except OSError as exc:
                _unlink_quietly(self.pid_path)
                lock.release()
                if exc.errno in DISK_FULL:
                    raise DiskFullError(self.pid_path, exc.errno) from None
                raise
            _PORTABLE[key] = lock
            self._portable_key, self.held = key, True

    def _wait_for_owner(self) -> int | None:
        """The pid beside a lock held elsewhere, waiting briefly for a holder that has not yet written it."""
        deadline = time.monotonic() + _OWNER_WAIT_S
        while True:
            pid = self.owner()
            if pid is not None or time.monotonic() > deadline:
                return pid
            time.sleep(0.01)

    def _open(self) -> int:
        """A descriptor of the lock file (created if missing), checked to be a regular file."""
        try:
            refuse_irregular(self.path, os.lstat(self.path).st_mode, "lock file")  # a device is never even opened
        except FileNotFoundError:
            pass
        except (FileRefusedError, IsADirectoryError) as exc:
            raise self._refusal(exc) from None
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            if exc.errno in DISK_FULL:
                raise DiskFullError(self.path, exc.errno) from None
            if exc.errno in (errno_codes.ELOOP, errno_codes.ENXIO, errno_codes.EISDIR):  # a symlink, socket, folder
                raise self._refusal(FileRefusedError(self.path, "the lock file is not a regular file")) from None
            raise
        try:
            refuse_irregular(self.path, os.fstat(fd).st_mode, "lock file")
        except (FileRefusedError, IsADirectoryError) as exc:
            os.close(fd)
            raise self._refusal(exc) from None
        return fd

    def _refusal(self, exc: BaseException) -> InUseError:
        return self.error(f"cannot lock {self.subject}: {exc}; remove {self.path} if nothing else uses it")

    def _take(self, fd: int) -> bool:
        """Lock ``fd`` for this object; False if its file is no longer the one at the path. Raises if held."""
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino)
        with _HELD_GUARD:
            if key in _HELD:  # this process holds it already (another object on the same resource): share it
                self._key, self.held = key, True
                return True
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                owner = _wait_for_pid(fd)
                who = f"pid {owner}" if owner is not None else "a process that has not written its pid yet"
                raise self.error(f"{self.subject} is in use by another {self.holder} ({who}); {self.advice}") from None
            if not _same_file(self.path, info):
                return False  # its holder let go and removed it meanwhile: ours would be a lock on nothing
            self._note_takeover(_read_pid(fd), fd)
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except OSError as exc:
                os.unlink(self.path)  # ours (locked and checked): no empty lock file is left behind
                if exc.errno in DISK_FULL:
                    raise DiskFullError(self.path, exc.errno) from None
                raise
            _HELD[key] = os.dup(fd)  # the table keeps its own descriptor: the caller closes the one it opened
            self._key, self.held = key, True
            return True

    def _note_takeover(self, previous: int | None, fd: int) -> None:
        """Say so on stderr when the file names a process that no longer holds it (killed before it let go)."""
        if previous is None or previous == os.getpid():
            if previous is None and os.fstat(fd).st_size:
                print(f"taking over the lock of {self.subject} (unreadable)", file=sys.stderr)
            return
        what = "no longer running" if not alive(previous) else "which no longer holds it"
        print(f"taking over the lock of {self.subject} (pid {previous}, {what})", file=sys.stderr)

    def owner(self) -> int | None:
        """The pid written in the lock file; None if there is none or it cannot be read (never waits)."""
        path = self.pid_path
        try:
            refuse_irregular(path, os.lstat(path).st_mode, "lock file")
            flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(path, flags)
        except (OSError, FileRefusedError):
            return None
        try:
            return _read_pid(fd)
        finally:
            os.close(fd)

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        if self._portable_key is not None:
            with _HELD_GUARD:
                lock = _PORTABLE.pop(self._portable_key, None)
                if lock is not None:  # (None: another object of this process on the same file let go already)
                    _unlink_quietly(self.pid_path)  # while still held: no one else's pid is removed
                    lock.release()  # type: ignore[attr-defined]
            return
        with _HELD_GUARD:
            fd = _HELD.pop(self._key, None) if self._key is not None else None
            if fd is None:  # another object of this process on the same file let go of it already
                return
            try:
                if _same_file(self.path, os.fstat(fd)):
                    os.unlink(self.path)  # still locked by us: no one else can hold this file
            except OSError:
                pass
            finally:
                os.close(fd)  # the kernel lets go of the flock

    def __enter__(self) -> PidLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _same_file(path: Path, info: os.stat_result) -> bool:
    try:
        now = os.lstat(path)
    except FileNotFoundError:
        return False
    return (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino) and stat.S_ISREG(now.st_mode)


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _read_pid(fd: int) -> int | None:
    """The pid at the start of the lock file ``fd``: a few bytes read, None if none is there."""
    try:
        if hasattr(os, "pread"):
            head = os.pread(fd, PID_BYTES, 0)
        else:  # pragma: no cover (Windows)
            os.lseek(fd, 0, os.SEEK_SET)
            head = os.read(fd, PID_BYTES)
        pid = int(head.split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if pid > 0 else None  # (kill(0) and kill(-1) would reach whole groups, not a process)


def _wait_for_pid(fd: int) -> int | None:
    """The holder's pid, waiting briefly for a holder that has locked the file but not yet written its pid over
    the previous one's (the file is empty, or names a process that is gone)."""
    deadline = time.monotonic() + _OWNER_WAIT_S
    while True:
        pid = _read_pid(fd)
        if (pid is not None and alive(pid)) or time.monotonic() > deadline:
            return pid
        time.sleep(0.01)


def _forget_in_child() -> None:
    """After a fork, the child holds no lock of its own: close its copies (the parent's locks stay, shared
    descriptions are let go only when the last descriptor closes), so a child outliving its parent keeps nothing."""
    global _HELD_GUARD
    _HELD_GUARD = threading.Lock()  # (a thread of the parent may have held it at the fork)
    for fd in _HELD.values():
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()
    # filelock's objects (no flock on the system) are kept, never released nor collected: releasing one, or its
    # __del__, would unlock the description the parent shares.
    _INHERITED.extend(_PORTABLE.values())
    _PORTABLE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (under any user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True
