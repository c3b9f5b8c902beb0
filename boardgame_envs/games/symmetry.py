"""The 8 symmetries of a square board, applied alike to planes, masks and policies.

m,n,k games on a square board (renju included: its forbidden-move rules are
stated line by line, and the four line directions map onto each other) are
invariant under the dihedral group of the square: four rotations, each with or
without a mirror. A training example ``(planes, mask, policy)`` therefore gives
eight, and the only way to get one wrong is to move the planes one way and the
action vector another. Every function here goes through :func:`transform`, so
they cannot disagree.

Symmetry ``s`` in ``0..7``: rotate by ``s % 4`` quarter turns counter-clockwise
(``numpy.rot90``), then, if ``s >= 4``, mirror left-right. Action ``a`` is the
cell ``(a // n, a % n)``, as in the envs.

>>> import numpy as np
>>> policy = np.arange(9.0)
>>> transform_actions(policy, 1)  # one quarter turn
array([2., 5., 8., 1., 4., 7., 0., 3., 6.])
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

NUM_SYMMETRIES = 8


def _check(sym: int) -> int:
    if isinstance(sym, bool) or not isinstance(sym, (int, np.integer)) or not 0 <= sym < NUM_SYMMETRIES:
        raise ValueError(f"symmetry must be an integer in 0..{NUM_SYMMETRIES - 1}, got {sym!r}")
    return int(sym)


def transform(array: np.ndarray, sym: int, axes: tuple[int, int] = (-2, -1)) -> np.ndarray:
    """Apply symmetry ``sym`` to the two square spatial ``axes`` (rows, columns) of ``array``."""
    sym = _check(sym)
    array = np.asarray(array)
    if array.shape[axes[0]] != array.shape[axes[1]]:
        raise ValueError(f"spatial axes {axes} of shape {array.shape} are not square")
    out = np.rot90(array, sym % 4, axes=axes)
    if sym >= 4:
        out = np.flip(out, axis=axes[1])
    return np.ascontiguousarray(out)


def inverse(sym: int) -> int:
    """The symmetry that undoes ``sym``."""
    sym = _check(sym)
    return (4 - sym) % 4 if sym < 4 else sym  # mirrors are their own inverses


def transform_planes(planes: np.ndarray, sym: int, channels_first: bool = False) -> np.ndarray:
    """Observation planes ``(..., n, n, C)`` (or ``(..., C, n, n)`` with ``channels_first``)."""
    return transform(planes, sym, (-2, -1) if channels_first else (-3, -2))


def transform_actions(vector: np.ndarray, sym: int) -> np.ndarray:
    """A vector over actions ``(..., n*n)``: an action mask, a policy, visit counts."""
    vector = np.asarray(vector)
    n = int(round(np.sqrt(vector.shape[-1])))
    if n * n != vector.shape[-1]:
        raise ValueError(f"last axis of length {vector.shape[-1]} is not a square board's actions")
    square = vector.reshape(*vector.shape[:-1], n, n)
    return transform(square, sym).reshape(vector.shape)


def transform_action(action: int, sym: int, n: int) -> int:
    """Where action ``action`` of an ``n x n`` board goes under ``sym``."""
    onehot = np.zeros(n * n, dtype=np.int8)
    onehot[action] = 1
    return int(np.flatnonzero(transform_actions(onehot, sym))[0])


def symmetries(
    planes: np.ndarray, mask: np.ndarray, policy: np.ndarray, channels_first: bool = False
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The eight ``(planes, mask, policy)`` images of one example, identity first."""
    for sym in range(NUM_SYMMETRIES):
        yield (
            transform_planes(planes, sym, channels_first),
            transform_actions(mask, sym),
            transform_actions(policy, sym),
        )


def random_symmetries(
    planes: np.ndarray, masks: np.ndarray, policies: np.ndarray, rng: np.random.Generator, channels_first: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch with each example moved by its own random symmetry (data augmentation)."""
    planes, masks, policies = np.array(planes), np.array(masks), np.array(policies)
    syms = rng.integers(NUM_SYMMETRIES, size=len(planes))
    for sym in range(1, NUM_SYMMETRIES):
        rows = np.flatnonzero(syms == sym)
        if rows.size:
            planes[rows] = transform_planes(planes[rows], sym, channels_first)
            masks[rows] = transform_actions(masks[rows], sym)
            policies[rows] = transform_actions(policies[rows], sym)
    return planes, masks, policies


def random_permutations(
    planes: np.ndarray, masks: np.ndarray, policies: np.ndarray, rng: np.random.Generator,
    cell_perms: list[np.ndarray], action_perms: list[np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """:func:`random_symmetries` for any board: each example moved by a random one of a game's symmetries.

    ``planes`` is ``(B, C, H, W)``; ``cell_perms[s][i]`` is where cell ``i`` (of ``H * W``) goes under
    symmetry ``s`` and ``action_perms[s][a]`` where action ``a`` goes (the Game's
    ``cell_symmetries()`` and ``symmetries()``).
    """
    planes, masks, policies = np.array(planes), np.array(masks), np.array(policies)
    b, c, h, w = planes.shape
    syms = rng.integers(len(action_perms), size=b)
    for sym in range(1, len(action_perms)):
        rows = np.flatnonzero(syms == sym)
        if rows.size:
            flat = planes[rows].reshape(len(rows), c, h * w)
            moved = np.empty_like(flat)
            moved[:, :, cell_perms[sym]] = flat
            planes[rows] = moved.reshape(len(rows), c, h, w)
            for array in (masks, policies):
                out = np.empty_like(array[rows])
                out[:, action_perms[sym]] = array[rows]
                array[rows] = out
    return planes, masks, policies
