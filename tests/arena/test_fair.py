"""Fair matches: colour-swapped pairs over openings, records, SPRT, bad policies, Ctrl-C, backends."""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading

import pytest

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.arena import records
from boardgame_envs.arena import PolicyError, match
from boardgame_envs.games.opening_positions import Opening
from boardgame_envs.arena.sprt import SPRT
from boardgame_envs.policies import RandomPolicy
from faulty_policies import InterruptAtGame, crasher, occupier

TTT_OPENINGS = ["b2", "a1", "a1 b2"]  # tic-tac-toe: the centre, the bottom-left corner, corner then centre


def test_pairs_play_each_opening_twice_with_colours_swapped():
    r = match(tictactoe_v0.env, "perfect", "random", games=6, seed=1, openings=TTT_OPENINGS, progress=False)
    assert r.pairs and r.games == 6
    assert [rec.opening for rec in r.records] == ["b2", "b2", "a1", "a1", "a1 b2", "a1 b2"]
    assert [(rec.black, rec.white) for rec in r.records[:2]] == [("perfect", "random"), ("random", "perfect")]
    assert all(rec.moves[: rec.opening_moves] == list(o) for rec, o in zip(r.records, [[4], [4], [6], [6], [6, 4], [6, 4]]))
    assert r.losses == 0 and sum(r.pentanomial()) == 3
    assert "colour-swapped pairs over 3 openings" in str(r) and "pairs by perfect's points" in str(r)


def test_results_do_not_depend_on_jobs():
    kwargs = dict(games=8, seed=5, openings=TTT_OPENINGS, progress=False)
    one = match(tictactoe_v0.env, "random", "mcts:simulations=20", **kwargs)
    two = match(tictactoe_v0.env, "random", "mcts:simulations=20", jobs=2, **kwargs)
    assert [rec.moves for rec in one.records] == [rec.moves for rec in two.records]
    assert one.by_seat == two.by_seat


def test_saved_games_read_back(tmp_path):
    env_fn = functools.partial(gomoku_v0.env, board_size=9, rule="renju")
    r = match(env_fn, "random", "random", games=2, openings=[Opening("mine", (40, 31), 9)], save_games=tmp_path,
              progress=False)  # fmt: skip
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["game-0001.sgf", "game-0002.sgf"]
    assert [records.load(f) for f in files] == r.records
    assert records.load(files[0]).opening == "mine" and records.load(files[0]).rule == "renju"


def test_an_illegal_move_loses_the_game_and_the_record_says_so():
    r = match(tictactoe_v0.env, occupier, "random", games=4, progress=False)
    assert r.losses == 4
    assert all(rec.forfeit and "played an illegal move and loses" in rec.reason and "occupied" in rec.reason
               for rec in r.records)  # fmt: skip
    assert "4 game(s) lost by an illegal move" in str(r)
    assert records.to_sgf(r.records[0]).count("+F]") == 1


def test_a_policy_that_raises_names_itself_and_the_position():
    with pytest.raises(PolicyError, match=r"policy 'crasher' \(X\) raised ValueError: boom; position after: b2 a1"):
        match(tictactoe_v0.env, crasher, "random", games=2, openings=["b2 a1"], progress=False)


def test_the_pool_is_closed_when_a_worker_fails():
    with pytest.raises(PolicyError, match="crasher"):
        match(tictactoe_v0.env, crasher, "random", games=8, jobs=2, progress=False)
    assert multiprocessing.active_children() == []


def test_ctrl_c_returns_the_games_played_so_far():
    # The 4th policy built is the 3rd game's: match() builds each policy once before the first game, to check it.
    r = match(tictactoe_v0.env, InterruptAtGame(4), "random", games=10, progress=False)
    assert r.interrupted and r.games == 2 and "interrupted" in str(r)
    # Ctrl-C reaches the main process (workers ignore SIGINT) while it waits for the workers.
    # The match is far longer than the timer on any machine, so the signal always lands inside it.
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = match(tictactoe_v0.env, "mcts:simulations=3000", "random", games=20_000, jobs=2, progress=False)
    finally:
        timer.cancel()
    assert r.interrupted and r.games < 20_000
    assert multiprocessing.active_children() == []


def test_a_policy_for_another_game_is_refused_before_any_game():
    # Each spec is built once in this process and asked whether it plays the game: a network trained
    # on connect four, or the perfect player on 15x15, fails here, not in a worker's first game.
    built = []

    def counted(seed):
        built.append(seed)
        return RandomPolicy(seed=seed)

    with pytest.raises(ValueError, match="trained on connect four, 6x7, not on 3x3, 3 in a row"):
        match(tictactoe_v0.env, "pretrained:connect-four", counted, games=4, jobs=2, progress=False)
    assert multiprocessing.active_children() == []
    with pytest.raises(ValueError, match="perfect"):
        match(lambda: gomoku_v0.env(board_size=15), counted, "perfect", games=2, progress=False)
    assert built == [0]  # the second match's check of A (seed 0) before B was refused; no game built one


