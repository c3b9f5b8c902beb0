"""The whole of a state, field by field, so that the kit can say a state was left alone or a clone is its own.

A state's fields are its position (docs/games.md, "What a game author must know": clones share nothing):
:func:`snapshot` reads every field of its ``__dict__`` and ``__slots__`` (a
private one too), deeply: numpy arrays by dtype, shape and bytes, lists, tuples,
dicts and sets by their items, a state held inside a state (an opening rule's
base position) by its own fields; the game by equality. Two snapshots are equal
exactly when the two states hold the same values everywhere, and
:func:`differences` names the fields that differ, so a failure says
``scores: [0, 0] -> [351, 413]`` rather than "not equal".
"""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_DEPTH = 6  # states inside states inside ...: deeper than any game of the package nests them


def fields(obj: Any) -> dict[str, Any]:
    """Every attribute an object holds: its ``__dict__`` and the ``__slots__`` of its classes that are set."""
    out = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                out[name] = getattr(obj, name)
    return out


def _is_game(value: Any) -> bool:
    return hasattr(value, "new_state") and hasattr(value, "num_actions")


def freeze(value: Any, depth: int = 0) -> Any:
    """A deep, comparable copy of ``value``."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v, depth + 1) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((repr(k), freeze(v, depth + 1)) for k, v in value.items())))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(v) for v in value)))
    if _is_game(value):
        return ("game", value)  # the game is shared by every state of it: compared by equality
    if depth < MAX_DEPTH and fields(value):
        return (type(value).__name__, tuple(sorted((k, freeze(v, depth + 1)) for k, v in fields(value).items())))
    return ("object", type(value).__name__, repr(value)[:200])


def snapshot(state: Any, warm: bool = False) -> dict[str, Any]:
    """Every field of ``state``, deeply copied and comparable (see the module docstring).

    ``warm``: first read the state through the protocol (``legal_mask``, ``planes``, ``returns``), so that a
    cache a state fills on first use (renju's forbidden points) is filled before, not by, what is checked.
    """
    if warm:
        state.legal_mask(), state.planes(1), state.planes(2), state.returns()
    out = {name: freeze(value) for name, value in fields(state).items()}
    if not out:
        raise TypeError(f"{type(state).__name__} has no fields to compare (no __dict__, no __slots__)")
    return out


def _show(frozen: Any) -> str:
    if isinstance(frozen, tuple) and frozen and frozen[0] == "array":
        _, dtype, shape, data = frozen
        return repr(np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape).tolist())[:80]
    if isinstance(frozen, tuple) and len(frozen) == 2 and frozen[0] in ("list", "tuple"):
        return repr([_show(v) if isinstance(v, tuple) else v for v in frozen[1]])[:80]
    return repr(frozen)[:80]


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The fields that differ between two snapshots, each as ``name: old -> new``."""
    out = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, "<absent>"), after.get(name, "<absent>")
        if old != new:
            out.append(f"{name}: {_show(old)} -> {_show(new)}")
    return out


def assert_unchanged(before: dict[str, Any], state: Any, what: str) -> None:
    """Raise ``AssertionError`` naming ``what`` and the changed fields if ``state`` differs from ``before``."""
    changed = differences(before, snapshot(state, warm=True))
    if changed:
        raise AssertionError(f"{what} changed the state it was handed: {'; '.join(changed)}")
