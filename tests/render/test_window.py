"""render_mode="human": a pygame window (in memory here: SDL_VIDEODRIVER=dummy, see conftest.py)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from boardgame_envs import gomoku_v0, render, tictactoe_v0

pygame = pytest.importorskip("pygame")


def _shown(env) -> np.ndarray:
    surface = env.unwrapped._window.surface
    return pygame.surfarray.array3d(surface).transpose(1, 0, 2)


def test_window_follows_every_step_and_closes(tmp_path):
    env = gomoku_v0.env(board_size=9, rule="renju", render_mode="human")
    env.reset()
    assert env.unwrapped._window.is_open  # the empty board, from reset
    env.step(40)
    env.step(41)
    assert env.render() is None
    assert (_shown(env) == render.rgb(env)).all()
    assert pygame.display.get_caption()[0] == "Renju 9x9"
    env.unwrapped._window.save(str(tmp_path / "shot.png"))
    assert (tmp_path / "shot.png").stat().st_size > 1000
    env.close()
    assert env.unwrapped._window is None and not pygame.display.get_init()


def test_render_options_size_the_window():
    env = tictactoe_v0.raw_env(render_mode="human")
    env.render_options.update(cell=120, status=False)
    env.reset()
    assert env._window.surface.get_size() == (2 * 19 + 360, 2 * 19 + 360)
    env.close()


def test_single_agent_view_shows_the_opponents_moves_too():
    env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="random", render_mode="human")
    env.reset(seed=0)
    env.step(4)
    aec = env.unwrapped.aec
    assert len(aec.moves) == 2 and (_shown(aec) == render.rgb(aec)).all()
    env.close()
    assert aec._window is None
