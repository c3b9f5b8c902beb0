"""Play against a policy in the terminal: ``boardgame-envs play``.

Moves are typed as the game names them (renju notation, ``h8`` on 15x15 and
``b2`` the centre of tic-tac-toe, or ``row,col``; a column ``a``..``g`` in
connect four; an action that is no cell by its name, ``pass``); ``undo`` takes back your last move and the
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


def usage(game: Any) -> str:
    """How to type a move of ``game``, with the middle action (the centre of a square board) as the example."""
    if hasattr(game, "size"):  # the m,n,k family also reads row,col
        n = game.size
        point = f"a point ({game.action_name((n // 2) * n + n // 2)} or row,col)"
        decisions = getattr(game, "decisions", ())  # an opening rule's: swap, keep, offers=2, ...
        if decisions:
            point += f" or a decision of the opening ({', '.join(decisions)})"
        return f"type {point}, or: undo, hint, quit"
    example = game.num_actions // 2
    if cell_of(game, example) is None:  # the middle action is no cell: show a cell's instead
        example = next(a for a in range(game.num_actions) if cell_of(game, a) is not None)
    others = "".join(f" or {game.action_name(a)}" for a in other_actions(game))  # a pass, by its name
    return f"type a move ({game.action_name(example)}){others}, or: undo, hint, quit"


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
    help_text = usage(game)
    human = session.human
    colour = game.player_name(session.human_seat)
    print_fn(f"You play {human} ({colour}). {help_text}.")
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
            print_fn(f"{printable(str(exc))}. {help_text}.")
    if session.forfeit is None:
        print_fn(session.env.render())
    winner = session.winner()
    result = "draw" if winner == 0 else f"{session.env.possible_agents[winner - 1]} wins"
    print_fn(f"game over: {result}")
    return winner
