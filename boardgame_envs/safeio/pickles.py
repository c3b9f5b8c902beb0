"""A restricted unpickler, for the few files that keep plain settings as a pickle (an SB3 zip's policy class
and policy keyword arguments): it builds containers and plain values, and names of allowed classes.

Its ``find_class`` admits only the ``(module, name)`` pairs it is given, and even for those it returns a
:class:`ClassRef`, an inert tuple of the two names, not the class: a pickle cannot call it, build on it or
reach its attributes, so nothing from the file runs. The caller maps each reference to the class it
stands for, from its own table. Persistent ids and extension codes are refused.
"""

from __future__ import annotations

import io
import os
import pickle
from typing import Any

from boardgame_envs.safeio.errors import FileRefusedError

#: The most bytes of pickle :func:`load_restricted` reads: plain settings are a few hundred.
PICKLE_LIMIT = 64 * 1024


class ClassRef(tuple):
    """``(module, name)`` of a class a restricted pickle named: data, never the class itself."""

    __slots__ = ()

    @property
    def dotted(self) -> str:
        return f"{self[0]}.{self[1]}"


class _Restricted(pickle.Unpickler):
    def __init__(self, data: bytes, allowed: frozenset[tuple[str, str]]) -> None:
        super().__init__(io.BytesIO(data))
        self.allowed = allowed

    def find_class(self, module: str, name: str) -> ClassRef:
        if (module, name) in self.allowed:
            return ClassRef((module, name))
        raise pickle.UnpicklingError(f"it names {module}.{name}"[:200])

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("it refers to objects outside the pickle")


def load_restricted(data: bytes, allowed: set[tuple[str, str]] | frozenset[tuple[str, str]],
                    where: str | os.PathLike, what: str) -> Any:  # fmt: skip
    """The value pickled in ``data``: dicts, lists, tuples, plain values and :class:`ClassRef` s of ``allowed``
    classes only. Anything else (another class or function, a pickle past :data:`PICKLE_LIMIT`, damage) is
    :class:`FileRefusedError` naming ``where`` and ``what`` (the field the pickle came from)."""
    if len(data) > PICKLE_LIMIT:
        raise FileRefusedError(where, f"its {what} is a pickle of {len(data):,} bytes, over the {PICKLE_LIMIT:,}-byte limit")
    try:
        value = _Restricted(data, frozenset(allowed)).load()
    except pickle.UnpicklingError as exc:
        raise FileRefusedError(where, f"its {what} is a pickle that is refused ({exc}): only plain values and a "
                                      "short list of known classes are read, as a pickle could run code") from None  # fmt: skip
    except Exception as exc:  # noqa: BLE001 (damage: EOFError, ValueError, TypeError from an uncallable reference, ...)
        raise FileRefusedError(where, f"its {what} is a damaged or refused pickle ({type(exc).__name__})") from None
    return value
