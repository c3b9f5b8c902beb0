"""``pretrained:NAME``: any network shipped with the package, whichever way it was trained.

The shipped networks are listed in :data:`boardgame_envs.alphazero.PRETRAINED`, one table
for all: AlphaZero networks (``kind="alphazero"``, played with their search), and the PPO
recipes' models (``kind="sb3"``, a MaskablePPO zip, and ``kind="boardnet"``, the single-file
PPO's network), played by their policy alone. This module builds the right policy for an
entry and checks the spec's options against what that kind of policy takes:
``pretrained:renju-15x15:simulations=200`` but ``pretrained:ppo-connect-four:sample=true``.
"""

from __future__ import annotations

import inspect
from typing import Any

from boardgame_envs.alphazero.pretrained import pretrained
from boardgame_envs.policies.registry import PolicySpecError


def _factory(kind: str) -> Any:
    if kind == "alphazero":
        from boardgame_envs.alphazero.policy import NetworkPolicy

        return NetworkPolicy.from_pretrained
    if kind == "sb3":
        from boardgame_envs.selfplay.sb3_policy import Sb3Policy

        return Sb3Policy.from_file
    from boardgame_envs.selfplay.boardnet import BoardNetPolicy

    return BoardNetPolicy.from_file


def from_pretrained(name: str, seed: int | None = None, device: str = "cpu", **options: Any) -> Any:
    """The policy of the shipped network ``name`` (the ``pretrained:NAME`` spec's factory).

    ``options`` are the spec's arguments, checked against the entry's kind: search options
    (``simulations``, ``threats``, ...) for AlphaZero networks, ``sample`` for the PPO models.
    """
    entry = pretrained(name)
    factory = _factory(entry.kind)
    params = inspect.signature(factory).parameters
    accepted = [p for p in params if p not in ("cls", "name", "path", "seed", "device")]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise PolicySpecError(f"pretrained:{name} (kind {entry.kind}) takes {', '.join(accepted)}; "
                              f"not {', '.join(unknown)}")  # fmt: skip
    if entry.kind == "alphazero":
        return factory(name, seed=seed, device=device, **options)
    call = dict(options, seed=seed)
    if "device" in params:
        call["device"] = device
    policy = factory(str(entry.path), **call)
    policy.name = f"pretrained:{name}"
    if entry.kind == "boardnet" and policy.game is None:
        raise PolicySpecError(f"pretrained:{name}'s file names no game")  # a shipped file always does
    return policy
