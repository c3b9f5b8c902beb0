"""The catalog checks its entries when it is built, names the entry in every error, and derives what it can;
env modules register themselves with it, and it checks what they register."""

from __future__ import annotations

import re

import pytest

from boardgame_envs.games.catalog import ENVS, GAMES, CatalogError, GameInfo, register_env

MISERE = "games.misere_game:AvoidThreeGame"  # tests/games/misere_game.py, on the tests' path


def entry(**fields):
    return GameInfo(**{**dict(name="avoid_three", summary="misère tic-tac-toe"), **fields})


def test_a_new_game_left_with_defaults_gets_a_derived_batched_field():
    info = entry(factory=MISERE)
    assert info.batched is False  # no kernels: the batched engine steps its states in a loop
    assert info.game().name == "avoid_three"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_entry_derives_batched_by_its_kernels_hook(name):
    game = GAMES[name].game()
    hook = getattr(game, "kernels", None)
    assert GAMES[name].batched is (callable(hook) and hook() is not None)


def test_the_mnk_entries_and_connect_four_are_batched_by_their_kernels():
    assert all(GAMES[name].batched for name in ("tictactoe", "gomoku", "renju", "connect_four"))


def test_an_mnk_entry_derives_batched_by_the_hook_as_every_entry_does():
    mnk = dict(sizes=(5, 7), default_size=5, default_win_length=4, rules=("freestyle",), default_rule="freestyle")
    assert entry(**mnk).batched is True and entry(**mnk, batched=False).batched is True  # MNKGame.kernels() names them


@pytest.mark.parametrize(
    "fields, says",
    [
        (dict(factory=MISERE, batched=True), "batched is True, but the game has no kernels (game.kernels())"),
        (dict(factory="no.such.module:Game"), "factory 'no.such.module:Game' does not build a game: ModuleNotFoundError"),
        (dict(factory="games.misere_game"), "factory must be 'module:attribute'"),
        (dict(factory="boardgame_envs.games.connect_four:ConnectFourGame"), "builds a game named 'connect_four'"),
        (dict(factory="games.misere_game:SIZE"), "does not build a game: TypeError"),
        (dict(factory=MISERE, default_size=3), "takes no board size, k or rule: leave out default_size"),
        (dict(), "factory is None, so this is an m,n,k entry: give sizes"),
        (dict(sizes=(3, 5), default_size=7, default_win_length=3, rules=("freestyle",), default_rule="freestyle"),
         "sizes (3, 5) must be"),
        (dict(sizes=(3, 5), default_size=3, default_win_length=3, rules=("misere",), default_rule="misere"),
         "rules must be some of"),
        (dict(sizes=(3, 5), default_size=3, default_win_length=3, rules=("freestyle",), default_rule="renju"),
         "default_rule 'renju' is not among rules"),
        (dict(sizes=(3, 5), default_size=3, default_win_length=4, rules=("freestyle",), default_rule="freestyle"),
         "default_size, default_win_length and default_rule make no game: win_length must be an integer in 2.."),
    ],
)
def test_a_bad_entry_is_refused_when_built_naming_it(fields, says):
    with pytest.raises(CatalogError, match="^catalog entry 'avoid_three': ") as info:
        entry(**fields)
    assert says in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_catalog_game_has_the_env_its_module_registered(name):
    info = GAMES[name]
    assert name in ENVS and info.env is ENVS[name]
    module = info.env_module
    assert module.__name__ == info.module and callable(module.env) and callable(module.raw_env)
    assert module.raw_env(**info.env_kwargs(info.game())).game == info.game()  # the env plays the entry's game


def test_the_shipped_env_modules_register_their_games():
    assert set(ENVS) == set(GAMES)
    assert GAMES["tictactoe"].module == "boardgame_envs.tictactoe_v0"
    assert GAMES["connect_four"].module == "boardgame_envs.connect_four_v0"
    assert GAMES["renju"].module == GAMES["gomoku"].module == "boardgame_envs.gomoku_v0"  # one module, two entries
    assert GAMES["renju"].pettingzoo_id == GAMES["gomoku"].pettingzoo_id == "boardgame_envs/gomoku-v0"
    assert GAMES["renju"].env_module.raw_env is GAMES["gomoku"].env_module.raw_env


@pytest.fixture
def new_game(monkeypatch):
    """A new catalog entry with no env registered yet (taken out again after the test)."""
    monkeypatch.setitem(GAMES, "avoid_three", entry(factory=MISERE))
    yield GAMES["avoid_three"]
    ENVS.pop("avoid_three", None)


def test_an_entry_without_a_registered_env_says_how_to_register_one(new_game):
    says = ("catalog entry 'avoid_three': no env module is registered for it; its env module calls "
            "boardgame_envs.games.catalog.register_env('avoid_three', __name__, ...) when imported")
    with pytest.raises(CatalogError, match="^" + re.escape(says)):
        new_game.env_module  # noqa: B018


def test_an_env_module_registers_itself_once(new_game):
    ids = {"boardgame_envs/AvoidThree-v0": {}}
    entry_ = register_env("avoid_three", "tests.avoid_three_v0", "boardgame_envs/avoid_three-v0", ids)
    assert new_game.env is entry_ and new_game.gymnasium_ids == ids and new_game.module == "tests.avoid_three_v0"
    assert register_env("avoid_three", "tests.avoid_three_v0", "boardgame_envs/avoid_three-v0", ids) == entry_
    with pytest.raises(CatalogError, match="tests.avoid_three_v0 already registered its env; other_v0 cannot"):
        register_env("avoid_three", "other_v0", "boardgame_envs/avoid_three-v0", ids)


@pytest.mark.parametrize(
    "args, says",
    [
        (("chess", "chess_v0", "boardgame_envs/chess-v0"), "register_env: 'chess' is no catalog game"),
        (("avoid_three", "avoid-three", "boardgame_envs/avoid_three-v0"), "module must be the env module's dotted name"),
        (("avoid_three", "avoid_three_v0", "avoid_three"), "pettingzoo_id must be namespaced"),
        (("avoid_three", "avoid_three_v0", "boardgame_envs/avoid_three-v0", {"AvoidThree": {}}),
         "gymnasium_ids must map namespaced ids to keyword dicts"),
    ],
)
def test_a_bad_registration_is_refused_naming_the_game(new_game, args, says):
    with pytest.raises(CatalogError, match=says):
        register_env(*args)
    assert "avoid_three" not in ENVS
