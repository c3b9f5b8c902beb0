"""A position to draw: :class:`Snapshot`, a frozen copy of a game and the moves that led to it.

Every drawing (pixels, SVG, animation frames, the window) starts from a
:class:`Snapshot`, so they show the same thing. A snapshot is taken from an env of
any game (wrapped or raw), a game state of the protocol or a list of moves. An
m,n,k position keeps its stones, forbidden points and opening (the m,n,k
pictures of :mod:`~boardgame_envs.render.scene` read them); any other game's
keeps a copy of its state (``state``), which the game's drawing hook draws
(:mod:`~boardgame_envs.render.cells`). The drawing modules
read it; :class:`~boardgame_envs.render.board.Board`, the public name, is a snapshot
that also draws itself (``svg()``, ``rgb()``, ``save()``, Jupyter's ``_repr_svg_``), so
it sits above them and nothing here imports a drawing. A position of a game under an opening rule
(an :class:`~boardgame_envs.games.opening_game.OpeningState`) is drawn as its
stones, with the fifth moves on offer (``offers``) and the phase of the
opening in the status line (``phase``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from boardgame_envs.games.lines import BLACK, DIRECTIONS, EMPTY
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.opening_game import OpeningState, zone_words
from boardgame_envs.games.opening_rules import CHOICE, CHOOSE, COLOUR, DECLARE, OFFER, STONE, SWAP, SWAP2
from boardgame_envs.games.protocol import last_other_action


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What is on the board: stones, whose move, the result, black's forbidden points.

    ``moves`` are the actions from the empty board, black first, when they are
    known (they number the stones); ``None`` otherwise. Under an opening rule,
    ``offers`` are the fifth moves on offer and ``phase`` the opening's step in
    words (``"soosorv8 · second player (black) offers fifth move 2 of 2"``), ""
    once normal play has begun. A game other than m,n,k keeps a copy of its
    state in ``state`` (None for the m,n,k family): its ``stones`` are the
    state's ``board``, and it has no forbidden points, offers or phase.
    """

    game: Any  # an MNKGame, or any game of the protocol when ``state`` is set
    stones: np.ndarray  # (rows*columns,) int8: EMPTY, BLACK, WHITE; any game's board
    to_move: int
    last_move: int  # -1 before the first move
    winner: int  # BLACK, WHITE, or EMPTY (playing, or a draw)
    terminal: bool
    forbidden: np.ndarray  # (n*n,) bool: empty points black may not play (renju)
    moves: tuple[int, ...] | None = None
    offers: tuple[int, ...] = ()
    phase: str = ""
    state: Any = None  # a game other than m,n,k: a copy of its state, drawn by its drawing hook

    @classmethod
    def of(cls, source: Any, moves: Iterable[int] | None = None) -> Snapshot:
        """The board of an env of any game (a PettingZoo env, wrapped or raw, or the single-agent Gymnasium view),
        a game state of the protocol or a ``Board``.

        ``moves`` (actions from the start, the first player first) number the
        pieces; an env supplies its own. Moves that do not add up to the
        position are ignored (for an m,n,k position; any other game's are
        checked when they are drawn, and a picture with ``move_numbers`` refuses
        moves that do not lead to it).
        """
        if isinstance(source, Snapshot):
            return source if moves is None else cls.from_state(source.to_state(), moves)
        unwrapped = getattr(source, "unwrapped", None)
        unwrapped = getattr(unwrapped, "aec", unwrapped)  # the single-agent Gymnasium view: the AEC env it drives
        state = getattr(unwrapped, "game_state", None)
        if is_game_state(state):
            if moves is None:
                stones = getattr(unwrapped, "stones", None)  # an opening rule's env: stones, not actions
                moves = stones() if callable(stones) else getattr(unwrapped, "moves", None)
            return cls.from_state(state, moves)
        if is_game_state(source):
            return cls.from_state(source, moves)
        hint = ""
        if isinstance(source, np.ndarray):
            hint = " (a board array alone does not say its game: pass the env, or env.unwrapped.game_state)"
        raise TypeError(
            f"cannot draw a {type(source).__name__}{hint}: expected an env of any boardgame_envs game (wrapped or "
            f"raw), a game state of the protocol (an MNKState, a ConnectFourState, env.unwrapped.game_state, ...) "
            f"or a Board"
        )

    @classmethod
    def from_state(cls, state: Any, moves: Iterable[int] | None = None) -> Snapshot:
        """The board of ``state`` (an m,n,k state or any game's), with ``moves`` (see :meth:`of`)."""
        if not isinstance(state, (MNKState, OpeningState)):
            return cls._any_game(state, moves)
        if isinstance(state, OpeningState):
            board = cls.from_state(state.base, moves)
            if not state.in_opening:
                return board
            return replace(board, offers=tuple(int(a) for a in state.offers), phase=phase_text(state))
        known = None
        if moves is not None:
            known = tuple(int(a) for a in moves)
            # Numbers are only drawn when they describe these stones.
            if len(known) != state.num_moves or (known and known[-1] != state.last_move):
                known = None
        forbidden = state.forbidden() if state.game.is_renju else np.zeros(state.game.num_actions, bool)
        return cls(
            game=state.game,
            stones=state.board.copy(),
            to_move=int(state.to_move),
            last_move=int(state.last_move),
            winner=int(state.winner),
            terminal=bool(state.terminal),
            forbidden=forbidden.copy(),
            moves=known,
        )

    @classmethod
    def _any_game(cls, state: Any, moves: Iterable[int] | None) -> Snapshot:
        """A game other than m,n,k: a copy of its state. Moves of another count than the state's are dropped here;
        whether they lead to it is checked where they are drawn (they are replayed then, and only then)."""
        known = None if moves is None else tuple(int(a) for a in moves)
        if known is not None and len(known) != int(state.num_moves):
            known = None
        board = np.asarray(state.board)
        return cls(
            game=state.game,
            stones=board.copy(),
            to_move=int(state.to_move),
            last_move=int(state.last_move),
            winner=int(state.winner),
            terminal=bool(state.terminal),
            forbidden=np.zeros(board.shape, bool),
            moves=known,
            state=state.clone(),
        )

    @classmethod
    def from_moves(cls, game: Any, moves: Iterable[int]) -> Snapshot:
        """The position after ``moves`` (actions, the first player first) from the start of ``game`` (any game).

        Raises :class:`~boardgame_envs.games.mnk.IllegalMoveError` naming the
        first move the rules refuse.
        """
        state = game.new_state()
        played = []
        for action in moves:
            state.play(action)
            played.append(int(action))
        return cls.from_state(state, played)

    def to_state(self) -> Any:
        """A state of this position, for the rules and the text rendering: an :class:`MNKState`, or a copy of any
        other game's state."""
        if self.state is not None:
            return self.state.clone()
        state = MNKState(self.game)
        state.board[:] = self.stones
        state.to_move, state.num_moves, state.last_move = self.to_move, self.num_moves, self.last_move
        state.winner, state.terminal = self.winner, self.terminal
        return state

    # ------------------------------------------------------------- what it shows
    @property
    def size(self) -> int:
        return int(self.game.size)

    @property
    def num_moves(self) -> int:
        if self.state is not None:
            return int(self.state.num_moves)
        return int(np.count_nonzero(self.stones))

    @property
    def drawn_by_hook(self) -> bool:
        """A game other than m,n,k: drawn by its drawing hook (:mod:`~boardgame_envs.render.cells`), not as a
        grid of points."""
        return self.state is not None

    @property
    def is_tictactoe(self) -> bool:
        """Drawn as marks in cells (X and O), not as stones on points."""
        return self.state is None and (self.game.size, self.game.win_length) == (3, 3)

    def winning_line(self) -> tuple[int, ...]:
        """The actions of the m,n,k winning run through the last move, in order; ``()`` if nobody won (and for
        any other game)."""
        if self.state is not None or self.winner == EMPTY or self.last_move < 0:
            return ()
        n, k = self.size, int(self.game.win_length)
        exact = self.game.exact(self.winner)
        r0, c0 = divmod(self.last_move, n)
        for dr, dc in DIRECTIONS.tolist():
            run = [self.last_move]
            for sign in (1, -1):
                r, c = r0 + sign * dr, c0 + sign * dc
                while 0 <= r < n and 0 <= c < n and self.stones[r * n + c] == self.winner:
                    run.append(r * n + c)
                    r, c = r + sign * dr, c + sign * dc
            if len(run) == k or (len(run) > k and not exact):
                return tuple(sorted(run))
        return ()

    def shown_forbidden(self) -> np.ndarray:
        """The forbidden points worth marking: while the game goes on."""
        if self.terminal:
            return np.zeros_like(self.forbidden)
        return self.forbidden

    def player_name(self, color: int) -> str:
        if self.state is not None:
            return str(self.game.player_name(color)).capitalize()
        if self.is_tictactoe:
            return "X" if color == BLACK else "O"
        return "Black" if color == BLACK else "White"

    def status(self) -> str:
        """One line: whose move it is, or the result; under an opening rule, the step of the opening."""
        if self.state is not None:
            return status_text(self.state)
        if self.phase and not self.terminal:
            return self.phase
        if self.terminal:
            if self.winner == EMPTY:
                text = "Draw"
            else:
                text = f"{self.player_name(self.winner)} wins"
            return text if self.is_tictactoe else f"{text} · {self.num_moves} moves"
        text = f"{self.player_name(self.to_move)} to move"
        if self.is_tictactoe:
            return text
        text = f"Move {self.num_moves + 1} · {text}"
        if self.game.is_renju and self.to_move == BLACK and self.forbidden.any():
            points = [point_name(int(a), self.size) for a in self.forbidden.nonzero()[0]]
            text += f" · forbidden: {' '.join(points)}" if len(points) <= 3 else f" · {len(points)} forbidden points"
        return text

    def title(self) -> str:
        """The game's name, for a status line or a window."""
        if self.state is not None:
            return str(self.game.describe())
        if self.is_tictactoe:
            return "Tic-tac-toe"
        n, k = self.size, self.game.win_length
        name = {"renju": "Renju", "standard": "Gomoku (exactly five)"}.get(self.game.rule, "Gomoku")
        if self.game.rule == "standard" and k != 5:
            name = f"Gomoku (exactly {k})"
        elif self.game.rule == "freestyle" and k != 5:
            name = f"{k} in a row"
        return f"{name} {n}x{n}"

