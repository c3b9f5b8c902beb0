"""Checkpoints: written atomically, read through the loading layer (:mod:`boardgame_envs.safeio`).

A checkpoint is a dict of tensors and plain values (no pickled classes), so loading one
(``torch.load(weights_only=True)``, every tensor's shape checked against its storage) runs no
code from the file and costs no more memory than it holds. ``latest.pt`` in the run directory
is replaced after every iteration: the new file is written beside it and renamed over it, so a
kill at any moment leaves either the old or the new checkpoint, never half of one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.arena.lock import InUseError, PidLock
from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.games.parameters import read_back
from boardgame_envs.games.protocol import as_family
from boardgame_envs.safeio import FileRefusedError, atomic_save_tensors, load_tensors, state_dict_misfit
from boardgame_envs.safeio.file_kinds import sb3_hint
from boardgame_envs.safeio import stale_temporaries as temporaries_in

FORMAT = 1
LATEST = "latest.pt"


def save_checkpoint(path: str | os.PathLike, checkpoint: dict[str, Any]) -> None:
    """Write ``checkpoint`` to ``path`` atomically (:func:`~boardgame_envs.safeio.atomic_save_tensors`).

    A failure (a full disk, named with its free bytes; a quota; a read-only folder) is one
    :class:`CheckpointError` line, and the previous file under ``path`` is left as it was.
    """
    path = Path(path)
    try:
        atomic_save_tensors({"format": FORMAT, **checkpoint}, path)
    except OSError as exc:
        why = exc.strerror or (os.strerror(exc.errno) if exc.errno else str(exc))
        kept = "; the previous checkpoint is kept" if path.is_file() else ""
        raise CheckpointError(f"cannot write {path}: {why}{kept}") from None


def stale_temporaries(folder: str | os.PathLike) -> list[Path]:
    """Temporary files :func:`save_checkpoint` left in ``folder`` when it was killed mid-write."""
    return temporaries_in(folder, "*.pt")


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
        checkpoint = load_tensors(path, what="checkpoint")
    except FileRefusedError as exc:  # an SB3 zip is "damaged or not a torch file" to torch: say what it is
        raise CheckpointError(sb3_hint(path, "an AlphaZero checkpoint") or str(exc)) from None
    if device != "cpu":
        checkpoint = _to_device(checkpoint, device)
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not a boardgame_envs AlphaZero checkpoint (format {FORMAT})")
    missing = [key for key in ("net", "net_hparams", "game") if key not in checkpoint]
    if missing:
        raise CheckpointError(f"{path} is an incomplete checkpoint: no {', '.join(missing)}")
    _check_shapes(path, checkpoint)
    return checkpoint


def _to_device(value: Any, device: str | torch.device) -> Any:
    """``value`` with its tensors moved to ``device`` (a checkpoint is read on the CPU, where it is checked)."""
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, dict):
        return {key: _to_device(item, device) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_to_device(item, device) for item in value)
    return value


# Bounds of a network's shape that no checkpoint of this package exceeds; beyond them the file is damaged
# (or made up), and building the network would fail obscurely or allocate without end.
_HPARAM_RANGES = {"in_planes": (1, 64), "board_size": (3, 19), "blocks": (0, 64), "channels": (1, 1024)}
_OPTIONAL_HPARAMS = {"rows": (3, 19), "num_actions": (1, 400)}  # boards that are not square, actions that are not cells
_DECISIONS = (1, 32)  # "decisions" (with the two above): an opening rule's decisions after the cells


def _check_shapes(path: Path, checkpoint: dict[str, Any]) -> None:
    hparams, game = checkpoint["net_hparams"], checkpoint["game"]
    keys = set(hparams) if isinstance(hparams, dict) else set()
    optional = keys & {*_OPTIONAL_HPARAMS, "decisions"}
    if not isinstance(hparams, dict) or keys - optional != set(_HPARAM_RANGES) or (
        optional not in (set(), set(_OPTIONAL_HPARAMS), {*_OPTIONAL_HPARAMS, "decisions"})
    ):
        raise CheckpointError(f"{path} has a damaged network shape: {hparams!r} (expected {', '.join(_HPARAM_RANGES)})")
    for key, (lo, hi) in {**_HPARAM_RANGES, **_OPTIONAL_HPARAMS, "decisions": _DECISIONS}.items():
        if key not in hparams:
            continue
        value = hparams[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise CheckpointError(f"{path} has a damaged network shape: {key}={value!r}, expected {lo}..{hi}")
    try:
        game_from_dict(game)
    except (ValueError, TypeError):
        raise CheckpointError(f"{path} names no game this package knows: {game!r}") from None
    if not isinstance(checkpoint["net"], dict):
        raise CheckpointError(f"{path} has no network weights (its 'net' is not a table of tensors)")


MNK_KEYS = ("size", "win_length", "rule")


def game_to_dict(game: Any) -> dict[str, Any]:
    """How a checkpoint names its game: an m,n,k game by its rules (as since the first checkpoints), one under
    an opening rule by its base game's rules and the rule's name (``"opening_rule": "swap2"``), any other by name,
    with the parameters its catalog entry declares (``"parameters": {"rows": 3}``) where it declares any."""
    if as_family(game, "mnk") is not None:
        return {"size": int(game.size), "win_length": int(game.win_length), "rule": game.rule}
    if as_family(game, "opening_rule") is not None:
        return {**game_to_dict(game.base), "opening_rule": game.opening.name}
    declared = game_info(game.name).parameters
    return {"name": game.name, **({"parameters": read_back(game, declared)} if declared else {})}


def game_from_dict(game: Any) -> Any:
    """The Game a checkpoint's ``game`` entry names; ValueError or TypeError for anything else."""
    if not isinstance(game, dict):
        raise TypeError(f"not a game: {game!r}")
    if set(game) in ({"name"}, {"name", "parameters"}):
        info = game_info(game["name"])
        if info.factory is None:
            raise ValueError(f"{game['name']} needs its rules in a checkpoint")
        parameters = game.get("parameters", {})
        if not isinstance(parameters, dict):
            raise TypeError(f"not a game's parameters: {parameters!r}")
        return info.game(**parameters)  # each within the entry's choices, else ValueError naming it
    if set(game) == {*MNK_KEYS, "opening_rule"}:
        return OpeningRuleGame(MNKGame(**{key: game[key] for key in MNK_KEYS}), game["opening_rule"])
    if set(game) != set(MNK_KEYS):
        raise ValueError(f"not a game: {game!r}")
    return MNKGame(**game)


