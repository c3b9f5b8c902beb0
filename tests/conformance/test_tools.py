"""Every catalog game through the package's tools: the arena's records save, load and replay; one tiny
trainer iteration; the ladder's levels build (a game without a shipped ladder gets one with one command)."""

from __future__ import annotations

import pytest

from boardgame_envs.arena import match
from boardgame_envs.arena.records import load, save
from boardgame_envs.cli import main as cli_main
from boardgame_envs.envs.factory import env_fn
from boardgame_envs.ladder.ladders import LADDERS, LADDERS_VARIABLE, LadderError, engine_of, ladder_for, levels
from boardgame_envs.policies.registry import make_policy
from conformance.cases import DEFAULTS, TEST_GAMES, case_fixture

case = pytest.fixture(params=DEFAULTS + TEST_GAMES, ids=lambda case: case.id)(case_fixture)


def test_arena_records_save_load_and_replay(case, tmp_path, capsys):
    result = match(env_fn(case.entry), "random", "greedy", games=2, progress=False, save_games=tmp_path / "games")
    files = sorted((tmp_path / "games").iterdir())
    assert len(files) == 2 and len(result.records) == 2
    for path in files:
        record = load(path)
        end = record.state()  # every move replayed by the rules
        assert end.terminal and end.winner == record.winner and end.game == case.game()
        again = save(record, tmp_path / "again.sgf")
        assert load(again) == record  # the round trip, in whichever format the game is saved
        capsys.readouterr()
        assert cli_main(["replay", str(path), "--moves", "1"]) == 0
        shown = capsys.readouterr().out
        assert record.black in shown and "move 1/" in shown


def test_one_trainer_iteration(case):
    from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer

    config = AlphaZeroConfig.for_game(
        case.entry, out=None, iterations=1, eval_every=0, warm_start=None, parallel_games=2, games_per_iteration=2,
        simulations=2, train_steps=1, batch_size=8, blocks=1, channels=4, progress=False,
    )  # fmt: skip
    rows = AlphaZeroTrainer(env_fn(case.entry), config).train()
    assert [row["iteration"] for row in rows] == [1.0]


def test_the_ladders_levels_build(case, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(LADDERS_VARIABLE, str(tmp_path))  # a ladder built here goes to this folder
    try:
        ladder = ladder_for(case.entry)
    except LadderError as exc:  # a game without a ladder yet: said in one line, naming the command that builds one
        assert "\n" not in str(exc) and f"no ladder for {case.entry}; build one with `boardgame-envs ladder build" in str(exc)
        argv = ["ladder", "build", case.entry, "--level", "random", "--level", "greedy", "--games-per-pair", "2",
                "--rounds", "1"]  # fmt: skip
        assert cli_main(argv) == 0, capsys.readouterr().err
        ladder = ladder_for(case.entry)  # the one command made a ladder that the next lookup finds
        assert ladder.folder == tmp_path and ladder.specs == ("random", "greedy")
    assert ladder.game_object() == case.game()
    rated = levels(case.entry)
    assert rated and rated[0].spec == ladder.specs[0]
    for level in rated:
        if not level.external:
            make_policy(level.spec, seed=0)
    for i, spec in enumerate(ladder.specs):
        if engine_of(spec) is None:
            assert make_policy(f"level:{ladder.name}/{i}", seed=0).act(case.game().new_state()) >= 0


def test_the_test_games_leave_the_catalog_after_their_tests():
    from boardgame_envs.games.catalog import ENVS, GAMES

    names = {case.entry for case in TEST_GAMES}
    assert names == {"avoid_three", "place_or_pass", "dots_and_boxes"} and not names & (set(GAMES) | set(ENVS))


def test_every_ladder_plays_a_catalog_game():
    from boardgame_envs.games.catalog import GAMES

    assert all(ladder.game in GAMES for ladder in LADDERS.values())
