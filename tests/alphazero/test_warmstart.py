"""Expert iteration's warm start: the expert's moves (and only those) become examples, once per run."""

from __future__ import annotations

import dataclasses
import functools
import time

import numpy as np
import pytest

from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, load_checkpoint
from boardgame_envs.alphazero import warm_phase  # where the trainer plays the warm start's games
from boardgame_envs.alphazero.warmstart import WarmTask, play_warm_game, warm_targets, warm_tasks
from boardgame_envs.cli import main as cli_main
from boardgame_envs.games.lines import BLACK, WHITE

# 6x6 four in a row: a first-player win, so the expert's games are decisive and short.
SIX = functools.partial(gomoku_v0.env, board_size=6, win_length=4, rule="freestyle")
EXPERT = "alphabeta:nodes=200"
TINY = dict(blocks=1, channels=8, parallel_games=4, games_per_iteration=4, simulations=4, train_steps=2,
            batch_size=16, eval_every=0, progress=False, tensorboard=False)  # fmt: skip


def warm_config(out, **overrides) -> AlphaZeroConfig:
    base = dict(warm_start=EXPERT, warm_games=6, warm_random_moves=3, warm_steps=4, workers=1, value_decay=0.5)
    return AlphaZeroConfig.for_game("gomoku", 6, out=None if out is None else str(out), **{**TINY, **base, **overrides})


def test_a_game_keeps_only_the_expert_moves_after_the_opening_and_random_moves():
    # Opening: black c3, white d4 (actions 14 and 21 on 6x6); then exactly 3 random moves.
    task = WarmTask(SIX, EXPERT, seed=5, opening=(14, 21), random_moves=3)
    game = play_warm_game(task)
    assert game.winner in (BLACK, WHITE) and len(game.actions) == game.length - 5
    np.testing.assert_array_equal(game.plies, np.arange(5, game.length))  # moves 1-5 were not the expert's
    stones = game.planes[:, :, :, :2].sum(axis=(1, 2, 3))
    np.testing.assert_array_equal(stones, game.plies)  # each example is the position the expert moved from
    assert all(game.masks[i, a] for i, a in enumerate(game.actions))
    np.testing.assert_array_equal(game.colors, np.where(game.plies % 2 == 0, BLACK, WHITE))
    assert play_warm_game(task).actions.tolist() == game.actions.tolist()  # a task is one game, always


def test_targets_are_one_hot_moves_and_decayed_results():
    game = play_warm_game(WarmTask(SIX, EXPERT, seed=1, opening=(), random_moves=2))
    policies, values = warm_targets(game, value_decay=0.5, num_actions=36)
    assert np.all(policies.sum(axis=1) == 1.0) and np.all(policies.max(axis=1) == 1.0)
    np.testing.assert_array_equal(policies.argmax(axis=1), game.actions)
    sign = np.where(game.colors == game.winner, 1.0, -1.0)
    plies_left = game.length - 1 - game.plies
    np.testing.assert_allclose(values, sign * (1 - 0.5 * plies_left / 36), rtol=1e-6)
    assert values[-1] == 1.0  # the winning move itself
    draw = dataclasses.replace(game, winner=0)
    assert np.all(warm_targets(draw, 0.5, 36)[1] == 0.0)


def test_warm_start_fills_the_buffer_with_expert_examples_only():
    trainer = AlphaZeroTrainer(SIX, warm_config(None))
    trainer.warm_start()
    n = len(trainer.buffer)
    assert n == trainer.warm["positions"] > 0 and trainer.warm["games"] == 6 and trainer.warm["done"]
    assert trainer.warm["black_wins"] + trainer.warm["white_wins"] + trainer.warm["draws"] == 6
    policies, masks, values = trainer.buffer.policies[:n], trainer.buffer.masks[:n], trainer.buffer.values[:n]
    assert np.all(policies.sum(axis=1) == 1.0) and np.all(policies.max(axis=1) == 1.0)  # one-hot
    assert masks[np.arange(n), policies.argmax(axis=1)].all()  # on a legal move
    # Values: the result for the mover, shrunk by t/36 per ply to the end; +1 exactly on winning moves.
    plies_left = (1 - np.abs(values)) / 0.5 * 36
    np.testing.assert_allclose(plies_left, np.round(plies_left), atol=1e-3)
    assert np.sum(values == 1.0) == trainer.warm["black_wins"] + trainer.warm["white_wins"]
    # Random moves are not examples: each game's first example has as many stones as its task drew
    # random moves (the trainer's rng, seeded by config.seed, drew the tasks first thing).
    tasks = warm_tasks(SIX, trainer.game, EXPERT, 6, 3, np.random.default_rng(trainer.config.seed))
    stones = trainer.buffer.planes[:n, :, :, :2].sum(axis=(1, 2, 3))
    starts = np.flatnonzero(np.diff(stones, prepend=99) != 1)  # a game's examples add one stone each
    assert stones[starts].tolist() == [task.random_moves for task in tasks]
    assert len({task.random_moves for task in tasks}) > 1  # the rng did vary them


