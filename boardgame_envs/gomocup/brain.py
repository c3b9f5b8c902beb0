"""Any policy as a Gomocup brain: the manager's commands on stdin, our answers on stdout.

``boardgame-envs pbrain --policy SPEC`` runs :func:`serve`; GUIs (Piskvork, Yixin-Board)
and match runners (c-gomoku-cli, GomocupJudge) start it as they start any ``pbrain-*``.
The brain keeps the game in a :class:`~boardgame_envs.games.mnk.MNKState`, so the rules are
ours: five in a row, ``INFO rule`` 0 freestyle, 1 standard (exactly five), 4 renju.

Commands (case-insensitive):

* ``START n`` (5 <= n <= 19) / ``RECTSTART n,n`` (square only) -> ``OK``; ``RESTART`` -> ``OK``;
* ``BEGIN`` (empty board, we play black), ``TURN x,y`` (the opponent's move),
  ``BOARD`` + ``x,y,field`` lines (1 ours, 2 the opponent's) + ``DONE`` -> our move ``x,y``;
* ``SWAP2BOARD`` + 0, 3 or 5 ``x,y`` lines + ``DONE`` (Gomocup's Swap2 extension, freestyle and
  standard) -> three stones ``x1,y1 x2,y2 x3,y3``; ``SWAP``, one point or two; ``SWAP`` or one
  point (:mod:`boardgame_envs.gomocup.swap2`), the policy deciding each action of the opening
  as it does in the Swap2 env (``OpeningRuleGame``); then ``TURN`` or ``BOARD`` go on as usual;
* ``PLAY x,y`` (the manager plays our move for us) -> ``x,y``; ``TAKEBACK x,y`` (the last
  stone) -> ``OK``; ``ABOUT`` -> ``name="...", version="...", author="...", country="..."``;
* ``INFO key value``: ``rule``, ``timeout_turn``, ``timeout_match``, ``time_left``,
  ``max_memory``, ``game_type``, ``folder`` are kept; other keys are ignored. ``INFO`` never
  gets an answer (a manager would read it as the answer to its next command): a number out of
  range is clamped (times to 0..:data:`UNLIMITED_MS`, the protocol's "no limit"; memory to
  0..:data:`MAX_MEMORY`), and a value we cannot use (not a number, a negative rule, a rule the
  position breaks) is let go with a ``MESSAGE`` line, which managers show and never take for an answer;
* ``END`` (or the end of input) stops the brain; anything else -> ``UNKNOWN ...``.

``x`` is the column and ``y`` the row, from 0, row 0 at the top: our action ``y * n + x``
(see :mod:`boardgame_envs.gomocup.protocol`). Rule bits we cannot play (2, the
continuous game; any bit above 4) get a ``MESSAGE`` line and the nearest rule: renju if
bit 4 is set, else standard if bit 1 is, else freestyle.

Invariant: a command we cannot obey (malformed, out of order, a move on an occupied or
off-board point, a point forbidden for black under renju, a move that would end the game
before we answer) gets one ``ERROR message`` line (``INFO``: a ``MESSAGE`` line) and leaves
the brain as it was. Under
renju a ``BOARD`` position is replayed in an order where every black stone was legal.

Time: a policy with a ``time_limit`` attribute (``MCTSPolicy``, ``AlphaBetaPolicy``)
thinks for at most its own limit and at most what :func:`move_time` allows under
``timeout_turn`` and ``time_left``; a policy with a fixed budget (``time_limit=None``,
simulations, depth) answers as it is. Only protocol lines reach stdout: anything else
the policy or a library prints goes to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from boardgame_envs import __version__
from boardgame_envs.games.catalog import GAMES
from boardgame_envs.games.lines import BLACK, WHITE, opponent
from boardgame_envs.games.mnk import IllegalMoveError, MNKGame, MNKState
from boardgame_envs.gomocup import swap2
from boardgame_envs.gomocup.protocol import (
    MAX_LINE_BYTES,
    ProtocolError,
    clamped_int,
    clip,
    format_point,
    legal_order,
    parse_point,
    printable,
    read_int,
    read_point,
    rule_from_bits,
)  # fmt: skip

UNLIMITED_MS = 2147483647  # time_left when the match has no time limit; INFO times are clamped to it
MAX_MEMORY = 2**63 - 1  # INFO max_memory is clamped to this many bytes
MOVES_TO_GO = 20  # a move may spend this fraction of the match time left
SAFETY, OVERHEAD_S, MIN_THINK_S = 0.8, 0.03, 0.005
MIN_SIZE, MAX_SIZE = GAMES["gomoku"].sizes
NUMERIC_INFO = ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule")


def move_time(timeout_turn: int | None, timeout_match: int | None, time_left: int | None) -> float | None:
    """Seconds a time-aware policy may think for the next move under the manager's limits (ms); None: no limit.

    The tighter of ``timeout_turn`` (0: play at once) and 1/:data:`MOVES_TO_GO` of the match
    time left (``time_left``, else the whole ``timeout_match``; 0 or :data:`UNLIMITED_MS`: no
    limit), scaled by :data:`SAFETY` less :data:`OVERHEAD_S` for the protocol, never below
    :data:`MIN_THINK_S`.
    """
    limits = []
    if timeout_turn is not None:
        limits.append(max(timeout_turn, 0) / 1000)
    match = time_left if time_left is not None else timeout_match
    if match is not None and match != UNLIMITED_MS and not (time_left is None and match == 0):
        limits.append(max(match, 0) / 1000 / MOVES_TO_GO)
    if not limits:
        return None
    return max(MIN_THINK_S, min(limits) * SAFETY - OVERHEAD_S)


def shown(text: str) -> str:
    """Part of a manager's line as our answers quote it: control characters escaped, cut short."""
    return clip(printable(text))


