"""The loading layer: every file the package reads from a user, read so that no file runs code or costs
more than its caps, and every file it writes, written so that nothing half-written is left.

- :func:`open_regular` / :func:`open_regular_file`: regular files only (a FIFO, a device, a socket refused in
  one line), opened so that nothing waits; every reader below opens through them, and :func:`open_append`
  opens a log to append to the same way.
- :func:`read_text` / :func:`read_json`: UTF-8 text and JSON, at most :data:`TEXT_LIMIT` bytes read.
- :func:`load_tensors`: ``torch.load(weights_only=True)`` with sizes, strides and storages checked.
- :func:`load_restricted`: a pickle of plain values and named classes from an allow-list, none of them run.
- :func:`open_zip` / :func:`read_member`: zip entries capped by their declared sizes before inflating.
- :func:`contained_path`: a name from inside a file stays inside its folder.
- :func:`atomic_write_bytes` / :func:`atomic_write_text` / :func:`atomic_save_tensors`: temp file, fsync, rename;
  :func:`atomic_write_new`: the same onto the first free name, never over another file.

Errors: :class:`FileRefusedError` (a ``ValueError``, one line ``"<path>: <what is wrong>"``) and
:class:`DiskFullError` (an ``OSError`` naming the path and the disk). This package imports nothing
of boardgame_envs: every layer may use it. docs/trust.md states the trust model built on it.
"""

from boardgame_envs.safeio.atomic import (
    atomic_save_tensors,
    atomic_write,
    atomic_write_bytes,
    atomic_write_new,
    atomic_write_text,
    remove_stale_temporaries,
    stale_temporaries,
)
from boardgame_envs.safeio.errors import EXCERPT_CHARS, DiskFullError, FileRefusedError, excerpt
from boardgame_envs.safeio.files import open_append, open_regular, open_regular_file
from boardgame_envs.safeio.paths import contained_path
from boardgame_envs.safeio.pickles import PICKLE_LIMIT, ClassRef, load_restricted
from boardgame_envs.safeio.tensors import (
    TENSOR_BYTES_LIMIT,
    TENSOR_FILE_LIMIT,
    check_tensors,
    load_tensor_bytes,
    load_tensors,
    state_dict_misfit,
)
from boardgame_envs.safeio.text import TEXT_LIMIT, parse_json, read_bytes, read_json, read_text
from boardgame_envs.safeio.zips import ZIP_ENTRIES_LIMIT, open_zip, read_member

__all__ = [
    "EXCERPT_CHARS", "PICKLE_LIMIT", "TENSOR_BYTES_LIMIT", "TENSOR_FILE_LIMIT", "TEXT_LIMIT", "ZIP_ENTRIES_LIMIT",
    "ClassRef", "DiskFullError", "FileRefusedError",
    "atomic_save_tensors", "atomic_write", "atomic_write_bytes", "atomic_write_new", "atomic_write_text", "check_tensors",
    "contained_path", "excerpt", "load_restricted", "load_tensor_bytes", "load_tensors", "open_append", "open_regular", "open_regular_file", "open_zip", "parse_json", "read_bytes", "read_json", "read_member",
    "read_text", "remove_stale_temporaries", "stale_temporaries", "state_dict_misfit",
]  # fmt: skip