def test_the_examples_do_not_depend_on_the_number_of_workers():
    buffers = []
    for workers in (1, 2):
        trainer = AlphaZeroTrainer(SIX, warm_config(None, workers=workers, warm_steps=0))
        trainer.warm_start()
        n = len(trainer.buffer)
        buffers.append((trainer.buffer.planes[:n].copy(), trainer.buffer.policies[:n].copy(), trainer.buffer.values[:n].copy()))
    for one, two in zip(*buffers):
        np.testing.assert_array_equal(one, two)


def test_the_warm_start_runs_once_and_an_interrupted_one_goes_on(tmp_path, monkeypatch):
    trainer = AlphaZeroTrainer(SIX, warm_config(tmp_path, warm_steps=100, iterations=1))
    trainer.warm_start(deadline=time.perf_counter())  # the clock is out: the games, no learning steps
    saved = load_checkpoint(tmp_path)["warm_start"]
    assert saved["games"] == 6 and saved["steps"] == 0 and not saved["done"]

    def no_games(*args, **kwargs):
        raise AssertionError("the warm start's games were played again")

    monkeypatch.setattr(warm_phase, "play_warm_games", no_games)
    resumed = AlphaZeroTrainer(SIX, warm_config(tmp_path, warm_steps=100, iterations=1))
    assert len(resumed.buffer) == trainer.warm["positions"]
    rows = resumed.train()  # the remaining learning steps, then iteration 1
    assert resumed.warm["steps"] == 100 and resumed.warm["done"] and [r["iteration"] for r in rows] == [1.0]
    again = AlphaZeroTrainer(SIX, warm_config(tmp_path, warm_steps=100, iterations=2))
    steps_before = again.warm["steps"]
    assert [r["iteration"] for r in again.train()] == [2.0] and again.warm["steps"] == steps_before


@pytest.mark.parametrize(
    ("bad", "field"),
    [(dict(warm_games=0), "warm_games"), (dict(warm_steps=-1), "warm_steps"),
     (dict(warm_random_moves=-2), "warm_random_moves"), (dict(warm_start="nosuchpolicy"), "warm_start"),
     (dict(warm_start="alphabeta:depht=3"), "warm_start"), (dict(warm_start=3), "warm_start")],  # fmt: skip
)
def test_bad_warm_start_settings_name_the_field(bad, field):
    with pytest.raises(ValueError, match=field):
        AlphaZeroConfig(**bad)


def test_cli_train_renju_with_a_warm_start(tmp_path, capsys):
    out = tmp_path / "renju"
    args = ["train", "renju", "--warm-start", "alphabeta:nodes=1000", "--warm-games", "2", "--warm-random-moves", "0",
            "--warm-steps", "2", "--workers", "1", "--iterations", "1", "--out", str(out), "--no-progress",
            "--parallel-games", "2", "--games-per-iteration", "2", "--simulations", "2", "--blocks", "1",
            "--channels", "8", "--train-steps", "1", "--batch-size", "8", "--eval-every", "0", "--seed", "1"]  # fmt: skip
    assert cli_main(args) == 0
    warm = load_checkpoint(out)["warm_start"]
    assert warm["games"] == 2 and warm["steps"] == 2 and warm["done"]
    assert "1 iterations" in capsys.readouterr().out
    assert cli_main(["train", "renju", "--warm-games", "0", "--iterations", "1"]) == 2
    assert "warm_games" in capsys.readouterr().err
