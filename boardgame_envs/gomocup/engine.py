"""A Gomocup brain (``pbrain-*``: Rapfi, Yixin, Embryo, our own ``boardgame-envs pbrain``) as a policy.

``GomocupEngine(command).act(state)`` returns the engine's move in that position (an env is
accepted too, through :func:`~boardgame_envs.policies.base.game_state_of`). The
engine runs as a subprocess speaking the Gomocup protocol on its stdin/stdout; it is
started on the first move, told the board size (``START``), the rule and the limits
(``INFO``), and kept in step with the game: ``TURN x,y`` when the position is one opponent
move past what the engine knows, ``BEGIN`` on an empty board, else ``RESTART`` and the
whole position (``BOARD``, stones in an order our rules accept, the last move last).

Faults raise typed errors, all :class:`EngineError` (a ``RuntimeError``):

* :class:`EngineStartError`: the program cannot be run, exits or stays silent before
  answering ``START``, or refuses the board size or rule;
* :class:`EngineFault` and its kinds, raised by :meth:`GomocupEngine.act` mid-game:
  :class:`EngineCrashed` (the process ended), :class:`EngineTimeout` (no answer within the
  move's limit plus ``tolerance_ms`` on the wall clock from when the move was asked, whatever
  the engine prints meanwhile: the process is killed), :class:`EngineProtocolError`
  (an answer that is not a move, or ``ERROR``), :class:`EngineIllegalMove` (off the board,
  on a stone, or forbidden for black under renju; also an ``IllegalMoveError``).

Every :class:`EngineFault` is a :class:`~boardgame_envs.policies.base.Forfeit`: the arena
and the single-agent view score the game as lost by the engine, as a Gomocup manager
would. After a fault the engine is restarted (or its board resent) on the next move.

Engines that drop a command arriving just after their answer (Rapfi keeps its "thinking"
flag a moment after it prints a move, and a command read then is lost; its argument is
then read as a command: ``ERROR Unknown command: 10,3``): the first line after a move
answer waits until ``settle_ms`` have passed since that answer, and an ``ERROR`` that
echoes our own arguments is a glitch, not a fault: the lost command is sent again once
(or, for a lost ``INFO``, the answer still awaited), as is a ``RESTART`` or ``TAKEBACK``
sent in that window and met by :data:`LOST_S` of silence (a late ``OK`` of the first
copy is then skipped). Under load both words of a move command can be lost (the engine's
printing thread is held off with its flag still set), and the engine then says nothing: an
engine that talks while it thinks and is silent for :data:`LOST_S` after such a command is
sent it again. :attr:`GomocupEngine.glitches` counts the glitches recovered.

Under Swap2 (a state of ``OpeningRuleGame`` with ``opening_rule="swap2"``) the engine takes
part in the opening through Gomocup's ``SWAP2BOARD`` (:mod:`boardgame_envs.gomocup.swap2`): it
is asked on the empty board (its three stones), after three stones (``SWAP``, its 4th stone, or
two more) and after five (``SWAP`` or its 6th stone), with ``INFO rule`` the base rule's (0
freestyle, 1 standard: ``SWAP2BOARD`` itself says Swap2, as Rapfi reads it). An answer that
stands for several actions is played out one action a call (``act`` returns them in turn);
after the opening the position is sent again (``RESTART``, ``BOARD``). Other opening rules have
no Gomocup command: the engine refuses their opening with a ``ValueError``.

The subprocess ends on :meth:`GomocupEngine.close`, when the engine is garbage-collected,
and at interpreter exit (:mod:`boardgame_envs.gomocup.process`).
"""

from __future__ import annotations

import os
import re
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import RULES, IllegalMoveError, MNKGame, MNKState
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.gomocup import swap2
from boardgame_envs.gomocup.process import (
    TRANSCRIPT_LINES, EngineCrashed, EngineError, EngineFault, EngineIllegalMove, EngineProcess, EngineProtocolError,
    EngineStartError, EngineTimeout, argv_of, check_program, log,
)  # fmt: skip
from boardgame_envs.gomocup.protocol import (
    OPTION_KEYS, RULE_BITS, ProtocolError, clip, echoes, format_point, info_lines, legal_order, printable, read_point,
)  # fmt: skip
from boardgame_envs.policies.base import SEARCH_LIMITS, check_budget, game_state_of

__all__ = [
    "EngineCrashed", "EngineError", "EngineFault", "EngineIllegalMove", "EngineProtocolError", "EngineStartError",
    "EngineTimeout", "GomocupEngine",
]  # fmt: skip

