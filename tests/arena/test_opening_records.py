"""Records of games under an opening rule: every action a node, read back into the same game; replay shows it."""

from __future__ import annotations

import pytest

from boardgame_envs.arena.records import GameRecord, RecordError, from_sgf, load, piskvork_moves, save, to_sgf
from boardgame_envs.cli import main
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.ui.replay import frame, header, replay_terminal

SOOSORV = OpeningRuleGame(MNKGame(15, 5, "renju"), "soosorv8")
SWAP2 = OpeningRuleGame(MNKGame(9, 5, "freestyle"), "swap2")


def actions(game: OpeningRuleGame, text: str) -> list[int]:
    return [game.parse_action(word) for word in text.split()]


# Kansei (h8 h9 h10), kept; white's 4th at h15 and two offers declared; black swaps colours, so the first
# player (who laid the opening) now holds white; black (the second player) offers g10 and g11; white chooses
# g10 and plays g9.
KANSEI = GameRecord(
    15, "renju", "second", "first", actions(SOOSORV, "h8 h9 h10 keep h15 offers=2 swap g10 g11 g10 g9"), 0,
    opening_moves=10, reason="unfinished", opening_rule="soosorv8", finished=False,
)
# Swap2 on 9x9: the first player lays e5 e6 f4, the second lays two more (f6 white, d4 black), the first
# takes white and plays g7.
SWAP2_MORE = GameRecord(
    9, "freestyle", "second", "first", actions(SWAP2, "e5 e6 f4 more f6 d4 white g7"), 0, opening_moves=7,
    opening_rule="swap2", finished=False,
)


def test_every_action_is_a_node_and_viewers_see_the_stones():
    text = to_sgf(KANSEI)
    assert "OR[soosorv8]" in text and "ON[soosorv8: h8 h9 h10 keep h15 offers=2 swap g10 g11 g10]" in text
    assert "PB[second]PW[first]" in text
    # h8 = column h, 8th row from the bottom = row h from the top; h15 is the top edge (row a).
    nodes = ";B[hh];W[hg];B[hf];OD[keep];W[ha];OD[offers=2];OD[swap];OF[gf]MA[gf];OF[ge]MA[gf][ge];B[gf];W[gg]"
    assert nodes in text


@pytest.mark.parametrize("record", [KANSEI, SWAP2_MORE])
def test_a_record_reads_back_into_the_same_game(record, tmp_path):
    back = from_sgf(to_sgf(record))
    assert back == record
    save(record, tmp_path / "g.sgf")
    assert load(tmp_path / "g.sgf") == record
    game = record.game_object()
    state = game.state_after(record.moves)
    assert (back.state().board == state.board).all() and back.state().black_player == state.black_player


def test_seats_stones_and_move_lists_for_engines():
    assert KANSEI.black_seat == 2  # black's swap after the declaration gave black to the second player
    assert KANSEI.stones() == actions(SOOSORV, "h8 h9 h10 h15 g10 g9")
    assert KANSEI.opening_stones() == actions(SOOSORV, "h8 h9 h10 h15 g10")
    assert piskvork_moves(KANSEI.opening_stones(), 15) == "7,7 7,6 7,5 7,0 6,5"
    assert piskvork_moves(KANSEI.opening_stones(), 15, relative=True) == "0,0, 0,-1, 0,-2, 0,-7, -1,-2"
    # Swap2 with "more" and the first player taking white: black is the second player's.
    assert SWAP2_MORE.black_seat == 2 and SWAP2_MORE.opening_stones() == actions(SWAP2, "e5 e6 f4 f6 d4")
    assert KANSEI.notation() == "h8 h9 h10 keep h15 offers=2 swap g10 g11 g10 g9"
    with pytest.raises(ValueError, match="not a point"):
        piskvork_moves([81], 9)


