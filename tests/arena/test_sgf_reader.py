"""The SGF reader: linear in the file's size, a size limit, setup stones and multi-valued properties, fuzzed."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgame_envs.arena.records import MAX_SGF_BYTES, GameRecord, RecordError, from_sgf, load, to_sgf


def test_a_large_comment_parses_in_linear_time():
    comment = ("x" * 99 + "\\]") * 9_000  # 909,000 characters with 9,000 escapes, under the 1 MB limit
    text = f"(;GM[4]SZ[15]C[{comment}];B[hh];W[hg])"
    started = time.perf_counter()
    record = from_sgf(text)
    elapsed = time.perf_counter() - started
    assert record.reason == ("x" * 99 + "]") * 9_000 and record.moves == [112, 97]
    assert elapsed < 0.5, f"{elapsed:.2f} s for {len(text):,} characters"


def test_a_file_over_the_limit_is_one_line(tmp_path):
    big = tmp_path / "big.sgf"
    big.write_text("(;GM[4]C[" + "x" * MAX_SGF_BYTES + "])")
    with pytest.raises(RecordError, match=r"^.*big.sgf: over the 1,000,000-byte limit for a game record \(load's limit=\)$"):
        load(big)
    assert load(big, limit=2 * MAX_SGF_BYTES).reason == "x" * MAX_SGF_BYTES
    with pytest.raises(RecordError, match="over the 100 limit"):
        from_sgf("(;GM[4]C[" + "x" * 100 + "])", limit=100)


def test_text_values_come_back_as_the_file_has_them():
    # Control characters are not interpreted here (the viewer escapes what it prints); only SGF escapes are undone.
    record = from_sgf("(;GM[4]SZ[9]PB[\x1b\\]2;title\x07\x1b[31mred]PW[a\\\\b]C[line\\\nnext\rend];B[ee])")
    assert record.black == "\x1b]2;title\x07\x1b[31mred" and record.white == "a\\b" and record.reason == "line\nnext\rend"


def test_setup_stones_become_the_opening():
    record = from_sgf("(;GM[4]SZ[15]RU[freestyle]AB[hh][ig]AW[hg];W[gg];B[ii])")
    assert record.moves[:3] == [112, 97, 98] and record.opening_moves == 3 and record.opening == "h8 h9 i9"
    assert record.moves[3:] == [96, 128]
    assert from_sgf(to_sgf(record)) == record  # written back as moves and ON


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[4]SZ[9]AB[aa][bb][cc])", "3 black and 0 white setup stones .* cannot be played as alternating moves"),
        ("(;GM[4]SZ[9]AB[aa]AW[aa])", "setup stone 2 \\(a9\\) cannot be played as a move: a9 is occupied"),
        ("(;GM[4]SZ[9]AB[aa]AW[bb]PL[W])", "PL\\[W\\] after the setup stones, but played as moves B is to move"),
        ("(;GM[4]SZ[9];B[aa];AB[bb])", "node 3 adds setup stones \\(AB/AW\\) after the game began"),
        ("(;GM[4]SZ[9]AE[aa])", "removes stones \\(AE\\): not supported"),
        # Renju: black's fifth setup stone, h8, played as a move joins g8 i8 and h9 h7 in a double three.
        ("(;GM[4]SZ[15]RU[renju]AB[gh][ih][hg][hi][hh]AW[aa][ca][ea][ga])",
         "setup stone 9 \\(h8\\) cannot be played as a move: .*forbidden"),
    ],
)
def test_setup_stones_that_cannot_be_moves_are_refused(text, message):
    with pytest.raises(RecordError, match=message):
        from_sgf(text)


def test_multi_valued_properties_are_kept_or_refused():
    record = from_sgf("(;GM[4]SZ[9]DT[2024-01-01]LB[aa:1][bb:2];B[ee])")
    assert record.extra == {"DT": "2024-01-01", "LB": ["aa:1", "bb:2"]}
    assert from_sgf(to_sgf(record)) == record
    for text, message in [
        ("(;GM[4]SZ[9][15])", "SZ has 2 values; it takes one"),
        ("(;GM[4]SZ[9];B[aa][bb])", "B has 2 values"),
        ("(;GM[4]SZ[9]PB[a]PB[b])", "property PB appears twice in node 1"),
        ("(;GM[4]SZ[9];B[aa]W[bb])", "node 2 holds a black and a white move"),
        ("(;GM[4]SZ[9];B[aa])(;GM[4];B[bb])", "more than one game"),
        ("(;GM[4]SZ[9]C[open", "never closed"),
        ("(;GM[4]SZ[99])", "outside 1..26"),
        ("(;GM[4]SZ[9]ON[x: e5 e6])", "names 2 moves, but the game has 0"),
    ]:
        with pytest.raises(RecordError, match=message):
            from_sgf(text)


def test_bytes_are_a_type_error():
    with pytest.raises(TypeError, match="reads text"):
        from_sgf(b"(;GM[4])")


SGF_PIECES = st.sampled_from(
    ["(", ")", ";", "[", "]", "\\", "GM", "[4]", "SZ", "[9]", "[15]", "B", "W", "AB", "AW", "PL", "RU", "[renju]",
     "KL", "C", "ON", "[x: e5]", "RE", "[B+F]", "[aa]", "[ee]", "[zz]", "[]", " ", "\n", "é", "\x1b", "\ufeff"]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(SGF_PIECES, max_size=40).map("".join), st.text(max_size=200)))
def test_fuzz_only_record_errors(text):
    try:
        record = from_sgf(text)
    except RecordError as exc:
        assert "\n" not in str(exc).strip() or "\n" in text  # one line, unless it quotes the file's own text
        return
    assert isinstance(record, GameRecord)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_fuzz_written_records_read_back(data):
    n = data.draw(st.integers(3, 15))
    moves = data.draw(st.lists(st.integers(0, n * n - 1), unique=True, max_size=10))
    text = st.text(max_size=30)
    record = GameRecord(n, "freestyle", data.draw(text), data.draw(text), moves, data.draw(st.sampled_from([0, 1, 2])),
                        win_length=min(5, n), reason=data.draw(text))  # fmt: skip
    # A result the moves bear out (from_sgf holds it to them): stones past a win cut, the rules' winner at an end,
    # else a stated win is a forfeit's.
    state = record.game_object().new_state()
    for count, action in enumerate(moves):
        if state.terminal:
            del moves[count:]
            break
        state.play(action)
    if state.terminal:
        record.winner = int(state.winner)
    record.forfeit = bool(record.winner) and not state.terminal
    record.finished = state.terminal or record.forfeit  # no winner before the end: no result, never a draw
    assert from_sgf(to_sgf(record)) == record
