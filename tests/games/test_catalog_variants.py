"""Sizes and variants for any game: a catalog entry declares parameters, or fixes a factory's arguments per variant,
and one env module serves several entries, each getting its own game (the test game, dots and boxes, in entries
that live only while a test runs: the shipped catalog never holds them)."""

from __future__ import annotations

import sys
import types

import pytest
from gymnasium.utils import EzPickle

from boardgame_envs.envs.factory import make_env
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.wrappers import safety_wrap
from boardgame_envs.games.catalog import ENVS, GAMES, CatalogError, GameInfo, register_env
from boardgame_envs.games.parameters import Parameter
from games.dots_and_boxes import DotsAndBoxesGame

DOTS = "games.dots_and_boxes:DotsAndBoxesGame"
SIZES = (1, 2, 3)
ENTRIES = {
    "dots_and_boxes": GameInfo(name="dots_and_boxes", summary="dots and boxes, 1..3 boxes a side", factory=DOTS,
                               parameters={"rows": Parameter(2, SIZES), "columns": Parameter(2, SIZES)}),
    "dots_2x2": GameInfo(name="dots_2x2", summary="dots and boxes, 2x2 boxes", factory=DOTS),
    "dots_3x3": GameInfo(name="dots_3x3", summary="dots and boxes, 3x3 boxes", factory=DOTS,
                         arguments={"rows": 3, "columns": 3}),
}  # fmt: skip


def env_module(name: str, honest: bool = True) -> types.ModuleType:
    """An env module serving every entry above, as an author writes one: ``game=`` names the entry (the catalog
    passes it, since the module serves several), the rest are the entry's parameters. A dishonest one ignores
    ``game=`` and builds 2x2 whatever it is asked, as an env module that serves one game would."""
    module = types.ModuleType(name)

    class raw_env(GameAECEnv):  # noqa: N801 (PettingZoo's module convention)
        metadata = {**GameAECEnv.metadata, "name": name}

        def __init__(self, game: str = "dots_2x2", render_mode: str | None = None, **parameters) -> None:
            EzPickle.__init__(self, game=game, render_mode=render_mode, **parameters)
            built = GAMES[game].game(**parameters) if honest else GAMES["dots_2x2"].game()
            super().__init__(built, ("player_0", "player_1"), render_mode)

    def env(**kwargs) -> object:
        return safety_wrap(raw_env(**kwargs))

    raw_env.__module__ = env.__module__ = name
    module.raw_env, module.env = raw_env, env
    return module


@pytest.fixture
def serve(monkeypatch):
    """``serve(honest)``: the three entries in the catalog and one env module registered for all of them, while
    the test runs."""

    def install(honest: bool) -> None:
        name = "tests_dots_v0"
        monkeypatch.setitem(sys.modules, name, env_module(name, honest=honest))
        for entry in ENTRIES.values():
            monkeypatch.setitem(GAMES, entry.name, entry)
            register_env(entry.name, name, "boardgame_envs/tests_dots-v0", {})

    yield install
    for entry in ENTRIES:
        ENVS.pop(entry, None)


def test_an_entry_with_parameters_builds_each_size():
    info = ENTRIES["dots_and_boxes"]
    assert not info.fixed and ENTRIES["dots_3x3"].fixed and ENTRIES["dots_2x2"].fixed
    default, big = info.game(), info.game(rows=3, columns=1)
    assert (default.rows, default.columns, big.rows, big.columns) == (2, 2, 3, 1)
    assert big.name == "dots_and_boxes" and big.num_actions == 3 * 2 + 4 * 1 and big != default
    with pytest.raises(ValueError, match=r"^dots_and_boxes: rows must be one of 1, 2, 3, got 4$"):
        info.game(rows=4)
    with pytest.raises(ValueError, match=r"^dots_and_boxes takes no depth; its parameters: rows \(1, 2, 3; default 2\)"):
        info.game(depth=3)
    with pytest.raises(ValueError, match="takes no board size, k or rule; board_size=3 does not apply"):
        info.game(board_size=3)
    with pytest.raises(ValueError, match="connect_four takes no rows; it takes no parameters"):
        GAMES["connect_four"].game(rows=3)
    with pytest.raises(ValueError, match="gomoku takes board_size, win_length and rule; rows does not apply"):
        GAMES["gomoku"].game(rows=3)


