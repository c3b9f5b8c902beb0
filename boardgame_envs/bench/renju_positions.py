"""The 15x15 positions ``bench renju`` times ``forbidden_mask`` on, shipped with the package.

Six positions of 30 to 60 stones from play that keeps the stones together
(generated once with seed 2024 for the project's renju benchmarks), each as
its moves in renju notation, black first.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.notation import parse_point

BOARD_SIZE = 15
POSITIONS = {
    "mid30": "h8 g8 g7 h9 h6 i9 g6 k10 g9 i7 j8 j9 i6 j5 l9 f6 n8 k6 l3 l10 i5 e7 h5 j4 m10 n10 m8 l11 i8 d8",
    "mid36": "h8 f9 g7 f7 e8 g9 d9 h9 e9 g10 f6 c10 b11 g11 g13 j7 h6 j11 i5 h7 f10 g12 e5 f8 c11 i3 e10 f11 g8 d4 "
    "d12 c9 b10 j3 l1 i9",
    "mid42": "h8 g9 g7 f6 f8 j10 f7 j11 g6 i13 j12 g8 i10 j14 e6 k13 h9 j13 j9 m12 h5 h13 l14 h12 g13 n10 l13 m15 "
    "f12 k14 k11 m11 k12 n12 i8 m8 f9 f5 l10 e4 e7 n9",
    "mid48": "h8 f9 e10 f11 g7 f6 g8 f12 i9 e11 e8 e7 g11 g13 i13 f5 g9 f3 f8 d8 h9 e9 d11 f13 f14 g14 j10 i8 k10 "
    "e12 d12 h13 j13 k11 j8 k9 k7 h6 c12 d9 f10 g10 h7 e4 b13 l11 d6 h11",
    "mid54": "h8 g7 g9 i7 j7 g6 g8 f4 f9 f6 j8 d4 i8 h11 h9 g3 b2 f8 h4 i9 c1 e3 a2 e11 d2 c10 c2 d9 h2 k7 l9 l8 "
    "m8 f7 k9 f12 d10 c8 k6 e10 h5 d12 e8 d13 a1 e2 j10 g10 h3 i12 n7 j13 e13 h6",
    "mid60": "h8 g7 g8 g9 f9 d11 c11 e10 i9 g10 j8 i7 g6 h9 j7 j6 d10 f10 k8 k9 e6 k10 f8 k11 h6 h10 l10 l9 i10 k5 "
    "k7 f11 h7 d12 c9 i8 i11 e9 f7 e11 b8 k4 k6 m9 j9 g11 h11 d9 i6 j3 h2 k3 d8 n9 c13 b6 b5 i5 i3 g12",
}


def boards() -> dict[str, np.ndarray]:
    """Each position as an ``(N, N)`` int8 board: 0 empty, 1 black, 2 white."""
    out = {}
    for name, moves in POSITIONS.items():
        board = np.zeros(BOARD_SIZE * BOARD_SIZE, dtype=np.int8)
        for i, point in enumerate(moves.split()):
            board[parse_point(point, BOARD_SIZE)] = 1 if i % 2 == 0 else 2
        out[name] = board.reshape(BOARD_SIZE, BOARD_SIZE)
    return out
