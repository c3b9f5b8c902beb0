"""Tensors from files, and nothing else: ``torch.load(weights_only=True)`` behind checks of size and shape.

``weights_only=True`` builds tensors and plain values and refuses every other class, so loading runs no
code from the file. It does not bound memory: a small file may declare large zip entries, or hold
views whose shapes reach far past their storage (``torch.zeros(1).expand(64, 1024, 3, 3)`` is four
bytes of storage and 2.4 MB of shape; copied into a network it is the full size). So before loading,
the file's size and its entries' declared sizes are capped; after, every tensor is checked: no zero
stride on a dimension longer than one, no shape needing more bytes than its storage holds, and the
shapes' bytes summed against a cap.
"""

from __future__ import annotations

import io
import os
import pickle
import zipfile
from typing import Any, BinaryIO

from boardgame_envs.safeio.errors import FileRefusedError
from boardgame_envs.safeio.files import open_regular_file
from boardgame_envs.safeio.zips import open_zip

#: The most bytes a tensor file may hold on disk, and its entries unpacked: 2 GiB (an AlphaZero training
#: checkpoint with its replay buffer is the package's largest, some hundreds of MB).
TENSOR_FILE_LIMIT = 2 * 1024**3
#: The most bytes all the tensors of one file may span by their shapes: 2 GiB.
TENSOR_BYTES_LIMIT = 2 * 1024**3
#: The most levels of containers (dicts, lists, tuples) a tensor file may nest; a training checkpoint
#: (optimizer state, replay buffer) nests five.
NESTING_LIMIT = 64


def load_tensors(path: str | os.PathLike, *, limit: int = TENSOR_FILE_LIMIT, what: str = "file",
                 bytes_limit: int = TENSOR_BYTES_LIMIT) -> Any:  # fmt: skip
    """What the torch file at ``path`` holds (tensors on the CPU and plain values), checked as the module says.

    A missing file raises ``FileNotFoundError``; anything refused, :class:`FileRefusedError` in one line
    naming the file (never torch's advice to load with ``weights_only=False``, which would run its code).
    """
    where = os.fspath(path)
    with open_regular_file(where, what) as f:  # a FIFO or a device is refused, never waited on
        return _load(f, os.fstat(f.fileno()).st_size, where, what, limit, bytes_limit)


def load_tensor_bytes(data: bytes, where: str | os.PathLike, *, limit: int = TENSOR_FILE_LIMIT, what: str = "file",
                      bytes_limit: int = TENSOR_BYTES_LIMIT) -> Any:  # fmt: skip
    """:func:`load_tensors` for a torch file held in memory (an entry of a zip), named ``where`` in errors."""
    return _load(io.BytesIO(data), len(data), os.fspath(where), what, limit, bytes_limit)