def test_sprt_stops_early_at_the_same_game_for_any_jobs():
    kwargs = dict(games=200, seed=2, openings=TTT_OPENINGS, sprt="0,200", progress=False)
    one = match(tictactoe_v0.env, "perfect", "random", **kwargs)
    assert one.decision == "H1" and one.games < 200 and one.games % 2 == 0
    assert one.llr >= SPRT(0, 200).bounds[1]
    two = match(tictactoe_v0.env, "perfect", "random", jobs=2, **kwargs)
    assert (two.games, two.llr, two.decision) == (one.games, one.llr, one.decision)
    trinomial = match(tictactoe_v0.env, "random", "perfect", games=200, sprt=SPRT(0, 200), progress=False)
    assert trinomial.decision == "H0" and not trinomial.pairs
    assert "H0 accepted" in str(trinomial)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(games=0), "games must be a positive integer, got 0"),
        (dict(games=-4), "games must be a positive integer"),
        (dict(jobs=os.cpu_count() + 1), "more than the .* cores"),
        (dict(games=5, openings=TTT_OPENINGS), "even number of games, not 5"),
        (dict(openings="rif99"), "neither a built-in opening set"),
        (dict(openings=["h8"]), "off the board"),
        (dict(pairs=True), "pairs=True needs openings"),
        (dict(sprt="10"), "ELO0,ELO1"),
        (dict(sprt="10,0"), "elo0 < elo1"),
        (dict(backend="mpi"), "unknown backend 'mpi'"),
    ],
)
def test_bad_match_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        match(tictactoe_v0.env, "random", "random", **{"games": 4, "progress": False, **kwargs})


def test_sprt_llr_matches_known_values():
    t = SPRT(0, 10)
    assert t.bounds == pytest.approx((-2.944, 2.944), abs=1e-3)
    # Five wins: under the fitted distributions the LLR is close to 5 log(s1 / s0), small.
    assert t.llr([1.0] * 5) == pytest.approx(5 * 0.0280, abs=0.01)
    assert t.llr([1.0, 0.0] * 100) < 0 < t.llr([1.0, 0.5] * 100)
    assert t.decision(3.0) == "H1" and t.decision(-3.0) == "H0" and t.decision(0.0) is None


@pytest.mark.slow
def test_ray_backend_gives_the_local_result():
    ray = pytest.importorskip("ray")
    kwargs = dict(games=4, seed=3, openings=TTT_OPENINGS[:2], progress=False)
    local = match(tictactoe_v0.env, "random", "random", **kwargs)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = match(tictactoe_v0.env, "random", "random", jobs=2, backend="ray", **kwargs)
    finally:
        ray.shutdown()
    assert [rec.moves for rec in remote.records] == [rec.moves for rec in local.records]


def test_cli_arena_openings_records_and_mistakes(tmp_path, capsys):
    from boardgame_envs.cli import main

    assert main(["arena", "gomoku", "random", "random", "--rule", "renju", "--games", "2", "--save-games", str(tmp_path)]) == 0
    assert "2 games, colour-swapped pairs over rif26" in capsys.readouterr().out  # the default on 15x15 renju
    assert records.load(tmp_path / "game-0001.sgf").opening == "Kansei"
    mine = tmp_path / "mine.txt"
    mine.write_text("# board_size: 3\ncentre: b2\n")
    assert main(["arena", "tictactoe", "random", "random", "--games", "2", "--openings", str(mine), "--sprt", "0,50"]) == 0
    out = capsys.readouterr().out
    assert f"pairs over {mine}" in out and "LLR" in out
    for argv, message in [
        (["--openings", "rif26"], "for 15x15, not 3x3"),
        (["--openings", "nope"], "neither a built-in opening set"),
        (["--games", "0"], "--games: 0 is out of range: 1..1,000,000"),
        (["--jobs", str(os.cpu_count() + 1)], "cores of this machine"),
        (["--sprt", "5"], "ELO0,ELO1"),
    ]:
        assert main(["arena", "tictactoe", "random", "random", *argv]) == 2
        assert message in capsys.readouterr().err


def test_play_game_from_an_opening_in_any_form():
    from boardgame_envs.arena import play_game
    from boardgame_envs.policies.random import RandomPolicy

    env_fn = functools.partial(gomoku_v0.env, board_size=15, rule="renju")
    for opening in ("rif26/Kagetsu", "h8 h9 i9", [112, 97, 98]):
        winner, moves = play_game(env_fn, RandomPolicy(seed=1), RandomPolicy(seed=2), opening)
        assert moves[:3] == [112, 97, 98] and winner in (0, 1, 2)
