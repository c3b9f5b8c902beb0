"""Matches between policies: one game under the rules, matches in colour pairs over openings, where they run, SPRT, records.

- :mod:`~boardgame_envs.arena.referee`: one game; each policy is handed a copy of the
  state and its answer is checked and played on the referee's own state.
- :mod:`~boardgame_envs.arena.matches`: :func:`match` (pairs, seeds, intervals, Elo,
  SPRT stops); :mod:`~boardgame_envs.arena.tournament`: :func:`round_robin`.
- :mod:`~boardgame_envs.arena.evidence`: what a match's games say: distinct games and
  colour pairs, and the score's 95% interval from the distinct ones.
- :mod:`~boardgame_envs.arena.backends`: where games run (this process, worker
  processes, Ray), in task order; a worker that dies is an error, not a hang.
- :mod:`~boardgame_envs.arena.sprt`: the sequential test.
- :mod:`~boardgame_envs.arena.records`: game records as files (save, save_new, load); the record
  itself in :mod:`~boardgame_envs.arena.game_record`, its formats in :mod:`~boardgame_envs.arena.sgf`
  (m,n,k games) and :mod:`~boardgame_envs.arena.move_list_records` (any other game).
"""

from boardgame_envs.arena.matches import (
    ELO_CAP,
    MatchResult,
    a_points,
    check_games_and_jobs,
    check_policy,
    elo_from_score,
    match,
    pair_points,
    resolve_openings,
)
from boardgame_envs.arena.tournament import round_robin, round_robin_table
from boardgame_envs.arena.referee import COLOR_NAMES, GameTask, PolicyError, play_game, play_record, play_task

__all__ = [
    "COLOR_NAMES",
    "ELO_CAP",
    "GameTask",
    "MatchResult",
    "PolicyError",
    "a_points",
    "check_games_and_jobs",
    "check_policy",
    "elo_from_score",
    "match",
    "pair_points",
    "play_game",
    "play_record",
    "play_task",
    "resolve_openings",
    "round_robin",
    "round_robin_table",
]
