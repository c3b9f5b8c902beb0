"""Opponent pools for self-play: built-in levels, any policy and the learner's frozen snapshots, one drawn per game.

>>> pool = OpponentPool(["random", "greedy:epsilon=0.5"], sampling="pfsp", seed=0)
>>> env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent=pool)      # or make_vec(..., opponent=pool)
>>> pool.add_snapshot(model)                   # every so often: a frozen copy of the learner joins the pool

The envs (:class:`~boardgame_envs.envs.single_agent.SingleAgentEnv`, the batched
:class:`~boardgame_envs.vector.gym_env.SingleAgentVectorEnv`) know a pool only by three
methods, so any object with them can stand in (see
:func:`~boardgame_envs.envs.single_agent.is_opponent_pool`):

* ``sample() -> name``: the member that plays the next game, called at each game's reset;
* ``opponent(name)``: what that member is: a registry spec (``"random"``, ``"mcts:simulations=50"``),
  a policy with ``act(state)``, or a *batched* callable ``(observations, action_masks) -> actions``
  (a snapshot: it sees the learner's own observation layout, a batch of positions at once);
* ``record(name, score)``: the learner's score in a finished game against it (1 win, 0.5 draw, 0 loss).

Sampling: ``"uniform"`` over the members; ``"latest"``: the newest snapshot with probability
``latest_share``, else uniform (uniform while there is no snapshot); ``"pfsp"``
(prioritised fictitious self-play): member ``m`` with weight ``max(floor, (1 - w_m) ** power)``,
``w_m`` the learner's score rate against ``m`` with one virtual draw (an unplayed member
counts as 0.5), so the opponents the learner still loses to come up most.

Invariant: the pool's draws depend only on its seed and on the calls made to it, and
:meth:`OpponentPool.save` keeps everything they depend on (members, snapshot files,
counts, the generator's state), so a run that resumes from a saved pool draws what the
uninterrupted run would have drawn.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.policies.registry import check_spec, spec_name
from boardgame_envs.safeio import (
    TENSOR_FILE_LIMIT,
    FileRefusedError,
    atomic_write,
    atomic_write_text,
    contained_path,
    open_regular_file,
    read_json,
)
from boardgame_envs.selfplay.pool_specs import saved_spec_refusal

SAMPLING = ("uniform", "latest", "pfsp")
FORMAT = 1  # pool.json's layout; a file of another version is refused
POOL_JSON_LIMIT = 1 << 20  # bytes of pool.json (a few KB: names, counts, the generator's state)


@dataclass
class Member:
    """One opponent of a pool: a spec (``kind="spec"``), a policy object (``"policy"``) or a snapshot file."""

    name: str
    kind: str
    source: Any = None  # the spec, the policy, or the snapshot file's path in the pool's folder
    results: list[int] = field(default_factory=lambda: [0, 0, 0])  # the learner's wins, draws, losses

    @property
    def games(self) -> int:
        return sum(self.results)

    @property
    def score_rate(self) -> float:
        """The learner's score rate against this member, with one virtual draw (0.5 before any game)."""
        w, d, _ = self.results
        return (w + 0.5 * d + 0.5) / (self.games + 1)


