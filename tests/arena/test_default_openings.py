"""Connect four's arena plays the ladder's starts by default: the 49 starts of two moves, in colour-swapped pairs."""

from __future__ import annotations

import functools
import itertools

import pytest

from boardgame_envs.arena import match
from boardgame_envs.cli import main
from boardgame_envs.envs.factory import make_env
from boardgame_envs.games import opening_positions
from boardgame_envs.games.opening_positions import OpeningError
from boardgame_envs.ladder.games import game_seed
from boardgame_envs.ladder.ladders import ladder_for

CONNECT_FOUR = functools.partial(make_env, "connect_four")


def _game():
    return CONNECT_FOUR().unwrapped.game


def test_the_default_set_is_every_start_the_ladder_draws():
    chosen = opening_positions.load(opening_positions.match_default(_game()))
    starts = [o.moves for o in chosen]
    assert sorted(starts) == list(itertools.product(range(7), repeat=2))  # all 49, each once
    ladder = ladder_for("connect_four")
    drawn = {ladder.opening(game_seed("random", "greedy", 2 * i)) for i in range(1500)}
    assert drawn == set(starts)
    for block in range(7):  # any block of 7 uses each column once for each player
        seven = starts[7 * block : 7 * block + 7]
        assert sorted(a for a, _ in seven) == list(range(7)) and sorted(b for _, b in seven) == list(range(7))
    assert chosen[3].notation == "d c" and chosen[3].game == "connect_four"


def test_a_match_over_the_default_set_varies_the_start_and_swaps_colours():
    name = opening_positions.match_default(_game())
    r = match(CONNECT_FOUR, "random", "greedy", games=6, seed=1, progress=False, openings=name)
    assert r.pairs and r.openings == "connect_four_2ply"
    starts = [tuple(rec.moves[: rec.opening_moves]) for rec in r.records]
    assert [rec.opening_moves for rec in r.records] == [2] * 6
    assert starts[0] == starts[1] and starts[2] == starts[3] and starts[4] == starts[5]
    assert len({starts[0], starts[2], starts[4]}) == 3
    assert [rec.black for rec in r.records] == ["random", "greedy"] * 3  # A black, then white, in every pair


def test_the_cli_default_for_connect_four_is_the_set_and_none_is_the_empty_board(capsys):
    assert main(["arena", "connect_four", "random", "greedy", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "4 games, colour-swapped pairs over connect_four_2ply" in out and "interval from 2 colour pairs" in out
    assert main(["arena", "connect_four", "random", "greedy", "--games", "2", "--openings", "none"]) == 0
    assert "2 games, from the empty board, seats alternated" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "said"), [
    (["--openings", "rif26"], "is for a 15x15 board, not for connect_four"),
    (["--games", "3"], "give an even number of games, not 3"),
])  # fmt: skip
def test_the_cli_refuses_a_set_of_another_game_or_an_odd_count_in_one_line(capsys, argv, said):
    assert main(["arena", "connect_four", "random", "greedy", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_a_file_for_connect_four_names_its_game(tmp_path, capsys):
    mine = tmp_path / "mine.txt"
    mine.write_text("# game: connect_four\ncentre: d d\nc e\n")
    sets = opening_positions.for_game(str(mine), _game())
    assert [(o.name, o.moves) for o in sets] == [("centre", (3, 3)), ("c e", (2, 4))]
    assert main(["arena", "connect_four", "random", "greedy", "--games", "2", "--openings", str(mine)]) == 0
    out = capsys.readouterr().out
    assert f"colour-swapped pairs over {mine}" in out and "1 distinct colour pair of 1, which cannot bound" in out
    with pytest.raises(OpeningError, match="holds openings for connect_four, not for a 15x15 board"):
        opening_positions.resolve(str(mine), 15)
    for text, said in [("# game: chess\nd d\n", "unknown game 'chess'"), ("# game: connect_four\na a a a a a a\n",
                       "line 2: opening move 7: column a is full"), ("# game: connect_four\nd z\n", "cannot read 'z'")]:
        mine.write_text(text)
        with pytest.raises(OpeningError, match=said):
            opening_positions.for_game(str(mine), _game())


def test_the_8x8_ladders_board_gets_a_balanced_set_and_the_warm_starts_default_stays_as_it_was():
    gomoku8 = make_env("gomoku", board_size=8, rule="freestyle").unwrapped.game
    assert opening_positions.match_default(gomoku8) == "balanced8"
    # AlphaZero's warm start reads default_for: the 8x8 recipe and connect four's keep their measured start
    assert opening_positions.default_for(gomoku8) is None and opening_positions.default_for(_game()) is None
    renju8 = make_env("gomoku", board_size=8, rule="renju").unwrapped.game
    assert opening_positions.match_default(renju8) is None  # no ladder there
    chosen = opening_positions.load("balanced8")
    assert len(chosen) == 8 and len({o.moves for o in chosen}) == 8
    for opening in chosen:  # the ladder's shape: black on the centre (e4 here), white beside it, black within 2
        assert opening.board_size == 8 and opening.moves[0] == 4 * 8 + 4
        assert all(max(abs(a // 8 - 4), abs(a % 8 - 4)) <= 2 for a in opening.moves)
        assert max(abs(opening.moves[1] // 8 - 4), abs(opening.moves[1] % 8 - 4)) == 1


def test_the_cli_on_8x8_freestyle_plays_the_balanced_set(capsys):
    argv = ["arena", "gomoku", "--board-size", "8", "--rule", "freestyle", "random", "greedy", "--games", "2"]
    assert main(argv) == 0
    assert "2 games, colour-swapped pairs over balanced8" in capsys.readouterr().out
