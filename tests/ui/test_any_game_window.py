"""The play window for a game that draws itself (dots and boxes), and for every catalog game, headless
(SDL_VIDEODRIVER=dummy, set by tests/conftest.py) by posted pygame events."""

from __future__ import annotations

import pytest

from boardgame_envs.envs.factory import make_env
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.games.catalog import GAMES
from boardgame_envs.games.protocol import cell_of
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.render.canvas import CROSS_COLOURS, STONE_COLOURS
from games.dots_and_boxes import DotsAndBoxesGame

pygame = pytest.importorskip("pygame")
from boardgame_envs.ui.gui import PlayWindow  # noqa: E402  (after the skip: it needs pygame)


class Scripted:
    """Plays the first legal action of a fixed list."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, source):
        mask = game_state_of(source).legal_mask()
        return next(a for a in self.actions if mask[a])


def _click(gui, x, y):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    gui.tick()
    gui.wait()


def test_dots_and_boxes_in_the_window_draws_lines_and_takes_clicks_on_them(tmp_path):
    game = DotsAndBoxesGame()
    line = {name: game.parse_action(name) for name in ("b1", "a2", "c2", "b3", "d1", "e2")}
    gui = PlayWindow(lambda: GameAECEnv(game, ("player_0", "player_1")), Scripted([line["a2"], line["d1"], 11]))
    try:
        gui.tick()
        _click(gui, *gui.pixel_of(line["b1"]))  # A: b1; B answers a2
        _click(gui, *gui.pixel_of(line["c2"]))  # A: c2; B answers d1
        assert [game.action_name(a) for a in gui.moves] == ["b1", "a2", "c2", "d1"]
        _click(gui, *gui.pixel_of(line["b3"]))  # A closes the top left box: A moves again, B does not answer
        assert gui.moves[-1] == line["b3"] and gui.humans_turn and gui.state.scores == [1, 0]
        x, y = gui.pixel_of(line["b3"])
        _click(gui, x - 64, y)  # a click on the dot left of b3 (grid cell a3) means nothing
        assert gui.moves[-1] == line["b3"] and gui.humans_turn and gui.message is None
        frame = gui.frame()
        red = tuple(int(v) for v in CROSS_COLOURS[2])
        assert tuple(int(v) for v in frame[y, x]) == red  # the line b3, in A's ink
        assert tuple(int(v) for v in frame[y - 64, x]) != tuple(int(v) for v in CROSS_COLOURS[0])  # A's box, shaded
        assert not {tuple(int(v) for v in c) for c in frame.reshape(-1, 3)} & {
            tuple(int(v) for v in c) for c in STONE_COLOURS[1:4]}  # fmt: skip  (no stones, no holes)
        gui.draw()
        gui.window.save(str(tmp_path / "window.png"))
        assert (tmp_path / "window.png").stat().st_size > 1000
    finally:
        gui.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_catalog_game_plays_a_click_in_the_window(name):
    gui = PlayWindow(lambda: make_env(name, raw=True), Scripted(list(range(400))))
    try:
        gui.tick()
        action = next(int(a) for a in gui.state.legal_actions()[::-1] if cell_of(gui.state.game, a) is not None)
        after = gui.state.clone()
        after.play(action)
        reply = int(after.legal_actions()[0])  # what the scripted opponent plays: the first legal action
        _click(gui, *gui.pixel_of(action))
        assert gui.moves[:2] == [action, reply] and gui.frames_drawn >= 2
    finally:
        gui.close()


def test_connect_four_keeps_its_window_picture_and_a_hint_is_ringed():
    import hashlib

    from boardgame_envs import connect_four_v0

    gui = PlayWindow(connect_four_v0.raw_env, Scripted(list(range(7))))
    try:
        board = gui.frame()[:-48]  # the picture above the buttons' bar
        assert hashlib.sha256(board.tobytes()).hexdigest()[:16] == "86337146c281ccf0"  # as before the drawing hook
        gui.hint = 3
        changed = (gui.frame()[:-48] != board).any(-1).nonzero()
        assert len(changed[0]) and changed[0].max() < 64 and 3 * 64 <= changed[1].min() <= changed[1].max() < 4 * 64
    finally:
        gui.close()
