"""A Gomocup brain (``pbrain-*``: Rapfi, Yixin, Embryo, our own ``boardgame-envs pbrain``) as a policy.

``GomocupEngine(command).act(env)`` returns the engine's move in the env's position. The
engine runs as a subprocess speaking the Gomocup protocol on its stdin/stdout; it is
started on the first move, told the board size (``START``), the rule and the limits
(``INFO``), and kept in step with the env: ``TURN x,y`` when the env is one opponent
move past what the engine knows, ``BEGIN`` on an empty board, else ``RESTART`` and the
whole position (``BOARD``, stones in an order our rules accept, the last move last).

Faults raise typed errors, all :class:`EngineError` (a ``RuntimeError``):

* :class:`EngineStartError`: the program cannot be run, exits or stays silent before
  answering ``START``, or refuses the board size or rule;
* :class:`EngineFault` and its kinds, raised by :meth:`GomocupEngine.act` mid-game:
  :class:`EngineCrashed` (the process ended), :class:`EngineTimeout` (no answer within the
  move's limit plus ``tolerance_ms``: the process is killed), :class:`EngineProtocolError`
  (an answer that is not a move, or ``ERROR``), :class:`EngineIllegalMove` (off the board,
  on a stone, or forbidden for black under renju; also an ``IllegalMoveError``).

Every :class:`EngineFault` is a :class:`~boardgame_envs.policies.base.Forfeit`: the arena
and the single-agent view score the game as lost by the engine, as a Gomocup manager
would. After a fault the engine is restarted (or its board resent) on the next move.

The subprocess ends on :meth:`GomocupEngine.close`, when the engine is garbage-collected,
and at interpreter exit (:mod:`boardgame_envs.policies.engine_process`).
"""

from __future__ import annotations

import os
import re
import shlex
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import RULES, GameState, MNKGame
from boardgame_envs.games.notation import point_name
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.policies.engine_process import (
    EngineCrashed, EngineError, EngineFault, EngineIllegalMove, EngineProcess, EngineProtocolError, EngineStartError,
    EngineTimeout, TRANSCRIPT_LINES, log,
)  # fmt: skip
from boardgame_envs.policies.gomocup_protocol import RULE_BITS, ProtocolError, format_point, legal_order, read_point

__all__ = [
    "EngineCrashed", "EngineError", "EngineFault", "EngineIllegalMove", "EngineProtocolError", "EngineStartError",
    "EngineTimeout", "GomocupEngine",
]  # fmt: skip

MAX_TAKEBACK = 2  # an undo further back than this is sent as a new BOARD
_ABOUT_FIELD = re.compile(r'(\w+)\s*=\s*"([^"]*)"')


def _argv(command: str | Sequence[str]) -> list[str]:
    """The argv of ``command``: an existing file as its absolute path, else a command line split as a shell would.

    (A command relative to ``cwd`` is found there, as ``subprocess`` does on POSIX.)
    """
    if isinstance(command, str):
        path = os.path.expanduser(command)
        argv = [os.path.abspath(path)] if os.path.isfile(path) else shlex.split(command)
    elif isinstance(command, Sequence) and all(isinstance(c, str) for c in command):
        argv = list(command)
    else:
        argv = []
    if not argv:
        raise ValueError(f"command must be a program path, a command line or a list of strings, got {command!r}")
    return argv


