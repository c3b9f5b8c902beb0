"""Floors of two rows of the speed table: what one move must cost at least, measured.

``env``: the 15x15 ``env()`` row. :class:`ConformantFloor` is a two-agent env in plain
Python written for the bench's loop alone (``last()``, a uniform legal choice,
``step()``), doing what PettingZoo's classic envs under their three safety wrappers
oblige and nothing more: ``last()`` hands out fresh copies of the mover's planes
(own stones, the opponent's, the last move, the colour to move) and of its action
mask, with its reward, termination, truncation and info; ``step()`` enforces the
order (reset first, one step per ``agent_iter`` turn), checks the action is an int in
range, legal in the mask last observed and on an empty point, plays it on the game
state (``MNKState._place``: the board, the counters, the numba win check), writes the
stone into the viewers' planes and the empty mask, clears the mover's cumulative
reward and selects the next agent; at the end it sets rewards and terminations and
takes the two dead steps that remove the agents. It has no wrapper object, no move
log, no renju or window checks. It, our ``env()`` and OpenSpiel's C++ gomoku stepped
from Python (bare states, no observations) take turns in short slices, drawing from
the same ``random.Random``; steps are the loop's iterations (the two dead steps of
each game included on the PettingZoo side).

``renju-mask``: the batched renju row. Black's forbidden points are kept by
:func:`boardgame_envs.games.renju_mask.update` after every move; here it runs alone,
in one numba loop, over recorded random renju games, beside the batched engine's
whole freestyle step per game (the same engine without the mask). Their sum is what a
batched renju step costs at least with this mask.

    python baselines/studies/speed_floors.py env --rounds 20
    python baselines/studies/speed_floors.py renju-mask --games 200
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

N, PLANES = 15, 4
AGENTS = ("black_0", "white_0")  # the names gomoku_v0 gives


def freestyle() -> Any:
    from boardgame_envs.games.catalog import game_info

    return game_info("gomoku").game(N, 5, "freestyle", None)


class ConformantFloor:
    """The least a PettingZoo-conformant 15x15 freestyle env can do per step (see the module's text)."""

    def __init__(self) -> None:
        self.game = freestyle()
        blank = np.zeros((N, N, PLANES), np.int8)
        black_to_move = blank.copy()
        black_to_move[:, :, 3] = 1
        # Black's planes (white to move, black to move), then white's: one copy each observation.
        self._blank = np.stack([blank, black_to_move, blank, black_to_move])
        self._has_reset = False

    def reset(self, seed: int | None = None) -> None:
        self.state = self.game.new_state()
        self._views = self._blank.copy()
        self._flat = self._views.reshape(-1)
        self._empty = np.ones(N * N, np.int8)
        self._no_moves = np.zeros(N * N, np.int8)
        self.agents = list(AGENTS)
        self.agent_selection = AGENTS[0]
        black, white = AGENTS
        self.rewards = {black: 0.0, white: 0.0}
        self._cumulative = {black: 0.0, white: 0.0}
        self.terminations = {black: False, white: False}
        self.truncations = {black: False, white: False}
        self.infos: dict[str, dict] = {black: {}, white: {}}
        self._has_reset = self._updated = True
        self._observed: dict | None = None

    def agent_iter(self) -> Any:
        while self.agents:
            assert self._updated, "step() after each agent"
            self._updated = False
            yield self.agent_selection

    def last(self) -> tuple[dict, float, bool, bool, dict]:
        agent = self.agent_selection
        state = self.state
        planes = self._views[(0 if agent == AGENTS[0] else 2) + (state.to_move == 1)].copy()
        if state.last_move >= 0:
            planes[state.last_move // N, state.last_move % N, 2] = 1
        live = not self.terminations[agent]
        observation = {"observation": planes, "action_mask": (self._empty if live else self._no_moves).copy()}
        self._observed = observation
        return (observation, self._cumulative[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])  # fmt: skip

    def step(self, action: int | None) -> None:
        assert self._has_reset, "reset() first"
        self._updated = True
        agent = self.agent_selection
        if self.terminations[agent]:  # a dead step: the agent leaves
            assert action is None
            del self.terminations[agent], self.truncations[agent], self.rewards[agent]
            del self._cumulative[agent], self.infos[agent]
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        seen = self._observed
        assert type(action) is int and 0 <= action < N * N and seen is not None and seen["action_mask"][action]
        self._observed = None
        state = self.state
        color = state.to_move
        if state.board[action] != 0:
            raise ValueError("occupied")
        state._place(action)
        flat, i, size = self._flat, action * PLANES, N * N * PLANES
        own, other = (0, 1) if color == 1 else (1, 0)  # black's arrays see it as own, white's as the opponent's
        flat[i + own] = flat[size + i + own] = 1
        flat[2 * size + i + other] = flat[3 * size + i + other] = 1
        self._empty[action] = 0
        self._cumulative[agent] = 0.0
        if state.terminal:
            for a in self.agents:
                won = (a == AGENTS[0]) == (state.winner == 1)
                self.rewards[a] = (1.0 if won else -1.0) if state.winner else 0.0
                self.terminations[a] = True
                self._cumulative[a] += self.rewards[a]
        self.agent_selection = AGENTS[state.to_move - 1]


def env_floor(rounds: int, seconds: float) -> None:
    import pyspiel

    from boardgame_envs import gomoku_v0
    from boardgame_envs.bench.env import play_random_games, play_random_pyspiel_games

    peer = pyspiel.load_game("gomoku", {"size": N, "connect": 5})
    ours = lambda: gomoku_v0.env(board_size=N, rule="freestyle")  # noqa: E731
    sides = {
        "the conformant floor": lambda r: play_random_games(ConformantFloor, seconds, r),
        "env()": lambda r: play_random_games(ours, seconds, r),
        "OpenSpiel, bare states": lambda r: play_random_pyspiel_games(peer, seconds, r),
    }
    for play in sides.values():
        play(0)  # warm-up: the numba kernels load
    totals = {name: [0, 0.0] for name in sides}
    for r in range(rounds):
        for name, play in sides.items():
            _, steps, elapsed = play(r)
            totals[name][0] += steps
            totals[name][1] += elapsed
    peer_us = totals["OpenSpiel, bare states"][1] / totals["OpenSpiel, bare states"][0] * 1e6
    print(f"15x15 freestyle random games, {rounds} alternating slices of {seconds} s each")
    for name, (steps, elapsed) in totals.items():
        us = elapsed / steps * 1e6
        print(f"{name:<24} {us:6.2f} µs a step   {peer_us / us:5.2f}x OpenSpiel")


def renju_mask_floor(games: int, repeat: int) -> None:
    import numba

    from boardgame_envs import vector
    from boardgame_envs.games import renju_mask
    from boardgame_envs.games.catalog import game_info

    game = game_info("renju").game(N, None, None, None)
    rng = random.Random(0)
    recorded = []
    for _ in range(games):
        state = game.new_state()
        while not state.terminal:
            legal = np.flatnonzero(state.legal_mask())
            action = int(legal[rng.randrange(len(legal))])
            state.play(action)
            recorded.append(action)
        recorded.append(-1)  # the game's end
    moves = np.array(recorded, dtype=np.int64)
    empty_info = renju_mask.new_info(N)
    renju_mask.rebuild(np.zeros(N * N, np.int8), N, np.zeros(N * N, np.bool_), empty_info)

    @numba.njit
    def replay(moves: np.ndarray, n: int, empty_info: np.ndarray, repeat: int) -> int:
        total = 0
        for _ in range(repeat):
            board = np.zeros(n * n, np.int8)
            forbidden = np.zeros(n * n, np.bool_)
            info = empty_info.copy()
            color = 1
            for a in moves:
                if a < 0:  # a new game
                    board[:] = 0
                    forbidden[:] = False
                    info[:] = empty_info
                    color = 1
                    continue
                board[a] = color
                total += renju_mask.update(board, n, a, forbidden, info)
                color = 3 - color
        return total

    replay(moves, N, empty_info, 1)
    start = time.process_time()
    replay(moves, N, empty_info, repeat)
    mask_us = (time.process_time() - start) / (repeat * (moves.size - games)) * 1e6

    rates = {}
    for rule in ("freestyle", "renju"):
        vec = vector.make("gomoku", 256, board_size=N, rule=rule)
        vec.reset(seed=0)
        for _ in range(200):
            vec.step(vec.sample_legal_actions())
        start = time.process_time()
        for _ in range(1000):
            vec.step(vec.sample_legal_actions())
        rates[rule] = (time.process_time() - start) / (1000 * 256) * 1e6
    print(f"renju_mask.update alone, {moves.size - games:,} moves of {games} random renju games: "
          f"{mask_us:.3f} µs a move")
    print(f"batched 15x15 freestyle, 256 games, step + sampler: {rates['freestyle']:.3f} µs a game-step")
    print(f"batched 15x15 renju, the same:                      {rates['renju']:.3f} µs a game-step")
    print(f"floor of a batched renju step with this mask: {mask_us + rates['freestyle']:.3f} µs (mask + freestyle)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="row", required=True)
    env = sub.add_parser("env", help="the 15x15 env() row", allow_abbrev=False)
    env.add_argument("--rounds", type=int, default=20)
    env.add_argument("--seconds", type=float, default=0.3, help="each side's slice")
    mask = sub.add_parser("renju-mask", help="the batched renju row", allow_abbrev=False)
    mask.add_argument("--games", type=int, default=200)
    mask.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    if args.row == "env":
        env_floor(args.rounds, args.seconds)
    else:
        renju_mask_floor(args.games, args.repeat)


if __name__ == "__main__":
    main()
