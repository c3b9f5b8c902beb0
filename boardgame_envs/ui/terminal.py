"""Play against a policy in the terminal: ``boardgame-envs play``.

Moves are typed in renju notation (``h8`` on 15x15, ``b2`` the centre of
tic-tac-toe) or as ``row,col``; ``undo`` takes back your last move and the
reply (the session's one rule, :class:`~boardgame_envs.ui.session.PlaySession`),
``hint`` asks the alpha-beta search, ``quit`` (or end of input) stops. Bad
input is explained in one line and asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import parse_point, point_name
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.ui.session import PlaySession
from boardgame_envs.ui.escape import printable


def usage(n: int) -> str:
    """How to type a move on an ``n`` x ``n`` board, with the centre point as the example."""
    return f"type a point ({point_name((n // 2) * n + n // 2, n)} or row,col), or: undo, hint, quit"


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
    n = session.size
    help_text = usage(n)
    human = session.human
    colour = session.state.game.color_name((BLACK, WHITE)[session.human_seat - 1])
    print_fn(f"You play {human} ({colour}). {help_text}.")
    while not session.over:
        if not session.humans_turn:
            try:
                action = session.opponent_move()
            except Forfeit as exc:
                session.opponent_forfeits(printable(str(exc)))  # an engine's words reach the terminal: escaped
                print_fn(session.forfeit or "")
                break
            print_fn(f"{session.env.agent_selection} plays {point_name(action, n)}")
            session.play(action)
            continue
        print_fn(session.env.render())
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
            print_fn(f"hint: {point_name(session.hint(), n)}")
            continue
        try:
            session.play(parse_point(text, n))
        except ValueError as exc:  # unreadable text, a point off the board, an illegal move (IllegalMoveError)
            print_fn(f"{printable(str(exc))}. {help_text}.")
    if session.forfeit is None:
        print_fn(session.env.render())
    winner = session.winner()
    result = "draw" if winner == 0 else f"{session.env.possible_agents[winner - 1]} wins"
    print_fn(f"game over: {result}")
    return winner
