"""Policy specs -> policies: the one place where a name becomes a player.

A *spec* is what a user types or a worker process receives:

* a name: ``"mcts"``;
* a name with arguments: ``"mcts:simulations=200"``, ``"alphabeta:depth=4,width=12"``
  (values are read as int, float, ``true``/``false``, ``none``, else kept as strings);
* a name with a target and optional arguments, for kinds that need one:
  ``"pbrain:/opt/rapfi/pbrain-rapfi:turn_ms=100"``, ``"pretrained:renju-15x15:simulations=200"``,
  ``"checkpoint:runs/g9/latest.pt"``; a bare path ending in ``.pt`` means ``checkpoint:PATH``;
* a pair ``(name, kwargs)``: ``("mcts", {"simulations": 200})``;
* a factory ``f(seed) -> policy`` (any callable that is not a policy), or a policy object
  (anything with ``act``), returned as it is.

:func:`make_policy` builds the policy with the arguments given to its constructor
(no default instance is built first), plus ``seed`` and whatever ``context`` keys the
constructor accepts. Kinds are registered with :func:`register`; a kind's factory may be
a ``"module:attribute"`` string, imported on first use, so that naming a kind that
needs torch or a subprocess costs nothing until it is built. Nothing here imports a
module above ``policies``: kinds that live higher up (``checkpoint``, ``pretrained``,
ladder levels) are named by such strings.
"""

from __future__ import annotations

import importlib
import math
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardgame_envs.policies.base import SEARCH_LIMITS, check_budget


class PolicySpecError(ValueError):
    """A spec that names no known kind, or arguments its constructor does not accept."""


@dataclass(frozen=True)
class Kind:
    """A registered kind of policy: how to build it and what it is."""

    name: str
    factory: Callable[..., Any] | str
    summary: str = ""
    target: str | None = None  # what the positional part of the spec is (e.g. "PATH"), or None
    # Its constructor is cheap and touches nothing (no file, process or network): check_spec builds it to check
    # the values too, so every caller of check_spec (the command line, opponent pools) refuses what make_policy does.
    built_to_check: bool = False

    def resolve(self) -> Callable[..., Any]:
        """The factory itself, importing it on first use when it was given as ``"module:attribute"``."""
        if not isinstance(self.factory, str):
            return self.factory
        try:
            return load_reference(self.factory)
        except ImportError as exc:
            raise PolicySpecError(f"policy kind {self.name!r} is not available: {exc}") from None


def load_reference(reference: str) -> Any:
    """The object a ``"module:attribute"`` string names (``attribute`` may be dotted), importing its module.

    This is how a lower layer names an upper one (a kind's factory, an upper class
    re-exported by name): the string is data, so the layer test sees no arrow, and the
    module loads only when the object is first asked for.
    """
    module_name, colon, attribute = reference.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(f"expected 'module:attribute', got {reference!r}")
    obj: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj


_KINDS: dict[str, Kind] = {}


def register(
    name: str, factory: Callable[..., Any] | str, summary: str = "", target: str | None = None,
    overwrite: bool = False, built_to_check: bool = False,
) -> None:  # fmt: skip
    """Make ``name`` a policy kind built by ``factory(target?, **kwargs, seed=..., **context)``.

    ``factory`` is a class, a function, or a ``"module:attribute"`` string imported when
    the kind is first built. ``target`` names the positional part of the spec for kinds
    that need one (``"pbrain:PATH"``). Registering a taken name raises unless ``overwrite``.
    ``built_to_check``: the factory is cheap and has no side effects, so :func:`check_spec` builds it to
    check the spec's values as well as its argument names.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise PolicySpecError(f"a policy kind's name must be an identifier, got {name!r}")
    if name in _KINDS and not overwrite:
        raise PolicySpecError(f"policy kind {name!r} is already registered")
    _KINDS[name] = Kind(name, factory, summary, target, built_to_check)


def kinds() -> dict[str, Kind]:
    """The registered kinds by name, in registration order."""
    return dict(_KINDS)


def _usage() -> str:
    return ", ".join(f"{k.name}:{k.target}" if k.target else k.name for k in _KINDS.values())


def parse_value(text: str) -> Any:
    """A spec argument's value: int, float, bool (``true``/``false``), None (``none``), else the string."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def _parse_arguments(text: str) -> dict[str, Any] | None:
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}``; None when ``text`` is not such a list."""
    parts = text.split(",")
    if not parts or not all("=" in p for p in parts):
        return None
    out: dict[str, Any] = {}
    for part in parts:
        key, _, value = part.partition("=")
        key = key.strip()
        # info.KEY: an engine option passed through as it is (pbrain:PATH:info.MAX_NODE=1000)
        if not (key.isidentifier() or key.startswith("info.") and key[5:].isidentifier()):
            raise PolicySpecError(f"bad argument name {key!r} in {text!r}")
        if key in out:
            raise PolicySpecError(f"argument {key!r} given twice in {text!r}")
        out[key] = _bounded(key, parse_value(value))
    return out


INT_LIMIT = 2**63 - 1  # what numba kernels and numpy arrays count in


def _bounded(key: str, value: Any) -> Any:
    """``value``, unless it is a number no policy can hold (past int64, NaN, infinite): PolicySpecError."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > INT_LIMIT:
        raise PolicySpecError(f"argument {key}={value} is out of range: a count is at most {INT_LIMIT:,}")
    if isinstance(value, float) and not math.isfinite(value):
        raise PolicySpecError(f"argument {key}={value} is not a finite number")
    most = SEARCH_LIMITS.get(key)
    if most is not None and isinstance(value, (int, float)) and not isinstance(value, bool) and value > most:
        try:  # a search budget past its stated maximum: refused with the spec, before anything is built
            check_budget(key, value)
        except ValueError as exc:
            raise PolicySpecError(str(exc)) from None
    return value


