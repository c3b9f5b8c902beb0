"""Pickles that leave a marker file when anything unpickles them: planted in files to show that no loader runs them.

``Touch(marker)`` unpickles as ``pathlib.Path(marker).touch()``; ``System(marker)`` as ``os.system("touch
marker")``. Neither needs this module when unpickled: the pickle names only the standard library.
"""

from __future__ import annotations

import base64
import os
import pathlib
import pickle


class Touch:
    def __init__(self, marker: os.PathLike | str) -> None:
        self.marker = pathlib.Path(marker)

    def __reduce__(self):
        return (pathlib.Path.touch, (self.marker,))


class System:
    def __init__(self, marker: os.PathLike | str) -> None:
        self.marker = os.fspath(marker)

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def payloads(marker: os.PathLike | str) -> list[object]:
    """Both kinds of marker pickle for ``marker``."""
    return [Touch(marker), System(marker)]


def serialized(obj: object) -> str:
    """``obj`` as Stable-Baselines3 stores a ``:serialized:`` value in a zip's ``data``: base64 of a pickle."""
    return base64.b64encode(pickle.dumps(obj)).decode()


def proof_that_it_would_run(marker: pathlib.Path) -> None:
    """Unpickle a marker pickle on purpose and check that the marker appears (the marker test can fail)."""
    for payload in payloads(marker):
        marker.unlink(missing_ok=True)
        pickle.loads(pickle.dumps(payload))
        assert marker.exists()
    marker.unlink()
