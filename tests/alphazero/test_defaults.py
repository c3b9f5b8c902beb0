"""AlphaZero's defaults per game live in alphazero/defaults.py, keyed by the catalog name, not in the catalog.

for_game_before_move.json holds, for every catalog game (gomoku at every board
side) and the conformance kit's test game, the fields where
``AlphaZeroConfig.for_game`` differed from the dataclass's defaults while the
settings were still in the catalog: the move changed no value.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import warnings
from pathlib import Path

import pytest

from boardgame_envs.alphazero import defaults
from boardgame_envs.alphazero.config import AlphaZeroConfig
from boardgame_envs.games import catalog
from boardgame_envs.games.catalog import GAMES

BEFORE = json.loads((Path(__file__).parent / "for_game_before_move.json").read_text())


def differences(config: AlphaZeroConfig) -> dict:
    """The fields that differ from the dataclass's defaults, as JSON has them (tuples as lists)."""
    plain = json.loads(json.dumps(config.to_dict()))
    base = json.loads(json.dumps(AlphaZeroConfig().to_dict()))
    return {field: value for field, value in plain.items() if base[field] != value}


def test_the_snapshot_covers_the_games_of_its_day_and_every_gomoku_board():
    """The snapshot is a record of the games the catalog held at the move; a game added since is held to the
    routing below instead."""
    sides = range(GAMES["gomoku"].sizes[0], GAMES["gomoku"].sizes[1] + 1)
    assert {"tictactoe", "gomoku", "renju", "connect_four", "avoid_three"} | {f"gomoku/{n}" for n in sides} <= set(BEFORE)
    assert {key.partition("/")[0] for key in BEFORE} <= set(GAMES) | {"avoid_three"}  # its games are still here


@pytest.mark.parametrize("name", list(GAMES))
def test_every_catalog_game_gets_its_recipe_or_defaults_from_its_shape(name):
    """A game with a recipe of its own takes it; an m,n,k game is sized by its board; any other game, a new one
    included, starts from its board's shape and action count."""
    config, info = AlphaZeroConfig.for_game(name), GAMES[name]
    if name in defaults.GAME_DEFAULTS:
        expected = defaults.GAME_DEFAULTS[name]
    elif info.factory is None:
        expected = defaults.mnk_defaults(info.default_size)
    else:
        expected = defaults.shape_defaults(info.game())
    assert config == AlphaZeroConfig(**expected)


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_for_game_gives_the_values_it_gave_before_the_move(key):
    name, _, side = key.partition("/")
    if name not in GAMES:  # the conformance kit's test game, put in the catalog for this check
        sys.path.insert(0, str(Path(__file__).parents[1]))
        from conformance.cases import in_catalog

        with in_catalog():
            assert differences(AlphaZeroConfig.for_game(name)) == BEFORE[key]
        return
    assert differences(AlphaZeroConfig.for_game(name, board_size=int(side) if side else None)) == BEFORE[key]


def test_overrides_win_and_an_unknown_game_is_refused():
    assert AlphaZeroConfig.for_game("connect_four", simulations=8).simulations == 8
    with pytest.raises(ValueError, match="unknown game 'chess'; expected one of tictactoe"):
        AlphaZeroConfig.for_game("chess")


def test_the_catalog_holds_no_alphazero_setting():
    assert "alphazero" not in {f.name for f in dataclasses.fields(catalog.GameInfo)}
    assert set(defaults.GAME_DEFAULTS) <= set(GAMES)  # every recipe is for a catalog game, by its name


def test_the_old_name_warns_and_gives_the_new_function():
    with pytest.warns(DeprecationWarning, match="catalog.alphazero_defaults is deprecated: use "
                                                "boardgame_envs.alphazero.defaults.shape_defaults"):  # fmt: skip
        old = catalog.alphazero_defaults
    assert old is defaults.shape_defaults
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
            catalog.no_such_name  # noqa: B018