def parse_spec(text: str) -> tuple[str, str | None, dict[str, Any]]:
    """``"name[:target][:k=v,...]"`` -> ``(name, target, kwargs)``; a bare ``*.pt`` path is a checkpoint."""
    if not isinstance(text, str) or not text.strip():
        raise PolicySpecError(f"a policy spec must be a non-empty string, got {text!r}")
    text = text.strip()
    name, sep, rest = text.partition(":")
    if name not in _KINDS and text.endswith(".pt"):
        return "checkpoint", text, {}
    if name not in _KINDS and (name.endswith(".zip") or text.endswith(".zip")):
        _refuse_zip(text, f"sb3:{text}")
    kwargs: dict[str, Any] = {}
    target: str | None = None
    if sep:
        head, colon, tail = rest.rpartition(":")
        parsed = _parse_arguments(tail)
        if parsed is not None:
            kwargs = parsed
            target = head if colon else None
        else:
            target = rest
        if target == "":
            raise PolicySpecError(f"empty target in policy spec {text!r}")
    return name, target, kwargs


def _refuse_zip(path: str, suggestion: Any) -> None:
    """A bare ``.zip`` path is not a spec (a zip could hold anything): say which spec plays a saved SB3 model."""
    raise PolicySpecError(f"{path!r} is not a policy spec: a model saved by SB3 plays as sb3:PATH; did you mean "
                          f"{suggestion!r}?")  # fmt: skip


def spec_name(spec: Any) -> str:
    """A short display name for a spec, for tables and progress bars."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        args = ",".join(f"{k}={v}" for k, v in spec[1].items())
        return f"{spec[0]}:{args}" if args else spec[0]
    return str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__)


def _signature_text(factory: Callable[..., Any]) -> str:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return "(unknown)"
    shown = [
        p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
        for p in params
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "seed")
    ]
    return ", ".join(shown) or "no arguments"


def _accepted(factory: Callable[..., Any]) -> tuple[set[str], bool]:
    """Keyword names ``factory`` takes, and whether it takes ``**kwargs``."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return set(), True
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names, any(p.kind is p.VAR_KEYWORD for p in params)


def _split(spec: Any) -> tuple[str, str | None, dict[str, Any]] | None:
    """``(name, target, kwargs)`` of a spec string or pair; None for a factory or a policy object."""
    if isinstance(spec, str):
        return parse_spec(spec)
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, kwargs = spec
        if not isinstance(kwargs, dict):
            raise PolicySpecError(f"the arguments of ({name!r}, ...) must be a dict, got {kwargs!r}")
        if name not in _KINDS and name.endswith(".pt"):
            return "checkpoint", name, dict(kwargs)
        if name not in _KINDS and name.endswith(".zip"):
            _refuse_zip(name, ("sb3", {"target": name, **kwargs}))
        kwargs = dict(kwargs)
        target = kwargs.pop("target", None) if name in _KINDS and _KINDS[name].target else None
        return name, target, kwargs
    if hasattr(spec, "act") or callable(spec):
        return None
    raise PolicySpecError(
        f"cannot build a policy from {spec!r}: give a name such as 'mcts:simulations=200', a (name, kwargs) pair, "
        f"a .pt checkpoint path, a factory f(seed) or a policy with act(state); known kinds: {_usage()}"
    )


def _kind(name: str, target: str | None) -> Kind:
    kind = _KINDS.get(name)
    if kind is None:
        raise PolicySpecError(f"unknown policy {name!r}; known kinds: {_usage()} (or a path to a .pt checkpoint)")
    if kind.target and target is None:
        raise PolicySpecError(f"policy {name!r} needs a target: {name}:{kind.target}")
    if not kind.target and target is not None:
        raise PolicySpecError(f"policy {name!r} takes arguments as {name}:key=value,...; got {target!r}")
    return kind