def is_game_state(source: Any) -> bool:
    """Whether ``source`` is a game state of the protocol that a picture can show: it has ``legal_mask``, a
    ``board`` and a game with a ``shape`` (an m,n,k state, an opening rule's, connect four's, any game's)."""
    return (hasattr(type(source), "legal_mask") and hasattr(source, "board")
            and hasattr(getattr(source, "game", None), "shape"))  # fmt: skip


def status_text(state: Any) -> str:
    """Any game's status line: ``"Move 4 · Red to move"`` (with the last move's name after one that was no cell),
    or the result."""
    game = state.game
    if state.terminal:
        who = f"{game.player_name(state.winner).capitalize()} wins" if state.winner else "Draw"
        return f"{who} · {state.num_moves} moves"
    text = f"Move {state.num_moves + 1} · {game.player_name(state.to_move).capitalize()} to move"
    other = last_other_action(state)
    return text if other is None else f"{text} · last move: {game.action_name(other)}"


def phase_text(state: OpeningState) -> str:
    """The step of an opening in a few words, for a status line: ``"soosorv8 · first player lays white's stone 2
    within 3x3"``, ``"swap2 · second player: black, white or more"``."""
    game = state.game
    step = game.opening.steps[state.step]
    who = game.player_name(state.to_move)
    holds = f"{who} ({game.color_name(state.color_of(state.to_move))})"
    if step.kind == STONE:
        where = zone_words(step.zone).replace("the central ", "")
        text = f"{who} lays {game.color_name(state.base.to_move)}'s stone {state.base.num_moves + 1} {where}"
    elif step.kind == OFFER:
        text = f"{holds} offers fifth move {len(state.offers) + 1} of {state.due}"
    elif step.kind == CHOOSE:
        text = f"{holds} chooses one of {len(state.offers)} fifth moves"
    else:
        text = {
            SWAP: f"{holds}: swap or keep",
            DECLARE: f"{holds} declares 1..{game.opening.offers} fifth moves",
            CHOICE: f"{holds}: swap, keep or offers={game.opening.offers}",
            SWAP2: f"{who}: black, white or more",
            COLOUR: f"{who} chooses black or white",
        }[step.kind]  # fmt: skip
    return f"{game.opening.name} · {text}"


__all__ = ["Snapshot", "is_game_state", "phase_text", "status_text"]
