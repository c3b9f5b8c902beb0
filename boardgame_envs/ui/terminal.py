"""Play against a policy in the terminal: ``boardgame-envs play``.

Moves are typed as the game names them (renju notation, ``h8`` on 15x15 and
``b2`` the centre of tic-tac-toe, or ``row,col``; a column ``a``..``g`` in
connect four; an action that is no cell by its name, ``pass``), which the text
board shows (its coordinates, or each free cell's name); the help line's
example is a legal move of the position it is shown in; ``undo`` takes back your last move and the
reply (the session's one rule, :class:`~boardgame_envs.ui.session.PlaySession`),
``hint`` asks the alpha-beta search, ``quit`` (or end of input) stops. Bad
input is explained in one line and asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgame_envs.games.protocol import cell_of, other_actions
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.ui.escape import printable
from boardgame_envs.ui.session import PlaySession


def usage(position: Any) -> str:
    """How to type a move in ``position`` (a state; a game stands for its start), as the game names its moves,
    with a legal action of it as the example: the free cell nearest the middle of the board (its middle row
    first), or, where no cell is free, the first legal action; then the game's actions that are no cell (a
    pass, by its name; an opening rule's decisions). ``row,col`` is offered where the game reads it, whatever
    its attributes (a game with a parameter named ``size`` need not)."""
    state = position if hasattr(type(position), "legal_mask") else position.new_state()
    game = state.game
    legal = [int(a) for a in state.legal_actions()]
    cells = [a for a in legal if cell_of(game, a) is not None]
    rows, cols = game.shape

    def from_the_middle(action: int) -> tuple[int, int]:
        row, col = divmod(int(cell_of(game, action)), cols)
        return abs(row - rows // 2) * cols + abs(col - cols // 2), action

    example = min(cells, key=from_the_middle) if cells else (legal[0] if legal else None)
    if example is None:
        parts = ["a move"]
    elif example in cells and _reads_row_col(game, example):
        parts = [f"a point ({game.action_name(example)} or row,col)"]
    else:
        parts = [f"a move ({game.action_name(example)})"]
    decisions = getattr(game, "decisions", ())  # an opening rule's names for its actions that are no cell
    if decisions:
        parts.append(f"a decision of the opening ({', '.join(decisions)})")
    else:
        parts += [game.action_name(a) for a in other_actions(game) if a != example]  # a pass, by its name
    return f"type {' or '.join(parts)}, or: undo, hint, quit"


def _reads_row_col(game: Any, action: int) -> bool:
    """Whether the game reads its cell ``action`` written as ``row,col`` (0-based, row 0 at the top)."""
    row, col = divmod(int(cell_of(game, action)), game.shape[1])
    try:
        return int(game.parse_action(f"{row},{col}")) == action
    except ValueError:
        return False


def play_terminal(
    env_fn: Callable[[], Any],
    opponent: Any,
    human_first: bool,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] = print,
    hint_policy: Any = None,
) -> int:
    """Run a game on raw AEC envs with ``render_mode="ansi"``.

    Returns the winner's seat (1 first, 2 second), 0 for a draw, -1 when the person quits.
    """
    session = PlaySession(env_fn, opponent, human_first=human_first, hint_policy=hint_policy)
    game = session.state.game
    human = session.human
    colour = game.player_name(session.human_seat)
    # How to type a move, with an example legal where the person first moves (after the opponent's opening move).
    told = session.humans_turn
    print_fn(f"You play {human} ({colour}). {usage(session.state)}." if told else f"You play {human} ({colour}).")
    while not session.over:
        if not session.humans_turn:
            try:
                action = session.opponent_move()
            except Forfeit as exc:
                session.opponent_forfeits(printable(str(exc)))  # an engine's words reach the terminal: escaped
                print_fn(session.forfeit or "")
                break
            print_fn(f"{session.env.agent_selection} plays {game.action_name(action)}")
            session.play(action)
            continue
        print_fn(session.env.render())
        if not told:
            told = True
            line = usage(session.state)
            print_fn(f"{line[:1].upper()}{line[1:]}.")
        try:
            text = input_fn(f"{human}> ").strip()
        except EOFError:
            print_fn("bye")
            return -1
        if text in ("quit", "exit", "q"):
            print_fn("bye")
            return -1
        if text == "undo":
            if not session.undo():
                print_fn("nothing to undo")
            continue
        if text == "hint":
            print_fn(f"hint: {game.action_name(session.hint())}")
            continue
        try:
            session.play(game.parse_action(text))
        except ValueError as exc:  # unreadable text, a point off the board, an illegal move (IllegalMoveError)
            print_fn(f"{printable(str(exc))}. {usage(session.state)}.")  # an example that is legal now
    if session.forfeit is None:
        print_fn(session.env.render())
    winner = session.winner()
    result = "draw" if winner == 0 else f"{session.env.possible_agents[winner - 1]} wins"
    print_fn(f"game over: {result}")
    return winner
