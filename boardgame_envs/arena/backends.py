"""Where games run: in this process, in local worker processes, or on Ray; a dead worker is an error, never a hang.

:func:`run_tasks` returns a generator of results **in task order** whatever
order the games finish in, so the caller's counting (and an SPRT's stopping
point) is the same for every backend and number of jobs. Closing the
generator (the caller does it at the end, on an early stop, on Ctrl-C or on
an error) stops the workers: local worker processes are ended, pending Ray
tasks are cancelled. Local workers ignore SIGINT, so Ctrl-C reaches only the
main process, which then stops them.

A local worker dies with its parent, however the parent ends (``kill -9`` included: the
kernel's parent-death signal on Linux, a watchdog of the parent's pid everywhere), so
no worker is ever orphaned.

A worker that dies in the middle of a task (killed by a signal, out of
memory, a policy that calls ``os._exit``) is noticed at once: the parent
waits on each busy worker's result pipe *and* its process sentinel, so a
death wakes it as a result would. The task is played once more on a fresh
worker (a death can be the machine's fault, not the game's); a second death
raises :class:`WorkerError` naming the task. A task that raises
``SystemExit`` or ``KeyboardInterrupt`` inside a worker (where Ctrl-C cannot
come from: workers ignore it) raises :class:`WorkerError` too. On Ray, a
worker that dies surfaces as a ``RayError`` (``WorkerCrashedError``,
``RayActorError``); Ray retries the task once, then the same
:class:`WorkerError` is raised.

:class:`Workers` keeps the same workers for several batches of tasks (the
ladder's ``rate`` chooses each batch's opponent from the results of the one
before); :func:`run_tasks` is one batch on workers of its own.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

BACKENDS = ("local", "ray")
REPLAYS = 1  # times a task whose worker died is played again before it is an error

__all__ = ["BACKENDS", "ArenaError", "WorkerError", "Workers", "check_backend", "run_tasks"]


class ArenaError(RuntimeError):
    """A match could not go on: a policy or a worker failed in a way no game result can express."""


class WorkerError(ArenaError):
    """A worker died (or raised ``SystemExit``/``KeyboardInterrupt``) while it played a task; names the task."""


def check_backend(backend: str) -> None:
    """Raise ValueError for an unknown backend, or for ``"ray"`` where Ray is not installed."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError("backend 'ray' needs Ray: pip install 'boardgame-envs[distributed]'") from None


def run_tasks(
    fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int, backend: str = "local",
    describe: Callable[[int, Any], str] | None = None,
) -> Generator:  # fmt: skip
    """``fn(task)`` for every task, yielded in order; ``jobs`` at a time. A bad backend raises here, at once.

    ``describe(i, task)`` names task ``i`` in a :class:`WorkerError` (default ``"task i+1"``).
    """
    check_backend(backend)
    return _run(fn, tasks, jobs, backend, describe)


def _run(fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int, backend: str, describe: Any) -> Generator:
    with Workers(jobs, backend) as workers:
        yield from workers.run(fn, tasks, describe)


@dataclass(frozen=True)
class _Fatal:
    """What a worker sends back instead of a result when the task raised SystemExit or KeyboardInterrupt."""

    what: str


def _guarded(fn: Callable[[Any], Any], task: Any) -> Any:
    """``fn(task)`` in a worker; ``SystemExit``/``KeyboardInterrupt`` become a :class:`_Fatal`, not a dead worker."""
    try:
        return fn(task)
    except (SystemExit, KeyboardInterrupt) as exc:
        return _Fatal(f"{type(exc).__name__}({', '.join(map(repr, exc.args))})")


def _name(describe: Callable[[int, Any], str] | None, index: int, task: Any) -> str:
    return describe(index, task) if describe is not None else f"task {index + 1}"


def _check(value: Any, describe: Any, index: int, task: Any) -> Any:
    if isinstance(value, _Fatal):
        raise WorkerError(f"{_name(describe, index, task)}: {value.what} was raised inside its worker process")
    return value


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WATCH_PARENT_S = 0.5  # how often a worker looks whether its parent is still there (where prctl is missing)


def _die_with_parent(parent: int) -> None:
    """End this worker when its parent ends, however it ends (``kill -9`` included), so no worker is orphaned.

    A kill gives the parent no chance to stop its workers, and a worker's pipe does not report the parent gone:
    the workers forked after it hold copies of the parent's end. On Linux the kernel sends SIGKILL at the
    parent's death (``PR_SET_PDEATHSIG``); everywhere, a watchdog thread ends the worker once its parent pid
    changes (it is adopted by another process), within :data:`WATCH_PARENT_S`.
    """
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_PARENT_S)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _worker_main(conn: Connection, parent: int | None = None) -> None:
    """A local worker: receive ``(fn, task)``, send back ``(True, result)`` or ``(False, exception)``; None ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if parent is not None:
        _die_with_parent(parent)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if job is None:
            return
        fn, task = job
        try:
            reply = (True, _guarded(fn, task))
        except Exception as exc:  # the parent raises it, as if fn had run there
            reply = (False, exc)
        try:
            conn.send(reply)
        except Exception as exc:  # a result or an exception that does not pickle
            conn.send((False, RuntimeError(f"{type(exc).__name__} sending a result back: {exc}")))


class _Process:
    """One local worker process and the parent's end of its pipe."""

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, os.getpid()), daemon=True)
        self.process.start()
        child.close()
        self.job: tuple[int, Any] | None = None  # (index, task) in flight

    def how_it_died(self) -> str:
        self.process.join(1.0)
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with status {code}"

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()  # a game in flight is not wanted; its policy gets no say
        self.process.join()
        self.conn.close()


