"""``arena.match()`` plays what the command line's ``arena`` plays: one function (``resolve_openings``) decides the
default openings for both, so a score from Python is of the same games as the CLI's and the ladder's starts; the
summary says from where the games started, so its interval is read as what was measured."""

from __future__ import annotations

import functools

import pytest

from boardgame_envs.arena import match, resolve_openings, round_robin
from boardgame_envs.cli import main
from boardgame_envs.envs.factory import make_env

CONNECT_FOUR = functools.partial(make_env, "connect_four")


@pytest.mark.parametrize(("game", "kwargs", "default"), [
    ("connect_four", {}, "connect_four_2ply"),
    ("renju", {}, "rif26"),
    ("gomoku", {"board_size": 15, "rule": "freestyle"}, "balanced15"),
    ("gomoku", {"board_size": 9, "rule": "freestyle"}, "balanced9"),
    ("tictactoe", {}, None),  # its ladder starts from the empty board too
    ("gomoku", {"board_size": 9, "rule": "freestyle", "opening_rule": "swap2"}, None),  # the rule lays the opening
])  # fmt: skip
def test_one_function_decides_the_default_openings(game, kwargs, default):
    g = make_env(game, **kwargs).unwrapped.game
    assert resolve_openings("default", g) == default
    assert resolve_openings(None, g) is None and resolve_openings("none", g) is None
    assert resolve_openings("balanced9", g) == "balanced9"  # anything else as given


def test_match_in_python_plays_what_the_cli_plays(capsys):
    assert main(["arena", "connect_four", "random", "greedy", "--games", "4", "--seed", "3"]) == 0
    cli = capsys.readouterr().out
    result = match(CONNECT_FOUR, "random", "greedy", games=4, seed=3, progress=False)  # no openings given
    assert result.pairs and result.openings == "connect_four_2ply"
    assert [r.opening_moves for r in result.records] == [2] * 4
    assert cli == str(result) + "\n"  # the same games, the same summary, the same interval


def test_the_network_of_the_report_is_measured_over_the_ladders_starts():
    result = match(CONNECT_FOUR, "pretrained:ppo-connect-four", "greedy", games=4, seed=0, progress=False)
    assert result.pairs and result.openings == "connect_four_2ply"
    starts = [tuple(r.moves[:2]) for r in result.records]
    assert starts[0] == starts[1] != starts[2] == starts[3]  # pairs over two of the 49 starts, not the empty board


def test_the_empty_board_is_asked_for_and_said():
    result = match(CONNECT_FOUR, "random", "greedy", games=3, seed=0, progress=False, openings=None)
    assert not result.pairs and result.openings == "" and all(r.opening_moves == 0 for r in result.records)
    assert "3 games, from the empty board, seats alternated" in str(result)
    assert str(match(CONNECT_FOUR, "random", "greedy", games=3, seed=0, progress=False, openings="none")) == str(result)


def test_an_odd_count_over_openings_is_refused_not_rounded():
    with pytest.raises(ValueError, match=r"over openings \(connect_four_2ply\) plays colour-swapped pairs: give an "
                                         r"even number of games, not 3"):  # fmt: skip
        match(CONNECT_FOUR, "random", "greedy", games=3, progress=False)


def test_the_round_robin_has_the_same_default():
    pairs: list = []
    round_robin(CONNECT_FOUR, {"random": "random", "greedy": "greedy"}, games=2, progress=False, pairs=pairs)
    assert pairs[0].openings == "connect_four_2ply" and pairs[0].pairs
