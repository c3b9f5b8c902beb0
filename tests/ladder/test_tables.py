"""The shipped tables: one per ladder, rating exactly the ladder's levels, level 0 pinned, intervals around the Elo;
the docs show them as they are."""

from __future__ import annotations

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
    assert [lv.spec for lv in rows] == list(LADDERS[name].specs)
    assert rows[0].elo == rows[0].low == rows[0].high == 0.0
    assert all(lv.low <= lv.elo <= lv.high and lv.games > 0 for lv in rows)
    top = make_policy(f"level:{name}/{len(rows) - 1}", seed=0)
    assert hasattr(top, "act")


def test_levels_by_game_rule_and_size():
    assert levels("gomoku", board_size=9)[1].name == "gomoku9/1"
    assert levels("gomoku")[1].name == "gomoku15/1"
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
