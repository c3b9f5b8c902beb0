"""How the built-in searches take the decisions of a tournament opening: swaps, stones in zones, offers, choices.

A policy handed a state of an
:class:`~boardgame_envs.games.opening_game.OpeningRuleGame` asks
:func:`pending` first. Once the opening is over it searches
:func:`playing_state` (the base game's position, with the m,n,k numba paths,
whose point actions are the opening game's too). During the opening it calls
:func:`decide` with its own judgement of a position, ``value(base) -> v`` in
[-1, 1] for the colour to lay the next stone (greedy: the static count of
open k-windows; alpha-beta: a 2-ply search; MCTS: the root value of a short
search), and :func:`decide` reasons phase by phase, always from ``v_black``,
the value of a position for black:

* **swap / keep, a colour choice** (``black``, ``white``): take the colour whose
  value is higher. Before black's fifth-move offers (Soosõrv's second swap)
  the position's value for black is what black keeps after the offers: the
  ``k``-th best fifth move, ``k`` the number declared.
* **a stone the other player may still take over by a swap** (every stone of
  the 26 openings, Taraguchi's zones, Swap2's stones): the one leaving the
  position most even, ``|v_black|`` smallest. **Any other opening stone**
  (the RIF's 4th): the policy's own move in normal play when the mask allows
  it, else the best point for its colour.
* **declaring the number of offers** (Soosõrv, white): the ``k`` whose ``k``-th
  best fifth move is most even, since black may swap afterwards.
* **Taraguchi's choice** (black): ``offers=N`` if black keeps an advantage
  even when white takes the worst of N fifth moves (the N-th best is still
  good for black); else ``swap`` (the other player must lay an even fifth
  stone and black then chooses), never ``keep`` (black would lay it and be
  the one chosen against).
* **Swap2's second player**: the better colour; ``more`` only if both are equal.
* **offers** (black): the best fifth moves for black, one at a time (the
  mask already refuses the ones symmetric to an offer); **the choice**
  (white): the offered stone worst for black.

Candidate points are the legal ones within two points of a stone (near the
centre on an empty board), so a decision costs a few dozen values; the values
of the fifth moves are kept in ``cache`` across the phases that look at the
same position (declaration, swap, offers, choice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.opening_game import OpeningState
from boardgame_envs.games.opening_rules import (
    CHOICE,
    CHOOSE,
    COLOUR,
    DECLARE,
    END,
    OFFER,
    STONE,
    SWAP,
    SWAP2,
    symmetric_twins,
)
from boardgame_envs.policies.base import random_argmax

Value = Callable[[MNKState], float]  # a base position's value in [-1, 1] for its colour to move
REACH = 2  # candidate points lie within this many points (rows and columns) of a stone
CACHE_POSITIONS = 8  # positions whose children's values a cache keeps
EVEN = 1e-3  # what an option that can only do as well as an even game loses against one that does
STATIC_SCALE = 500.0  # window counts of an opening position are a few hundred


def pending(state: Any) -> bool:
    """Whether ``state`` waits for an opening decision (the searches of normal play do not apply yet)."""
    return isinstance(state, OpeningState) and state.in_opening


def playing_state(state: Any) -> Any:
    """The position a search of normal play works on: the base game's, once an opening rule's opening is over."""
    return state.base if isinstance(state, OpeningState) else state


def black_value(base: MNKState, value: Value) -> float:
    """``value`` of ``base`` turned to black's side."""
    v = float(value(base))
    return v if base.to_move == BLACK else -v


