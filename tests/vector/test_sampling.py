"""The batched sampler draws the legal action a plain count-down over the row gives, for the same stream."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.vector.sampling import sample_parallel, sample_serial

MASK64 = (1 << 64) - 1


def splitmix_below(state: int, m: int) -> tuple[int, int]:
    """The next draw from ``0..m-1`` of a splitmix64 stream at ``state``, in plain Python: (state, draw)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return state, ((z >> 32) * m) >> 32


def reference(legal: np.ndarray, streams: list[int]) -> list[int]:
    out = []
    for b, row in enumerate(legal):
        points = np.flatnonzero(row)
        if points.size == 0:
            out.append(-1)
            continue
        streams[b], j = splitmix_below(streams[b], points.size)
        out.append(int(points[j]))
    return out


@pytest.mark.parametrize("points", [7, 9, 16, 17, 64, 225, 361])
@pytest.mark.parametrize("sampler", [sample_serial, sample_parallel])
def test_each_draw_is_the_jth_legal_point(points, sampler):
    rng = np.random.default_rng(points)
    legal = rng.random((64, points)) < rng.random((64, 1))
    legal[0] = False  # no legal move: -1
    legal[1] = False
    legal[1, -1] = True  # the last point only
    legal[2] = True
    num_legal = legal.sum(axis=1).astype(np.int32)
    streams = np.arange(64, dtype=np.uint64) * np.uint64(0x1234567) + np.uint64(points)
    expected_streams = [int(s) for s in streams]
    out = np.empty(64, dtype=np.int64)
    for _ in range(20):
        sampler(legal, num_legal, streams, out)
        assert out.tolist() == reference(legal, expected_streams)
    assert out[0] == -1 and out[1] == points - 1
