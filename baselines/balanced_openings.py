"""Choose short freestyle openings that are balanced for the built-in search: the ``balanced*`` sets.

    nice -n 10 python baselines/balanced_openings.py --board-size 15 --write
    nice -n 10 python baselines/balanced_openings.py --board-size 9 --write

Candidates: every 3-stone opening with black in the centre, white next to it
and black's second stone within ``--radius`` of the centre (Chebyshev
distance), one per class under the board's 8 symmetries (with radius 2 these
are the 26 shapes of the RIF renju openings).

Two criteria (``--criterion``):

* ``eval`` (the default, cheap): alpha-beta at a fixed depth (``--depth``, no
  time limit: the same search on every machine) scores the position for white,
  who is to move; openings whose best root score is closest to 0 are kept,
  proven wins and losses never. This is the search's own opinion of the
  position, not a measured result.
* ``selfplay`` (measured, costly): the same alpha-beta plays itself
  ``--games`` times from each candidate, the two sides seeded differently in
  each game (the seeds break ties between equal moves), and black's score
  (win 1, draw 1/2) closest to 1/2 is kept.

With ``--check-games G`` the kept openings are then played out ``G`` times
each by self-play, and black's score is reported next to the criterion: how
balanced the choice turned out. The ``--keep`` openings chosen are saved with
``--write`` as ``boardgame_envs/data/openings/balanced<N>.txt``, the command
and each opening's figures in comments.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from boardgame_envs import gomoku_v0
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import point_name
from boardgame_envs.policies.alphabeta import WIN, AlphaBetaPolicy
from boardgame_envs.games.symmetry import NUM_SYMMETRIES, transform_action
from report import command_line, publish  # baselines/report.py, beside this script

DATA = Path(__file__).resolve().parents[1] / "boardgame_envs" / "data" / "openings"


def canonical(moves: tuple[int, ...], n: int) -> tuple:
    """The smallest image of the position under the 8 symmetries: one key per class."""
    images = []
    for sym in range(NUM_SYMMETRIES):
        mapped = [transform_action(a, sym, n) for a in moves]
        images.append((tuple(sorted(mapped[0::2])), tuple(sorted(mapped[1::2]))))
    return min(images)


def candidates(n: int, radius: int) -> list[tuple[int, int, int]]:
    """3-stone openings, black centre, white adjacent, black within ``radius``; one per symmetry class."""
    c = n // 2
    centre = c * n + c
    seen, out = set(), []
    for white in (centre - n, centre - n + 1):  # straight up (direct), up-right (indirect)
        for r in range(c - radius, c + radius + 1):
            for col in range(c - radius, c + radius + 1):
                third = r * n + col
                if third in (centre, white):
                    continue
                key = canonical((centre, white, third), n)
                if key not in seen:
                    seen.add(key)
                    out.append((centre, white, third))
    return out


def self_play(n: int, opening: tuple[int, ...], depth: int, seed: int) -> tuple[float, tuple[int, ...]]:
    """Black's score in one game of alpha-beta against itself from ``opening``, and the moves."""
    env = gomoku_v0.raw_env(n, 5, "freestyle")
    env.reset()
    for a in opening:
        env.step(a)
    players = {BLACK: AlphaBetaPolicy(depth=depth, nodes=None, time_limit=None, seed=2 * seed),
               WHITE: AlphaBetaPolicy(depth=depth, nodes=None, time_limit=None, seed=2 * seed + 1)}  # fmt: skip
    state = env.game_state
    moves = list(opening)
    while not state.terminal:
        action = players[state.to_move].act(env)
        moves.append(action)
        env.step(action)
    score = 1.0 if state.winner == BLACK else 0.0 if state.winner == WHITE else 0.5
    return score, tuple(moves)


def root_score(n: int, opening: tuple[int, ...], depth: int) -> int:
    """Alpha-beta's best root score for the side to move after ``opening`` (white after 3 stones)."""
    env = gomoku_v0.raw_env(n, 5, "freestyle")
    env.reset(options={"opening": list(opening)})
    return int(AlphaBetaPolicy(depth=depth, nodes=None, time_limit=None).move_scores(env).max())