def _check_arguments(name: str, factory: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    names, var_kw = _accepted(factory)
    for key in kwargs:
        if key == "seed":
            raise PolicySpecError(f"'seed' is set by the caller (seed=...), not in the spec of policy {name!r}")
        if key not in names and not var_kw:
            raise PolicySpecError(f"{key!r} is not an argument of policy {name!r}; it accepts: {_signature_text(factory)}")


def make_policy(spec: Any, seed: int | None = None, **context: Any) -> Any:
    """The policy ``spec`` names, built with ``seed``; see the module docstring for the forms of a spec.

    ``context`` carries what the caller knows (e.g. ``device="cuda"``); each key reaches
    the constructors that accept it and is ignored by the others. Unknown kinds and
    arguments raise :class:`PolicySpecError` (a ``ValueError``) listing what exists.
    """
    parts = _split(spec)
    if parts is None:
        return spec if hasattr(spec, "act") else spec(seed)
    name, target, kwargs = parts
    factory = _kind(name, target).resolve()
    _check_arguments(name, factory, kwargs)
    names, var_kw = _accepted(factory)
    call = dict(kwargs)
    if "seed" in names or var_kw:
        call["seed"] = seed
    call.update({k: v for k, v in context.items() if k in names and k not in call})
    try:
        return factory(*([target] if target is not None else []), **call)
    except TypeError as exc:
        raise PolicySpecError(f"policy {name!r}: {exc}; it accepts: {_signature_text(factory)}") from None


def check_spec(spec: Any) -> None:
    """Raise :class:`PolicySpecError` now if ``spec`` cannot name a policy; nothing is imported, no file read.

    Checks the kind, the argument names of kinds already imported and the search budgets' maxima; the
    built-in kinds whose constructors are cheap and touch nothing (``random``, ``mcts``, ``greedy``, ...:
    ``built_to_check``) are built and dropped, so their values are checked here too, with the words
    :func:`make_policy` would use (``greedy:epsilon=1.5`` is refused by the command line and by an opponent
    pool alike). Other kinds' values are checked by their constructor when the policy is built.
    """
    parts = _split(spec)
    if parts is None:
        return
    name, target, kwargs = parts
    kind = _kind(name, target)
    if not isinstance(kind.factory, str):
        _check_arguments(name, kind.factory, kwargs)
    if kind.built_to_check:
        try:
            make_policy(spec, seed=0)
        except PolicySpecError:
            raise
        except (ValueError, TypeError) as exc:
            raise PolicySpecError(f"{spec_name(spec)}: {exc}") from None


def _register_builtins() -> None:
    from boardgame_envs.policies.alphabeta import AlphaBetaPolicy
    from boardgame_envs.policies.greedy import GreedyPolicy
    from boardgame_envs.policies.mcts import MCTSPolicy
    from boardgame_envs.policies import perfect
    from boardgame_envs.policies.perfect import PerfectPolicy
    from boardgame_envs.policies.random import RandomPolicy
    from boardgame_envs.policies.uct import UCTPolicy

    register("random", RandomPolicy, "uniformly random legal moves", built_to_check=True)
    register("mcts", MCTSPolicy, "UCT with random rollouts and MCTS-Solver", built_to_check=True)
    register("alphabeta", AlphaBetaPolicy, "negamax with threat search", built_to_check=True)
    register("perfect", PerfectPolicy, "exact play on small boards and connect four", built_to_check=True)
    perfect.build_network = lambda name, seed: make_policy(f"pretrained:{name}", seed=seed)  # its fallback=NAME
    register("uct", UCTPolicy, "plain UCT: every empty point a child, random rollouts, UCB1; the classic yardstick",
             built_to_check=True)  # fmt: skip
    register("greedy", GreedyPolicy, "one ply: take a win, block a four, else extend lines", built_to_check=True)
    register("checkpoint", "boardgame_envs.alphazero.policy:NetworkPolicy.from_checkpoint",
             "an AlphaZero trainer checkpoint", target="PATH")  # fmt: skip
    register("pbrain", "boardgame_envs.gomocup.engine:GomocupEngine.from_spec",
             "a Gomocup engine (pbrain-*) as a subprocess", target="PATH")  # fmt: skip
    register("engine", "boardgame_envs.gomocup.engines:named_engine",
             "an external engine by name (--engine NAME=PATH or BOARDGAME_ENVS_NAME), e.g. engine:rapfi:nodes=16000",
             target="NAME")  # fmt: skip
    register("level", "boardgame_envs.ladder.ladders:level_policy",
             "a calibrated ladder level, e.g. level:renju/5", target="LADDER/N")  # fmt: skip
    register("pretrained", "boardgame_envs.selfplay.pretrained:from_pretrained",
             "a network shipped with the package (boardgame_envs.alphazero.PRETRAINED)", target="NAME")  # fmt: skip
    register("boardnet", "boardgame_envs.selfplay.boardnet:BoardNetPolicy.from_file",
             "a network saved by baselines/ppo_selfplay.py (BoardNet); greedy unless sample=true",
             target="PATH")  # fmt: skip
    register("sb3", "boardgame_envs.selfplay.sb3_policy:Sb3Policy.from_file",
             "a saved Stable-Baselines3 model (MaskablePPO, PPO, A2C, DQN zip); greedy unless sample=true",
             target="PATH")  # fmt: skip


_register_builtins()