class GomocupEngine:
    """An external Gomocup brain as a policy: ``act(env)`` is the engine's move.

    Args:
        command: the engine's program (a path), a command line, or an argv list.
        rule: the rule the engine is set up for; None (default) follows the env's rule,
            a rule name refuses envs of another rule.
        turn_time_ms: time per move sent as ``INFO timeout_turn`` (0: as fast as possible).
        match_time_ms: time for a whole game (``INFO timeout_match``, ``time_left`` before each
            move), or None for no limit.
        max_memory: bytes, sent as ``INFO max_memory`` (0: no limit); not enforced here.
        name: shown in tables and messages (default: the program's file name).
        cwd: the engine's working directory (for engines that read files next to them).
        tolerance_ms: how far past its limit an answer is still accepted; later, the engine
            is killed and :class:`EngineTimeout` raised.
        start_timeout_ms: how long to wait for the answer to ``START``.
    """

    def __init__(
        self, command: str | Sequence[str], rule: str | None = None, turn_time_ms: int = 1000,
        match_time_ms: int | None = None, max_memory: int = 0, name: str | None = None, cwd: str | None = None,
        tolerance_ms: int = 1000, start_timeout_ms: int = 30_000,
    ) -> None:  # fmt: skip
        self.argv = _argv(command)
        if rule is not None and rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; expected None or one of {', '.join(RULES)}")
        minimums = {"turn_time_ms": 0, "max_memory": 0, "tolerance_ms": 0, "start_timeout_ms": 1}
        values = (turn_time_ms, max_memory, tolerance_ms, start_timeout_ms)
        for (key, low), value in zip(minimums.items(), values):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{key} must be an integer >= {low}, got {value!r}")
        if match_time_ms is not None and (isinstance(match_time_ms, bool) or not isinstance(match_time_ms, int)
                                          or match_time_ms < 1):  # fmt: skip
            raise ValueError(f"match_time_ms must be None or a positive integer, got {match_time_ms!r}")
        if cwd is not None and not os.path.isdir(os.path.expanduser(str(cwd))):
            raise ValueError(f"cwd {cwd!r} is not a directory")
        self.rule = rule
        self.turn_time_ms = turn_time_ms
        self.match_time_ms = match_time_ms
        self.max_memory = max_memory
        self.tolerance_ms = tolerance_ms
        self.start_timeout_ms = start_timeout_ms
        self.cwd = None if cwd is None else os.path.expanduser(str(cwd))
        self.name = name or Path(self.argv[0]).name
        self._process: EngineProcess | None = None
        self._transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES)
        self._game: MNKGame | None = None
        self._history: list[int] | None = None  # the moves of the position the engine holds, in order
        self._used_ms = 0.0  # the engine's thinking time in this game

    @classmethod
    def from_spec(
        cls, command: str, turn_ms: int = 1000, match_ms: int | None = None, rule: str | None = None,
        max_memory: int = 0, name: str | None = None, cwd: str | None = None, tolerance_ms: int = 1000,
        start_timeout_ms: int = 30_000,
    ) -> GomocupEngine:  # fmt: skip
        """The registry's ``pbrain`` kind: ``"pbrain:PATH:turn_ms=100,match_ms=60000,cwd=DIR"``.

        ``turn_ms`` and ``match_ms`` are ``turn_time_ms`` and ``match_time_ms``; the other
        arguments keep their constructor names.
        """
        return cls(command, rule, turn_ms, match_ms, max_memory, name, cwd, tolerance_ms, start_timeout_ms)

    # ---------------------------------------------------------------- policy
    def act(self, env: Any) -> int:
        """The engine's move for ``env.agent_selection``; raises an :class:`EngineError` on any fault."""
        state = game_state_of(env)
        self._check_game(state.game)
        if self._process is not None and self._process.alive:
            self._process.drain()
        if self._process is None or not self._process.alive or self._game != state.game:
            self._start_game(state.game)
        commands = self._sync(state)
        limit_ms = self.turn_time_ms
        if self.match_time_ms is not None:
            left = int(self.match_time_ms - self._used_ms)
            self._send(f"INFO time_left {left}")
            limit_ms = min(limit_ms, max(left, 0))
        started = time.perf_counter()
        for line in commands:
            self._send(line)
        answer = self._process.answer(commands[0], (limit_ms + self.tolerance_ms) / 1000)
        spent_ms = (time.perf_counter() - started) * 1000
        self._used_ms += spent_ms
        if spent_ms > limit_ms:
            log.warning("%s took %.0f ms, over its %d ms limit (within the tolerance)", self.name, spent_ms, limit_ms)
        action = self._check_move(state, answer, commands[0])
        self._history.append(action)
        return action

    def about(self) -> dict[str, str]:
        """The engine's ``ABOUT`` fields (``name``, ``version``, ``author``, ...), starting it if needed."""
        if self._process is None or not self._process.alive:
            self._process = EngineProcess(self.argv, self.cwd, self.name, self._transcript)
        self._process.send("ABOUT")
        return dict(_ABOUT_FIELD.findall(self._process.answer("ABOUT", self.start_timeout_ms / 1000, starting=True)))

    def close(self) -> None:
        """End the engine's process (``END``, then a kill); a later move starts a new one."""
        process, self._process = self._process, None
        self._history = None
        if process is not None:
            process.close()

    def __enter__(self) -> GomocupEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The engine's process id while it runs, else None."""
        return None if self._process is None else self._process.pid

    @property
    def transcript(self) -> list[str]:
        """The last protocol lines exchanged (``"> sent"``, ``"< received"``), across restarts."""
        return list(self._transcript)

    def __repr__(self) -> str:
        return f"<GomocupEngine {self.name} ({'running' if self.pid is not None else 'stopped'})>"

    # ---------------------------------------------------------------- game
    def _check_game(self, game: MNKGame) -> None:
        if game.win_length != 5:
            raise ValueError(f"Gomocup engines play five in a row; this game needs {game.win_length}")
        if self.rule is not None and game.rule != self.rule:
            raise ValueError(f"{self.name} is set up for {self.rule}, but the env plays {game.rule}")

    def _start_game(self, game: MNKGame) -> None:
        if self._process is None or not self._process.alive:
            self.close()
            self._process = EngineProcess(self.argv, self.cwd, self.name, self._transcript)
        self._process.send(f"START {game.size}", starting=True)
        answer = self._process.answer(f"START {game.size}", self.start_timeout_ms / 1000, starting=True)
        if answer.upper() != "OK":
            self.close()
            raise EngineStartError(f"{self.name} refused START {game.size}: {answer}")
        info = {"timeout_turn": self.turn_time_ms, "timeout_match": self.match_time_ms or 0,
                "max_memory": self.max_memory, "game_type": 1, "rule": RULE_BITS[game.rule]}  # fmt: skip
        for key, value in info.items():  # game_type 1: the opponent is a program
            self._send(f"INFO {key} {value}")
        self._game = game
        self._new_game()

    def _new_game(self) -> None:
        self._history = []
        self._used_ms = 0.0

    def _sync(self, state: GameState) -> list[str]:
        """The lines that bring the engine to ``state`` and ask for its move (``TAKEBACK`` s sent already)."""
        step = None if self._history is None else self._step_to(state)
        if step is not None:
            return step
        if self._history is None or self._history:
            self._expect_ok("RESTART", fallback=lambda: self._start_game(state.game))
        self._new_game()
        step = self._step_to(state)
        if step is not None:
            return step
        n = state.game.size
        black, white = (np.flatnonzero(state.board == color).tolist() for color in (BLACK, WHITE))
        try:
            order = legal_order(state.game, black, white, last=state.last_move if state.last_move >= 0 else None)
        except ValueError:  # no order our rules accept: send the stones as they are
            order = black + white
        self._history = order
        own = state.to_move
        return ["BOARD", *(f"{format_point(a, n)},{1 if state.board[a] == own else 2}" for a in order), "DONE"]

    def _step_to(self, state: GameState) -> list[str] | None:
        """``BEGIN``, or ``TURN x,y`` after taking back what the env no longer has; None if that cannot work."""
        history, n = self._history, state.game.size
        if state.num_moves == 0:
            return ["BEGIN"] if not history else None
        keep = state.num_moves - 1  # the env is the engine's first ``keep`` moves plus its last move
        if not len(history) - MAX_TAKEBACK <= keep <= len(history) or keep == 0 and history or state.last_move < 0:
            return None  # (a new game, or far back: RESTART and BOARD say it in fewer lines)
        board = np.zeros_like(state.board)
        board[history[:keep]] = BLACK
        board[history[1:keep:2]] = WHITE
        board[state.last_move] = BLACK if keep % 2 == 0 else WHITE
        if not np.array_equal(board, state.board):
            return None
        for action in reversed(history[keep:]):
            if not self._expect_ok(f"TAKEBACK {format_point(action, n)}"):
                return None
            history.pop()
        history.append(int(state.last_move))
        return [f"TURN {format_point(state.last_move, n)}"]

    def _expect_ok(self, command: str, fallback: Any = None) -> bool:
        """Send ``command``; whether the engine answered ``OK`` (else ``fallback()`` runs, if given)."""
        self._send(command)
        if self._process.answer(command, self.start_timeout_ms / 1000).upper() == "OK":
            return True
        if fallback is not None:
            fallback()
        else:
            self._history = None  # the engine's board is unknown now: resend it
        return False

    def _check_move(self, state: GameState, answer: str, command: str) -> int:
        n = state.game.size
        if answer.upper().startswith("ERROR"):
            self._fail(EngineProtocolError, f"{self.name} answered {command!r} with {answer!r}")
        try:
            x, y = read_point(answer)
        except ProtocolError:
            self._fail(EngineProtocolError, f"{self.name} answered {command!r} with {answer!r}, not a move 'x,y'")
        color = "black" if state.to_move == BLACK else "white"
        if not (0 <= x < n and 0 <= y < n):
            self._history = None  # resend the position next time
            raise EngineIllegalMove(f"{self.name} ({color}) played {x},{y}: off the {n}x{n} board")
        action = y * n + x
        reason = state.illegal_reason(action)
        if reason is not None:
            self._history = None
            raise EngineIllegalMove(f"{self.name} ({color}) played {x},{y} ({point_name(action, n)}): {reason}")
        return action

    def _send(self, line: str) -> None:
        self._process.send(line)

    def _fail(self, kind: type[EngineError], message: str) -> None:
        """Kill the engine and raise ``kind``; the next move starts a new process."""
        process, self._process = self._process, None
        self._history = None
        process.fail(kind, message)