class CommandError(Exception):
    """A command the brain refuses; its message becomes the ``ERROR`` line."""


class Brain:
    """One brain: the protocol's state machine around a policy; :meth:`handle` takes one line.

    ``write`` receives each answer line (without its newline).
    """

    def __init__(self, policy: Any, write: Callable[[str], None], name: str | None = None) -> None:
        self.policy = policy
        self.write = write
        name = name or f"boardgame-envs {getattr(policy, 'name', type(policy).__name__)}"
        self.name = clip(printable(str(name)).replace('"', "'"), 100)
        own_limit = getattr(policy, "time_limit", None)
        self._own_time_limit = own_limit if isinstance(own_limit, (int, float)) else None
        self.info: dict[str, Any] = {}
        self.size: int | None = None
        self.rule = "freestyle"
        self.moves: list[int] = []  # the game so far, in our actions
        self.me: int | None = None  # our colour, once the game has told us
        self.state: MNKState | None = None
        self._board_lines: list[str] | None = None  # collecting BOARD (or SWAP2BOARD) ... DONE
        self._collecting = "BOARD"  # which of the two the lines are for

    # ------------------------------------------------------------ the loop
    def handle(self, line: str) -> bool:
        """Obey one protocol line; False once the brain should stop (``END``)."""
        text = line.strip()
        if self._board_lines is not None:
            if text.upper() == "DONE":
                lines, self._board_lines = self._board_lines, None
                self._answer(lambda: (self._board if self._collecting == "BOARD" else self._swap2board)(lines))
                return True
            if not text[:1].isalpha():
                if text and len(self._board_lines) <= MAX_SIZE * MAX_SIZE:  # one past: DONE says it was too long
                    self._board_lines.append(text)
                return True
            # A command inside BOARD: the manager gave up on it; refuse the board, obey the command.
            self._board_lines = None
            self.write(f"ERROR {self._collecting} ended by '{shown(text.split()[0])}' without DONE; "
                       "the position is unchanged")
        if not text:
            return True
        word, _, rest = text.partition(" ")
        command = word.upper()
        if command == "END":
            return False
        handler = self._commands().get(command)
        if handler is None:
            self.write(f"UNKNOWN command '{shown(word)}' is not supported")
        elif command in ("BOARD", swap2.COMMAND):
            self._board_lines, self._collecting = [], command
        else:
            self._answer(lambda: handler(rest.strip()))
        return True

    def _answer(self, run: Callable[[], str | None]) -> None:
        try:
            out = run()
        except (CommandError, ProtocolError) as exc:
            self.write(f"ERROR {exc}")
            return
        except Exception as exc:  # a bug of ours must not end the brain: the manager hears it, the game stands
            self.write(f"ERROR internal error: {type(exc).__name__}: {shown(str(exc))}")
            return
        if out is not None:
            self.write(out)

    def _commands(self) -> dict[str, Callable[[str], str | None]]:
        return {
            "START": self._start, "RECTSTART": self._rectstart, "RESTART": self._restart, "BEGIN": self._begin,
            "TURN": self._turn, "BOARD": lambda _: None, swap2.COMMAND: lambda _: None, "PLAY": self._play,
            "TAKEBACK": self._takeback, "ABOUT": self._about, "INFO": self._info,
        }  # fmt: skip

    # ------------------------------------------------------------ commands
    def _start(self, arg: str) -> str:
        size = read_int(arg, "START")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise CommandError(
                f"unsupported size {size}: this brain plays boards of {MIN_SIZE}.."
                f"{MAX_SIZE}"
            )
        state = self._replay(size, self.rule, [])
        self.size, self.state, self.moves, self.me = size, state, [], None
        self._warm_up()
        return "OK"

    def _rectstart(self, arg: str) -> str:
        width, height = read_point(arg)
        if width != height:
            raise CommandError(f"rectangular boards are not supported ({width}x{height}): use START n")
        return self._start(str(width))

    def _restart(self, arg: str) -> str:
        self._need_board()
        self.state, self.moves, self.me = self._replay(self.size, self.rule, []), [], None
        return "OK"

    def _begin(self, arg: str) -> str:
        self._need_board()
        if self.moves:
            raise CommandError(f"BEGIN needs an empty board; {len(self.moves)} stones are on it (RESTART first)")
        return self._think(self.state, [], BLACK)

    def _turn(self, arg: str) -> str:
        self._need_board()
        state = self.state
        if self.me is not None and state.to_move == self.me and not state.terminal:
            raise CommandError("it is this brain's turn, not the opponent's (send BOARD or TAKEBACK first)")
        action = self._point(arg)
        self._check_move(state, action, "TURN")
        me = opponent(state.to_move)
        state.play(action)  # in place: a replay per move would cost a game's length each time
        try:
            return self._think(state, [*self.moves, action], me)
        except CommandError:
            self.state = self._replay(self.size, self.rule, self.moves)
            raise

    def _board(self, lines: list[str]) -> str:
        self._need_board()
        own: list[int] = []
        opponent: list[int] = []
        if len(lines) > self.size * self.size:
            raise CommandError(f"BOARD has more lines than the {self.size}x{self.size} board has points")
        for line in lines:
            point, _, field = line.rpartition(",")
            action = self._point(point)
            if field.strip() not in ("1", "2"):
                raise CommandError(f"BOARD field must be 1 (own stone) or 2 (opponent's); got '{shown(line)}' "
                                   "(3, the continuous game, is not supported)")  # fmt: skip
            (own if field.strip() == "1" else opponent).append(action)
        if len(own) == len(opponent):
            me = BLACK
        elif len(opponent) == len(own) + 1:
            me = WHITE
        else:
            raise CommandError(f"BOARD has {len(own)} own and {len(opponent)} opponent stones: "
                               "we must have as many as the opponent (we are black) or one fewer (white)")  # fmt: skip
        black, white = (own, opponent) if me == BLACK else (opponent, own)
        try:
            moves = legal_order(self.state.game, black, white)
        except ValueError as exc:
            raise CommandError(f"BOARD position refused under {self.rule}: {exc}") from None
        return self._think(self._replay(self.size, self.rule, moves), moves, me)

    def _swap2board(self, lines: list[str]) -> str:
        """Gomocup's Swap2 step: the policy lays the three stones, chooses after three, or chooses after five."""
        self._need_board()
        try:
            game = swap2.swap2_game(self.size, self.rule)
            state = swap2.opening_of(game, swap2.read_stones(lines, self.size))
        except ValueError as exc:  # renju, a bad point, a count other than 0, 3, 5, a point given twice
            raise CommandError(f"{swap2.COMMAND} refused: {exc}") from None
        wanted = getattr(self.policy, "game", None)
        if wanted is not None and wanted != game:
            raise CommandError(f"{self.name} plays {wanted}, not {game}: it takes no decision of the opening")
        seat = state.to_move

        def decide(position: Any) -> int:
            self._set_time_limit()
            return self.policy.act(position)

        try:
            text, after = swap2.answer(state, decide)
        except Exception as exc:  # a brain must outlive a failing policy; the manager hears why
            raise CommandError(f"{self.name} could not answer {swap2.COMMAND}: {type(exc).__name__}: {exc}") from None
        opening = list(after.opening_stones())
        played = [after.base.last_move] if after.base.num_moves > len(opening) else []  # our move after the choice
        self.state, self.moves = after.base, [*opening, *played]
        self.me = None if after.in_opening else after.color_of(seat)  # the other player may still choose
        return text

    def _play(self, arg: str) -> str:
        self._need_board()
        state = self.state
        if self.me is not None and state.to_move != self.me:
            raise CommandError("PLAY places our own stone, but it is the opponent's turn")
        action = self._point(arg)
        self._check_move(state, action, "PLAY")
        state.play(action)
        self.moves.append(action)
        self.me = opponent(state.to_move)
        return format_point(action, self.size)

    def _takeback(self, arg: str) -> str:
        self._need_board()
        action = self._point(arg)
        if not self.moves or self.moves[-1] != action:
            last = format_point(self.moves[-1], self.size) if self.moves else "none: the board is empty"
            raise CommandError(f"TAKEBACK takes back the last stone; {shown(arg)} is not it (the last is {last})")
        self.state = self._replay(self.size, self.rule, self.moves[:-1])
        self.moves.pop()
        if not self.moves:
            self.me = None  # back at the start: either colour may be ours again
        return "OK"

    def _about(self, arg: str) -> str:
        return f'name="{self.name}", version="{__version__}", author="boardgame_envs", country="n/a"'

    def _info(self, arg: str) -> None:
        key, _, value = arg.partition(" ")
        key, value = key.lower(), value.strip()
        if key not in NUMERIC_INFO:
            if key == "folder":
                self.info[key] = value
            return None  # unknown keys (evaluate, ...) are ignored, as the protocol asks
        high = MAX_MEMORY if key in ("max_memory", "game_type") else UNLIMITED_MS
        try:
            number = clamped_int(value, f"INFO {shown(key)}", 0, high)
            if key == "rule":
                if value.strip().startswith("-"):
                    raise ProtocolError(f"INFO rule needs a bitmask of at least 0, got '{shown(value)}'")
                self._set_rule(number)
        except (CommandError, ProtocolError) as exc:
            self.write(f"MESSAGE {exc}; ignored")
            return None
        except Exception as exc:  # a bug of ours: said, but as a MESSAGE, for INFO has no answer to take its place
            self.write(f"MESSAGE INFO {shown(key)} ignored: internal error: {type(exc).__name__}: {shown(str(exc))}")
            return None
        self.info[key] = number
        return None

    # ------------------------------------------------------------ helpers
    def _set_rule(self, bits: int) -> None:
        rule, unsupported = rule_from_bits(bits)
        if unsupported:
            self.write(f"MESSAGE rule bits {unsupported} are not supported (2 is the continuous game); playing {rule}")
        if rule == self.rule:
            return
        if self.size is not None:
            try:
                self.state = self._replay(self.size, rule, self.moves)
            except CommandError as exc:
                raise CommandError(f"cannot switch to {rule}: {exc}") from None
        self.rule = rule

    def _need_board(self) -> None:
        if self.size is None:
            raise CommandError("no board yet: send START first")

    def _point(self, text: str) -> int:
        return parse_point(text, self.size)

    def _check_move(self, state: Any, action: int, command: str) -> None:
        if state.terminal:
            raise CommandError("the game is over: send RESTART or BOARD")
        reason = state.illegal_reason(action)
        if reason is not None:
            raise CommandError(f"{command} {format_point(action, self.size)} is illegal: {reason}")
        after = state.clone()
        after._place(action)
        if after.terminal:
            result = "a draw" if after.winner == 0 else ("black" if after.winner == BLACK else "white") + " wins"
            point = format_point(action, self.size)
            raise CommandError(f"{command} {point} ends the game ({result}): no move to answer")

    def _replay(self, size: int, rule: str, moves: Iterable[int]) -> MNKState:
        game = MNKGame(size, 5, rule)
        wanted = getattr(self.policy, "game", None)
        if wanted is not None and wanted != game:
            raise CommandError(f"{self.name} plays {wanted}, not {game}")
        state = game.new_state()
        try:
            for action in moves:
                state.play(action)
        except IllegalMoveError as exc:  # the moves do not stand under this rule
            raise CommandError(str(exc)) from None
        return state

    def _think(self, state: MNKState, moves: list[int], me: int) -> str:
        """Our move in ``state`` (our turn); on success the brain takes ``state`` and ``moves`` as its game."""
        if state.terminal:
            raise CommandError("the game is over: send RESTART or BOARD")
        self._set_time_limit()
        try:
            # a copy: a policy that writes on what it is handed cannot change our game
            action = int(self.policy.act(state.clone()))
            state.play(action)
        except Exception as exc:  # a brain must outlive a failing policy; the manager hears why
            raise CommandError(f"{self.name} could not move: {type(exc).__name__}: {exc}") from None
        self.state, self.moves, self.me = state, [*moves, action], me
        return format_point(action, self.size)

    def _set_time_limit(self) -> None:
        if self._own_time_limit is None:
            return
        allowed = move_time(self.info.get("timeout_turn"), self.info.get("timeout_match"), self.info.get("time_left"))
        self.policy.time_limit = self._own_time_limit if allowed is None else min(self._own_time_limit, allowed)

    def _warm_up(self) -> None:
        """Compile a time-aware policy's kernels now, so the first move's clock is not spent on it."""
        if self._own_time_limit is None:
            return
        self.policy.time_limit = MIN_THINK_S
        try:
            self.policy.act(self._replay(self.size, self.rule, []))
        except Exception:  # the real move will report it
            pass


