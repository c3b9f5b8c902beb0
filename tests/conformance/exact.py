"""Exact values of small games, over the Game/State protocol alone: the conformance kit's own oracle.

A plain memoised minimax of ``returns()`` that knows nothing of the package's
searches (no window, no depth, no table of bounds), so the searches and the
author's known positions are checked against it. A value is what the player to
move gets with best play on both sides: +1 a win, -1 a loss, 0 a draw, or the
margin itself where ``returns()`` carries one. A child whose player to move is the
same keeps its sign (turns need not alternate); a finished child is scored by its
returns for the mover, never by who moved last. Positions are told apart by
``search_key()`` where a state has one, else by the board and the player to move.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.games.protocol import outcome_for


class TooBig(Exception):
    """The game has more positions than the solver was allowed to visit."""


# Deeper than any position the kit solves (a small game, or few moves left): a line this long is a game that
# does not end (two passes that do not end it, a position that comes back), failed in one line, not by recursion.
MAX_DEPTH = 200


def position_key(state: Any) -> bytes:
    own = getattr(state, "search_key", None)
    return own() if own is not None else state.board.tobytes() + bytes((state.to_move,))


class ExactValues:
    """Memoised exact values of the positions of one small game (at most ``limit`` live positions)."""

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self._values: dict[bytes, float] = {}
        self._scored: dict[tuple[bytes, int], float] = {}
        self._line: set[bytes] = set()  # the positions on the line being searched: one met again is a loop

    def value(self, state: Any) -> float:
        """The exact value of ``state`` for its player to move (a finished state: 0, it has no player to move)."""
        if state.terminal:
            return 0.0
        key = position_key(state)
        if key not in self._values:
            if len(self._values) >= self.limit:
                raise TooBig(f"more than {self.limit} positions")
            if key in self._line or len(self._line) >= MAX_DEPTH:
                why = "a position comes back" if key in self._line else f"a line goes past {MAX_DEPTH} plies"
                raise AssertionError(f"{state.game.name}: the kit's exact search finds a game that does not end "
                                     f"({why})")  # fmt: skip
            self._line.add(key)
            try:
                self._values[key] = max(self.move_values(state).values())
            finally:
                self._line.discard(key)
        return self._values[key]

    def move_values(self, state: Any) -> dict[int, float]:
        """The exact value of each legal move for the player to move."""
        me, out = state.to_move, {}
        for action in map(int, state.legal_actions()):
            child = state.clone()
            child.play(action)
            if child.terminal:
                out[action] = outcome_for(child, me)
            else:
                out[action] = self.value(child) if child.to_move == me else -self.value(child)
        return out

    def ply_score(self, state: Any, ply: int, win_score: float) -> float:
        """What a search that scores an end ``ply`` plies down as ``r * win_score - sign(r) * ply`` gets with
        best play from ``state`` at ``ply`` (a win sooner, a loss later): memoised by position and ply, so it
        owes nothing to a table that moves scores between plies."""
        key = (position_key(state), ply)
        if key not in self._scored:
            me, best = state.to_move, -float("inf")
            for action in map(int, state.legal_actions()):
                child = state.clone()
                child.play(action)
                if child.terminal:
                    r = outcome_for(child, me)
                    value = r * win_score - (ply + 1) * ((r > 0) - (r < 0))
                else:
                    sub = self.ply_score(child, ply + 1, win_score)
                    value = sub if child.to_move == me else -sub
                best = max(best, value)
            self._scored[key] = best
        return self._scored[key]

    def positions(self, game: Any) -> list[Any]:
        """Every live position reachable from the start, once each (by :func:`position_key`)."""
        seen, stack, out = set(), [game.new_state()], []
        while stack:
            state = stack.pop()
            key = position_key(state)
            if state.terminal or key in seen:
                continue
            if len(seen) >= self.limit:
                raise TooBig(f"more than {self.limit} positions")
            seen.add(key)
            out.append(state)
            for action in map(int, state.legal_actions()):
                child = state.clone()
                child.play(action)
                stack.append(child)
        return out