def _load(f: BinaryIO, size: int, where: str, what: str, limit: int, bytes_limit: int) -> Any:
    import torch

    if size > limit:
        raise FileRefusedError(where, f"the {what} is {size:,} bytes, over the {limit:,}-byte limit")
    if not zipfile.is_zipfile(f):
        raise FileRefusedError(where, f"the {what} is not a torch file ({_not_zip(f, size)})")
    f.seek(0)
    open_zip(f, total_limit=limit, what=what, where=where).close()
    f.seek(0)
    try:
        data = torch.load(f, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 (torch raises RuntimeError, EOFError, UnpicklingError, OSError, KeyError, ...)
        raise FileRefusedError(where, f"the {what} cannot be read safely: {why_unreadable(exc)}") from None
    check_tensors(data, where, what=what, bytes_limit=bytes_limit)
    return data


def _not_zip(f: Any, size: int) -> str:
    f.seek(0)
    head = f.read(4)
    if size == 0:
        return "it is empty"
    if head[:2] == b"\x80\x02" or head[:1] == b"\x80":
        return "it is in torch's legacy format, which this package does not read; re-save it with a recent torch"
    return "it is damaged, cut short, or another kind of file"


def why_unreadable(exc: BaseException) -> str:
    """What is wrong with a file torch could not load, in words. torch's own text is not repeated: it names
    internals (``KeyError: 101``, ``[Errno 22]``) or advises ``weights_only=False``, which would run code from the file."""
    text = str(exc)
    if isinstance(exc, pickle.UnpicklingError) or "weights_only" in text:
        return "it holds Python objects besides tensors, which a safe load refuses (it could run code from the file)"
    if isinstance(exc, EOFError) or "central directory" in text or "EOF" in text:
        return "the file is empty or cut short (a copy that did not finish?)"
    if isinstance(exc, OSError) and exc.errno is not None and exc.strerror:
        return exc.strerror
    return "the file is damaged or is not a torch file"


def check_tensors(data: Any, path: str | os.PathLike, *, what: str = "file", bytes_limit: int = TENSOR_BYTES_LIMIT) -> None:
    """Refuse (:class:`FileRefusedError`) a loaded value whose tensors could cost more than their file: containers
    nested deeper than :data:`NESTING_LIMIT`, a zero stride over a dimension longer than one, a shape needing
    more bytes than its storage, a layout other than strided (sparse tensors grow when made dense), or shapes
    spanning more than ``bytes_limit`` in all.

    The walk is linear in the number of values: each value is visited once, at a depth checked before its
    children are, and a tensor's key (``net.0.weight``) is spelled out only when it is refused.
    """
    import torch

    # (value, depth, node): node indexes `parents`, which holds (parent node, label) so that a key is built
    # by walking up only when an error names it; building it at every level would be quadratic in the depth.
    parents: list[tuple[int, str]] = [(-1, "")]
    total, seen, stack = 0, set(), [(data, 0, 0)]
    while stack:  # by hand, not by recursion: a file may nest its containers deep
        value, depth, node = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (dict, list, tuple)):
            if depth >= NESTING_LIMIT:
                raise FileRefusedError(path, f"the {what} nests its values more than {NESTING_LIMIT} levels deep "
                                             "(a checkpoint's go a few levels)")  # fmt: skip
            items = value.items() if isinstance(value, dict) else enumerate(value)
            children = []
            for k, v in items:
                parents.append((node, f".{k}" if isinstance(value, dict) else f"[{k}]"))
                children.append((v, depth + 1, len(parents) - 1))
            stack.extend(reversed(children))  # reversed onto the stack: the first tensor in the file's order first
        elif isinstance(value, torch.Tensor):
            total += _check_tensor(value, _key(parents, node) or "the tensor", path, what)
            if total > bytes_limit:
                raise FileRefusedError(path, f"the {what}'s tensors span over {bytes_limit:,} bytes by their shapes")


def _key(parents: list[tuple[int, str]], node: int) -> str:
    """The key of ``node`` as a file's reader writes it (``net.0.weight``, ``buffer[3]``), at most 120 characters."""
    labels = []
    while node > 0:
        node, label = parents[node]
        labels.append(label[:120])
    return "".join(reversed(labels)).lstrip(".")[:120]


def _check_tensor(tensor: Any, key: str, path: str | os.PathLike, what: str) -> int:
    """The bytes ``tensor``'s shape spans, after checking it against its storage."""
    import torch

    key = key[:120]
    if tensor.layout != torch.strided:
        raise FileRefusedError(path, f"{key} in the {what} is a {tensor.layout} tensor; only dense tensors are read")
    shape, strides = tuple(tensor.shape), tuple(tensor.stride())
    if tensor.numel() and any(size > 1 and step == 0 for size, step in zip(shape, strides)):  # an empty tensor repeats nothing
        raise FileRefusedError(path, f"{key} in the {what} repeats one value over its shape {list(shape)} (a zero stride); "
                                     "its storage does not hold the values its shape states")  # fmt: skip
    size = tensor.element_size()
    needed = tensor.numel() * size
    held = tensor.untyped_storage().nbytes()
    reach = 0 if tensor.numel() == 0 else (tensor.storage_offset() + sum((n - 1) * s for n, s in zip(shape, strides)) + 1) * size
    if needed > held or reach > held:
        raise FileRefusedError(path, f"{key} in the {what} has shape {list(shape)}, which needs {max(needed, reach):,} "
                                     f"bytes, but its storage holds {held:,}")  # fmt: skip
    return needed


def state_dict_misfit(expected: dict[str, Any], weights: Any) -> str:
    """The first way ``weights`` differ from ``expected`` (a network's state dict, or its tensors' shapes)
    in keys or shapes, in words ("" if they fit): compared before any weight is copied into a network."""
    import torch

    if not isinstance(weights, dict):
        return "its weights are not a table of tensors"
    for key, tensor in expected.items():
        stored = weights.get(key)
        if stored is None:
            return f"Missing key {key!r}"
        if not isinstance(stored, torch.Tensor):
            return f"{key!r} is not a tensor"
        if tuple(stored.shape) != tuple(tensor.shape):
            return (f"size mismatch for {key}: the file holds {list(stored.shape)}, "
                    f"the shape it states needs {list(tensor.shape)}")  # fmt: skip
    extra = next((key for key in weights if key not in expected), None)
    return "" if extra is None else f"Unexpected key {str(extra)[:80]!r}"
