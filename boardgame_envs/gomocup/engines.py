"""External engines by name: the user's own build of an engine, found through one setting.

An external ladder level names its engine, never a path: ``engine:rapfi:nodes=16000,threads=1``
is Rapfi at 16,000 nodes a move on every machine, wherever its binary lives. The name is
resolved when the level is built:

* ``--engine rapfi=PATH`` on the command line (``rate``, ``arena``, ``ladder build``), which
  calls :func:`configure`;
* else the environment variable ``BOARDGAME_ENVS_RAPFI`` (``BOARDGAME_ENVS_`` and the name
  in capitals), which worker processes inherit.

An engine that is not configured is one line, :class:`EngineNotConfigured` (a ``ValueError``),
naming the variable and the page that says how to build it (``docs/engines.md``). The
package never bundles an engine: :data:`KNOWN` records, for each engine the ladders use,
where its source is and the commit and build the published tables were made with.

A named engine with a node or depth budget gets a long time limit (:data:`BUDGET_TURN_MS`)
unless the spec sets ``turn_ms``: the budget, not the clock, must end its search, or it would
be a different player on a slower machine. :func:`check_node_budget` checks that an engine
honours a node budget (same moves twice, and no longer than the budget allows).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardgame_envs.gomocup.engine import GomocupEngine

BUDGET_TURN_MS = 30_000  # the time limit of a named engine searching to a node or depth budget
PREFIX = "BOARDGAME_ENVS_"


@dataclass(frozen=True)
class EngineInfo:
    """An engine the ladders name: where to get it and how the published tables' build was made."""

    name: str
    source: str
    commit: str
    build: str
    notes: str = ""


KNOWN: dict[str, EngineInfo] = {
    "rapfi": EngineInfo(
        "rapfi",
        "https://github.com/dhbloo/rapfi (GPL-3)",
        "3aedf3a2ab0ab710a9f3d00e57d5287ceb864894",
        "cmake ../rapfi-src/Rapfi -DCMAKE_BUILD_TYPE=Release -DUSE_AVX2=ON && make -j2 (g++ 12, CMake 3.25)",
        "classic evaluation (no network weights), one thread",
    ),
}


class EngineNotConfigured(ValueError):
    """A named engine whose binary has not been given (``--engine NAME=PATH`` or ``BOARDGAME_ENVS_NAME``)."""


def variable(name: str) -> str:
    """The environment variable that holds engine ``name``'s path: ``BOARDGAME_ENVS_RAPFI``."""
    return PREFIX + name.upper()


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"an engine's name is an identifier such as 'rapfi', got {name!r}")
    return name.lower()


def configure(name: str, path: str | os.PathLike[str]) -> str:
    """Use the binary at ``path`` for engine ``name`` in this process and the workers it starts; returns the path.

    Raises ``ValueError`` (one line) if ``path`` is not an executable file.
    """
    name = _check_name(name)
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise ValueError(f"engine {name!r}: no file at {path}")
    if not os.access(resolved, os.X_OK):
        raise ValueError(f"engine {name!r}: {path} is not executable")
    os.environ[variable(name)] = str(resolved)
    return str(resolved)


def configure_from(option: str) -> str:
    """:func:`configure` from a command line's ``NAME=PATH``; returns the name."""
    name, eq, path = option.partition("=")
    if not eq or not name or not path:
        raise ValueError(f"--engine takes NAME=PATH (e.g. rapfi=/opt/rapfi/pbrain-rapfi), got {option!r}")
    configure(name, path)
    return _check_name(name)


def engine_path(name: str) -> str:
    """The configured binary of engine ``name``; :class:`EngineNotConfigured` (one line) if there is none."""
    name = _check_name(name)
    path = os.environ.get(variable(name), "").strip()
    if not path:
        how = f" (build it: docs/engines.md, {KNOWN[name].source})" if name in KNOWN else ""
        raise EngineNotConfigured(
            f"engine {name!r} is not configured: pass --engine {name}=PATH or set {variable(name)}{how}"
        )
    if not Path(path).is_file():
        raise EngineNotConfigured(f"engine {name!r}: {variable(name)} names {path}, which is not a file")
    return path


def configured(name: str) -> bool:
    """Whether engine ``name`` has a binary (see :func:`engine_path`)."""
    try:
        engine_path(name)
    except EngineNotConfigured:
        return False
    return True


