"""An action that is no cell (a pass) in every front: the text board, the terminal and the window.

The game is tests/games/pass_game.py (tic-tac-toe where a player may pass; two
passes running draw): its cells are named ``a1``..``c3`` as on a go board and
action 9 is ``"pass"``.
"""

from __future__ import annotations

import functools

import pytest

from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.text import coordinates, render_text
from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.ui.terminal import play_terminal, usage
from games.keep_apart import KeepApartGame
from games.misere_game import AvoidThreeGame, NumberedAvoidThree as Numbered
from games.pass_game import PASS, PassGame


class Scripted:
    """Plays the first legal action of a fixed list."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, source):
        mask = game_state_of(source).legal_mask()
        return next(a for a in self.actions if mask[a])


def _env_fn(render_mode="ansi"):
    return GameAECEnv(PassGame(), ("player_0", "player_1"), render_mode)


def _played(game, moves):
    state = game.new_state()
    for word in moves.split():
        state.play(game.parse_action(word))
    return state


def test_the_text_board_has_coordinates_and_names_a_pass():
    state = _played(PassGame(), "b2 pass a1")
    assert render_text(state) == "\n".join([
        "   a b c",
        "3  . . . 3",
        "2  . X . 2",
        "1 [X]. . 1",
        "   a b c",
        "X black (first)  O white  [ ] last move",
    ])  # fmt: skip
    state.play(PASS)  # white passes again: the stone at a1 is no longer the last move
    text = render_text(state)
    assert "[" not in "".join(text.splitlines()[:5]) and text.endswith("last move: pass")
    state.play(PASS)  # black passes too: two passes running end the game
    assert render_text(state).endswith("last move: pass\nresult: a draw after 5 moves")


def test_coordinates_come_from_the_cells_names_or_not_at_all():
    assert coordinates(PassGame()) == (["a", "b", "c"], ["3", "2", "1"])
    assert coordinates(AvoidThreeGame()) == (["a", "b", "c"], ["1", "2", "3"])  # its row 1 is the top
    assert coordinates(game_info("connect_four").game()) == (list("abcdefg"), [])  # a column's cells: one action

    assert coordinates(Numbered()) == ([], [])


def test_connect_four_text_is_unchanged():
    game = game_info("connect_four").game()
    text = render_text(_played(game, "d d c"))
    assert text.splitlines()[0] == " a b c d e f g" and text.splitlines()[-2] == " . .[X]X . . ."
    assert "last move:" not in text


def _run(lines, opponent, human_first=True):
    feed, out = iter(lines), []

    def ask(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return play_terminal(_env_fn, opponent, human_first, input_fn=ask, print_fn=out.append), "\n".join(out)


def test_the_terminal_reads_pass_by_name_and_says_the_opponent_passed():
    assert usage(PassGame()) == "type a move (b2) or pass, or: undo, hint, quit"  # the centre, then the pass
    # Black: b2; white passes; black passes; white passes: two passes running, a draw.
    winner, out = _run(["b2", "pas", "pass"], Scripted([PASS]))
    assert "cannot read 'pas' as a move" in out and "player_1 plays pass" in out
    assert "last move: pass" in out and "game over: draw" in out and winner == 0
    assert "Traceback" not in out


def test_the_terminal_undoes_a_pass():
    winner, out = _run(["pass", "undo", "a1", "quit"], Scripted([0, 1, 2, 3, 4, 5, 6, 7, 8]))
    assert winner == -1 and "result:" not in out


@pytest.fixture
def window(monkeypatch):
    pytest.importorskip("pygame")  # the window's tests only: the text and terminal ones run without it
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from boardgame_envs.ui.gui import PlayWindow

    gui = PlayWindow(functools.partial(_env_fn, None), Scripted([PASS]))
    yield gui
    gui.close()


def _click(gui, x, y):
    pg = gui.pygame
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    gui.tick()


def _key(gui, char):
    pg = gui.pygame
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=ord(char), unicode=char, mod=0))
    gui.tick()


def test_the_window_has_a_pass_button_and_key(window, tmp_path):
    gui = window
    gui.tick()
    assert [label for label, _ in gui.buttons] == ["Undo", "Hint", "New game", "pass"]
    _click(gui, *gui.pixel_of(4))  # black: b2; the scripted white passes
    gui.wait()
    assert gui.moves == [4, PASS] and gui.status_note() == "white: pass"
    # The picture shows the pass: a bar in the last move's colour along the board's bottom edge.
    frame = gui.frame()[: -48]
    assert (frame[-2:] == frame[-1, 0]).all() and tuple(frame[-1, 0]) == (214, 38, 38)
    _click(gui, *gui.button_at("pass"))  # black passes too: the game ends drawn
    gui.wait()
    assert gui.moves == [4, PASS, PASS] and gui.state.terminal and gui.state.winner == 0
    _key(gui, "u")  # undo takes back black's pass (the game had ended on it)
    assert gui.moves == [4, PASS] and not gui.state.terminal
    _key(gui, "p")  # the pass's key
    gui.wait()
    assert gui.moves == [4, PASS, PASS] and gui.state.terminal
    gui.window.save(str(tmp_path / "window.png"))
    assert (tmp_path / "window.png").stat().st_size > 1000


def test_an_other_action_has_no_place_on_the_board(window):
    with pytest.raises(ValueError, match="pass is no cell of the board"):
        window.pixel_of(PASS)


def test_action_buttons_get_free_keys():
    from boardgame_envs.ui.gui import action_buttons  # pygame itself is imported only when a window opens

    class Many(PassGame):  # a pass and four more actions that are no cell, two of which begin with reserved keys
        num_actions = 9 + 5

        def cell_of_action(self, action):
            return None if action >= 9 else action

        def action_name(self, action):
            names = ["pass", "hold", "undo-all", "pause", "quit"]
            return names[action - 9] if action >= 9 else super().action_name(action)

    assert action_buttons(Many()) == [("pass", "p"), ("hold", "1"), ("undo-all", "2"), ("pause", "3"), ("quit", "4")]
    assert action_buttons(game_info("connect_four").game()) == action_buttons(game_info("tictactoe").game()) == []


def test_a_game_with_a_size_parameter_is_prompted_by_its_own_names_and_its_pass():
    """Keep apart has a parameter named size, as the m,n,k games have an attribute: its prompt is still its own
    (no row,col, which it does not read), with its pass; a forced pass is the prompt's example."""
    game = KeepApartGame(4)
    assert game.size == 4 and usage(game) == "type a move (a2) or pass, or: undo, hint, quit"
    assert usage(_played(game, "b1 d4 a2 a4 a1 d1")) == "type a move (pass), or: undo, hint, quit"  # black must pass
    env_fn = lambda: GameAECEnv(KeepApartGame(4), ("player_0", "player_1"), "ansi")  # noqa: E731
    white = Scripted([game.parse_action(w) for w in ("d4", "a4", "d1", "d2", "b4", "pass")])
    feed, out = iter(["b1", "a2", "a1", "c1", "1,2", "pass", "pass", "pass"]), []
    winner = play_terminal(env_fn, white, True, input_fn=lambda prompt: next(feed), print_fn=out.append)
    text = "\n".join(out)
    assert out[0] == "You play player_0 (black). type a move (a2) or pass, or: undo, hint, quit."
    assert "c1 is beside a stone of white. type a move (pass), or: undo, hint, quit." in text
    assert "cannot read '1,2' as a move: write a cell a1..d4, or pass" in text
    assert "player_1 plays d2" in text and "player_1 plays pass" in text and "last move: pass" in text
    assert winner == 2 and out[-1] == "game over: player_1 wins" and "row,col" not in text