def black_score(n: int, opening: tuple[int, ...], depth: int, games: int) -> tuple[float, int]:
    """Black's mean score over ``games`` self-play games from ``opening``, and how many games differed."""
    results = [self_play(n, opening, depth, seed) for seed in range(games)]
    return sum(s for s, _ in results) / games, len({moves for _, moves in results})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    parser.add_argument("--board-size", type=int, default=15)
    parser.add_argument("--radius", type=int, default=3, help="black's second stone at most this far from the centre")
    parser.add_argument("--depth", type=int, default=4, help="alpha-beta depth (plies), no time limit")
    parser.add_argument("--criterion", choices=("eval", "selfplay"), default="eval")
    parser.add_argument("--games", type=int, default=8, help="self-play games per candidate (selfplay)")
    parser.add_argument("--check-games", type=int, default=0, help="self-play games per kept opening, as a check")
    parser.add_argument("--keep", type=int, default=12)
    parser.add_argument("--write", action="store_true", help="save the chosen set as package data")
    parser.add_argument("--out", help="also write the markdown report here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.keep < 1 or args.radius < 1 or 2 * args.radius + 1 > args.board_size:
        parser.error("--games and --keep must be at least 1, and --radius between 1 and (board size - 1) / 2")
    n = args.board_size
    started = time.perf_counter()
    rows = []  # (distance from balance, figure, opening)
    for opening in candidates(n, args.radius):
        text = " ".join(point_name(a, n) for a in opening)
        if args.criterion == "eval":
            score = root_score(n, opening, args.depth)
            proven = abs(score) >= WIN - 100
            rows.append((float("inf") if proven else abs(score), f"{score:+d}" + (" (proven)" if proven else ""), opening))
        else:
            score, distinct = black_score(n, opening, args.depth, args.games)
            rows.append((abs(score - 0.5), f"{score:.3f} ({distinct} distinct games)", opening))
        print(f"{text:<12} {rows[-1][1]}", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r[0])
    chosen = [r for r in rows if r[0] != float("inf")][: args.keep]
    checks = {}
    for _, _, opening in chosen if args.check_games else []:
        checks[opening] = black_score(n, opening, args.depth, args.check_games)
        print(f"check {point_name(opening[2], n)}: {checks[opening]}", file=sys.stderr, flush=True)
    minutes = (time.perf_counter() - started) / 60
    figure = "white's root score (alpha-beta units)" if args.criterion == "eval" else "black's self-play score"
    lines = [
        f"# Balanced {n}x{n} freestyle openings",
        "",
        f"Command: `{command_line(argv)}` ({minutes:.0f} min on the 2-core development machine, shared).",
        f"Criterion: {args.criterion}, alpha-beta depth {args.depth} (no time limit); {len(rows)} candidates, "
        f"{len(chosen)} kept."
        + (f" Check: {args.check_games} self-play games per kept opening, black's score." if args.check_games else ""),
        "",
        f"| opening | {figure} | kept | check: black's score |",
        "|---|---|---|---|",
    ]
    kept = {r[2] for r in chosen}
    for _, fig, opening in rows:
        check = f"{checks[opening][0]:.2f} ({checks[opening][1]} distinct)" if opening in checks else ""
        text = " ".join(point_name(a, n) for a in opening)
        lines.append(f"| {text} | {fig} | {'yes' if opening in kept else ''} | {check} |")
    publish(lines, args.out)
    if args.write:
        body = [
            f"# Short {n}x{n} freestyle openings, balanced for the built-in search (criterion: {args.criterion},",
            f"# alpha-beta depth {args.depth}); see baselines/results/balanced_openings_{n}.md.",
            f"# Made by: {command_line(argv)}",
            f"# board_size: {n}",
        ]
        for i, (_, fig, opening) in enumerate(chosen):
            check = f", self-play black score {checks[opening][0]:.2f}" if opening in checks else ""
            body.append(f"b{n}-{i + 1}: {' '.join(point_name(a, n) for a in opening)}  # {args.criterion} {fig}{check}")
        path = DATA / f"balanced{n}.txt"
        path.write_text("\n".join(body) + "\n")
        print(f"wrote {len(chosen)} openings to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
