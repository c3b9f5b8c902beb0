"""A ladder for any game in one command: `boardgame-envs ladder build GAME` builds it from built-in levels into the
user's ladder folder, states its cost, and `rate`, `ladder` and `level:` find it there; before it, `rate` names the
command. The game is the dots-and-boxes test game, in the catalog only while a test runs; a few games a pair."""

from __future__ import annotations

import json

import pytest

from boardgame_envs.cli import main as cli_main
from boardgame_envs.ladder.ladders import (
    GENERIC_LEVELS, LADDERS_VARIABLE, LadderError, TableError, built_ladder, ladder_for, levels, user_dir,
)  # fmt: skip
from boardgame_envs.ladder.rating import rate
from boardgame_envs.policies.registry import make_policy
from conformance.cases import in_catalog

TINY = ["--level", "random", "--level", "greedy:epsilon=0.5", "--level", "alphabeta:nodes=200", "--games-per-pair", "2",
        "--rounds", "1"]  # fmt: skip


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The user's ladder folder in ``tmp_path`` and the dots-and-boxes test game in the catalog."""
    monkeypatch.setenv(LADDERS_VARIABLE, str(tmp_path / "ladders"))
    with in_catalog("dots_and_boxes"):
        yield tmp_path / "ladders"


def test_rate_names_the_command_that_builds_a_ladder(folder, capsys):
    assert cli_main(["rate", "random", "dots_and_boxes", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "no ladder for dots_and_boxes; build one with `boardgame-envs ladder build dots_and_boxes`" in err
    assert len(err.strip().splitlines()) == 1


def test_one_command_builds_a_ladder_that_rate_then_finds(folder, capsys):
    assert cli_main(["ladder", "build", "dots_and_boxes", *TINY]) == 0
    out, err = capsys.readouterr()
    # The cost, stated before any game: the round's games, one timed game of the top pair, the estimate.
    assert "ladder dots_and_boxes (dots_and_boxes): 3 levels; this round plays 6 games" in err
    assert "one game of the top pair (greedy:epsilon=0.5 against alphabeta:nodes=200) took" in err
    assert "dots_and_boxes round 1: 100%" in err  # the progress bar
    assert "dots_and_boxes/2  alphabeta:nodes=200" in out and "boardgame-envs rate POLICY dots_and_boxes" in out
    table = json.loads((folder / "dots_and_boxes.json").read_text())
    assert table["game"] == "dots_and_boxes" and table["games"] == 6 and "parameters" not in table
    assert table["command"].startswith("boardgame-envs ladder build dots_and_boxes --level random")
    assert [lv.name for lv in levels("dots_and_boxes")] == ["dots_and_boxes/0", "dots_and_boxes/1", "dots_and_boxes/2"]
    assert make_policy("level:dots_and_boxes/2", seed=0).nodes == 200
    rating = rate("greedy", "dots_and_boxes", games=2, progress=False)
    assert rating.ladder == "dots_and_boxes" and rating.games == 2
    assert cli_main(["rate", "greedy", "dots_and_boxes", "--games", "2"]) == 0
    assert "greedy on the dots_and_boxes ladder" in capsys.readouterr().out
    assert cli_main(["ladder", "dots_and_boxes"]) == 0
    assert "dots_and_boxes ladder (dots_and_boxes): 6 games" in capsys.readouterr().out


def test_a_game_with_parameters_gets_a_ladder_of_its_size(folder, capsys):
    argv = ["ladder", "build", "dots_and_boxes", "--param", "rows=1", "--param", "columns=2", *TINY[:4]]
    assert cli_main([*argv, "--games-per-pair", "2", "--rounds", "1"]) == 0
    ladder = ladder_for("dots_and_boxes-rows1-columns2")
    assert ladder.params == {"rows": 1, "columns": 2} and ladder.game_object().num_actions == 7
    assert "ladder dots_and_boxes-rows1-columns2 (dots_and_boxes rows=1 columns=2): 2 levels" in capsys.readouterr().err
    assert rate("random", "dots_and_boxes-rows1-columns2", games=2, progress=False).games == 2


def test_an_mnk_size_without_a_shipped_ladder_gets_one_found_by_its_size(folder, capsys):
    assert cli_main(["ladder", "build", "gomoku", "--board-size", "5", "--rule", "freestyle", *TINY[:4],
                     "--games-per-pair", "2", "--rounds", "1"]) == 0  # fmt: skip
    ladder = ladder_for("gomoku", "freestyle", 5)
    assert ladder.name == "gomoku5-freestyle" and ladder.params == {"board_size": 5, "win_length": 5, "rule": "freestyle"}
    assert rate("random", "gomoku", rule="freestyle", board_size=5, games=2, progress=False).ladder == ladder.name
    capsys.readouterr()
    assert cli_main(["ladder", "build", "gomoku", "--board-size", "5", "--rule", "freestyle", *TINY[:4],
                     "--games-per-pair", "2", "--rounds", "1", "--target", "100000"]) == 0  # fmt: skip
    assert "every step is within ±100000 Elo already; nothing to play" in capsys.readouterr().err


def test_the_default_levels_are_built_in_searches_from_random_up():
    assert GENERIC_LEVELS[0] == "random" and len(GENERIC_LEVELS) == len(set(GENERIC_LEVELS)) >= 6
    for spec in GENERIC_LEVELS:
        make_policy(spec, seed=0)


@pytest.mark.parametrize("argv, says", [
    (["connect_four"], "connect_four has the shipped ladder 'connect_four'; give --name to build another"),
    (["dots_and_boxes", "--level", "pbrain:/bin/sh"], "a built ladder's level is a built-in search"),
    (["dots_and_boxes", "--level", "greedy", "--level", "random"], "'random' the first"),
    (["dots_and_boxes", "--games-per-pair", "3"], "--games-per-pair must be even"),
    (["dots_and_boxes", "--param", "rows=9"], "dots_and_boxes: rows must be one of 1, 2, 3, got 9"),
    (["dots_and_boxes", "--param", "depth"], "--param takes KEY=VALUE"),
    (["dots_and_boxes", "--name", "../up"], "--name must be letters, digits"),
    (["dots_and_boxes", "--board-size", "3"], "takes no board size, k or rule"),
    (["chess"], "unknown game 'chess'"),
])  # fmt: skip
def test_a_bad_build_is_one_line_and_status_2(folder, capsys, argv, says):
    assert cli_main(["ladder", "build", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not folder.exists()  # nothing written


def test_a_built_table_cannot_name_a_program(folder, capsys):
    """A table in the user's folder is read like any file handed to the package: its levels must be built-in
    searches, so editing one cannot make rate start an engine."""
    assert cli_main(["ladder", "build", "dots_and_boxes", *TINY]) == 0
    path = folder / "dots_and_boxes.json"
    table = json.loads(path.read_text())
    table["levels"][1]["spec"] = table["adjacent"][0]["to"] = table["adjacent"][1]["from"] = "pbrain:/tmp/evil"
    path.write_text(json.dumps(table))
    with pytest.raises(TableError, match="is corrupt: a built ladder's level is a built-in search"):
        built_ladder("dots_and_boxes")
    table["levels"][1]["spec"] = table["adjacent"][0]["to"] = table["adjacent"][1]["from"] = "greedy:epsilon=0.5"
    table["game"] = "chess"
    path.write_text(json.dumps(table))
    with pytest.raises(LadderError, match="'game' must be a catalog game"):
        ladder_for("dots_and_boxes")


def test_the_folder_is_the_variable_else_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(LADDERS_VARIABLE, str(tmp_path / "mine"))
    assert user_dir() == tmp_path / "mine"
    monkeypatch.delenv(LADDERS_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert user_dir() == tmp_path / "cache" / "boardgame_envs" / "ladders"