def test_the_window_plays_a_forced_pass_of_a_game_with_a_size_parameter(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from boardgame_envs.ui.gui import PlayWindow

    game = KeepApartGame(4)
    white = Scripted([game.parse_action(w) for w in ("d4", "a4", "d1", "d2", "b4", "pass")])
    gui = PlayWindow(lambda: GameAECEnv(KeepApartGame(4), ("player_0", "player_1")), white)
    try:
        gui.tick()
        assert [label for label, _ in gui.buttons] == ["Undo", "Hint", "New game", "pass"]
        for name in ("b1", "a2", "a1"):
            _click(gui, *gui.pixel_of(game.parse_action(name)))
            gui.wait()
        assert [game.action_name(a) for a in gui.moves] == ["b1", "d4", "a2", "a4", "a1", "d1"]
        _click(gui, *gui.pixel_of(game.parse_action("c1")))  # beside white's d1: refused, said on the status line
        assert len(gui.moves) == 6 and "c1 is beside a stone of white" in gui.message
        for _ in range(3):  # black's forced passes; white answers d2, b4, and then passes too: the game is over
            _key(gui, "p")
            gui.wait()
        assert [game.action_name(a) for a in gui.moves[6:]] == ["pass", "d2", "pass", "b4", "pass", "pass"]
        assert gui.state.terminal and gui.status_note() == "white wins · you lose"
    finally:
        gui.close()
