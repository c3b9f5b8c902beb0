"""Time ``forbidden_mask`` on the shared 15x15 positions, and random renju games through ``env()``.

The positions file lists moves black first, as ``(row, col)``; the reference
figure quoted beside ours is a pure-Python renju checker measured on the same
positions on this machine class (about 31,000 µs a call).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

PURE_PYTHON_US = 31_000.0  # reference: a careful pure-Python checker, same positions, same machine class


def default_positions() -> Path:
    here = Path(__file__).resolve()
    for base in (Path.cwd(), *here.parents):
        for candidate in (base / "shared/bench/positions_15x15.json", base.parent / "shared/bench/positions_15x15.json"):
            if candidate.is_file():
                return candidate
    raise FileNotFoundError("positions_15x15.json not found next to the repository; pass --positions PATH")


def load_boards(path: Path) -> list[tuple[str, np.ndarray]]:
    data = json.loads(path.read_text())
    n = int(data["board_size"])
    boards = []
    for position in data["positions"]:
        board = np.zeros((n, n), dtype=np.int8)
        for i, (r, c) in enumerate(position["moves"]):
            board[r, c] = 1 if i % 2 == 0 else 2
        boards.append((position.get("name", f"#{len(boards)}"), board))
    return boards


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="boardgame-envs bench renju", description=__doc__)
    parser.add_argument("--positions", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=2000, help="calls per position (default 2000)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time for the random-games part")
    args = parser.parse_args(argv)

    from boardgame_envs.bench.env import play_random_games
    from boardgame_envs.games import renju

    path = args.positions or default_positions()
    boards = load_boards(path)
    print(f"forbidden_mask on {len(boards)} positions from {path}")
    total_us = 0.0
    for name, board in boards:
        flat = board.ravel().copy()
        out = np.zeros(flat.size, dtype=np.bool_)
        renju.forbidden_mask_flat(flat, board.shape[0], out)  # compile / load the cache
        start = time.perf_counter()
        for _ in range(args.repeat):
            renju.forbidden_mask_flat(flat, board.shape[0], out)
        us = (time.perf_counter() - start) / args.repeat * 1e6
        total_us += us
        mask = renju.forbidden_mask(board)
        kinds = [renju.forbidden_kind(board, int(r), int(c)) for r, c in zip(*np.nonzero(mask))]
        print(f"  {name:<8} {int((board > 0).sum()):>3} stones {us:>8.1f} µs  forbidden: {', '.join(kinds) or '-'}")
    mean = total_us / len(boards)
    print(f"mean {mean:.1f} µs per call; pure-Python reference {PURE_PYTHON_US:,.0f} µs: {PURE_PYTHON_US / mean:,.0f}x")

    from boardgame_envs import gomoku_v0

    make = lambda: gomoku_v0.env(board_size=15, rule="renju")  # noqa: E731
    play_random_games(make, 0.2)
    games, steps, elapsed = play_random_games(make, args.seconds)
    print(f"random 15x15 renju games through env(): {games / elapsed:,.0f} games/s, {steps / elapsed:,.0f} steps/s")
