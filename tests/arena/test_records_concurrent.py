"""Several processes saving games into one folder at once: every record of every process is kept, whole."""

from __future__ import annotations

import multiprocessing

from boardgame_envs import tictactoe_v0
from boardgame_envs.arena import match, records

PROCESSES, GAMES = 4, 5


def play_and_save(folder: str, seed: int, start, done) -> None:
    start.wait()  # all at once: the same names, game-0001.sgf ..., at the same moments
    done.put(match(tictactoe_v0.env, "random", "greedy", games=GAMES, seed=seed, progress=False,
                   save_games=folder).games)  # fmt: skip


def test_processes_saving_into_one_folder_keep_every_record(tmp_path):
    folder = tmp_path / "games"
    context = multiprocessing.get_context("fork")
    start, done = context.Barrier(PROCESSES), context.Queue()
    workers = [context.Process(target=play_and_save, args=(str(folder), seed, start, done)) for seed in range(PROCESSES)]
    for w in workers:
        w.start()
    played = [done.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(timeout=60)
    assert [w.exitcode for w in workers] == [0] * PROCESSES and played == [GAMES] * PROCESSES
    files = sorted(folder.iterdir())
    assert len(files) == PROCESSES * GAMES, [p.name for p in files]  # it was GAMES: each process wrote over the others
    read = [records.load(p) for p in files]  # every file whole: each parses as a finished game
    assert all(r.board_size == 3 and r.moves for r in read)
    assert sorted(r.black for r in read).count("random") == PROCESSES * ((GAMES + 1) // 2)  # A black in odd games


def test_a_second_match_into_the_same_folder_keeps_the_first_ones_records(tmp_path):
    first = match(tictactoe_v0.env, "random", "greedy", games=3, seed=0, progress=False, save_games=tmp_path)
    match(tictactoe_v0.env, "random", "greedy", games=3, seed=1, progress=False, save_games=tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["game-0001-2.sgf", "game-0001.sgf", "game-0002-2.sgf", "game-0002.sgf", "game-0003-2.sgf",
                     "game-0003.sgf"]  # fmt: skip
    assert [records.load(tmp_path / f"game-000{i}.sgf") for i in (1, 2, 3)] == first.records


def test_two_ratings_into_one_folder_keep_every_record(tmp_path):
    from boardgame_envs.ladder import rate

    for seed in (0, 1):
        assert rate("random", "tictactoe", games=2, seed=seed, progress=False, save_games=tmp_path).games == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-0001-2.sgf", "game-0001.sgf", "game-0002-2.sgf",
                                                          "game-0002.sgf"]  # fmt: skip
