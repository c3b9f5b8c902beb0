"""The packed-argument entry :func:`wins_at` answers exactly what :func:`makes_win` answers."""

import numpy as np

from boardgame_envs.games.lines import BLACK, WHITE, makes_win, win_code, wins_at


def test_wins_at_matches_makes_win_on_random_boards():
    rng = np.random.default_rng(0)
    checked = wins = 0
    for n in (3, 4, 6, 9, 15, 19):
        for k in sorted({2, 3, min(5, n), n}):
            for exact in (False, True):
                for _ in range(60):
                    board = rng.choice(np.array([0, BLACK, WHITE], dtype=np.int8), size=n * n, p=[0.3, 0.4, 0.3])
                    idx = int(rng.integers(n * n))
                    for color in (BLACK, WHITE):
                        expected = makes_win(board, n, idx, color, k, exact)
                        assert wins_at(board, idx, color << 17 | win_code(n, k, exact)) == expected
                        checked += 1
                        wins += expected
    assert wins > checked // 10  # both answers occur often
