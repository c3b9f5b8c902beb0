"""Play against a built-in policy in the terminal.

Moves are typed in renju notation (``h8`` on 15x15, ``b2`` the centre of
tic-tac-toe) or as ``row,col``; ``undo`` takes back
your last move and the reply, ``hint`` asks the alpha-beta search, ``quit``
(or end of input) stops. Bad input is explained in one line and asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import IllegalMoveError
from boardgame_envs.games.notation import parse_point, point_name
from boardgame_envs.policies.base import Forfeit



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
    """Run a game on a raw AEC env with ``render_mode="ansi"``.

    Returns the winner's seat (1 first, 2 second), 0 for a draw, -1 when the human quits.
    """
    moves: list[int] = []

    def replay() -> Any:
        env = env_fn()
        env.reset()
        for a in moves:
            env.step(a)
        return env

    env = replay()
    human = env.possible_agents[0 if human_first else 1]
    game = env.unwrapped.game
    n = game.size
    help_text = usage(n)
    colour = game.color_name((BLACK, WHITE)[env.possible_agents.index(human)])
    print_fn(f"You play {human} ({colour}). {help_text}.")
    while not env.unwrapped.game_state.terminal:
        if env.agent_selection != human:
            try:
                action = int(opponent.act(env))
            except Forfeit as exc:
                print_fn(f"{env.agent_selection} forfeits: {exc}")
                print_fn(f"game over: {human} wins")
                return env.possible_agents.index(human) + 1
            print_fn(f"{env.agent_selection} plays {point_name(action, n)}")
            env.step(action)
            moves.append(action)
            continue
        print_fn(env.render())
        try:
            text = input_fn(f"{human}> ").strip()
        except EOFError:
            print_fn("bye")
            return -1
        if text in ("quit", "exit", "q"):
            print_fn("bye")
            return -1
        if text == "undo":
            # Your last move and the reply to it; the opponent's opening move stays.
            if len(moves) < (2 if human_first else 3):
                print_fn("nothing to undo")
                continue
            del moves[-2:]
            env = replay()
            continue
        if text == "hint":
            from boardgame_envs.policies import AlphaBetaPolicy

            helper = hint_policy or AlphaBetaPolicy(seed=0)
            print_fn(f"hint: {point_name(int(helper.act(env)), n)}")
            continue
        try:
            action = parse_point(text, n)
            env.step(action)
        except (ValueError, IllegalMoveError) as exc:
            print_fn(f"{exc}. {help_text}.")
            continue
        moves.append(action)
    print_fn(env.render())
    winner = env.unwrapped.game_state.winner
    result = "draw" if winner == 0 else f"{env.possible_agents[winner - 1]} wins"
    print_fn(f"game over: {result}")
    return winner