def serve(policy: Any, stdin: TextIO | None = None, stdout: TextIO | None = None, name: str | None = None) -> int:
    """Run a brain on ``stdin``/``stdout`` (the process's by default) until ``END`` or end of input; returns 0.

    A line longer than :data:`~boardgame_envs.gomocup.protocol.MAX_LINE_BYTES` is read in
    bounded pieces, dropped, and answered with one short ``ERROR``; a closed input or
    output ends the brain quietly.

    While it runs, ``sys.stdout`` is pointed at ``sys.stderr``, so that nothing but
    protocol lines reaches the manager.
    """
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    brain = Brain(policy, write, name)
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        while True:
            line = stdin.readline(MAX_LINE_BYTES)
            if not line:
                break  # the end of input: the manager is gone, and so are we, quietly
            if len(line) == MAX_LINE_BYTES and not line.endswith("\n"):
                while (rest := stdin.readline(MAX_LINE_BYTES)) and not rest.endswith("\n"):
                    pass  # the rest of an overlong line, read and dropped in bounded pieces
                write(f"ERROR a line longer than {MAX_LINE_BYTES} characters ('{shown(line)}'); ignored")
                continue
            if not brain.handle(line):
                break
    except (BrokenPipeError, ConnectionResetError):
        pass  # the manager closed our output: nobody is listening any more
    finally:
        sys.stdout = saved
    return 0

