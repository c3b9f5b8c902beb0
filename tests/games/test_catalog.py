"""The catalog checks its entries when it is built, names the entry in every error, and derives what it can."""

from __future__ import annotations

import pytest

from boardgame_envs.games.catalog import GAMES, CatalogError, GameInfo, alphazero_defaults

MISERE = "games.misere_game:AvoidThreeGame"  # tests/games/misere_game.py, on the tests' path


def entry(**fields):
    base = dict(name="avoid_three", summary="misère tic-tac-toe", module="avoid_three_v0",
                pettingzoo_id="boardgame_envs/avoid_three-v0")  # fmt: skip
    return GameInfo(**{**base, **fields})


def test_a_new_game_left_with_defaults_gets_derived_batched_and_alphazero_fields():
    info = entry(factory=MISERE)
    assert info.batched is False  # the batched engine plays the m,n,k family only
    assert info.alphazero == alphazero_defaults(info.game())
    assert info.alphazero["dirichlet_alpha"] == 1.0 and info.alphazero["temperature_moves"] == 2  # 9 actions, 9 cells
    assert info.game().name == "avoid_three"


def test_the_shipped_entries_derive_batched_by_family():
    assert {name: info.batched for name, info in GAMES.items()} == {
        "tictactoe": True, "gomoku": True, "renju": True, "connect_four": False}  # fmt: skip


@pytest.mark.parametrize(
    "fields, says",
    [
        (dict(factory=MISERE, batched=True), "batched is True, but the batched engine plays the m,n,k family only"),
        (dict(factory="no.such.module:Game"), "factory 'no.such.module:Game' does not build a game: ModuleNotFoundError"),
        (dict(factory="games.misere_game"), "factory must be 'module:attribute'"),
        (dict(factory="boardgame_envs.games.connect_four:ConnectFourGame"), "builds a game named 'connect_four'"),
        (dict(factory="games.misere_game:SIZE"), "does not build a game: TypeError"),
        (dict(factory=MISERE, default_size=3), "takes no board size, k or rule: leave out default_size"),
        (dict(factory=MISERE, alphazero=[1]), "alphazero must be a dict of AlphaZeroConfig fields or None"),
        (dict(), "factory is None, so this is an m,n,k entry: give sizes"),
        (dict(sizes=(3, 5), default_size=7, default_win_length=3, rules=("freestyle",), default_rule="freestyle"),
         "sizes (3, 5) must be"),
        (dict(sizes=(3, 5), default_size=3, default_win_length=3, rules=("misere",), default_rule="misere"),
         "rules must be some of"),
        (dict(sizes=(3, 5), default_size=3, default_win_length=3, rules=("freestyle",), default_rule="renju"),
         "default_rule 'renju' is not among rules"),
        (dict(module="avoid-three", factory=MISERE), "module must name the env module"),
        (dict(pettingzoo_id="avoid_three", factory=MISERE), "pettingzoo_id must be namespaced"),
    ],
)
def test_a_bad_entry_is_refused_when_built_naming_it(fields, says):
    with pytest.raises(CatalogError, match="^catalog entry 'avoid_three': ") as info:
        entry(**fields)
    assert says in str(info.value) and "\n" not in str(info.value)