class _LocalPool:
    """``jobs`` worker processes, each playing one task at a time; results in task order; deaths detected."""

    def __init__(self, jobs: int) -> None:
        self._context = multiprocessing.get_context()
        self._workers = [_Process(self._context) for _ in range(jobs)]

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any], describe: Any) -> Generator:
        waiting = iter(enumerate(tasks))
        retry: deque[tuple[int, Any]] = deque()
        deaths: dict[int, int] = {}
        done: dict[int, Any] = {}
        next_out = 0
        exhausted = False
        while True:
            for worker in self._workers:  # give every idle worker a task
                if worker.job is None:
                    job = retry.popleft() if retry else (None if exhausted else next(waiting, None))
                    if job is None:
                        exhausted = True
                        continue
                    worker.job = job
                    try:
                        worker.conn.send((fn, job[1]))
                    except (BrokenPipeError, ConnectionResetError):  # it died while idle: its sentinel reports it
                        pass
            busy = [w for w in self._workers if w.job is not None]
            while next_out in done:  # in task order, failures too: the first failing task is the one reported
                next_out += 1
                ok, value = done.pop(next_out - 1)
                if not ok:
                    raise value
                yield value
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for i, worker in enumerate(self._workers):
                if worker.job is None or (worker.conn not in ready and worker.process.sentinel not in ready):
                    continue
                index, task = worker.job
                try:
                    ok, value = worker.conn.recv() if worker.conn.poll() else (None, None)
                except (EOFError, OSError):
                    ok = None
                if ok is None:  # no result and the process is gone
                    how = worker.how_it_died()
                    worker.stop()
                    self._workers[i] = _Process(self._context)
                    deaths[index] = deaths.get(index, 0) + 1
                    if deaths[index] > REPLAYS:
                        done[index] = (False, WorkerError(
                            f"{_name(describe, index, task)}: its worker process died ({how}), "
                            f"also when played again on a fresh worker"
                        ))  # fmt: skip
                    else:
                        retry.append((index, task))
                    continue
                worker.job = None
                if ok and isinstance(value, _Fatal):
                    ok, value = False, WorkerError(f"{_name(describe, index, task)}: {value.what} was raised inside its worker process")
                done[index] = (ok, value)

    def close(self) -> None:
        for worker in self._workers:
            worker.stop()
        self._workers = []


class Workers:
    """``jobs`` workers on ``backend`` (in this process when local and ``jobs == 1``), for one or more batches.

    Use as a context manager: leaving it stops the workers at once (local worker
    processes are killed, Ray tasks still pending are cancelled), so a caller that
    stops reading results early (a deadline, Ctrl-C, an error) does not wait for the
    games it did not take. Ray is joined through ``RAY_ADDRESS`` when a cluster was
    started with ``ray start``; otherwise a local one starts.
    """

    def __init__(self, jobs: int = 1, backend: str = "local") -> None:
        check_backend(backend)
        self.jobs, self.backend = jobs, backend
        self._pool: _LocalPool | None = None
        self._pending: deque = deque()
        self._remote: Any = None  # the Ray remote function, made on first use
        if backend == "ray":
            import ray

            if not ray.is_initialized():
                ray.init(include_dashboard=False, log_to_driver=False)
        elif jobs > 1:
            self._pool = _LocalPool(jobs)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any], describe: Callable[[int, Any], str] | None = None) -> Iterator:
        """``fn(task)`` for every task, in task order; ``describe(i, task)`` names a task in a :class:`WorkerError`."""
        if self.backend == "ray":
            return self._on_ray(fn, tasks, describe)
        if self._pool is not None:
            return self._pool.run(fn, tasks, describe)
        return map(fn, tasks)  # in this process: Ctrl-C and SystemExit mean what they always mean

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._pending:
            import ray

            for _, _, ref in self._pending:
                ray.cancel(ref, force=True)
            self._pending.clear()

    def _on_ray(self, fn: Callable[[Any], Any], tasks: Iterable[Any], describe: Any) -> Generator:
        import ray
        from ray.exceptions import RayError, RayTaskError

        if self._remote is None:
            # max_retries: a task whose worker died is played once more, as on local workers.
            self._remote = ray.remote(num_cpus=1, max_retries=REPLAYS)(_guarded)
        remote, pending, waiting = self._remote, self._pending, enumerate(tasks)
        for index, task in waiting:  # at most 2 * jobs tasks queued at a time
            pending.append((index, task, remote.remote(fn, task)))
            if len(pending) >= 2 * self.jobs:
                break
        while pending:
            index, task, ref = pending[0]
            try:
                result = ray.get(ref)
            except RayTaskError:
                raise  # the task's own exception (it is also an instance of that exception's class)
            except RayError as exc:  # WorkerCrashedError, RayActorError, ...: the worker is gone
                raise WorkerError(
                    f"{_name(describe, index, task)}: its Ray worker died ({type(exc).__name__}), "
                    f"also when played again"
                ) from None
            pending.popleft()
            following = next(waiting, None)
            if following is not None:
                pending.append((following[0], following[1], remote.remote(fn, following[1])))
            yield _check(result, describe, index, task)
