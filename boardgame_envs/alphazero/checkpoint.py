"""Checkpoints: written atomically, read with ``torch.load(..., weights_only=True)``.

A checkpoint is a dict of tensors and plain values (no pickled classes), so
loading one runs no code from the file. ``latest.pt`` in the run directory
is replaced after every iteration: the new file is written beside it and
renamed over it, so a kill at any moment leaves either the old or the new
checkpoint, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import torch

from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.games.mnk import MNKGame

FORMAT = 1
LATEST = "latest.pt"


def save_checkpoint(path: str | os.PathLike, checkpoint: dict[str, Any]) -> None:
    """Write ``checkpoint`` to ``path`` atomically (temporary file in the same directory, then rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save({"format": FORMAT, **checkpoint}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class CheckpointError(ValueError):
    """A checkpoint that cannot be read: missing, truncated, corrupt, or not one of ours."""


class CheckpointNotFoundError(CheckpointError, FileNotFoundError):
    """No checkpoint at the path given."""


def load_checkpoint(path: str | os.PathLike, device: str | torch.device = "cpu") -> dict[str, Any]:
    """Read a checkpoint safely (``weights_only=True``); a run directory means its ``latest.pt``.

    Raises :class:`CheckpointError` (a ``ValueError``) with one line naming the file when
    it is missing, empty, truncated, corrupt or not a boardgame_envs checkpoint.
    """
    path = Path(path)
    if path.is_dir():
        path = path / LATEST
    if not path.is_file():
        raise CheckpointNotFoundError(f"no checkpoint at {path}")
    try:
        checkpoint = torch.load(path, map_location=device, weights_only=True)
    except Exception as exc:  # torch raises RuntimeError, EOFError, UnpicklingError, ... on a damaged file
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CheckpointError(f"{path} is not a readable checkpoint ({type(exc).__name__}: {reason[:200]})") from None
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not a boardgame_envs AlphaZero checkpoint (format {FORMAT})")
    missing = [key for key in ("net", "net_hparams", "game") if key not in checkpoint]
    if missing:
        raise CheckpointError(f"{path} is an incomplete checkpoint: no {', '.join(missing)}")
    return checkpoint


def game_to_dict(game: MNKGame) -> dict[str, Any]:
    return {"size": int(game.size), "win_length": int(game.win_length), "rule": game.rule}


def network_from(checkpoint: dict[str, Any], device: str | torch.device = "cpu") -> tuple[PolicyValueNet, MNKGame]:
    """The network of a checkpoint (in eval mode, on ``device``) and the game it was trained on."""
    net = PolicyValueNet(**checkpoint["net_hparams"]).to(device)
    net.load_state_dict(checkpoint["net"])
    net.eval()
    return net, MNKGame(**checkpoint["game"])


def export_network(source: str | os.PathLike, target: str | os.PathLike) -> None:
    """Write only the network of checkpoint ``source`` (its shape, game and weights) to ``target``.

    What the pretrained networks ship as: a checkpoint :func:`load_checkpoint`
    reads, without the optimizer, replay buffer and random states (a fraction of the size).
    """
    checkpoint = load_checkpoint(source)
    save_checkpoint(target, {key: checkpoint[key] for key in ("game", "net_hparams", "net")})