def test_records_from_before_opening_rules_read_as_before():
    record = from_sgf("(;GM[4]SZ[15]RU[renju]ON[Kagetsu: h8 h9 i9]RE[B+R];B[hh];W[hg];B[ig])")
    assert record.opening_rule == "" and record.black_seat == 1 and record.opening_moves == 3
    assert record.stones() == record.moves == [112, 97, 98]


HEAD = "(;GM[4]SZ[15]RU[renju]OR[soosorv8]"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[4]SZ[15]RU[renju]OR[swap2];B[hh])", "swap2 is an opening rule of freestyle and standard"),
        ("(;GM[4]SZ[15]RU[renju]OR[bogus];B[hh])", "unknown opening rule 'bogus'"),
        (HEAD + ";B[hh];W[jj];B[hf])", "outside the central 3x3"),  # j6 is two points from h8
        (HEAD + ";B[hh];B[hg])", "lays a B stone, but the next stone is W's"),
        (HEAD + ";B[hh];W[hg];B[hf];OD[offers=3])", "is not a choice now"),  # the second player swaps or keeps
        (HEAD + ";B[hh];W[hg];B[hf];OD[more])", r"OD\[more\] in node 5 is not a decision of soosorv8"),
        (HEAD + ";B[hh];OF[hg])", "outside an offer phase"),
        (HEAD + ";B[hh];W[hg];B[hf];OD[keep];W[ha];OD[offers=2];OD[keep];B[gf])", "where a fifth move is offered"),
        (HEAD + ";B[hh]OD[keep])", "one action a node"),
        (HEAD + "AB[hh];W[hg])", "setup stones"),
        ("(;GM[4]SZ[15];B[hh];OD[swap])", r"names no opening rule \(OR"),
    ],
)
def test_bad_opening_rule_records(text, message):
    with pytest.raises(RecordError, match=message):
        from_sgf(text)


def test_symmetric_offers_are_refused_on_reading():
    # After h8 h9 h10 and white's h15 (all on the h column) the position is mirror-symmetric: g10 and i10 are twins.
    text = HEAD + ";B[hh];W[hg];B[hf];OD[keep];W[ha];OD[offers=2];OD[keep];OF[gf];OF[if])"
    with pytest.raises(RecordError, match="symmetric to the offered g10"):
        from_sgf(text)


def test_replay_names_who_did_what():
    assert header(KANSEI).startswith("black second - white first: 15x15 renju, under soosorv8 (10 opening actions;"
                                     " first player first)")
    assert "move 4/11: second player (second): keep" in frame(KANSEI, 4)
    assert "move 7/11: first player (first): swap" in frame(KANSEI, 7)
    shown = frame(KANSEI, 9)
    assert "move 9/11: black (second) offers g11" in shown
    assert "11  . . . . . . + . ." in shown and "10  . . . . . . + X ." in shown  # the offers as '+'
    assert "move 10/11: white (first) chooses the fifth move g10" in frame(KANSEI, 10)
    assert "move 1/11: black h8 (opening, laid by first)" in frame(KANSEI, 1)
    assert "move 11/11: white g9 (first)" in frame(KANSEI, 11)
    shown = []
    keys = iter(["", "q"])
    replay_terminal(KANSEI, input_fn=lambda _: next(keys), print_fn=shown.append)
    assert any("move 10/11" in line for line in shown) and any("move 11/11" in line for line in shown)


def test_cli_replay_of_an_opening_rule_record(tmp_path, capsys):
    save(KANSEI, tmp_path / "g.sgf")
    assert main(["replay", str(tmp_path / "g.sgf"), "--moves", "8"]) == 0
    out = capsys.readouterr().out
    assert "under soosorv8" in out and "move 8/11: black (second) offers g10" in out
    assert main(["replay", str(tmp_path / "g.sgf"), "--gif", str(tmp_path / "g.gif")]) == 0
    assert "7 frames" in capsys.readouterr().out  # the empty board and the six stones
