"""Make connect four's opening set, ``connect_four_2ply``: every start of two moves, checked by a bounded search.

    nice -n 10 python baselines/connect_four_openings.py --depth 18 --write --out baselines/results/connect_four_openings.md

The connect four ladder starts each colour pair from two uniformly random moves
(``Ladder.opening``: ``random_moves(game, seed, 2)``), so its games are drawn
from the 7 x 7 = 49 starts of two moves, each equally likely. The arena's set is
those 49 starts, every one of them, so that a match of ``2 x 49`` games plays
exactly the distribution the ladder samples, each start once with colours
swapped. Their order in the file spreads any prefix: opening ``k`` is red's
column ``k % 7`` and yellow's ``(k // 7 + 3 * (k % 7)) % 7``, so each block of 7
uses every column once for red and once for yellow (a match of 14 games plays
every first column and every reply column once).

The check: from each start, an exact alpha-beta over bitboards looks for a forced
win within ``--depth`` further plies, for red (to move) and for yellow. A start
that loses within the horizon would decide its pair's games before the players
play; none does at the depth used for the shipped file (the report says which
depth and what it found). The search is the usual one for connect four: a win on
the spot ends the search, a single immediate threat of the opponent must be
blocked, two of them lose, and moves go centre first.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from report import command_line, publish  # baselines/report.py, beside this script

DATA = Path(__file__).resolve().parents[1] / "boardgame_envs" / "data" / "openings"
NAME = "connect_four_2ply"
ROWS, COLS = 6, 7
H1 = ROWS + 1  # bits per column: 6 cells and a sentinel bit on top
COLUMN_NAMES = "abcdefg"
ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)  # centre first


def openings() -> list[tuple[int, int]]:
    """The 49 starts of two moves, in the spread order the module docstring gives."""
    return [(k % 7, (k // 7 + 3 * (k % 7)) % 7) for k in range(49)]


@njit(cache=False)
def _aligned(pos: np.int64) -> bool:
    for shift in (1, H1, H1 - 1, H1 + 1):  # vertical, horizontal, the two diagonals
        m = pos & (pos >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


@njit(cache=False)
def _bottom(col: np.int64) -> np.int64:
    return np.int64(1) << (col * H1)


@njit(cache=False)
def _top(col: np.int64) -> np.int64:
    return np.int64(1) << (ROWS - 1 + col * H1)


@njit(cache=False)
def _wins_at(cur: np.int64, mask: np.int64, col: np.int64) -> bool:
    """Whether the side to move (stones ``cur``) wins by dropping a disc in ``col``."""
    cell = (mask + _bottom(col)) & (np.int64(0x3F) << (col * H1))
    return _aligned(cur | cell)


@njit(cache=False)
def _search(cur: np.int64, mask: np.int64, moves: np.int64, depth: np.int64, alpha: np.int64, beta: np.int64,
            counter: np.ndarray) -> np.int64:  # fmt: skip
    """+1 if the side to move forces a win within ``depth`` plies, -1 if the opponent does, else 0 (exact in
    that sense for a window containing the true value; ``counter[0]`` counts nodes)."""
    counter[0] += 1
    if moves == ROWS * COLS or depth <= 0:
        return 0
    for col in range(COLS):
        if (mask & _top(col)) == 0 and _wins_at(cur, mask, col):
            return 1
    if depth == 1:
        return 0
    opp = cur ^ mask
    threats = 0
    forced = -1
    for col in range(COLS):
        if (mask & _top(col)) == 0 and _wins_at(opp, mask, col):
            threats += 1
            forced = col
    if threats >= 2:
        return -1  # two columns to block, one move
    best = np.int64(-1)
    any_move = False
    for i in range(COLS):
        col = ORDER[i]
        if (mask & _top(col)) != 0 or (forced >= 0 and col != forced):
            continue
        any_move = True
        new_mask = mask | (mask + _bottom(col))
        value = -_search(cur ^ mask, new_mask, moves + 1, depth - 1, -beta, -alpha, counter)
        if value > best:
            best = value
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best if any_move else 0


def position(moves: tuple[int, ...]) -> tuple[int, int]:
    """Bitboards (stones of the side to move, all stones) after ``moves`` (columns) from the empty board."""
    cur = mask = 0
    for col in moves:
        cur ^= mask
        mask |= mask + (1 << (col * H1))
    return cur, mask  # each move turns ``cur`` into the stones of the side to move next


def value(moves: tuple[int, ...], depth: int) -> tuple[int, int]:
    """(+1 / 0 / -1 for the side to move within ``depth`` plies, nodes searched)."""
    cur, mask = position(moves)
    counter = np.zeros(1, dtype=np.int64)
    args = (np.int64(cur), np.int64(mask), np.int64(len(moves)), np.int64(depth), np.int64(-1), np.int64(1))
    v = _search(*args, counter)
    return int(v), int(counter[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=16, help="plies searched after the two moves (default 16)")
    parser.add_argument("--write", action="store_true", help=f"write boardgame_envs/data/openings/{NAME}.txt")
    parser.add_argument("--out", help="write the markdown report here too")
    args = parser.parse_args(argv)
    # Checks of the search on drawn positions: red (d1 d2 d3) to move wins at once in d; yellow to move
    # against red's b1 c1 d1 cannot block both a1 and e1; nobody forces a win within 6 plies of the start.
    assert value((3, 2, 3, 2, 3, 2), 1)[0] == 1
    assert value((1, 6, 2, 6, 3), 2)[0] == -1 and value((1, 6, 2, 6, 3), 1)[0] == 0
    assert value((), 6)[0] == 0
    rows, started = [], time.process_time()
    for first, second in openings():
        v, nodes = value((first, second), args.depth)
        rows.append((first, second, v, nodes))
    cpu = time.process_time() - started
    lost = [r for r in rows if r[2] != 0]
    lines = [
        f"# connect four: the {len(rows)} starts of two moves, checked to {args.depth} plies",
        "",
        f"Command: `{command_line(argv)}`; {cpu:.1f} s of CPU for the searches"
        f" ({sum(r[3] for r in rows):,} nodes).",
        "",
        f"A forced win within {args.depth} plies after the start: {len(lost)} of {len(rows)} "
        f"({', '.join(COLUMN_NAMES[a] + ' ' + COLUMN_NAMES[b] for a, b, _, _ in lost) or 'none'}).",
        "",
        "A bounded search: a start can still be won for one side under perfect play beyond the horizon",
        "(connect four is a first-player win from the empty board). The arena plays every start twice,",
        "colours swapped, so whatever a start gives one side, each player gets once.",
        "",
        "| # | start | red to move: within the horizon | nodes |",
        "|---|---|---|---|",
    ]
    words = {1: "red forces a win", -1: "yellow forces a win", 0: "no forced win"}
    for k, (a, b, v, nodes) in enumerate(rows):
        lines.append(f"| {k} | {COLUMN_NAMES[a]} {COLUMN_NAMES[b]} | {words[v]} | {nodes:,} |")
    publish(lines, args.out)
    if args.write:
        text = [
            "# connect four: every start of two moves (red's column, then yellow's), the 49 starts the",
            "# ladder draws its pairs from; any block of 7 in this order uses each column once per player.",
            f"# Made by baselines/connect_four_openings.py (--depth {args.depth}): from none of them does",
            f"# either side force a win within {args.depth} plies." if not lost else
            f"# {len(lost)} of them are forced wins within {args.depth} plies (see the report).",
            "# game: connect_four",
        ]
        text += [f"{COLUMN_NAMES[a]} {COLUMN_NAMES[b]}" for a, b, _, _ in rows]
        (DATA / f"{NAME}.txt").write_text("\n".join(text) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