def named_engine(name: str, seed: int | None = None, **options: Any) -> GomocupEngine:
    """The registry's ``engine`` kind: ``engine:rapfi:nodes=16000,threads=1`` is ``pbrain:PATH:...`` with PATH found by name.

    The options are those of ``pbrain`` (:meth:`GomocupEngine.from_spec`); with a ``nodes`` or
    ``depth`` budget and no ``turn_ms``, the time limit is :data:`BUDGET_TURN_MS`.
    """
    if ("nodes" in options or "depth" in options) and "turn_ms" not in options:
        options["turn_ms"] = BUDGET_TURN_MS
    options.setdefault("name", name)
    return GomocupEngine.from_spec(engine_path(name), seed=seed, **options)


class NodeBudgetError(ValueError):
    """An engine that does not honour a node budget: its moves differ run to run, or it thinks far too long."""


# A fixed 15x15 position (after three opening stones), the moves asked for in it, and the slowest
# speed we accept from an engine told to search a node budget (Rapfi, classic, one thread, does
# about 500,000 nodes a second on the development machine).
_CHECK_OPENING = (112, 113, 128)
_CHECK_MOVES = 3
MIN_NODES_PER_S = 20_000


@dataclass(frozen=True)
class NodeBudgetCheck:
    """What :func:`check_node_budget` saw: the slowest move's seconds, and the engine's ``ABOUT`` fields."""

    seconds: float
    about: dict[str, str]


def _cpu_seconds(pid: int | None) -> float | None:
    """The CPU seconds (user and system) of process ``pid`` and its descendants so far (the engine runs under a
    small launcher, :mod:`~boardgame_envs.gomocup.subreaper`), where Linux's /proc tells them; None elsewhere."""
    if pid is None:
        return None
    total, todo, seen = 0.0, [pid], set()
    try:
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    except (OSError, ValueError, IndexError):
        return None
    return total


def _timed_move(engine: Any, state: Any) -> tuple[int, float, str]:
    """The engine's move in ``state``, what it cost and in what: the engine process's CPU seconds where the
    system tells them, else wall seconds. CPU time does not grow with the machine's load, as wall time does
    (a check run beside other jobs would refuse an honest engine), and an engine that ignores its node
    budget burns CPU while it thinks."""
    pid, cpu, wall = engine.pid, _cpu_seconds(engine.pid), time.perf_counter()
    action = engine.act(state)
    wall = time.perf_counter() - wall
    after = _cpu_seconds(engine.pid) if engine.pid == pid else None
    return (action, after - cpu, "CPU-s") if cpu is not None and after is not None else (action, wall, "s")


def check_node_budget(spec: str, rule: str = "renju", slack_s: float = 2.0) -> NodeBudgetCheck:
    """Play the same moves twice with the engine of ``spec`` in fresh processes; returns the slowest move's
    seconds and what the engine says of itself (``ABOUT``, asked of the first process).

    Raises :class:`NodeBudgetError` (one line) if the two runs' moves differ, or if a move
    took longer than ``nodes / MIN_NODES_PER_S + slack_s`` seconds: such an engine is not the
    machine-independent player its spec names (it ignores ``INFO MAX_NODE``, or reads the clock).
    """
    from boardgame_envs.games.catalog import game_info
    from boardgame_envs.policies.registry import make_policy, parse_spec

    nodes = parse_spec(spec)[2].get("nodes")
    if not isinstance(nodes, int):
        raise ValueError(f"check_node_budget needs a spec with nodes=N, got {spec!r}")
    game = game_info("gomoku").game(15, 5, rule)
    runs, slowest, slowest_unit, about = [], 0.0, "s", {}
    for run in range(2):
        engine = make_policy(spec, seed=0)
        try:
            answer = engine.about()  # starts the process, so that every move is timed on its own clock
            about = about or answer
            state, moves = game.new_state(), []
            for action in _CHECK_OPENING:
                state.play(action)
            for _ in range(_CHECK_MOVES):
                action, seconds, unit = _timed_move(engine, state)
                if seconds > slowest:
                    slowest, slowest_unit = seconds, unit
                moves.append(action)
                state.play(action)
        finally:
            engine.close()
        runs.append(moves)
    limit = nodes / MIN_NODES_PER_S + slack_s
    if slowest > limit:
        raise NodeBudgetError(
            f"{spec}: a move took {slowest:.1f} {slowest_unit}, more than {limit:.1f} s for {nodes} nodes: "
            "the engine does not seem to honour INFO MAX_NODE"
        )
    if runs[0] != runs[1]:
        raise NodeBudgetError(
            f"{spec}: the same position gave different moves in two runs ({runs[0]} and {runs[1]}): "
            "the engine is not deterministic at a node budget (one thread? a time limit?)"
        )
    return NodeBudgetCheck(slowest, about)
