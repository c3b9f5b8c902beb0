"""docs/single_agent.md's table of ids is the catalog's: docs/make_tables.py writes it from the catalog (no game
listed by hand), it names every Gymnasium id the package registers, and each row's batched path
(``vector.make(game, n)``) makes that game's batched engine."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import gymnasium

import boardgame_envs  # noqa: F401 (registers the ids)
from boardgame_envs import vector

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = DOCS / "single_agent.md"


def make_tables():
    spec = importlib.util.spec_from_file_location("make_tables", DOCS / "make_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows(page: Path = PAGE) -> dict[str, str]:
    """``id -> batched cell`` of the page's ids table."""
    section = page.read_text().split("## Ids", 1)[1].split("\n## ", 1)[0]
    found = {}
    for line in section.splitlines():
        m = re.match(r"\| `(boardgame_envs/[\w-]+)` \|.*\| (`vector\.make.*`) \| `[\w/-]+` \|$", line)
        if m:
            found[m[1]] = m[2]
    return found


def test_the_ids_table_is_the_one_the_catalog_makes():
    assert make_tables().stale() == [], "docs/single_agent.md's ids table is not the catalog's: run python docs/make_tables.py"


def test_the_ids_table_names_every_gymnasium_id():
    registered = {key for key, spec in gymnasium.registry.items()
                  if key.startswith("boardgame_envs/") and "single_agent" in str(spec.entry_point)}  # fmt: skip
    assert "boardgame_envs/ConnectFour-v0" in registered
    assert set(rows()) == registered


def test_each_rows_batched_path_makes_its_game():
    for env_id, cell in rows().items():
        game = re.fullmatch(r'`vector\.make\("(\w+)", n(?:, .*)?\)`', cell)
        assert game, (env_id, cell)
        expected = gymnasium.spec(env_id).kwargs["game"]
        assert game[1] == expected, (env_id, game[1], expected)
        vec = vector.make(game[1], 2, **({"board_size": 9} if game[1] == "gomoku" else {}))
        assert vec.reset(seed=0).shape[0] == 2


def test_the_script_rewrites_a_stale_table_and_check_says_so(tmp_path, monkeypatch, capsys):
    tables = make_tables()
    monkeypatch.setattr(tables, "DOCS", tmp_path)
    shutil.copy(PAGE, tmp_path / "single_agent.md")
    stale = PAGE.read_text().replace("| `boardgame_envs/Renju-v0` |", "| `boardgame_envs/Old-v0` |")
    (tmp_path / "single_agent.md").write_text(stale)
    assert tables.main(["--check"]) == 1
    assert capsys.readouterr().err == "docs/single_agent.md (ids) is not the catalog's table: run python docs/make_tables.py\n"
    assert tables.main([]) == 0 and capsys.readouterr().out == "wrote docs/single_agent.md\n"
    assert (tmp_path / "single_agent.md").read_text() == PAGE.read_text()
    assert tables.main(["--check"]) == 0
