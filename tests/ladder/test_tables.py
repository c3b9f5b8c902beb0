"""The shipped tables: one per ladder, rating exactly the ladder's levels, level 0 pinned, intervals around the Elo;
the docs show them as they are."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from boardgame_envs.ladder import LADDERS, format_table, levels
from boardgame_envs.ladder.report import DOCS_BEGIN, DOCS_END, REGENERATE, docs_up_to_date, update_docs
from boardgame_envs.ladder.report import main as report_main
from boardgame_envs.policies import make_policy


@pytest.mark.parametrize("name", list(LADDERS))
def test_shipped_table_rates_the_ladder(name):
    rows = levels(name)
    specs = LADDERS[name].specs
    builtin = [s for s in specs if not s.startswith("engine:")]
    # Every built-in level is rated; external levels (an engine's) may still await their first build.
    assert [lv.spec for lv in rows] == list(specs[: len(rows)]) and len(rows) >= len(builtin)
    assert [lv.external for lv in rows] == [s.startswith("engine:") for s in specs[: len(rows)]]
    assert rows[0].elo == rows[0].low == rows[0].high == 0.0
    assert all(lv.low <= lv.elo <= lv.high and lv.games > 0 for lv in rows)
    assert all(a.elo < b.elo for a, b in zip(rows, rows[1:]))  # a ladder: each level above the one before
    top = make_policy(f"level:{name}/{len(builtin) - 1}", seed=0)
    assert hasattr(top, "act")


def test_levels_by_game_rule_and_size():
    assert levels("gomoku", board_size=9)[1].name == "gomoku9/1"
    assert levels("gomoku")[1].name == "renju/1"  # gomoku's default rule, as everywhere
    assert levels("gomoku", rule="freestyle")[1].name == "gomoku15/1"
    assert levels("gomoku", rule="renju")[1].name == levels("renju")[1].name == "renju/1"


DOCS = Path(__file__).resolve().parents[2] / "docs" / "evaluation.md"


def test_the_docs_show_the_shipped_tables():
    """The tables in docs/evaluation.md are the shipped data's; after a build, the message says how to remake them."""
    text = DOCS.read_text()
    stale = [name for name in LADDERS if format_table(name, markdown=True) not in text]
    assert not stale and docs_up_to_date(DOCS), f"the {stale or ''} tables of docs/evaluation.md are not the data's: run {REGENERATE}"


