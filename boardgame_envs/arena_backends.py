"""Where a match's games run: in this process, in local worker processes, or on Ray.

:func:`run_tasks` returns a generator of results **in task order** whatever
order the games finish in, so the caller's counting (and an SPRT's stopping
point) is the same for every backend and number of jobs. Closing the
generator (the caller does it at the end, on an early stop, on Ctrl-C or on
an error) stops the workers: the process pool is terminated, pending Ray
tasks are cancelled. Local workers ignore SIGINT, so Ctrl-C reaches only the
main process, which then stops them.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Sequence
from typing import Any

BACKENDS = ("local", "ray")


def run_tasks(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int, backend: str = "local") -> Generator:
    """``fn(task)`` for every task, yielded in order; ``jobs`` at a time."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "ray":
        return _on_ray(fn, tasks, jobs)
    if jobs == 1:
        return (fn(task) for task in tasks)
    return _on_pool(fn, tasks, jobs)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_pool(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int) -> Generator:
    pool = multiprocessing.Pool(jobs, initializer=_ignore_sigint)
    try:
        yield from pool.imap(fn, tasks)
    finally:
        pool.terminate()
        pool.join()


def _on_ray(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int) -> Generator:
    try:
        import ray
    except ImportError:
        raise ValueError("backend 'ray' needs Ray: pip install 'boardgame-envs[distributed]'") from None
    if not ray.is_initialized():
        # A cluster started with `ray start` is joined through RAY_ADDRESS; else a local one starts.
        ray.init(include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(fn)
    waiting = iter(tasks)
    pending: deque = deque()
    try:
        for task in waiting:
            pending.append(remote.remote(task))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            result = ray.get(pending.popleft())
            task = next(waiting, None)
            if task is not None:
                pending.append(remote.remote(task))
            yield result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