OPENING_RULES = ("swap2",)  # the tournament opening rules engines take part in (SWAP2BOARD)
MAX_TAKEBACK = 2  # an undo further back than this is sent as a new BOARD
SETTLE_MS = 2.0  # the default pause between a move answer and the next command (see the module docstring)
QUIET_S = 0.05  # after a glitch: how long the engine must stay silent before we send again
LOST_S = 1.0  # RESTART or TAKEBACK sent just after a move answer, unanswered this long: lost, sent again
_ABOUT_FIELD = re.compile(r'(\w+)\s*=\s*"([^"]*)"')


class GomocupEngine:
    """An external Gomocup brain as a policy: ``act(state)`` is the engine's move.

    Args:
        command: the engine's program (a path), a command line, or an argv list.
        rule: the rule the engine is set up for; None (default) follows the game's rule,
            a rule name refuses games of another rule.
        turn_time_ms: time per move sent as ``INFO timeout_turn`` (0: as fast as possible).
        match_time_ms: time for a whole game (``INFO timeout_match``, ``time_left`` before each
            move), or None for no limit.
        max_memory: bytes, sent as ``INFO max_memory`` (0: no limit); not enforced here.
        name: shown in tables and messages (default: the program's file name).
        cwd: the engine's working directory (for engines that read files next to them).
        tolerance_ms: how far past its limit an answer is still accepted; later, the engine
            is killed and :class:`EngineTimeout` raised.
        start_timeout_ms: how long to wait for the answer to ``START``.
        info: more ``INFO KEY VALUE`` lines sent after ``START`` (``{"MAX_NODE": 1000}``).
        settle_ms: the least time between a move answer and the next command (0: none).
    """

    def __init__(
        self, command: str | Sequence[str], rule: str | None = None, turn_time_ms: int = 1000,
        match_time_ms: int | None = None, max_memory: int = 0, name: str | None = None, cwd: str | None = None,
        tolerance_ms: int = 1000, start_timeout_ms: int = 30_000, info: dict[str, Any] | None = None,
        settle_ms: float = SETTLE_MS,
    ) -> None:  # fmt: skip
        self.argv = argv_of(command)
        self.info_lines = info_lines(dict(info or {}))
        if isinstance(settle_ms, bool) or not isinstance(settle_ms, (int, float)) or not 0 <= settle_ms <= 1000:
            raise ValueError(f"settle_ms must be a number of milliseconds in 0..1000, got {settle_ms!r}")
        self.settle_ms = float(settle_ms)
        self.glitches = 0  # commands an engine lost and we sent again (see the module docstring)
        self._chatty = False  # the engine has been heard talking (MESSAGE lines) while it thought
        # A node or depth budget that the engine may ignore; said once if it thinks as if it did.
        self._budget = [line[5:] for line in self.info_lines if line.split()[1] in ("MAX_NODE", "MAX_DEPTH")]
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
        check_program(self.argv[0], self.cwd, self.name)  # a missing program is one line now, not at move 1
        self._process: EngineProcess | None = None
        self._transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES)
        self._game: MNKGame | None = None
        self._history: list[int] | None = None  # the moves of the position the engine holds, in order
        self._used_ms = 0.0  # the engine's thinking time in this game
        self._answered_at: float | None = None  # when the last move answer came; the next line waits to settle
        self._late_oks = 0  # OKs owed by commands sent twice, which must not be read as a move
        self._exposed: list[str] = []  # lines sent since then, which the engine may have lost
        self._planned: dict[bytes, int] = {}  # the rest of a SWAP2BOARD answer: the action for each state ahead
        self._keep_clock = False  # the next new game is the same game after its opening: its clock goes on

    @classmethod
    def from_spec(
        cls, command: str, turn_ms: int = 1000, match_ms: int | None = None, rule: str | None = None,
        max_memory: int = 0, name: str | None = None, cwd: str | None = None, tolerance_ms: int = 1000,
        start_timeout_ms: int = 30_000, nodes: int | None = None, depth: int | None = None,
        threads: int | None = None, settle_ms: float = SETTLE_MS, seed: int | None = None, **info: Any,
    ) -> GomocupEngine:  # fmt: skip
        """The registry's ``pbrain`` kind: ``"pbrain:PATH:turn_ms=100,nodes=1000,threads=1,info.KEY=VALUE"``.

        ``turn_ms`` and ``match_ms`` are ``turn_time_ms`` and ``match_time_ms``; ``nodes``,
        ``depth`` and ``threads`` send ``INFO MAX_NODE``, ``INFO MAX_DEPTH`` and ``INFO
        THREAD_NUM``; ``info.KEY=VALUE`` sends ``INFO KEY VALUE``; the other arguments keep
        their constructor names. ``seed`` (the registry passes one to every kind) is unused: an
        engine's randomness is its own.
        """
        extra: dict[str, Any] = {}
        for key, value in info.items():
            if not key.startswith("info.") or len(key) == 5:
                raise TypeError(f"{key!r} is not an argument of policy 'pbrain' (engine options are info.KEY=VALUE)")
            named = {v: k for k, v in OPTION_KEYS.items()}.get(key[5:].upper())
            if named is not None:  # the budget options go through their checks (a stated maximum)
                raise ValueError(f"{key}= is what {named}= sends (within its checks); write {named}={value}")
            extra[key[5:]] = value
        for key, value in (("nodes", nodes), ("depth", depth), ("threads", threads)):
            if value is None:
                continue
            if key in SEARCH_LIMITS:  # the engine's own search: the maximum every search has
                check_budget(key, value)
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{key} must be a positive integer, got {value!r}")
            extra[OPTION_KEYS[key]] = value
        return cls(command, rule, turn_ms, match_ms, max_memory, name, cwd, tolerance_ms, start_timeout_ms,
                   info=extra, settle_ms=settle_ms)  # fmt: skip

    # ---------------------------------------------------------------- policy
    def act(self, position: Any) -> int:
        """The engine's move in ``position`` (a game state, or an env); raises an :class:`EngineError` on any fault.

        Under Swap2 this is any action of the opening too (a stone, ``black``, ``white``, ``more``).
        """
        state = game_state_of(position)
        if isinstance(state.game, OpeningRuleGame):
            return self._act_under_rule(state)
        self._keep_clock = False  # a game without an opening rule: a new game is a new clock
        return self._move(state)

    def _move(self, state: MNKState) -> int:
        """The engine's move in a position of the base game (``TURN``, ``BEGIN`` or ``BOARD``)."""
        self._check_game(state.game)
        self._ready(state.game)
        commands = self._sync(state)
        answer = self._ask(commands)
        action = self._check_move(state, answer, commands[0])
        self._history.append(action)
        return action

    def _ready(self, game: MNKGame) -> None:
        """A running engine set up for ``game`` (started, or restarted, as needed), its stale output read."""
        if self._process is not None and self._process.alive:
            self._process.drain()
        if self._process is None or not self._process.alive or self._game != game:
            self._start_game(game)

    def _ask(self, commands: list[str]) -> str:
        """Send ``commands`` (the last one asks for an answer) under the move's time limit; the engine's answer."""
        limit_ms = self.turn_time_ms
        if self.match_time_ms is not None:
            left = int(self.match_time_ms - self._used_ms)
            self._send(f"INFO time_left {left}")
            limit_ms = min(limit_ms, max(left, 0))
        started = time.perf_counter()
        timeout_s = (limit_ms + self.tolerance_ms) / 1000
        # One wall-clock deadline for the whole move: every line read for it (a lost command's echoes, a late
        # OK, the answer to a command sent again) counts against it, so no stream of output stretches it.
        deadline = time.monotonic() + timeout_s
        heard = self._process.lines_heard
        for line in commands:
            self._send(line)
        # An engine that talks while it thinks and is silent after lines sent just after its last move lost them.
        silent_s = LOST_S if self._exposed and self._chatty else None
        answer = self._process.answer(commands[0], timeout_s, silent_s=silent_s, deadline=deadline)
        if answer is None:
            self._send_lost_again(commands)
            answer = self._process.answer(commands[0], timeout_s, deadline=deadline)
        self._chatty = self._chatty or self._process.lines_heard - heard > 1  # it talks while it thinks
        while self._late_oks and answer.upper() == "OK":  # the first copy of a command we sent twice
            self._late_oks -= 1
            answer = self._process.answer(commands[0], timeout_s, deadline=deadline)
        self._late_oks = 0
        answer = self._recovered(commands, answer, timeout_s, deadline)
        self._answered_at, self._exposed = time.monotonic(), []
        spent_ms = (time.perf_counter() - started) * 1000
        self._used_ms += spent_ms
        if spent_ms > limit_ms:
            log.warning("%s took %.0f ms, over its %d ms limit (within the tolerance)", self.name, spent_ms, limit_ms)
        elif self._budget and spent_ms > max(200, 0.8 * limit_ms):
            log.warning("%s used %.0f ms of its %d ms clock under a budget (%s): does it read that INFO key? "
                        "Its moves then depend on the machine", self.name, spent_ms, limit_ms, ", ".join(self._budget))
            self._budget = []  # once is enough
        return answer

    def _send_lost_again(self, commands: list[str]) -> None:
        """Send ``commands`` once more: the engine said not a word for :data:`LOST_S` after them.

        An engine that talks while it thinks (Rapfi prints a ``MESSAGE`` line at every depth)
        and is silent after a command sent just after its last answer has lost the whole
        command, argument and all: under load the thread that printed the move can be held off
        long enough for both words to arrive while the engine still counts as thinking. It was
        idle since, so it takes them now.
        """
        self.glitches += 1
        log.info("%s said nothing for %.1f s after %r, sent just after its last move: lost; sending it again",
                 self.name, LOST_S, commands[-1])  # fmt: skip
        self._exposed = []
        for line in commands:
            self._send(line)

    def _act_under_rule(self, state: Any) -> int:
        """An action of a game under an opening rule: the rest of a ``SWAP2BOARD`` answer, a new ``SWAP2BOARD``,
        or, once the opening is over, a move of the base game."""
        planned = self._planned.pop(state.search_key(), None)
        if planned is not None:
            return planned  # checked by the rules when the answer came
        self._planned.clear()  # a plan for another game, or one the game left
        if not state.in_opening:
            return self._move(state.base)  # after SWAP2BOARD the position is sent again: RESTART and BOARD
        rule = state.game.opening.name
        if rule not in OPENING_RULES:
            raise ValueError(f"{self.name} is a Gomocup engine: it takes part in no opening rule but "
                             f"{', '.join(OPENING_RULES)} (SWAP2BOARD), not {rule}")  # fmt: skip
        if not swap2.asks_engine(state):
            raise ValueError(f"{swap2.COMMAND} asks for all of a Swap2 step's actions at once, at 0, 3 or 5 "
                             f"stones; {self.name} was not asked the start of this one: {state.describe_phase()}")
        return self._swap2(state)

    def _swap2(self, state: Any) -> int:
        game = state.game.base
        self._check_game(game)
        self._ready(game)
        if state.base.num_moves < 5:  # the engine's first action of this game (case 3 is the same game as case 1)
            self._used_ms = 0.0
        commands = swap2.stone_lines(state)
        answer = self._ask(commands)
        self._history = None  # whatever the engine's board now holds, the next move sends the position again
        self._keep_clock = True
        if answer.upper().startswith("ERROR"):
            self._fail(EngineProtocolError, f"{self.name} answered {swap2.COMMAND} with '{clip(printable(answer))}'")
        color = state.game.color_name(state.color_of(state.to_move))
        try:
            actions = swap2.engine_actions(state, answer)
        except ProtocolError as exc:
            self._fail(EngineProtocolError, f"{self.name} answered {swap2.COMMAND}: {exc}")
        except IllegalMoveError as exc:
            raise EngineIllegalMove(f"{self.name} ({state.game.player_name(state.to_move)}, {color}) answered "
                                    f"{swap2.COMMAND} with '{clip(printable(answer))}': {exc}") from None
        after = state.clone()
        for action in actions:
            self._planned[after.search_key()] = action
            after.play(action)
        return self._planned.pop(state.search_key())

    def about(self) -> dict[str, str]:
        """The engine's ``ABOUT`` fields (``name``, ``version``, ``author``, ...), starting it if needed."""
        if self._process is None or not self._process.alive:
            self._process = EngineProcess(self.argv, self.cwd, self.name, self._transcript)
        self._send("ABOUT")
        answer = self._process.answer("ABOUT", self.start_timeout_ms / 1000, starting=True)
        return {key: clip(printable(value)) for key, value in _ABOUT_FIELD.findall(answer)}

    def close(self) -> None:
        """End the engine's process (``END``, then a kill); a later move starts a new one."""
        process, self._process = self._process, None
        self._history = None
        self._planned.clear()
        if process is not None:
            process.close()

    def __enter__(self) -> GomocupEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The id of the process we started while it runs, else None: the engine's, or on Linux its subreaper
        shim's (:mod:`~boardgame_envs.gomocup.subreaper`); either way the id of the engine's process group."""
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
            raise ValueError(f"{self.name} is set up for {self.rule}, but the game is {game.rule}")

    def _start_game(self, game: MNKGame) -> None:
        if self._process is None or not self._process.alive:
            self.close()
            self._process = EngineProcess(self.argv, self.cwd, self.name, self._transcript)
        self._settle()
        self._exposed = []
        self._process.send(f"START {game.size}", starting=True)
        answer = self._process.answer(f"START {game.size}", self.start_timeout_ms / 1000, starting=True)
        if answer.upper() != "OK":
            self.close()
            raise EngineStartError(f"{self.name} refused START {game.size}: {answer}")
        info = {"timeout_turn": self.turn_time_ms, "timeout_match": self.match_time_ms or 0,
                "max_memory": self.max_memory, "game_type": 1, "rule": RULE_BITS[game.rule]}  # fmt: skip
        for key, value in info.items():  # game_type 1: the opponent is a program
            self._send(f"INFO {key} {value}")
        for line in self.info_lines:
            self._send(line)
        self._game = game
        self._new_game()

    def _new_game(self) -> None:
        self._history = []
        if not self._keep_clock:
            self._used_ms = 0.0
        self._keep_clock = False

    def _sync(self, state: MNKState) -> list[str]:
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

    def _step_to(self, state: MNKState) -> list[str] | None:
        """``BEGIN``, or ``TURN x,y`` after taking back what the position no longer has; None if that cannot work."""
        history, n = self._history, state.game.size
        if state.num_moves == 0:
            return ["BEGIN"] if not history else None
        keep = state.num_moves - 1  # the position is the engine's first ``keep`` moves plus its last move
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
        timeout_s = self.start_timeout_ms / 1000
        deadline = time.monotonic() + timeout_s  # for every line read for this command (see _ask)
        if self._exposed:  # sent just after a move answer: an engine that lost it would say nothing at all
            answer = self._process.answer(command, LOST_S, patient=True)
            if answer is None:
                self.glitches += 1
                log.info("%s did not answer %r, sent just after its last move, at once; sending it again",
                         self.name, command)  # fmt: skip
                self._exposed = []
                self._send(command)
                answer = self._process.answer(command, timeout_s, deadline=deadline)
                self._late_oks += 1  # if the first was only slow, its OK is still to come
        else:
            answer = self._process.answer(command, timeout_s, deadline=deadline)
        answer = self._recovered([command], answer, timeout_s, deadline)
        self._exposed = []
        if answer.upper() == "OK":
            return True
        if fallback is not None:
            fallback()
        else:
            self._history = None  # the engine's board is unknown now: resend it
        return False

    def _recovered(self, commands: list[str], answer: str, timeout_s: float, deadline: float) -> str:
        """``answer``, or, if it says the engine lost one of our lines just after its last move, the answer after
        recovering once: a lost ``INFO`` is let go (the rest got through), a lost move or ``TAKEBACK`` sent again.

        Every line is read by ``deadline`` (``time.monotonic()``), the one of the command being answered, whose
        limit is ``timeout_s``: an engine that echoes our lines forever times out as a silent one does."""
        exposed = self._exposed
        if not exposed or not answer.upper().startswith("ERROR"):
            return answer
        lost = next((line for line in exposed if echoes(answer, line)), None)
        if lost is None:
            return answer
        self.glitches += 1
        log.info("%s lost %r, sent just after its last answer (%s); recovering", self.name, lost, clip(printable(answer)))
        while lost not in commands:  # a lost INFO: what follows it got through, and its answer comes after the echoes
            answer = self._process.answer(commands[0], timeout_s, deadline=deadline)
            if not answer.upper().startswith("ERROR"):
                return answer
            lost = next((line for line in exposed if echoes(answer, line)), None)
            if lost is None:
                return answer
        quiet_by = min(time.monotonic() + 1.0, deadline)
        while time.monotonic() < quiet_by:  # the rest of the lost lines' echoes, until the engine is quiet
            if self._process.answer(commands[0], QUIET_S, patient=True) is None:
                break
        self._exposed = []
        for line in commands:
            self._send(line)
        return self._process.answer(commands[0], timeout_s, deadline=deadline)

    def _check_move(self, state: MNKState, answer: str, command: str) -> int:
        n = state.game.size
        shown = clip(printable(answer))
        if answer.upper().startswith("ERROR"):
            self._fail(EngineProtocolError, f"{self.name} answered {command!r} with '{shown}'")
        try:
            x, y = read_point(answer)
        except ProtocolError:
            self._fail(EngineProtocolError, f"{self.name} answered {command!r} with '{shown}', not a move 'x,y'")
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

    def _settle(self) -> bool:
        """Wait out the rest of ``settle_ms`` if nothing was sent since the last move answer; whether it was so."""
        if self._answered_at is None:
            return False
        wait = self._answered_at + self.settle_ms / 1000 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._answered_at = None
        return True

    def _send(self, line: str) -> None:
        if self._settle():  # the first line after a move answer, which an engine may still lose
            self._exposed = [line]
        elif self._exposed:
            self._exposed.append(line)
        self._process.send(line)

    def _fail(self, kind: type[EngineError], message: str) -> None:
        """Kill the engine and raise ``kind``; the next move starts a new process."""
        process, self._process = self._process, None
        self._history = None
        process.fail(kind, message)