def test_report_rewrites_the_tables_between_the_markers(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text(f"# Page\n\n{DOCS_BEGIN}\nold table\n{DOCS_END}\n\nAfter.\n")
    assert report_main(["--docs", str(page), "--check"]) == 1
    assert "differ from the shipped data" in capsys.readouterr().out
    assert report_main(["--docs", str(page)]) == 0 and report_main(["--docs", str(page), "--check"]) == 0
    text = page.read_text()
    assert "old table" not in text and text.endswith(f"{DOCS_END}\n\nAfter.\n") and format_table("renju", markdown=True) in text
    assert f"![renju ladder]({os.path.relpath(LADDERS['renju'].table_path.with_suffix('.png'), tmp_path)})" in text
    assert not update_docs(page)  # a second run changes nothing
    page.write_text("# no markers\n")
    assert report_main(["--docs", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no ladder tables to update" in err
    assert report_main(["--docs", str(tmp_path / "missing.md")]) == 2 and "missing.md" in capsys.readouterr().err
    assert report_main([]) == 2 and capsys.readouterr().err.count("\n") == 1  # --docs is required: one line too


def _set(path, value):
    """A mutation of the tiny table: put ``value`` at ``path`` (keys and indices), or delete it if ``value`` is _DROP."""

    def mutate(table):
        *outer, last = path
        node = table
        for key in outer:
            node = node[key]
        if value is _DROP:
            del node[last]
        else:
            node[last] = value

    return mutate


_DROP = object()


@pytest.mark.parametrize(
    ("mutate", "problem"),
    [
        (_set(("levels",), _DROP), "the field 'levels' is missing"),
        (_set(("levels", 1, "elo"), _DROP), "level 1 has no 'elo'"),
        (_set(("levels", 1, "elo"), "200"), "level 1's elo must be a finite number, got '200'"),
        (_set(("levels", 1, "elo"), float("nan")), "level 1's elo must be a finite number, got nan"),
        (_set(("levels", 2, "high"), float("inf")), "level 2's high must be a finite number, got inf"),
        (_set(("levels", 1, "games"), True), "level 1's games must be a count"),
        (_set(("levels", 1, "spec"), 7), "level 1's spec must be a non-empty string"),
        (_set(("levels", 2, "elo"), 150.0), "level 2's interval 360.0 .. 440.0 does not hold its Elo 150.0"),
        (_set(("levels", 0, "elo"), 10.0), "level 0's interval 0.0 .. 0.0 does not hold its Elo 10.0"),
        (_set(("levels", 0), {"spec": "random", "elo": 5.0, "low": 0.0, "high": 10.0, "games": 1}),
         "level 0 must be pinned at 0 Elo, got 5.0"),
        (_set(("levels", 2, "spec"), "random"), "level 2 (random) is a duplicate of level 0"),
        (_set(("levels",), []), "it lists no levels"),
        (_set(("levels", 0), [1, 2]), "level 0 is not an object"),
        (_set(("games",), "many"), "'games' must be an integer"),
        (_set(("adjacent",), []), "it has 0 steps for 3 levels"),
        (_set(("adjacent", 1, "half_width"), None), "step 1 -> 2's half_width must be a finite number, got None"),
        (_set(("adjacent", 0, "to"), "perfect"), "step 0 -> 1 joins 'random' to 'perfect'"),
        (_set(("target_half_width",), -5), "'target_half_width' must be a positive number"),
    ],
)  # fmt: skip
def test_a_corrupt_table_is_refused_in_one_line(tiny_table, data_dir, mutate, problem):
    from boardgame_envs.ladder import LadderError
    from boardgame_envs.ladder.table import TableError

    table = copy.deepcopy(tiny_table)
    mutate(table)
    path = data_dir / "tiny.json"
    path.write_text(json.dumps(table))  # NaN and Infinity as Python's json writes them, which it also reads back
    with pytest.raises(TableError) as caught:
        levels("tiny")
    message = str(caught.value)
    assert isinstance(caught.value, (LadderError, ValueError)) and "\n" not in message
    assert message.startswith(f"the ladder table {path} is corrupt: ") and problem in message


def test_a_table_that_is_not_json_or_not_an_object(tiny_table, data_dir):
    from boardgame_envs.ladder.table import TableError

    path = data_dir / "tiny.json"
    path.write_text('{"levels": [')
    with pytest.raises(TableError, match=f"the ladder table {path} is not valid JSON .* at line 1"):
        levels("tiny")
    path.write_text("[1, 2]")
    with pytest.raises(TableError, match="it holds a JSON list, not an object"):
        format_table("tiny")


def test_the_command_line_says_a_corrupt_table_in_one_line(tiny_table, data_dir, capsys):
    from boardgame_envs.cli import main

    tiny_table["levels"][1]["elo"] = float("nan")
    (data_dir / "tiny.json").write_text(json.dumps(tiny_table))
    assert main(["ladder", "tiny"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "level 1's elo must be a finite number, got nan" in err


def test_a_table_that_is_not_utf8_is_named_in_one_line(tiny_table, data_dir, capsys):
    from boardgame_envs.cli import main
    from boardgame_envs.ladder.table import TableError

    path = data_dir / "tiny.json"
    path.write_bytes(json.dumps(tiny_table).encode().replace(b"by hand", b"by h\xe4nd"))  # Latin-1, not UTF-8
    with pytest.raises(TableError, match=f"the ladder table {path} is not UTF-8 text \\(byte \\d+\\); rebuild it"):
        levels("tiny")
    assert main(["ladder", "tiny"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path} is not UTF-8 text" in err
