"""Text boards with coordinates for any game, and a terminal whose example move is legal where it is shown.

The games: tests/games/dots_and_boxes.py (its actions are the lines of a grid of
dots, lines and boxes, named by their grid cell: ``b1``), a tic-tac-toe whose
cells are named by numbers that split into no column and row, and the catalog's.
"""

from __future__ import annotations

from boardgame_envs import tictactoe_v0
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.text import coordinates, render_text
from boardgame_envs.games.catalog import game_info
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.ui.terminal import play_terminal, usage
from games.dots_and_boxes import DotsAndBoxesGame
from games.misere_game import NumberedAvoidThree as Numbered


class Scripted:
    """Plays the first legal action of a fixed list."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, source):
        mask = game_state_of(source).legal_mask()
        return next(a for a in self.actions if mask[a])


def _played(game, moves):
    state = game.new_state()
    for word in moves.split():
        state.play(game.parse_action(word))
    return state


def test_dots_and_boxes_has_coordinates_its_lines_free_and_its_dots_blank():
    game = DotsAndBoxesGame()
    assert coordinates(game) == (list("abcde"), list("12345"))  # the lines' names; dots and boxes skipped
    state = _played(game, "b1 a2 c2 b3 d1 e4")  # b3 closes the top left box for B, who draws d1 too
    assert render_text(state) == "\n".join([
        "   a b c d e",
        "1    X   O   1",
        "2  O O X   . 2",
        "3    O   .   3",
        "4  .   .  [X]4",
        "5    .   .   5",
        "   a b c d e",
        "X A (first)  O B  [ ] last move",
    ])  # fmt: skip


def test_names_that_give_no_coordinates_are_written_in_the_free_cells():
    assert coordinates(Numbered()) == ([], [])
    state = _played(Numbered(), "5 9")
    assert render_text(state) == "\n".join([
        " 1 2 3",
        " 4 X 6",
        " 7 8[O]",
        "X X (first)  O O  [ ] last move",
    ])  # fmt: skip

    class Long(Numbered):  # names of several characters: a field as wide as the longest, the brackets tight
        def action_name(self, action):
            return f"c{super().action_name(action)}"

    assert render_text(_played(Long(), "5 9")).splitlines()[:3] == [" c1 c2 c3", " c4 X  c6", " c7 c8[O]"]


def test_the_catalogs_boards_keep_their_text():
    text = render_text(_played(game_info("connect_four").game(), "d d g"))
    assert text.splitlines()[0] == " a b c d e f g" and text.splitlines()[-2] == " . . . X . .[X]"


def test_the_example_move_is_legal_in_the_position_shown():
    game = game_info("tictactoe").game()
    assert usage(game) == "type a point (b2 or row,col), or: undo, hint, quit"  # the start: the centre
    taken = _played(game, "b2")
    assert "(b2 " not in usage(taken) and taken.illegal_reason(game.parse_action(usage(taken).split("(")[1].split()[0])) is None
    dots = _played(DotsAndBoxesGame(), "b1 a2 c2 b3")
    example = usage(dots).split("(")[1].split(")")[0]
    assert dots.illegal_reason(dots.game.parse_action(example)) is None
    full = _played(Numbered(), "1 2 3 5 4 6 8 7")  # only 9 is free
    assert usage(full) == "type a move (9), or: undo, hint, quit"


def _run(env_fn, lines, opponent, human_first):
    feed, out = iter(lines), []

    def ask(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return play_terminal(env_fn, opponent, human_first, input_fn=ask, print_fn=out.append), out


def test_the_terminal_second_player_is_shown_a_free_example():
    env_fn = lambda: tictactoe_v0.raw_env(render_mode="ansi")  # noqa: E731
    winner, out = _run(env_fn, ["quit"], Scripted([4]), human_first=False)  # the opponent takes the centre
    assert out[0] == "You play player_2 (O)."
    help_line = next(line for line in out if line.startswith("Type a point"))
    assert "(b2 " not in help_line and "(a2 or row,col)" in help_line  # the free point nearest the centre


def test_the_terminal_plays_dots_and_boxes_by_the_lines_names():
    game = DotsAndBoxesGame()
    env_fn = lambda: GameAECEnv(game, ("player_0", "player_1"), "ansi")  # noqa: E731
    # A draws b1 and c2; B draws a2 and then b3, which closes the top left box: B moves again (d1).
    opponent = Scripted([game.parse_action(w) for w in ("a2", "b3", "d1", "d3", "b5", "a4", "c4", "e2", "e4", "d5")])
    winner, out = _run(env_fn, ["b1", "zz", "c2", "quit"], opponent, human_first=True)
    text = "\n".join(out)
    assert out[0].startswith("You play player_0 (A). type a move (") and "   a b c d e" in text
    assert "cannot read 'zz' as a line" in text and "player_1 plays b3" in text and "player_1 plays d1" in text
    assert winner == -1 and "Traceback" not in text
