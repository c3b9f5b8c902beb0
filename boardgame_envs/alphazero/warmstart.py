"""Expert iteration's warm start: games of a built-in search policy against itself, as training examples.

A fresh run may begin from the moves of a policy that already plays well
(``AlphaZeroConfig.warm_start``, e.g. ``alphabeta:nodes=1000``) rather than
from random play. Each expert move becomes one example, recorded as self-play
records its positions: the mover's ``env.observe`` planes and action mask, a
**one-hot** policy target on the move the expert chose, and the game's final
result for the mover, shrunk by self-play's ``value_decay`` rule.

A deterministic search replays the same game from the same position, so each
game starts from a random opening of the game's default set
(:func:`boardgame_envs.games.opening_positions.default_for`: the 26 RIF openings for 15x15
renju, none on small boards or in games without opening sets), then up to
``warm_random_moves`` random moves (on m,n,k boards within two points of the
stones); positions whose move was random are **not** examples. Both sides' policies get their own seeds. A game is fully
determined by its :class:`WarmTask`, and :func:`play_warm_games` yields the
games in task order, so the examples do not depend on the number of workers
or the backend.

This module imports no torch: worker processes play the games without it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgame_envs.games import opening_positions as opening_sets
from boardgame_envs.alphazero.targets import result_targets
from boardgame_envs.arena.backends import run_tasks
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies.kernels import candidates
from boardgame_envs.policies.registry import make_policy

RANDOM_RADIUS = 2  # a random move lands within this many points (Chebyshev) of a stone


@dataclass(frozen=True)
class WarmTask:
    """Everything a worker needs to play one warm-start game."""

    env_fn: Callable[[], Any]
    spec: str
    seed: int  # the random moves and both policies' seeds come from it
    opening: tuple[int, ...]  # actions, black first; () starts from the empty board
    random_moves: int


@dataclass
class WarmGame:
    """One game's expert moves: per move the position's planes and mask, the move, who made it and when."""

    planes: np.ndarray  # (m, n, n, C) int8, as env.observe gives them
    masks: np.ndarray  # (m, num_actions) bool
    actions: np.ndarray  # (m,) the expert's moves
    colors: np.ndarray  # (m,) the player who moved (1 or 2: black or white; under an opening rule, the seat)
    plies: np.ndarray  # (m,) moves on the board before each expert move
    length: int  # moves in the whole game (opening and random moves included)
    winner: int  # the player who won, as in ``colors``, or EMPTY for a draw
    winner_color: int  # the colour that won (BLACK, WHITE, or EMPTY): ``winner`` but under an opening rule


def warm_tasks(env_fn: Callable[[], Any], game: Any, spec: str, games: int, random_moves: int,
               rng: np.random.Generator) -> list[WarmTask]:  # fmt: skip
    """``games`` tasks: for each a seed, an opening of the game's default set, a number of random moves."""
    name = opening_sets.default_for(game)
    chosen = opening_sets.load(name) if name is not None else []
    tasks = []
    for _ in range(games):
        opening = chosen[int(rng.integers(len(chosen)))].moves if chosen else ()
        count = int(rng.integers(random_moves + 1))
        tasks.append(WarmTask(env_fn, spec, int(rng.integers(2**31)), opening, count))
    return tasks


def play_warm_game(task: WarmTask) -> WarmGame:
    """Play one game of ``task.spec`` against itself from the task's start position (in a worker)."""
    rng = np.random.default_rng(task.seed)
    seeds = rng.integers(2**31, size=2)
    experts = {color: make_policy(task.spec, seed=int(s)) for color, s in zip((BLACK, WHITE), seeds)}
    env = task.env_fn()
    env.reset(options={"opening": list(task.opening)} if task.opening else None)
    state = env.unwrapped.game_state
    game = state.game
    near = np.empty(game.num_actions, dtype=np.int64)
    mnk = as_family(game, "mnk") is not None
    for _ in range(task.random_moves):
        if state.terminal:
            break
        points = state.legal_actions()
        if mnk:  # near the stones: a random point far from them teaches nothing
            count = candidates(state.board, game.size, RANDOM_RADIUS, near)
            close = near[:count][state.legal_mask()[near[:count]]]
            points = close if len(close) else points
        env.step(int(rng.choice(points)))
    rows: list[tuple[np.ndarray, np.ndarray, int, int, int]] = []
    while not state.terminal:
        obs = env.observe(env.agent_selection)
        color, ply = state.to_move, state.num_moves
        action = int(experts[color].act(env))
        reason = state.illegal_reason(action)
        if reason is not None:
            raise ValueError(f"warm-start policy {task.spec!r} played an illegal move: {reason}")
        rows.append((obs["observation"], obs["action_mask"].astype(bool), action, color, ply))
        env.step(action)
    shape = (0, *env.observation_space(env.possible_agents[0])["observation"].shape)
    planes, masks, actions, colors, plies = zip(*rows) if rows else ((),) * 5
    return WarmGame(
        planes=np.stack(planes) if rows else np.zeros(shape, dtype=np.int8),
        masks=np.stack(masks) if rows else np.zeros((0, game.num_actions), dtype=bool),
        actions=np.array(actions, dtype=np.int64), colors=np.array(colors, dtype=np.int8),
        plies=np.array(plies, dtype=np.int64), length=int(state.num_moves), winner=int(state.winner),
        winner_color=int(getattr(state, "base", state).winner),  # an opening rule's base game holds the colours
    )  # fmt: skip


def play_warm_games(tasks: list[WarmTask], workers: int, backend: str = "local") -> Generator[WarmGame, None, None]:
    """The tasks' games, in task order, on ``workers`` processes (or Ray tasks); close it to stop them."""
    return run_tasks(play_warm_game, tasks, workers, backend)


def warm_targets(game: WarmGame, value_decay: float, num_actions: int) -> tuple[np.ndarray, np.ndarray]:
    """One-hot policy targets and value targets (``float32``) of a game's expert moves.

    The value target of a move ``t`` plies before the end is the result for the
    mover times ``1 - value_decay * t / num_actions``, as in self-play.
    """
    m = len(game.actions)
    policies = np.zeros((m, num_actions), dtype=np.float32)
    policies[np.arange(m), game.actions] = 1.0
    return policies, result_targets(game.winner, game.colors, game.length - 1 - game.plies, value_decay, num_actions)
