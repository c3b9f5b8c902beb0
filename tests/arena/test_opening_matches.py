"""Matches under an opening rule: pairs swap the first player, the rule decides the colours, records say so."""

from __future__ import annotations

import functools

import pytest

from boardgame_envs.arena import match, play_game, play_record
from boardgame_envs.arena.matches import MatchResult, _count
from boardgame_envs.arena.records import from_sgf, to_sgf
from boardgame_envs.arena.referee import GameTask
from boardgame_envs.cli import main
from boardgame_envs.envs.factory import make_env
from boardgame_envs.games.mnk import MNKGame

SWAP2_9 = functools.partial(make_env, "gomoku", 9, 5, "freestyle", opening_rule="swap2")


class Scripted:
    """Swap2 by a script: the first player lays e5 e6 f4, the second takes ``choice``; then the lowest legal point."""

    def __init__(self, choice: str = "black") -> None:
        self.choice = choice

    def act(self, state) -> int:
        game = state.game
        if state.in_opening and state.phase == "stone" and state.to_move == 1 and state.base.num_moves < 3:
            return game.parse_action(("e5", "e6", "f4")[state.base.num_moves])
        if state.in_opening and state.phase == "swap2":
            return game.parse_action(self.choice)
        return int(state.legal_actions()[0])


def test_the_opening_rule_decides_the_colours_the_record_names():
    # The second player takes black: the record's black is the second seat's policy, and so is a win by black.
    record = play_record(SWAP2_9, Scripted(), Scripted("black"), ("one", "two"))
    assert record.opening_rule == "swap2" and record.opening_moves == 4  # three stones and the choice
    assert (record.black, record.white, record.black_seat) == ("two", "one", 2)
    assert record.notation().startswith("e5 e6 f4 black ")
    # Both then fill the board from a9 on; the base game, fed the stones alone, says which colour made five.
    base = MNKGame(9, 5, "freestyle").new_state()
    for stone in record.stones():
        base.play(stone)
    assert base.winner == record.winner == 1  # black: the second player
    assert record.reason == "second player (black) makes 5 in a row"
    assert from_sgf(to_sgf(record)) == record
    assert play_game(SWAP2_9, Scripted(), Scripted("black"))[0] == 2  # the winner's seat
    # Taking white keeps the colours: the second player plays the 4th stone at once.
    kept = play_record(SWAP2_9, Scripted(), Scripted("white"), ("one", "two"))
    assert (kept.black, kept.white, kept.black_seat) == ("one", "two", 1)


def test_a_match_counts_by_seat_and_by_the_colour_each_policy_held():
    task_first = GameTask(0, SWAP2_9, "a", "b", ("A", "B"), 0, True, None)
    task_second = GameTask(1, SWAP2_9, "a", "b", ("A", "B"), 0, False, None)
    result = MatchResult("A", "B", pairs=True, opening_rule="swap2")
    # Game 1: A first, B takes black and wins (as above); game 2: A second, takes black and wins.
    _count(result, task_first, play_record(SWAP2_9, Scripted(), Scripted("black"), ("A", "B")))
    _count(result, task_second, play_record(SWAP2_9, Scripted(), Scripted("black"), ("B", "A")))
    assert result.a_black == [False, True]
    assert result.by_seat == {"first": [0, 0, 1], "second": [1, 0, 0]}
    assert result.by_colour == {"black": [1, 0, 0], "white": [0, 0, 1]}
    assert result.pentanomial() == [0, 0, 1, 0, 0]
    text = str(result)
    assert "2 games, under swap2, pairs of seats" in text and "colour of A" in text
    assert "A held black in 1 of 2 games (as the first player 0 of 1, as the second 1 of 1); B in 1" in text


def test_a_match_under_swap2_end_to_end(tmp_path):
    result = match(SWAP2_9, "greedy", "random", games=4, progress=False, save_games=tmp_path)
    assert result.pairs and result.opening_rule == "swap2" and result.games == 4
    assert [r.black == "greedy" for r in result.records] == result.a_black
    assert sum(map(sum, result.by_colour.values())) == 4 and result.wins >= 3
    assert all(r.opening_rule == "swap2" and r.opening_moves >= 4 for r in result.records)
    saved = sorted(tmp_path.glob("*.sgf"))
    assert len(saved) == 4 and "OR[swap2]" in saved[0].read_text()
    with pytest.raises(ValueError, match="leave out openings"):
        match(SWAP2_9, "greedy", "random", games=4, openings="balanced9")
    with pytest.raises(ValueError, match="under swap2 plays pairs of seats: give an even number"):
        match(SWAP2_9, "greedy", "random", games=3)


def test_cli_arena_and_its_refusals(capsys):
    argv = ["arena", "gomoku", "--board-size", "9", "--rule", "freestyle", "random", "greedy", "--games", "2"]
    assert main([*argv, "--opening-rule", "swap2"]) == 0
    out = capsys.readouterr().out
    assert "under swap2" in out and "held black in" in out
    assert main([*argv, "--opening-rule", "swap2", "--openings", "balanced9"]) == 2
    assert "leave out --openings" in capsys.readouterr().err
    assert main([*argv, "--opening-rule", "soosorv8"]) == 2
    assert "soosorv8 is an opening rule of renju" in capsys.readouterr().err
    assert main(["play", "gomoku", "--rule", "freestyle", "--opening-rule", "swap2", "--gui"]) == 2
    assert "play under --opening-rule in the terminal" in capsys.readouterr().err