def candidates(base: MNKState, mask: np.ndarray) -> np.ndarray:
    """The points of ``mask`` within :data:`REACH` of a stone (of the centre on an empty board), or all of them."""
    n = base.game.size
    stones = base.board.reshape(n, n) != 0
    if not stones.any():
        stones = np.zeros((n, n), dtype=bool)
        stones[n // 2, n // 2] = True
    near = np.zeros((n, n), dtype=bool)
    for r, c in zip(*np.nonzero(stones)):
        near[max(r - REACH, 0):r + REACH + 1, max(c - REACH, 0):c + REACH + 1] = True
    points = np.flatnonzero(mask & near.reshape(-1))
    return points if points.size else np.flatnonzero(mask)


def child_values(base: MNKState, points: np.ndarray, value: Value, cache: dict | None) -> dict[int, float]:
    """``v_black`` after the colour to move lays a stone at each of ``points`` (legal), memoised in ``cache``."""
    memo: dict[int, float] = {}
    if cache is not None:
        key = (base.board.tobytes(), base.to_move)
        if key not in cache and len(cache) >= CACHE_POSITIONS:
            cache.clear()
        memo = cache.setdefault(key, {})
    for a in map(int, points):
        if a not in memo:
            child = base.clone()
            child._place(a)
            memo[a] = black_value(child, value)
    return {int(a): memo[int(a)] for a in points}


def fifth_moves(state: OpeningState, value: Value, cache: dict | None, want: int) -> list[float]:
    """``v_black`` of the best ``want`` fifth moves no two of which are symmetric, best first (fewer if none left)."""
    base = state.base
    values = child_values(base, candidates(base, base.legal_mask()), value, cache)
    ranked: list[float] = []
    taken = np.zeros(base.game.num_actions, dtype=bool)
    perms = state.game._perms
    for a in sorted(values, key=lambda p: -values[p]):
        if taken[a]:
            continue
        ranked.append(values[a])
        if len(ranked) == want:
            break
        taken |= symmetric_twins(base.board, a, perms)
    return ranked


def _kth(ranked: list[float], k: int) -> float:
    return ranked[min(k, len(ranked)) - 1] if ranked else 0.0


def scores(state: OpeningState, value: Value, cache: dict | None = None,
           search: Callable[[MNKState], int] | None = None) -> np.ndarray:  # fmt: skip
    """The mover's score of every legal action of the current opening step (``-inf`` for the rest).

    The highest score is the decision (module docstring); ``search`` is the
    policy's move in normal play, used for opening stones no swap follows.
    """
    game = state.game
    base = state.base
    mask = state.legal_mask()
    out = np.full(game.num_actions, -np.inf)
    step = game.opening.steps[state.step]
    mover_black = state.color_of(state.to_move) == BLACK
    action = {name: game.points + i for i, name in enumerate(game.decisions)}

    def colours(v_black: float, black: str, white: str) -> None:
        out[action[black]] = v_black
        out[action[white]] = -v_black

    if step.kind in (STONE, OFFER):
        values = child_values(base, candidates(base, mask[: game.points]), value, cache)
        if step.kind == OFFER:
            sign = 1.0  # black's offers: the best for black (white will take the worst of them)
        elif state.colour_choice_ahead():
            for a, v in values.items():
                out[a] = -abs(v)
            return out
        else:
            if search is not None:
                move = int(search(base))
                if mask[move]:
                    out[move] = 0.0
                    return out
            sign = 1.0 if base.to_move == BLACK else -1.0
        for a, v in values.items():
            out[a] = sign * v
    elif step.kind == CHOOSE:
        values = child_values(base, np.asarray(state.offers), value, cache)
        for a, v in values.items():
            out[a] = -v  # white takes the offer worst for black
    elif step.kind == SWAP:
        following = step.next_step(state.step)
        if following != END and game.opening.steps[following].kind == OFFER and state.due:
            v = _kth(fifth_moves(state, value, cache, state.due), state.due)
        else:
            v = black_value(base, value)
        mine = v if mover_black else -v
        out[action["keep"]], out[action["swap"]] = mine, -mine
    elif step.kind == DECLARE:
        ranked = fifth_moves(state, value, cache, game.opening.offers)
        for k in range(1, game.opening.offers + 1):
            out[action[f"offers={k}"]] = -abs(_kth(ranked, k))  # black may swap: white gets the worse side
    elif step.kind == CHOICE:
        n = game.opening.offers
        out[action[f"offers={n}"]] = _kth(fifth_moves(state, value, cache, n), n)
        out[action["swap"]] = 0.0
        out[action["keep"]] = -EVEN
    elif step.kind == SWAP2:
        v = black_value(base, value)
        colours(v, "black", "white")
        out[action["more"]] = -abs(v)  # as good as a colour only when the two are even
    elif step.kind == COLOUR:
        colours(black_value(base, value), "black", "white")
    out[~mask] = -np.inf
    return out


def decide(state: OpeningState, value: Value, rng: np.random.Generator, cache: dict | None = None,
           search: Callable[[MNKState], int] | None = None) -> int:  # fmt: skip
    """The opening decision of :func:`scores`, ties broken by ``rng``."""
    return random_argmax(scores(state, value, cache, search), rng)