def test_each_variant_is_an_entry_of_its_own():
    small, big = ENTRIES["dots_2x2"].game(), ENTRIES["dots_3x3"].game()
    assert (small.name, small.rows, big.name, big.rows, big.columns) == ("dots_2x2", 2, "dots_3x3", 3, 3)
    assert small != big and big.num_actions == 24
    with pytest.raises(ValueError, match="dots_3x3 takes no rows; it takes no parameters"):
        ENTRIES["dots_3x3"].game(rows=2)  # a variant's size is fixed


def test_one_env_module_serves_several_variants_each_with_its_own_game(serve):
    serve(honest=True)
    assert ENTRIES["dots_3x3"].env_kwargs(ENTRIES["dots_3x3"].game()) == {"game": "dots_3x3"}
    assert ENTRIES["dots_and_boxes"].env_kwargs(ENTRIES["dots_and_boxes"].game(rows=3)) == {
        "game": "dots_and_boxes", "rows": 3, "columns": 2}  # fmt: skip
    for name, parameters, rows, columns in (("dots_3x3", {}, 3, 3), ("dots_2x2", {}, 2, 2),
                                             ("dots_and_boxes", {"rows": 3, "columns": 1}, 3, 1)):  # fmt: skip
        env = make_env(name, **parameters)
        game = env.unwrapped.game
        assert (game.name, game.rows, game.columns) == (name, rows, columns)
        env.reset(seed=0)
        assert len(env.last()[0]["action_mask"]) == game.num_actions


def test_an_env_module_that_builds_another_variant_is_refused(serve):
    serve(honest=False)
    assert make_env("dots_2x2").unwrapped.game.rows == 2  # the one game it builds
    with pytest.raises(CatalogError, match=r"^tests_dots_v0 built dots and boxes, 2x2 boxes for dots_3x3, not dots "
                                           r"and boxes, 3x3 boxes: an env module that serves several"):
        make_env("dots_3x3")  # it used to hand back the 2x2 game


def test_the_test_entries_never_stay_in_the_catalog():
    assert not set(ENTRIES) & (set(GAMES) | set(ENVS))


@pytest.mark.parametrize("fields, says", [
    (dict(sizes=(3, 5), default_size=3, default_win_length=3, rules=("freestyle",), default_rule="freestyle",
          parameters={"rows": Parameter(2, (2, 3))}), "parameters and arguments are a factory's"),
    (dict(factory=DOTS, parameters={"rows": 3}), "parameter 'rows' must be a Parameter(default, choices)"),
    (dict(factory=DOTS, parameters={"name": Parameter(2, (2,))}), "'name' cannot name an argument"),
    (dict(factory=DOTS, parameters={"rows": Parameter(2, (2, 3))}, arguments={"rows": 3}),
     "rows cannot be both a parameter and a fixed argument"),
    (dict(factory=DOTS, parameters={"depth": Parameter(2, (2,))}), "does not build a game: TypeError"),
    (dict(factory="games.misere_game:AvoidThreeGame", arguments={"rows": 3}), "does not build a game: TypeError"),
])  # fmt: skip
def test_a_bad_declaration_is_refused_naming_the_entry(fields, says):
    with pytest.raises(CatalogError, match="^catalog entry 'dots_and_boxes': ") as info:
        GameInfo(**{"name": "dots_and_boxes", "summary": "dots and boxes", **fields})
    assert says in str(info.value)


def test_a_parameter_names_its_default_among_its_choices():
    with pytest.raises(ValueError, match=r"the default 5 is not among the choices \(2, 3\)"):
        Parameter(5, (2, 3))


def test_a_factory_that_forgets_an_argument_is_refused():
    class Forgetful(DotsAndBoxesGame):
        def __init__(self, rows: int = 2, columns: int = 2, name: str = "dots_and_boxes") -> None:
            super().__init__(rows, columns, name=name)
            del self.rows  # an env could not be told which size to build

    sys.modules["tests_forgetful"] = types.SimpleNamespace(Forgetful=Forgetful)
    try:
        with pytest.raises(CatalogError, match="does not keep its arguments as attributes of the same name"):
            GameInfo(name="dots_and_boxes", summary="x", factory="tests_forgetful:Forgetful",
                     parameters={"rows": Parameter(2, (2, 3))})  # fmt: skip
    finally:
        del sys.modules["tests_forgetful"]
