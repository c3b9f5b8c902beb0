"""baselines/studies/opening_decisions.py: each player's opening decisions, seats, colours and results, from records."""

from __future__ import annotations

from baseline_scripts import load_baseline

from boardgame_envs.arena.records import GameRecord, save
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame

script = load_baseline("studies/opening_decisions")
GAME = OpeningRuleGame(MNKGame(9, 5, "freestyle"), "swap2")


def swap2_record(actions: str, opening_moves: int, black: str, white: str) -> GameRecord:
    moves = [GAME.parse_action(a) for a in actions.split()]
    state = GAME.state_after(moves)
    assert state.terminal  # a finished game, as the arena saves them
    return GameRecord(board_size=9, rule="freestyle", black=black, white=white, moves=moves,
                      winner=state.base.winner, opening_rule="swap2", opening_moves=opening_moves)  # fmt: skip


# The first player ("one") lays e5 a1 e6. In the first game the second ("two") takes black at once; in the
# second it says more, lays a2 e7, and "one" takes white. Both times black makes e3-e7.
TAKES_BLACK = swap2_record("e5 a1 e6 black a2 e7 a3 e4 a4 e3", 4, black="two", white="one")
MORE_THEN_WHITE = swap2_record("e5 a1 e6 more a2 e7 white a3 e4 a4 e3", 7, black="two", white="one")


def test_each_decision_is_counted_for_the_player_who_took_it():
    players = script.tally([TAKES_BLACK, MORE_THEN_WHITE])
    one, two = players["one"], players["two"]
    assert (one.games, one.first, one.black) == (2, 2, 0) and (two.games, two.first, two.black) == (2, 0, 2)
    assert two.decisions == {("swap2", "black"): 1, ("swap2", "more"): 1}
    assert one.decisions == {("colour", "white"): 1}
    assert two.wins["black"] == 2 and one.losses["white"] == 2 and one.draws == two.draws == 0
    text = script.table(players)
    assert "| two | 2 | 0 | 2 | swap2: black 1, swap2: more 1 | 2 | 0 | 0 | 0 | 0 |" in text
    assert "| one | 2 | 2 | 0 | colour: white 1 | 0 | 0 | 0 | 2 | 0 |" in text


def test_the_command_reads_a_folder_of_records(tmp_path, capsys):
    for i, record in enumerate((TAKES_BLACK, MORE_THEN_WHITE)):
        save(record, tmp_path / f"game-{i:04d}.sgf")
    assert script.main([str(tmp_path)]) == 0
    assert "| two | 2 | 0 | 2 | swap2: black 1, swap2: more 1 |" in capsys.readouterr().out
    assert script.main([str(tmp_path / "none")]) == 2
    assert "no .sgf records in" in capsys.readouterr().err



def test_a_game_with_no_result_is_refused_not_counted_as_a_draw():
    """An unfinished record (no result) has no score: tallying it as a draw would give each player half a point."""
    from dataclasses import replace

    import pytest

    cut = replace(TAKES_BLACK, moves=TAKES_BLACK.moves[:6], winner=0, finished=False)
    with pytest.raises(ValueError, match="no result"):
        script.tally([TAKES_BLACK, cut])