def default_snapshot_loader(path: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A saved SB3 model (MaskablePPO, PPO, A2C or DQN zip) as a batched opponent, sampling its moves.

    Sampling rather than the greedy move keeps a frozen snapshot from replaying one game
    that the learner could learn by heart; its generator is seeded from the file's name,
    so a resumed run's snapshots draw the same moves.
    """
    from boardgame_envs.selfplay.sb3_policy import load_actor

    return load_actor(path, sample=True, seed=zlib.crc32(Path(path).name.encode()))


class OpponentPool:
    """Opponents for self-play, one drawn per game; see the module docstring.

    Args:
        members: the first members: registry specs (``"random"``, ``"greedy:epsilon=0.5"``,
            ``("mcts", {"simulations": 50})``, ``"level:tictactoe/2"``) and policy objects
            (``act(state)``), each named by its spec (a policy by its ``name``).
        sampling: ``"uniform"``, ``"latest"`` or ``"pfsp"``.
        seed: the seed of the draws.
        latest_share: in ``"latest"`` mode, how often the newest snapshot plays.
        pfsp_power, pfsp_floor: in ``"pfsp"`` mode, the weight of a member the learner
            scores ``w`` against is ``max(pfsp_floor, (1 - w) ** pfsp_power)``.
        max_snapshots: snapshots kept; adding one more drops the oldest (its file and its counts).
        snapshot_loader: ``loader(path) -> fn(observations, action_masks) -> actions``, which
            turns a snapshot file into a batched opponent (default: SB3 zips, see
            :func:`default_snapshot_loader`); a plain-torch loop passes its own.
    """

    def __init__(
        self,
        members: Iterable[Any] = ("random",),
        sampling: str = "uniform",
        seed: int | None = None,
        latest_share: float = 0.5,
        pfsp_power: float = 2.0,
        pfsp_floor: float = 0.05,
        max_snapshots: int = 20,
        snapshot_loader: Callable[[str], Callable[[np.ndarray, np.ndarray], Any]] | None = None,
    ) -> None:
        if sampling not in SAMPLING:
            raise ValueError(f"unknown sampling {sampling!r}; expected one of {', '.join(SAMPLING)}")
        if isinstance(latest_share, bool) or not isinstance(latest_share, (int, float)) or not 0 <= latest_share <= 1:
            raise ValueError(f"latest_share must be a number in 0..1, got {latest_share!r}")
        for name, value in (("pfsp_power", pfsp_power), ("pfsp_floor", pfsp_floor)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or math.isinf(value):
                raise ValueError(f"{name} must be a finite number of at least 0, got {value!r}")
        if not 0 <= pfsp_floor <= 1:
            raise ValueError(f"pfsp_floor must be in 0..1, got {pfsp_floor!r}")
        if isinstance(max_snapshots, bool) or not isinstance(max_snapshots, int) or max_snapshots < 1:
            raise ValueError(f"max_snapshots must be a positive integer, got {max_snapshots!r}")
        if snapshot_loader is not None and not callable(snapshot_loader):
            raise TypeError(f"snapshot_loader must be a callable loader(path) -> batched policy, got {snapshot_loader!r}")
        self.sampling = sampling
        self.latest_share = float(latest_share)
        self.pfsp_power = float(pfsp_power)
        self.pfsp_floor = float(pfsp_floor)
        self.max_snapshots = max_snapshots
        self.snapshot_loader = snapshot_loader or default_snapshot_loader
        self.rng = np.random.default_rng(seed)
        self._members: dict[str, Member] = {}
        self._loaded: dict[str, Any] = {}  # snapshot name -> its batched callable, loaded on first use
        self._snapshots_added = 0  # names snapshot-1, snapshot-2, ... are never reused
        self._tmp = tempfile.TemporaryDirectory(prefix="opponent-pool-")  # the snapshots' files, owned by the pool
        self.folder = Path(self._tmp.name)
        members = list(members)
        if not members:
            raise ValueError("an opponent pool needs at least one member (e.g. 'random')")
        for member in members:
            self.add(member)

    # ------------------------------------------------------------ members
    @property
    def names(self) -> list[str]:
        """The members' names, oldest first."""
        return list(self._members)

    @property
    def snapshots(self) -> list[str]:
        """The snapshots' names, oldest first."""
        return [m.name for m in self._members.values() if m.kind == "snapshot"]

    def add(self, member: Any, name: str | None = None) -> str:
        """Add a registry spec or a policy object (``act(state)``) as a member; returns its name."""
        if isinstance(member, (str, tuple)):
            check_spec(member)  # a typo fails here, not in the middle of training
            kind = "spec"
        elif hasattr(member, "act"):
            kind = "policy"
        else:
            raise ValueError(f"a pool member is a policy spec or a policy with act(state), got {member!r}; "
                             f"add a learner's snapshot with add_snapshot")  # fmt: skip
        name = self._new_name(name if name is not None else spec_name(member))
        self._members[name] = Member(name, kind, member)
        return name

    def add_snapshot(self, snapshot: Any, name: str | None = None) -> str:
        """Freeze the learner as a member: an SB3 model (saved now) or a file (copied now, so a later save
        over that path leaves the snapshot as it was). Returns its name (``snapshot-K`` by default).

        Beyond ``max_snapshots`` the oldest snapshot leaves the pool.
        """
        number = self._snapshots_added + 1
        name = self._new_name(name if name is not None else f"snapshot-{number}")
        target = self.folder / f"{number:04d}-{_file_safe(name)}"
        if isinstance(snapshot, (str, os.PathLike)):
            source = Path(snapshot)
            if not source.is_file():
                raise FileNotFoundError(f"no snapshot file at {source}")
            target = target.with_suffix(source.suffix)
            shutil.copyfile(source, target)
        elif callable(getattr(snapshot, "save", None)):
            target = target.with_suffix(".zip")
            snapshot.save(target)
        else:
            raise TypeError(f"a snapshot is an SB3 model or a path to a saved one, got {type(snapshot).__name__}")
        self._snapshots_added = number
        self._members[name] = Member(name, "snapshot", str(target))
        while len(self.snapshots) > self.max_snapshots:
            self._drop(self.snapshots[0])
        return name

    def _drop(self, name: str) -> None:
        member = self._members.pop(name)
        self._loaded.pop(name, None)
        Path(member.source).unlink(missing_ok=True)

    def _new_name(self, name: str) -> str:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a member's name is a non-empty string, got {name!r}")
        if name in self._members:
            raise ValueError(f"the pool already has a member named {name!r}; give another name")
        return name

    def _member(self, name: str) -> Member:
        member = self._members.get(name)
        if member is None:
            raise KeyError(f"no member {name!r} in the pool; it has: {', '.join(self._members)}")
        return member

    # ------------------------------------------------------ what envs call
    def opponent(self, name: str) -> Any:
        """What member ``name`` plays with: its spec, its policy object, or its snapshot's batched callable."""
        member = self._member(name)
        if member.kind != "snapshot":
            return member.source
        if name not in self._loaded:
            self._loaded[name] = self.snapshot_loader(member.source)
        return self._loaded[name]

    def weights(self) -> np.ndarray:
        """The probability of each member (in :attr:`names` order) at the next :meth:`sample`."""
        members = list(self._members.values())
        n = len(members)
        if self.sampling == "pfsp":
            w = np.array([max(self.pfsp_floor, (1 - m.score_rate) ** self.pfsp_power) for m in members])
            if not w.sum() > 0:  # power > 0 and floor 0 with every rate 1: nothing is left to prefer
                w = np.ones(n)
            return w / w.sum()
        p = np.full(n, 1 / n)
        snapshots = [i for i, m in enumerate(members) if m.kind == "snapshot"]
        if self.sampling == "latest" and snapshots:
            p *= 1 - self.latest_share
            p[snapshots[-1]] += self.latest_share
        return p

    def sample(self) -> str:
        """The name of the member that plays the next game."""
        names = self.names
        return names[int(self.rng.choice(len(names), p=self.weights()))]

    def record(self, name: str, score: float) -> None:
        """The learner scored ``score`` (1 win, 0.5 draw, 0 loss) in a game against ``name``.

        A member dropped meanwhile (an old snapshot) is ignored: its game ended after it left.
        """
        if score not in (0, 0.5, 1):
            raise ValueError(f"a game's score is 0, 0.5 or 1 (the learner's), got {score!r}")
        member = self._members.get(name)
        if member is not None:
            member.results[{1: 0, 0.5: 1, 0: 2}[score]] += 1

    def results(self) -> dict[str, tuple[int, int, int]]:
        """The learner's wins, draws and losses against each member."""
        return {m.name: tuple(m.results) for m in self._members.values()}

    def __repr__(self) -> str:
        return f"OpponentPool({len(self._members)} members, {len(self.snapshots)} snapshots, sampling={self.sampling!r})"

    # ------------------------------------------------------- persistence
    def __getstate__(self) -> dict[str, Any]:
        """A copy for another process (SubprocVecEnv's workers, Ray): the snapshots travel as their bytes,
        loaded callables do not (each process loads its own)."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("_tmp", "folder", "_loaded")}
        state["_files"] = {m.name: (Path(m.source).name, Path(m.source).read_bytes())
                           for m in self._members.values() if m.kind == "snapshot"}  # fmt: skip
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        files = state.pop("_files")
        self.__dict__.update(state)
        self._tmp = tempfile.TemporaryDirectory(prefix="opponent-pool-")
        self.folder = Path(self._tmp.name)
        self._loaded = {}
        self._members = {name: Member(m.name, m.kind, m.source, list(m.results)) for name, m in self._members.items()}
        for name, (file, data) in files.items():
            (self.folder / file).write_bytes(data)
            self._members[name].source = str(self.folder / file)

    def save(self, folder: str | os.PathLike) -> Path:
        """Write the pool to ``folder`` (``pool.json`` and ``snapshots/``); returns the json file's path.

        Every file is written whole (a temporary file renamed over it), so a run killed while saving keeps
        the previous pool; a full disk is :class:`~boardgame_envs.safeio.DiskFullError`, naming the disk.
        Policy objects cannot be written: they are named, and :meth:`load` takes them back by name.
        """
        folder = Path(folder)
        (folder / "snapshots").mkdir(parents=True, exist_ok=True)
        members = []
        for m in self._members.values():
            entry: dict[str, Any] = {"name": m.name, "kind": m.kind, "results": m.results}
            if m.kind == "spec":
                entry["spec"] = list(m.source) if isinstance(m.source, tuple) else m.source
            elif m.kind == "snapshot":
                entry["file"] = Path(m.source).name
                with open(m.source, "rb") as src:  # never over the file the last pool.json names, in place
                    atomic_write(folder / "snapshots" / entry["file"], lambda f: shutil.copyfileobj(src, f))
            members.append(entry)
        keep = {e["file"] for e in members if "file" in e}
        state = {
            "format": FORMAT, "sampling": self.sampling, "latest_share": self.latest_share,
            "pfsp_power": self.pfsp_power, "pfsp_floor": self.pfsp_floor, "max_snapshots": self.max_snapshots,
            "snapshots_added": self._snapshots_added, "rng": self.rng.bit_generator.state, "members": members,
        }  # fmt: skip
        path = atomic_write_text(folder / "pool.json", json.dumps(state, indent=1))
        for old in (folder / "snapshots").iterdir():  # snapshots dropped since an earlier save to this folder
            if old.name not in keep:
                old.unlink()
        return path

    @classmethod
    def load(
        cls, folder: str | os.PathLike, snapshot_loader: Callable[[str], Any] | None = None,
        policies: dict[str, Any] | None = None,
    ) -> OpponentPool:  # fmt: skip
        """The pool :meth:`save` wrote to ``folder``, drawing on where it stopped.

        ``policies`` gives back the policy objects by name; ``snapshot_loader`` as in the constructor.
        Nothing in the folder runs code or reaches outside it: ``pool.json`` is read as bounded JSON,
        a member's ``file`` must be a plain name inside ``snapshots/`` (``..``, absolute paths and symlinks
        out are refused), and every snapshot is loaded now, through the loader (the default reads SB3 zips
        without unpickling them), so a damaged one is refused here rather than in the middle of a game.
        A file that is not a saved pool, or a snapshot its loader refuses, is
        :class:`~boardgame_envs.safeio.FileRefusedError`: one line naming the file.
        """
        folder = Path(folder)
        path = folder / "pool.json"
        try:
            state = read_json(path, limit=POOL_JSON_LIMIT, what="saved opponent pool")
        except FileNotFoundError:
            raise FileNotFoundError(f"no saved opponent pool in {folder} (no pool.json)") from None
        try:
            return cls._from_state(state, folder, snapshot_loader, dict(policies or {}))
        except FileRefusedError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            why = str(exc) if not isinstance(exc, KeyError) else f"no {exc}"
            raise FileRefusedError(path, f"not an opponent pool of format {FORMAT}: {' '.join(why.split())[:200]}") from None

    @classmethod
    def _from_state(cls, state: Any, folder: Path, snapshot_loader: Callable[[str], Any] | None,
                    policies: dict[str, Any]) -> OpponentPool:  # fmt: skip
        if not isinstance(state, dict) or state.get("format") != FORMAT:
            raise ValueError("no format field of this version")
        pool = cls(["random"], state["sampling"], None, state["latest_share"], state["pfsp_power"],
                   state["pfsp_floor"], state["max_snapshots"], snapshot_loader)  # fmt: skip
        pool._members.clear()
        if not isinstance(state["members"], list) or not state["members"]:
            raise ValueError("members must be a non-empty list")
        for entry in state["members"]:
            name, kind, results = entry["name"], entry["kind"], entry["results"]
            if not isinstance(name, str) or not name or name in pool._members:
                raise ValueError(f"a member's name must be a new non-empty string, got {str(name)[:40]!r}")
            if not (isinstance(results, list) and len(results) == 3 and all(type(x) is int and x >= 0 for x in results)):
                raise ValueError(f"member {name!r}: results must be three counts")
            if kind == "spec":
                spec = entry["spec"]
                source = tuple(spec) if isinstance(spec, list) else spec
                check_spec(source)
                refusal = saved_spec_refusal(name, source)  # built-in players only: no engine, no file elsewhere
                if refusal:
                    raise FileRefusedError(folder / "pool.json", refusal)
            elif kind == "policy":
                if name not in policies:
                    raise ValueError(f"the saved pool has the policy object {name!r}: pass it back, "
                                     f"OpponentPool.load(..., policies={{{name!r}: policy}})")  # fmt: skip
                source = policies[name]
            elif kind == "snapshot":
                source = pool._take_snapshot(folder / "snapshots", name, entry["file"])
            else:
                raise ValueError(f"unknown member kind {str(kind)[:40]!r}")
            pool._members[name] = Member(name, kind, source, list(results))
        if type(state["snapshots_added"]) is not int or state["snapshots_added"] < 0:
            raise ValueError("snapshots_added must be a count")
        pool._snapshots_added = state["snapshots_added"]
        try:
            pool.rng.bit_generator.state = state["rng"]
        except (OverflowError, TypeError, ValueError, KeyError):  # numpy's own words name its internals
            raise FileRefusedError(folder / "pool.json", "its generator state 'rng' is not one that numpy writes") from None
        return pool

    def _take_snapshot(self, snapshots: Path, name: str, file: Any) -> str:
        """Copy the snapshot ``file`` of ``snapshots/`` into the pool's folder and load it; its copy's path."""
        source = contained_path(snapshots, file, what="snapshot file")
        if not source.exists():
            raise FileNotFoundError(f"the saved pool's snapshot {name!r} is missing: {source}")
        copy = self.folder / source.name
        with open_regular_file(source, "snapshot") as src:  # a FIFO or a device is refused, never waited on
            if os.fstat(src.fileno()).st_size > TENSOR_FILE_LIMIT:
                raise FileRefusedError(source, f"the snapshot is over the {TENSOR_FILE_LIMIT:,}-byte limit")
            with open(copy, "wb") as dst:
                shutil.copyfileobj(src, dst)
        try:
            self._loaded[name] = self.snapshot_loader(str(copy))
        except (ValueError, OSError) as exc:  # the loader's own words, about the run folder's file
            why = str(exc).replace(str(copy), "").strip(" :") or type(exc).__name__
            raise FileRefusedError(source, f"snapshot {name!r} cannot be loaded: {' '.join(why.split())[:200]}") from None
        return str(copy)


def _file_safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60]
