"""What a saved pool may name: built-in players and its own snapshots, nothing that starts a program or reads a
file elsewhere.

A ``pool.json`` is a file a stranger may hand over, so its spec members are held to the built-in players
(:data:`SAVED_KINDS`: the searches, the networks shipped with the package, ladder levels); a ladder level is
followed to what it plays, and one that is an external engine's (``level:renju/15`` is Rapfi) is refused like
``engine:`` and ``pbrain:``. A spec naming a file (``checkpoint:``, ``boardnet:``, ``sb3:``, a bare ``.pt``
path) is refused too: a saved pool's files are its ``snapshots/``, which stay inside its folder. A kind
registered by the program that loads the pool is refused as well (its code was not written for strangers'
arguments). Whatever is refused can be added again after loading, by the program's own choice.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.policies.registry import parse_spec

#: Spec kinds a saved pool may name: built-in players that neither start a program nor read a file of the user's.
SAVED_KINDS = ("random", "greedy", "mcts", "uct", "alphabeta", "perfect", "pretrained", "level")
STARTS_A_PROCESS = ("pbrain", "engine")
NAMES_A_FILE = ("checkpoint", "boardnet", "sb3")
_AFTER = "a saved pool may not; add it again after loading"


def saved_spec_refusal(name: str, spec: Any) -> str | None:
    """Why member ``name`` of a saved pool may not be the spec ``spec`` (one line), or None if it may."""
    kind, target = _kind_and_target(spec)
    shown = repr(str(spec if isinstance(spec, str) else list(spec))[:60])
    if kind in STARTS_A_PROCESS:
        return f"member {name!r} starts an engine ({shown}); {_AFTER}"
    if kind in NAMES_A_FILE:
        return f"member {name!r} names a file outside the pool ({shown}); a saved pool's files are its snapshots/: " \
               "add it again after loading"
    if kind not in SAVED_KINDS:
        return f"member {name!r} is a {kind!r} player, not a built-in one ({', '.join(SAVED_KINDS)}); {_AFTER}"
    if kind == "level" and isinstance(target, str):
        from boardgame_envs.ladder.ladders import level_spec  # (selfplay sits above the ladder)

        plays = level_spec(target)  # an unknown ladder or level: LadderError, a ValueError naming what exists
        inner, _ = _kind_and_target(plays)
        if inner in STARTS_A_PROCESS:
            return f"member {name!r} is level {target}, which plays an external engine ({plays}); {_AFTER}"
        if inner not in SAVED_KINDS or inner == "level":
            return f"member {name!r} is level {target}, which plays {plays!r}, not a built-in player; {_AFTER}"
    return None


def _kind_and_target(spec: Any) -> tuple[str, Any]:
    if isinstance(spec, str):
        kind, target, _ = parse_spec(spec)  # a bare .pt path reads as checkpoint:PATH
        return kind, target
    kind, kwargs = spec[0], spec[1] if len(spec) > 1 and isinstance(spec[1], dict) else {}
    if isinstance(kind, str) and kind.endswith(".pt"):
        return "checkpoint", kind
    return str(kind), kwargs.get("target")
