"""Self-play: many games between copies of one network, searched in lockstep.

The games are real envs built by the trainer's ``env_fn`` and advanced with
``env.step``; the training example of each move is the mover's own
``env.observe(agent)``. Under a tournament opening rule every action of the
opening is a move like the others: the search chooses stones, offers and
decisions (``swap``, ``black``, ``more``, ...) alike, each gets its policy
target over all the actions, and its value target is the game's result for the
player (seat) who took it, whichever colour that player ended up with. The search runs on the envs' game states (cloned into
a PUCT forest, one tree per game: :func:`~boardgame_envs.policies.puct_protocol.make_forest`), and
every simulation round evaluates the leaves of all games in one network call.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgame_envs.alphazero.config import AlphaZeroConfig
from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.alphazero.policy import net_evaluator
from boardgame_envs.alphazero.targets import result_targets
from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.protocol import FIRST, SECOND
from boardgame_envs.policies.base import random_argmax
from boardgame_envs.policies.puct_gumbel import gumbel_search
from boardgame_envs.policies.puct_protocol import make_forest


@dataclass
class SelfPlayStats:
    games: int = 0
    moves: int = 0
    cpu_s: float = 0.0  # CPU time of the process(es) that played, summed over workers
    full_searches: int = 0  # moves searched in full (all of them without playout cap randomization)
    results: dict[str, int] = field(default_factory=lambda: {"first": 0, "second": 0, "draw": 0})  # by seat
    black_wins: int = 0  # games won by black: the first player's, unless an opening rule gave the colours
    decisions: dict[str, int] = field(default_factory=dict)  # an opening rule's decisions taken, by name

    def add(self, other: SelfPlayStats) -> None:
        """Count ``other``'s games and moves in too (the workers' stats summed)."""
        self.games += other.games
        self.moves += other.moves
        self.cpu_s += other.cpu_s
        self.full_searches += other.full_searches
        self.black_wins += other.black_wins
        for key, value in other.results.items():
            self.results[key] += value
        for key, value in other.decisions.items():
            self.decisions[key] = self.decisions.get(key, 0) + value


@dataclass
class Examples:
    """Training examples: planes ``(m, n, n, C)`` int8, masks, policy targets, value targets.

    A policy target of zeros means none (a cheap search's move): the learner leaves it out of the policy loss."""

    planes: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)


class OutOfTime(Exception):
    """Self-play reached its deadline before the games it was asked for had finished."""


class SelfPlay:
    """``config.parallel_games`` envs that play on from call to call; :meth:`play` collects finished games."""

    def __init__(self, env_fn: Callable[[], Any], config: AlphaZeroConfig, seed: int) -> None:
        self.config = config
        self.rng = np.random.default_rng(seed)
        self.envs = [env_fn() for _ in range(config.parallel_games)]
        for i, env in enumerate(self.envs):
            env.reset(seed=seed + i)
        self.encoder = self.envs[0].unwrapped
        self.game = self.encoder.game
        capacity = 1 + (config.simulations + 1) * self.game.num_actions
        self.forest = make_forest(len(self.envs), self.game, capacity, config.c_puct, config.threats, config.vcf_nodes)
        # Per game, the positions played so far: (planes, mask, policy target, colour to move, proven value or NaN).
        self.histories: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int, float]]] = [[] for _ in self.envs]
        self.decisions: list[list[str]] = [[] for _ in self.envs]  # per game, an opening rule's decisions so far

    def play(self, net: PolicyValueNet, games: int, deadline: float | None = None) -> tuple[Examples, SelfPlayStats]:
        """Move all games on until ``games`` of them have finished; their positions are the examples.

        Raises :class:`OutOfTime` when a round of moves would start past ``deadline`` (a
        ``time.perf_counter()`` value); the games under way stay in their envs, and the ones that
        ended in this call are dropped.
        """
        cfg = self.config
        stats = SelfPlayStats()
        cpu_start = time.process_time()
        finished: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = []
        evaluate = net_evaluator(net, self.encoder)
        points = getattr(self.game, "points", self.game.num_actions)  # actions from here on are decisions
        while stats.games < games:
            if deadline is not None and time.perf_counter() >= deadline:
                raise OutOfTime(f"{stats.games} of {games} self-play games had ended at the deadline")
            states = [env.unwrapped.game_state for env in self.envs]
            self.forest.set_roots(states)
            # Playout cap randomization: a full search (with root noise, under PUCT) on a random share of the moves.
            full = np.ones(len(self.envs), dtype=bool)
            if cfg.full_search_prob < 1:
                full = self.rng.random(len(self.envs)) < cfg.full_search_prob
            budgets = np.where(full, cfg.simulations, cfg.cheap_simulations)
            if cfg.root == "gumbel":  # the moves come from the search, sampled by its Gumbel noise
                chosen, policies = gumbel_search(self.forest, budgets, evaluate, cfg.gumbel_k, self.rng)
            else:
                noise = (cfg.dirichlet_alpha, cfg.dirichlet_fraction)
                self.forest.search(budgets, evaluate, self.rng, noise, noisy=full)
                # Visit shares; with threats, a proven win's move alone and no mass on proven losses.
                chosen, policies = None, self.forest.root_policy()
            proven = self.forest.proven_values()
            for i, env in enumerate(self.envs):
                state = states[i]
                obs = env.observe(env.agent_selection)
                shares = policies[i]
                target = shares if full[i] else np.zeros_like(shares)  # a cheap search's move: no policy target
                self.histories[i].append((obs["observation"], obs["action_mask"].astype(bool), target, state.to_move,
                                          proven[i]))  # fmt: skip
                stats.full_searches += int(full[i])
                if chosen is not None:
                    action = int(chosen[i])
                elif state.num_moves < cfg.temperature_moves:
                    action = int(self.rng.choice(len(shares), p=shares))
                else:
                    action = random_argmax(shares, self.rng)
                if action >= points:  # an opening rule's decision, counted once its game is over
                    self.decisions[i].append(self.game.action_name(action))
                env.step(action)
                stats.moves += 1
                if state.terminal:
                    winner = state.winner
                    stats.games += 1
                    stats.results[{FIRST: "first", SECOND: "second"}.get(winner, "draw")] += 1
                    colors = getattr(state, "base", state)  # under an opening rule the base game holds the colours
                    stats.black_wins += int(colors.winner == BLACK)
                    for name in self.decisions[i]:
                        stats.decisions[name] = stats.decisions.get(name, 0) + 1
                    self.decisions[i] = []
                    history = self.histories[i]
                    colors = np.array([color for *_, color, _ in history])
                    values = result_targets(winner, colors, np.arange(len(history))[::-1], cfg.value_decay,
                                            self.game.num_actions, np.array([p for *_, p in history]))  # fmt: skip
                    for (planes, mask, policy, _, _), z in zip(history, values):
                        finished.append((planes, mask, policy, z))
                    self.histories[i] = []
                    env.reset()
        stats.cpu_s = time.process_time() - cpu_start
        planes, masks, policies, values = zip(*finished)
        return (
            Examples(np.stack(planes), np.stack(masks), np.stack(policies).astype(np.float32),
                     np.array(values, dtype=np.float32)),  # fmt: skip
            stats,
        )
