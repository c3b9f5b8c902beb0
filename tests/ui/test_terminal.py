"""Terminal play with scripted input: re-prompts, undo, hint, quit, a full game."""

from __future__ import annotations

import functools

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.ui.terminal import play_terminal
from boardgame_envs.policies import PerfectPolicy
from boardgame_envs.policies.base import game_state_of


def _run(env_fn, opponent, human_first, lines):
    feed = iter(lines)
    out: list[str] = []

    def ask(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    winner = play_terminal(env_fn, opponent, human_first, input_fn=ask, print_fn=out.append)
    return winner, "\n".join(out)


def test_bad_input_reprompts_and_a_full_game_ends():
    env_fn = functools.partial(tictactoe_v0.raw_env, render_mode="ansi")
    # b2 first; then nonsense, an occupied point, off-board; then the rest until the end.
    lines = ["b2", "hello", "b2", "z9", "9,9"] + [f"{r},{c}" for r in range(3) for c in range(3)]
    winner, out = _run(env_fn, PerfectPolicy(seed=0), True, lines)
    assert "cannot read 'hello'" in out and "b2 is occupied" in out and "off the board" in out
    assert "game over" in out and winner in (0, 2)  # the perfect player never loses
    assert "Traceback" not in out


def test_undo_hint_quit():
    env_fn = functools.partial(gomoku_v0.raw_env, 9, 5, "renju", render_mode="ansi")
    winner, out = _run(env_fn, _Lowest(), True, ["e5", "undo", "undo", "hint", "quit"])
    assert out.count("nothing to undo") == 1 and "hint: " in out and winner == -1


def test_end_of_input_quits_cleanly():
    env_fn = functools.partial(tictactoe_v0.raw_env, render_mode="ansi")
    winner, out = _run(env_fn, PerfectPolicy(seed=0), False, [])
    assert winner == -1 and out.endswith("bye")


class _Lowest:
    """Plays the lowest legal point: a predictable opponent for scripts."""

    def act(self, env):
        return int(game_state_of(env).legal_actions()[0])


def test_an_engine_forfeit_ends_the_game_for_the_human():
    from boardgame_envs.policies.base import Forfeit

    class Crashing:
        name = "crashing"

        def act(self, env):
            raise Forfeit("the engine crashed")

    env_fn = functools.partial(gomoku_v0.raw_env, 9, 5, "freestyle", render_mode="ansi")
    winner, out = _run(env_fn, Crashing(), True, ["e5"])
    assert winner == 1 and "white_0 forfeits: the engine crashed" in out and "game over: black_0 wins" in out
