"""The play window, driven headless (SDL_VIDEODRIVER=dummy) by posted pygame events."""

from __future__ import annotations

import functools

import pytest

from ascii_boards import parse
from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.games.notation import parse_point
from boardgame_envs.policies.base import game_state_of

pygame = pytest.importorskip("pygame")
from boardgame_envs.ui.gui import PlayWindow  # noqa: E402  (after the skip: it needs pygame)


class Scripted:
    """Plays the first legal action of a fixed list."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, env):
        mask = game_state_of(env).legal_mask()
        return next(a for a in self.actions if mask[a])


def _click(gui, x, y):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    gui.tick()


def _key(gui, char):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(char), unicode=char, mod=0))
    gui.tick()


@pytest.fixture
def ttt():
    gui = PlayWindow(tictactoe_v0.raw_env, Scripted([0, 1, 2, 3, 5, 6, 7, 8]))
    yield gui
    gui.close()


def test_clicks_play_the_opponent_answers_and_the_result_shows(ttt, tmp_path):
    gui = ttt
    gui.tick()
    for cell in (4, 3, 5):  # X: centre, then the middle row...
        _click(gui, *gui.pixel_of(cell))
        gui.wait()
    assert gui.moves[:2] == [4, 0] and gui.env.unwrapped.game_state.board[3] == 1
    # ...the scripted O took 0 and 1 (3 was ours); X finishes the middle row:
    assert gui.state.terminal and gui.state.winner == 1 and gui.moves == [4, 0, 3, 1, 5]
    assert gui.status_note() == "X wins · you win!"
    gui.window.save(str(tmp_path / "window.png"))
    assert (tmp_path / "window.png").stat().st_size > 2000
    _click(gui, *gui.pixel_of(8))  # the game is over: a click does nothing
    assert gui.moves == [4, 0, 3, 1, 5]


def test_occupied_cell_undo_and_new_game(ttt):
    gui = ttt
    _click(gui, *gui.pixel_of(4))
    gui.wait()
    _click(gui, *gui.pixel_of(0))  # the opponent's O is there
    assert gui.message == "a3 is occupied (by O)" and gui.moves == [4, 0]
    _click(gui, *gui.button_at("Undo"))
    assert gui.moves == [] and gui.humans_turn
    _click(gui, *gui.pixel_of(8))
    gui.wait()
    _key(gui, "n")
    assert gui.moves == [] and not gui.state.num_moves


def test_hover_shows_a_ghost_only_on_legal_points(ttt):
    gui = ttt
    gui.tick()
    plain = gui.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=gui.pixel_of(2), rel=(0, 0), buttons=(0, 0, 0)))
    gui.tick()
    assert gui.hover == 2 and (gui.frame() != plain).any()


def test_renju_forbidden_point_refuses_the_click_and_a_hint_rings_a_point(tmp_path):
    # Black (the human) to move after these eight stones: e5 is a double-three.
    drawing = parse("""
        O . . . . . . . O
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O . . . . . . . O
    """).ravel()
    blacks = [int(a) for a in (drawing == 1).nonzero()[0]]
    whites = [int(a) for a in (drawing == 2).nonzero()[0]]
    gui = PlayWindow(functools.partial(gomoku_v0.raw_env, 9, 5, "renju"), Scripted(whites + list(range(81))),
                     hint_policy=Scripted([parse_point("g7", 9)]))  # fmt: skip
    try:
        for black in blacks:
            _click(gui, *gui.pixel_of(black))
            gui.wait()
        assert gui.moves == [a for pair in zip(blacks, whites) for a in pair]
        e5 = parse_point("e5", 9)
        _click(gui, *gui.pixel_of(e5))
        assert gui.message == "e5 is forbidden for black: double-three" and len(gui.moves) == 8
        _key(gui, "h")
        gui.wait()
        assert gui.hint == parse_point("g7", 9) and gui.message == "hint: g7"
        gui.draw()
        gui.window.save(str(tmp_path / "renju.png"))
    finally:
        gui.close()


def test_cli_gui_flag_is_accepted(monkeypatch):
    from boardgame_envs import cli

    seen = {}
    monkeypatch.setattr("boardgame_envs.ui.gui.play_window", lambda env_fn, opponent, human_first: seen.update(first=human_first))
    assert cli.main(["play", "tictactoe", "--gui", "--opponent", "random", "--color", "second"]) == 0
    assert seen == {"first": False}


def test_run_ends_when_the_window_is_closed(ttt):
    _click(ttt, *ttt.pixel_of(4))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert ttt.run() == 0 and not ttt.window.is_open  # unfinished: no winner


def test_an_opponent_forfeit_ends_the_game():
    from boardgame_envs.policies.base import Forfeit

    class Crashing:
        def act(self, env):
            raise Forfeit("the engine crashed")

    gui = PlayWindow(tictactoe_v0.raw_env, Crashing())
    try:
        gui.tick()
        _click(gui, *gui.pixel_of(4))
        gui.wait()
        assert gui.over and gui.status_note() == "player_2 forfeits: the engine crashed · you win!"
        _click(gui, *gui.pixel_of(0))  # the game is over: a click does nothing
        assert gui.moves == [4]
        _key(gui, "u")  # undo: the game goes on, and the opponent is asked again
        assert gui.moves == [] and not gui.over
    finally:
        gui.close()


def test_every_flipped_frame_shows_the_buttons_and_an_idle_window_draws_nothing(ttt, monkeypatch):
    from boardgame_envs.ui.gui import BUTTON_FACE, BUTTON_OFF

    gui = ttt
    flipped = []
    real_flip = pygame.display.flip

    def flip():
        surface = pygame.display.get_surface()
        # The left edge of each button (its text is in the middle): the button's face, never the bare bar.
        faces = [tuple(surface.get_at((box.left + 3, box.centery)))[:3] for _, _, box in
                 gui._buttons(surface.get_width(), surface.get_height() - 48)]  # fmt: skip
        flipped.append(faces)
        real_flip()

    monkeypatch.setattr(pygame.display, "flip", flip)
    gui.tick()
    for cell in (4, 3):
        _click(gui, *gui.pixel_of(cell))
        gui.wait()
    _key(gui, "u")
    assert flipped and all(face in (BUTTON_FACE, BUTTON_OFF) for faces in flipped for face in faces)
    drawn = gui.frames_drawn
    for _ in range(20):  # idle: no event, nothing thinking
        gui.tick()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=gui.pixel_of(4), rel=(0, 0), buttons=(0, 0, 0)))
    gui.tick()  # the mouse over an occupied point: no ghost, so the picture is the same
    assert gui.frames_drawn == drawn and len(flipped) == drawn


def test_the_run_loop_sleeps_in_event_wait_when_idle(ttt, monkeypatch):
    gui = ttt
    waits = []
    real_wait = pygame.event.wait

    def wait(timeout=0):
        waits.append(timeout)
        if len(waits) == 5:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return real_wait(1)

    monkeypatch.setattr(pygame.event, "wait", wait)
    gui.run()
    assert len(waits) >= 5 and gui.frames_drawn == 1  # one drawing for the first picture, none while idle


def test_connect_four_in_the_window_clicks_a_column_anywhere(tmp_path):
    """A game without the m,n,k pictures is drawn as cells; a click anywhere in a column drops there."""
    from boardgame_envs import connect_four_v0

    gui = PlayWindow(connect_four_v0.raw_env, Scripted([0, 1, 2, 3, 4, 5, 6]))
    try:
        gui.tick()
        x, _ = gui.pixel_of(3)
        for _ in range(4):  # red: d, d, d, d (the column's bottom cell, then higher ones: any row of it will do)
            if gui.state.terminal:
                break
            _click(gui, x, gui._cells.height - 5)
            gui.wait()
        assert gui.state.terminal and gui.state.winner == 1
        assert gui.status_note() == "red wins · you win!"
        gui.window.save(str(tmp_path / "c4.png"))
        assert (tmp_path / "c4.png").stat().st_size > 2000
        _click(gui, *gui.button_at("Undo"))
        assert len(gui.moves) == 6 and gui.humans_turn
        _click(gui, x, 3)  # the top row of column d
        assert gui.moves[-1] == 3
    finally:
        gui.close()


@pytest.mark.parametrize(("platform", "env", "refused"), [
    ("linux", {}, True),
    ("linux", {"DISPLAY": ":0"}, False),
    ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, False),
    ("linux", {"SDL_VIDEODRIVER": "dummy"}, False),  # chosen by hand: trusted (the tests' own driver)
    ("freebsd14", {}, True),
    ("darwin", {}, False),
    ("win32", {}, False),
])  # fmt: skip
def test_a_window_is_refused_only_where_none_could_show(platform, env, refused, monkeypatch):
    from boardgame_envs.ui.gui import check_display

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.platform", platform)
    if refused:
        with pytest.raises(ValueError, match="no display"):
            check_display()
    else:
        check_display()
