"""The training recipes' test games: a game in the catalog for the test, with a two-level ladder built for it.

The PPO recipes train any catalog game and rate it on that game's ladder. Their tests train the
suite's test games (tests/games/: dots and boxes, whose players draw again after closing a box and
win on the count of boxes; place or pass, whose pass is an action that is no cell), each put in the
catalog as a new game would be (:func:`conformance.cases.in_catalog`), with a ladder of two levels
(random, greedy) built by the command a user runs, in a folder of the test's own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boardgame_envs.cli import main as cli_main
from boardgame_envs.ladder.ladders import LADDERS_VARIABLE
from conformance.cases import in_catalog

#: The test games the recipes train: extra turns and a score; a pass.
TEST_GAMES = ("dots_and_boxes", "place_or_pass")


@contextlib.contextmanager
def game_with_ladder(name: str, folder: Path, monkeypatch: Any, *options: str) -> Iterator[None]:
    """``name`` (a test game) in the catalog and a two-level ladder of it (with ``options``, ``--param rows=1``)
    built in ``folder``, while the block runs."""
    monkeypatch.setenv(LADDERS_VARIABLE, str(folder))
    with in_catalog(name):
        argv = ["ladder", "build", name, *options, "--level", "random", "--level", "greedy", "--games-per-pair", "2",
                "--rounds", "1"]  # fmt: skip
        assert cli_main(argv) == 0
        yield


def rate_on_the_ladder(spec: str, name: str, capsys: Any, *options: str) -> str:
    """``boardgame-envs rate SPEC NAME --games 4``, as a user rates a trained network: its printed rating."""
    capsys.readouterr()
    assert cli_main(["rate", spec, name, *options, "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert f"on the {name}" in out and "ladder: Elo" in out and "4 games" in out, out
    return out
