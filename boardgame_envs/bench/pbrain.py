"""What a move costs through the Gomocup protocol: ``GomocupEngine`` driving our brain in another process.

Random games on 15x15 (freestyle and renju); the engine's side plays ``random``. Printed
per move, in milliseconds: the same policy called in-process (the reference), a bare
brain (a few lines of Python answering the first empty point, knowing no rules: about the
pipes' round trip), and
our brain (``boardgame-envs pbrain --policy random``: the pipes, the protocol, and the
brain's env). Process start-up is excluded (one engine serves all games).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

BARE_BRAIN = """
import sys
points, stones, next_free = [], set(), 0
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word in ("START", "RESTART"):
        if word == "START":
            n = int(rest)
            points = [(x, y) for y in range(n) for x in range(n)]
        stones.clear(); next_free = 0; print("OK", flush=True)
    elif word in ("BEGIN", "TURN"):
        if rest:
            stones.add(tuple(map(int, rest.split(","))))
        while points[next_free] in stones:
            next_free += 1
        stones.add(points[next_free]); print("%d,%d" % points[next_free], flush=True)
    elif word == "END":
        break
"""

def per_move_ms(env_fn, player, games: int, seed: int) -> float:
    """Milliseconds per ``player.act`` over ``games`` games against a seeded random opponent."""
    from boardgame_envs.policies import RandomPolicy

    opponent = RandomPolicy(seed=seed)
    spent, moves = 0.0, 0
    for g in range(games):
        env = env_fn()
        env.reset()
        players = (player, opponent) if g % 2 == 0 else (opponent, player)
        for i, _ in enumerate(env.agent_iter()):
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mover = players[i % 2]
            if mover is player:
                start = time.perf_counter()
                action = player.act(env)
                spent += time.perf_counter() - start
                moves += 1
            else:
                action = mover.act(env)
            env.step(action)
    return 1000 * spent / moves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="boardgame-envs bench pbrain", description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args(argv)

    import functools

    from boardgame_envs import gomoku_v0
    from boardgame_envs.gomocup import GomocupEngine, write_launcher
    from boardgame_envs.policies import RandomPolicy

    folder = Path(tempfile.mkdtemp())
    (folder / "bare.py").write_text(BARE_BRAIN)
    ours = GomocupEngine(str(write_launcher(folder / "pbrain-random", "random")), turn_time_ms=10_000)
    bare = GomocupEngine([sys.executable, str(folder / "bare.py")], name="bare", turn_time_ms=10_000)
    print(f"ms per move, {args.games} random games each; ratio = through the protocol / in-process")
    print(f"  {'game':<24}{'in-process':>11}{'bare brain':>12}{'our brain':>11}{'ratio':>8}")
    for rule in ("freestyle", "renju"):
        env_fn = functools.partial(gomoku_v0.env, board_size=15, rule=rule)
        for engine in (ours, bare):
            per_move_ms(env_fn, engine, 1, seed=99)  # start the process, compile, warm up
        local = per_move_ms(env_fn, RandomPolicy(seed=0), args.games, seed=1)
        floor = per_move_ms(env_fn, bare, args.games, seed=1)
        piped = per_move_ms(env_fn, ours, args.games, seed=1)
        print(f"  {'15x15 ' + rule:<24}{local:>11.3f}{floor:>12.3f}{piped:>11.3f}{piped / local:>8.0f}")
    ours.close()
    bare.close()
