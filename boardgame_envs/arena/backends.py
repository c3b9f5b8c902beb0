"""Where games run: in this process, in local worker processes, or on Ray.

:func:`run_tasks` returns a generator of results **in task order** whatever
order the games finish in, so the caller's counting (and an SPRT's stopping
point) is the same for every backend and number of jobs. Closing the
generator (the caller does it at the end, on an early stop, on Ctrl-C or on
an error) stops the workers: the process pool is terminated, pending Ray
tasks are cancelled. Local workers ignore SIGINT, so Ctrl-C reaches only the
main process, which then stops them.

:class:`Workers` keeps the same workers for several batches of tasks (the
ladder's ``rate`` chooses each batch's opponent from the results of the one
before); :func:`run_tasks` is one batch on workers of its own.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

BACKENDS = ("local", "ray")

__all__ = ["BACKENDS", "Workers", "check_backend", "run_tasks"]


def check_backend(backend: str) -> None:
    """Raise ValueError for an unknown backend, or for ``"ray"`` where Ray is not installed."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError("backend 'ray' needs Ray: pip install 'boardgame-envs[distributed]'") from None


def run_tasks(fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int, backend: str = "local") -> Generator:
    """``fn(task)`` for every task, yielded in order; ``jobs`` at a time. A bad backend raises here, at once."""
    check_backend(backend)
    return _run(fn, tasks, jobs, backend)


def _run(fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int, backend: str) -> Generator:
    with Workers(jobs, backend) as workers:
        yield from workers.run(fn, tasks)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


class Workers:
    """``jobs`` workers on ``backend`` (in this process when local and ``jobs == 1``), for one or more batches.

    Use as a context manager: leaving it stops the workers at once (the pool is
    terminated, Ray tasks still pending are cancelled), so a caller that stops
    reading results early (a deadline, Ctrl-C, an error) does not wait for the
    games it did not take. Ray is joined through ``RAY_ADDRESS`` when a cluster
    was started with ``ray start``; otherwise a local one starts.
    """

    def __init__(self, jobs: int = 1, backend: str = "local") -> None:
        check_backend(backend)
        self.jobs, self.backend = jobs, backend
        self._pool = None
        self._pending: deque = deque()
        self._remote: dict[Callable, Any] = {}
        if backend == "ray":
            import ray

            if not ray.is_initialized():
                ray.init(include_dashboard=False, log_to_driver=False)
        elif jobs > 1:
            self._pool = multiprocessing.Pool(jobs, initializer=_ignore_sigint)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator:
        """``fn(task)`` for every task, in task order."""
        if self.backend == "ray":
            return self._on_ray(fn, tasks)
        if self._pool is not None:
            return self._pool.imap(fn, tasks)
        return map(fn, tasks)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()  # games still queued or in flight are not wanted
            self._pool.join()
            self._pool = None
        if self._pending:
            import ray

            for ref in self._pending:
                ray.cancel(ref, force=True)
            self._pending.clear()

    def _on_ray(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Generator:
        import ray

        if fn not in self._remote:
            self._remote[fn] = ray.remote(num_cpus=1)(fn)
        remote, pending, waiting = self._remote[fn], self._pending, iter(tasks)
        for task in waiting:  # at most 2 * jobs tasks queued at a time
            pending.append(remote.remote(task))
            if len(pending) >= 2 * self.jobs:
                break
        while pending:
            result = ray.get(pending[0])
            pending.popleft()
            task = next(waiting, None)
            if task is not None:
                pending.append(remote.remote(task))
            yield result
