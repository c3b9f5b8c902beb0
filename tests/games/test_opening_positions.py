"""Opening positions (games/opening_positions.py): the 26 RIF openings checked against their geometry; the file format; bad names."""

from __future__ import annotations

import pytest

from baseline_scripts import load_baseline
from boardgame_envs import gomoku_v0
from boardgame_envs.games import opening_positions as openings
from boardgame_envs.games.notation import parse_point
from boardgame_envs.games.opening_positions import Opening, OpeningError

balanced_openings = load_baseline("balanced_openings")
candidates, canonical = balanced_openings.candidates, balanced_openings.canonical


def test_rif26_is_every_3_stone_renju_opening_once():
    rif = openings.load("rif26")
    assert len(rif) == 26 and len({o.name for o in rif}) == 26
    keys = {canonical(o.moves, 15) for o in rif}
    assert len(keys) == 26  # distinct up to the board's symmetries
    # ... and they are the classes of all openings black h8, white adjacent, black in the central 5x5.
    assert keys == {canonical(moves, 15) for moves in candidates(15, radius=2)}
    h8 = parse_point("h8", 15)
    for o in rif:
        assert o.board_size == 15 and o.moves[0] == h8
        assert o.moves[1] in (parse_point("h9", 15), parse_point("i9", 15))
        assert all(abs(a // 15 - 7) <= 2 and abs(a % 15 - 7) <= 2 for a in o.moves)
        env = gomoku_v0.raw_env(rule="renju")
        env.reset(options={"opening": o})  # legal under renju
        assert env.agent_selection == "white_0"


def test_rif_star_names_are_the_stones_two_points_from_h8_in_line():
    # The RIF names openings whose third stone lies two points from the first on
    # a line "-sei" (star, 星; Myojo, 明星, too) and the others "-getsu" (moon, 月).
    for o in openings.load("rif26"):
        (r1, c1), (r3, c3) = divmod(o.moves[0], 15), divmod(o.moves[2], 15)
        dr, dc = abs(r3 - r1), abs(c3 - c1)
        in_line_two_away = max(dr, dc) == 2 and dr in (0, 2) and dc in (0, 2)
        assert in_line_two_away == (o.name.endswith("sei") or o.name == "Myojo"), o


def test_find_by_name_and_set():
    assert openings.find("rif26/Kagetsu").notation == "h8 h9 i9"
    assert openings.find("kagetsu") == openings.find("rif26/Kagetsu")
    with pytest.raises(OpeningError, match="unknown opening 'Kagetsux'.*rif26"):
        openings.find("Kagetsux")
    with pytest.raises(OpeningError, match="unknown opening set 'rif27'"):
        openings.load("rif27")


def test_file_format_round_trip(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# board_size: 9\nfirst: e5 e6 f6  # comment\n\ne5 d4\n")
    got = openings.read(path)
    assert [o.name for o in got] == ["first", "e5 d4"] and got[0].board_size == 9
    assert openings.resolve(str(path), 9) == got
    with pytest.raises(OpeningError, match="for 9x9, not 15x15"):
        openings.resolve(str(path), 15)
    path.write_text("bad: e5 z1\n")
    with pytest.raises(OpeningError, match="line 1.*'z1'"):
        openings.read(path, 9)
    with pytest.raises(OpeningError, match="neither a built-in opening set"):
        openings.resolve(str(tmp_path / "missing.txt"), 9)


def test_resolve_lists_and_defaults():
    got = openings.resolve(["h8 h9", [112, 113], Opening("x", (112,), 15)], 15)
    assert [o.moves for o in got] == [(112, 97), (112, 113), (112,)]
    with pytest.raises(OpeningError, match="empty"):
        openings.resolve([], 15)
    assert openings.default_set(15, 5, "renju") == "rif26" and openings.default_set(15, 5, "freestyle") == "balanced15"
    assert openings.default_set(9, 5, "freestyle") == "balanced9" and openings.default_set(9, 5, "renju") is None
    assert openings.default_set(6, 4, "freestyle") is None


@pytest.mark.parametrize(("name", "size"), [("balanced15", 15), ("balanced9", 9)])
def test_balanced_sets_are_distinct_legal_openings_near_the_centre(name, size):
    got = openings.load(name)
    assert len(got) >= 4 and {o.board_size for o in got} == {size}
    assert len({canonical(o.moves, size) for o in got}) == len(got)
    c = size // 2
    for o in got:
        assert all(abs(a // size - c) <= 2 and abs(a % size - c) <= 2 for a in o.moves)
        env = gomoku_v0.raw_env(board_size=size, rule="freestyle")
        env.reset(options={"opening": o.name})  # built-in names resolve on their board size
        assert env.unwrapped.game_state.num_moves == len(o.moves)


def test_bytes_are_a_type_error_not_a_list_of_actions():
    # b"e5" is the integers 101 and 53: as a sequence it would have opened with two stones.
    for spec in (b"e5", bytearray(b"e5")):
        with pytest.raises(TypeError, match="not (bytes|bytearray) .*decode it first"):
            openings.as_opening(spec, 15)
    with pytest.raises(TypeError, match="not bytes"):
        openings.resolve([b"h8"], 15)
    env = gomoku_v0.raw_env(rule="renju")
    with pytest.raises(TypeError, match="not bytes"):
        env.reset(options={"opening": b"e5"})


@pytest.mark.parametrize("size", [20, 0, 10**12])
def test_a_header_board_size_beyond_renju_notation_is_one_line(size):
    with pytest.raises(OpeningError, match=rf"^mine.txt: board size {size} is not supported; .* up to 19x19$"):
        openings.parse_set(f"# board_size: {size}\ne5\n", source="mine.txt")


def test_an_opening_file_that_is_not_utf8_is_named(tmp_path, capsys):
    from boardgame_envs.cli import main

    path = tmp_path / "mine.txt"
    path.write_bytes(b"# board_size: 9\nf\xfcrst: e5 e6\n")  # Latin-1, not UTF-8
    with pytest.raises(OpeningError, match=f"cannot read openings from '{path}': not UTF-8 text \\(byte 17\\)"):
        openings.read(path)
    assert main(["arena", "gomoku", "random", "random", "--board-size", "9", "--openings", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"'{path}': not UTF-8 text" in err
