"""The packed-argument entry and the table-driven checks answer exactly what :func:`makes_win` answers."""

import numpy as np

from boardgame_envs.games.lines import (
    BLACK,
    WHITE,
    BIT_POINTS,
    line_steps,
    line_windows,
    makes_win,
    opponent,
    win_code,
    wins_at,
    wins_both_by_steps,
    wins_by_steps,
    wins_by_windows,
)


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


def test_the_step_tables_checks_match_makes_win_on_random_boards():
    """``wins_by_steps``, ``wins_both_by_steps`` (the MCTS kernel's): k-or-more and exact-k, per colour."""
    rng = np.random.default_rng(1)
    checked = wins = 0
    for n in (3, 4, 6, 9, 15, 19):
        for k in sorted({2, 3, min(5, n), n}):
            steps, offsets = line_steps(n, k)
            for exact_black in (False, True):
                for exact_white in (False, True):
                    exact = {BLACK: exact_black, WHITE: exact_white}
                    for _ in range(25):
                        board = rng.choice(np.array([0, BLACK, WHITE], dtype=np.int8), size=n * n, p=[0.3, 0.4, 0.3])
                        idx = int(rng.integers(n * n))
                        for color in (BLACK, WHITE):
                            other = opponent(color)
                            expected = makes_win(board, n, idx, color, k, exact[color])
                            expected_other = makes_win(board, n, idx, other, k, exact[other])
                            assert wins_by_steps(board, steps, offsets, idx, color, k, exact[color]) == expected
                            both = wins_both_by_steps(board, steps, offsets, idx, color, k, exact[color], exact[other])
                            assert both == (expected, expected_other)
                            checked += 1
                            wins += expected
    assert wins > checked // 10


def test_the_bitboard_check_matches_makes_win_on_random_boards():
    """``wins_by_windows`` (the MCTS kernel's check on boards of up to 63 points), k from 1 to n, both rules."""
    rng = np.random.default_rng(2)
    checked = wins = 0
    for n in range(2, 8):
        for k in range(1, n + 1):
            masks, ends = line_windows(n, k)
            assert masks.shape == ends.shape and 0 < masks.shape[1] <= 4 * k
            for _ in range(15):
                board = rng.choice(np.array([0, BLACK, WHITE], dtype=np.int8), size=n * n, p=[0.3, 0.4, 0.3])
                bits = {color: sum(1 << int(p) for p in np.flatnonzero(board == color)) for color in (BLACK, WHITE)}
                for idx in range(n * n):
                    for color in (BLACK, WHITE):
                        for exact in (False, True):
                            expected = makes_win(board, n, idx, color, k, exact)
                            assert wins_by_windows(bits[color], masks, ends, idx, exact) == expected, (n, k, idx)
                            checked += 1
                            wins += expected
    assert wins > checked // 10


def test_boards_too_big_for_bitboards_or_k_have_no_windows():
    assert BIT_POINTS == 63
    for n, k in ((8, 5), (15, 5), (19, 5), (4, 5)):
        assert line_windows(n, k)[0].shape == (n * n, 0)
