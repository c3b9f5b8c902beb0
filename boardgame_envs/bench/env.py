"""Random legal games through ``env()``, ours against PettingZoo's ``tictactoe_v3`` and ``connect_four_v3`` in the same run.

Both envs are driven by the same loop (``last()``, a uniform choice among the
``action_mask`` ones, ``step()``), so the ratio measures the envs alone. The
choice draws from the standard library's ``random.Random``: numpy's
``Generator.integers`` costs about 2.5 µs a call here, a quarter of a whole
step of our env, which would shrink every ratio towards 1 without measuring
either env. They take turns in short slices (``--rounds``), so that a machine whose speed drifts
during the run (other jobs, CPU frequency) slows both alike.

When ``open_spiel`` is installed, OpenSpiel's tic-tac-toe and 15x15 gomoku are
measured too: random games through the bare ``pyspiel`` state (``legal_actions()``,
``apply_action()`` until ``is_terminal()``), with no observations and no PettingZoo
wrapper, drawing from the same ``random.Random``. Our 15x15 freestyle ``env()``
and OpenSpiel's 15x15 gomoku take turns in slices as above and their ratio is
printed (games a second: random games last as long under both, about 109 moves):
it sets a whole PettingZoo step, observation planes and mask included, against a
bare C++ move, which is what a PettingZoo user's loop costs against the fastest
Python-reachable engine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from boardgame_envs.bench._openspiel import INSTALL_HINT, import_pyspiel, load_game


def play_random_games(
    make_env: Callable, seconds: float, seed: int = 0, clock: Callable[[], float] = time.perf_counter
) -> tuple[int, int, float]:
    """Play random games for about ``seconds`` of ``clock``; return (games, steps, elapsed)."""
    rng = random.Random(seed)
    env = make_env()
    games = steps = 0
    start = clock()
    while True:
        env.reset(seed=rng.getrandbits(31))
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            steps += 1
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games, steps, elapsed


def play_random_pyspiel_games(game: Any, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Like :func:`play_random_games` on a ``pyspiel`` game's bare states; steps are moves played. The same
    ``random.Random`` draws the moves (numpy's would add about a microsecond a move to OpenSpiel's side)."""
    rng = random.Random(seed)
    games = steps = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, steps, elapsed


def _report(name: str, games: int, steps: int, elapsed: float) -> float:
    rate = games / elapsed
    print(f"{name:<40} {rate:>10,.0f} games/s {steps / elapsed:>12,.0f} steps/s")
    return rate


def _versus(ours: str, make_ours: Callable, theirs: str, make_theirs: Callable, args: argparse.Namespace,
            play_theirs: Callable = play_random_games, ours_label: str | None = None,
            theirs_label: str | None = None) -> float:  # fmt: skip
    """Our env against a peer's same game, in alternating slices; prints both and the ratio."""
    # The two take turns in short slices, so a change in the machine's
    # speed during the run (other jobs, frequency) falls on both alike.
    totals = {"ours": [0, 0, 0.0], "theirs": [0, 0, 0.0]}
    players = {"ours": (play_random_games, make_ours), "theirs": (play_theirs, make_theirs)}
    for r in range(args.rounds):
        for side, total in totals.items():
            play, make = players[side]
            for i, value in enumerate(play(make, args.seconds / args.rounds, args.seed + r)):
                total[i] += value
    rate = _report(ours_label or f"boardgame_envs {ours}.env()", *totals["ours"])
    reference = _report(theirs_label or f"pettingzoo {theirs}.env()", *totals["theirs"])
    ratio = rate / reference
    print(f"{f'ratio {ours} / {theirs}':<40} {ratio:>10.2f}x" if ratio < 2 else
          f"{f'ratio {ours} / {theirs}':<40} {ratio:>10.1f}x")  # fmt: skip
    return ratio


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, prog="boardgame-envs bench env", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per env (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=30,
                        help="ours and PettingZoo's take turns in this many slices (default 30)")  # fmt: skip
    args = parser.parse_args(argv)

    from boardgame_envs import gomoku_v0, tictactoe_v0

    # Warm-up compiles (or loads from cache) the numba kernels outside the timing.
    play_random_games(tictactoe_v0.env, 0.2)
    play_random_games(lambda: gomoku_v0.env(board_size=15, rule="freestyle"), 0.2)

    from pettingzoo.classic import connect_four_v3, tictactoe_v3

    from boardgame_envs import connect_four_v0

    play_random_games(connect_four_v0.env, 0.2)
    _versus("tictactoe_v0", tictactoe_v0.env, "tictactoe_v3", tictactoe_v3.env, args)
    _versus("connect_four_v0", connect_four_v0.env, "connect_four_v3", connect_four_v3.env, args)
    for rule in ("freestyle", "standard", "renju"):
        make = lambda rule=rule: gomoku_v0.env(board_size=15, rule=rule)  # noqa: E731
        _report(f"boardgame_envs gomoku_v0 15x15 {rule}", *play_random_games(make, args.seconds, args.seed))
    pyspiel = import_pyspiel()
    if pyspiel is None:
        print(INSTALL_HINT)
        return
    print("OpenSpiel, bare pyspiel states (legal_actions, apply_action): no PettingZoo wrapper, no observations")
    game, about = load_game(pyspiel, "tictactoe")
    if game is None:
        print(f"tictactoe: {about}")
    else:
        _report(f"pyspiel {about}", *play_random_pyspiel_games(game, args.seconds, args.seed))
    game, about = load_game(pyspiel, "gomoku 15x15 freestyle")
    if game is None:
        print(f"gomoku 15x15 freestyle: {about}")
        return
    freestyle = lambda: gomoku_v0.env(board_size=15, rule="freestyle")  # noqa: E731
    _versus("gomoku_v0 15x15", freestyle, "pyspiel gomoku", game, args, play_random_pyspiel_games,
            "boardgame_envs gomoku_v0 15x15 freestyle", f"pyspiel {about}")  # fmt: skip