#: The most parameters a checkpoint's stated network may have: 100 million (400 MB in float32). The shipped
#: networks have under 300 thousand; the stated shape's count is checked before the network is built.
NETWORK_PARAMETERS_LIMIT = 100_000_000


def network_from(
    checkpoint: dict[str, Any], device: str | torch.device = "cpu", source: str | os.PathLike = "the checkpoint",
) -> tuple[PolicyValueNet, Any]:  # fmt: skip
    """The network of a checkpoint (in eval mode, on ``device``) and the game it was trained on.

    A stated shape past :data:`NETWORK_PARAMETERS_LIMIT`, or weights that do not fit the shape the checkpoint
    states, raise :class:`CheckpointError` naming ``source``, before the network is built: a small file stating
    a huge shape allocates nothing.
    """
    try:
        game = game_from_dict(checkpoint["game"])
        misfit = _misfit(checkpoint["net_hparams"], checkpoint["net"], source)
        if not misfit:
            net = PolicyValueNet(**checkpoint["net_hparams"]).to(device)
            net.load_state_dict(checkpoint["net"])
    except (RuntimeError, ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, CheckpointError):
            raise
        misfit = _first_mismatch(exc)
    if misfit:
        raise CheckpointError(f"{source}: its weights do not fit the network it describes: {misfit}")
    bad = first_nonfinite(net.state_dict())
    if bad:
        raise CheckpointError(f"{source}: its weights are not finite ({bad}); a network with them gives NaN priors "
                              "and values, so its moves mean nothing: use an earlier checkpoint of the run")  # fmt: skip
    net.eval()
    return net, game


def _misfit(hparams: dict[str, Any], weights: dict[str, Any], source: str | os.PathLike = "the checkpoint") -> str:
    """The first way ``weights`` differ from the tensors of a network of shape ``hparams`` ("" if they fit).

    The network is built on the ``meta`` device, which gives every tensor its shape and no memory: a
    stated shape of 64 blocks of 1,024 channels is gigabytes when built for real. Weights that fit a
    shape past :data:`NETWORK_PARAMETERS_LIMIT` are :class:`CheckpointError` (the file's tensors were
    checked against their storage on loading, so a shape they fit is one the file holds).
    """
    with torch.device("meta"):
        expected = PolicyValueNet(**hparams).state_dict()
    misfit = state_dict_misfit(expected, weights)
    count = sum(tensor.numel() for tensor in expected.values())
    if not misfit and count > NETWORK_PARAMETERS_LIMIT:
        raise CheckpointError(f"{source}: its stated network shape is {count:,} parameters, over the limit of "
                              f"{NETWORK_PARAMETERS_LIMIT:,}")  # fmt: skip
    return misfit


def first_nonfinite(weights: dict[str, torch.Tensor]) -> str:
    """The first tensor of ``weights`` holding NaN or an infinity, in words ("" if none does).

    No flag lets such a network play: its priors and values are NaN, so nothing it does is a result. The
    file itself still reads (:func:`load_checkpoint`), for a look at where training went wrong.
    """
    for key, tensor in weights.items():
        if not tensor.is_floating_point():
            continue
        finite = torch.isfinite(tensor)
        if not bool(finite.all()):
            bad = tensor[~finite]
            kind = "NaN" if bool(torch.isnan(bad).any()) else "infinity"
            return f"{key} holds {kind}: {bad.numel():,} of {tensor.numel():,} values are not finite"
    return ""


def _first_mismatch(exc: Exception) -> str:
    """The first line of torch's complaint that says what differs (a size mismatch, a missing or unexpected key)."""
    for line in str(exc).splitlines():
        line = line.strip()
        if line.startswith(("size mismatch", "Missing key", "Unexpected key")):
            return line.rstrip(".")[:200]
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


def export_network(source: str | os.PathLike, target: str | os.PathLike) -> None:
    """Write only the network of checkpoint ``source`` (its shape, game and weights) to ``target``.

    What the pretrained networks ship as: a checkpoint :func:`load_checkpoint`
    reads, without the optimizer, replay buffer and random states (a fraction of the size).
    """
    checkpoint = load_checkpoint(source)
    save_checkpoint(target, {key: checkpoint[key] for key in ("game", "net_hparams", "net")})


LOCK = ".trainer.lock"


class RunInUseError(CheckpointError, InUseError):
    """Another trainer (a live process) holds the run directory."""


class RunLock(PidLock):
    """One trainer per run directory: ``out/.trainer.lock``, a :class:`~boardgame_envs.arena.lock.PidLock`.

    A lock whose process is gone (a killed trainer) is taken over, with a line on stderr saying so;
    a lock of this same process is taken too (a trainer rebuilt on its own run, as tests and notebooks do).
    """

    error = RunInUseError

    def __init__(self, folder: str | os.PathLike) -> None:
        super().__init__(Path(folder) / LOCK, str(folder), "trainer",
                         "wait for it to finish, stop it, or pick another out directory")  # fmt: skip
