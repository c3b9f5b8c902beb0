"""Matches between policies: colour-swapped pairs over openings, seeded, parallel; intervals, Elo, SPRT.

The round robin over several policies is :mod:`boardgame_envs.arena.tournament`.

A *spec* names a policy so that worker processes can build it: anything
:func:`boardgame_envs.policies.registry.make_policy` accepts (``"mcts:simulations=200"``,
a pair ``(name, kwargs)``, a ``.pt`` checkpoint path, any picklable factory
``f(seed) -> policy``).

With ``openings`` a match plays **game pairs**: each opening twice, A black in
the first game and white in the second, so that neither side profits from an
opening that favours one colour. By default (``openings="default"``) a match
plays the game's default set, the one the command line's ``arena`` plays and the
ladder's starts (:func:`resolve_openings` decides it for both: ``connect_four_2ply``
on connect four, ``rif26`` on 15x15 renju, ...; none on tic-tac-toe, whose ladder
starts from the empty board too). With ``openings=None`` (or ``"none"``) the games
start from the empty board and A's seat alternates. Under a tournament **opening rule** (an
``env_fn`` whose game has one: ``make_env("gomoku", rule="freestyle",
opening_rule="swap2")``) the pairs swap which policy is the first player;
the rule's swaps then decide the colours, and the result counts A's games by
seat and by the colour A ended with, and how often each policy held black. Every game gets its own seed derived
from the match seed and its index, both policies are rebuilt with seeds from
it, and results are taken in game order, so a match's result (an SPRT's
stopping point included) does not depend on ``jobs``, on the backend, or on
the order games finish in.

Each game is refereed by :mod:`boardgame_envs.arena.referee`: a policy acts on a
copy of the state; an illegal move or a :class:`~boardgame_envs.policies.base.Forfeit`
(an external engine's crash, timeout or bad answer) loses that game, and the
summary counts those losses by fault; a policy that raises anything else stops
the match with :class:`~boardgame_envs.arena.referee.PolicyError`, naming the
policy and the position. A worker process that dies twice on a game stops it
with :class:`~boardgame_envs.arena.backends.WorkerError`, naming the game: never
a hang. Ctrl-C stops the workers and returns the games finished so far
(``result.interrupted``).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs._compat import renamed_attributes
from boardgame_envs.arena.backends import check_backend, run_tasks
from boardgame_envs.arena.evidence import Evidence, from_counts, from_records, unit_keys
from boardgame_envs.arena.records import GameRecord, games_dir, save_new
from boardgame_envs.arena.referee import GameTask, play_task
from boardgame_envs.arena.sprt import SPRT, Samples
from boardgame_envs.games import opening_positions as opening_sets
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.policies.base import check_trained_on
from boardgame_envs.policies.registry import make_policy, spec_name
from boardgame_envs.arena.progress import progress_bar

ELO_CAP = 800.0  # |Elo| reported at most; a 100% score has no finite estimate
DEFAULT_OPENINGS = "default"  # openings=: the game's default set (resolve_openings), as the command line plays


@dataclass
class MatchResult:
    """Wins/draws/losses of policy A against B, overall and by A's seat (first = black).

    Under an opening rule (``opening_rule``) the first seat is the first
    player, whose colour the rule decides: ``by_colour`` counts A's games by the
    colour A held and ``a_black`` says, game by game, whether A held black.
    """

    name_a: str
    name_b: str
    by_seat: dict[str, list[int]] = field(default_factory=lambda: {"first": [0, 0, 0], "second": [0, 0, 0]})
    records: list[GameRecord] = field(default_factory=list)
    by_colour: dict[str, list[int]] = field(default_factory=lambda: {"black": [0, 0, 0], "white": [0, 0, 0]})
    a_black: list[bool] = field(default_factory=list)  # per game, in order: A held black
    opening_rule: str = ""  # the tournament opening rule every game was played under, "" for none
    openings: str = ""  # what the openings were, for the report; "" from the empty board
    pairs: bool = False
    interrupted: bool = False  # stopped by Ctrl-C: the games finished so far
    # save_games could not write a record (a full disk): why, with the file; the match played on unsaved,
    # since its games are the result and a lost file is not a reason to lose them too. "" when all were saved.
    not_saved: str = ""
    sprt: SPRT | None = None
    llr: float = 0.0
    decision: str | None = None  # "H0" or "H1" once the SPRT stopped the match
    sprt_samples: int = 0  # the SPRT's samples (pairs or games) so far, and how many of them were distinct
    sprt_distinct: int = 0
    # > 0 when the SPRT stopped undecided: its last ``replaying`` samples, a whole cycle of the starts, replayed
    # the cycle before them move for move
    replaying: int = 0

    @property
    def wins(self) -> int:
        return sum(v[0] for v in self.by_seat.values())

    @property
    def draws(self) -> int:
        return sum(v[1] for v in self.by_seat.values())

    @property
    def losses(self) -> int:
        return sum(v[2] for v in self.by_seat.values())

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def faults(self) -> dict[str, int]:
        """Games lost by a fault, by kind (``"illegal move"``, ``"timeout"``, ``"crash"``, ...), most frequent first."""
        counts: dict[str, int] = {}
        for r in self.records:
            if r.forfeit:
                kind = r.fault or "forfeit"
                counts[kind] = counts.get(kind, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def pentanomial(self) -> list[int]:
        """Completed pairs by A's points in the pair: 0, 1/2, 1, 3/2, 2 (pair matches only)."""
        counts = [0] * 5
        for points in pair_points(self.records, self.a_black):
            counts[int(points * 2)] += 1
        return counts

    def evidence(self) -> Evidence:
        """What the games say (:mod:`~boardgame_envs.arena.evidence`): distinct games and colour pairs, the score
        and its 95% interval from the distinct pairs; from the counts alone when the records are not all here."""
        if len(self.records) == self.games == len(self.a_black) and self.games:
            points = [a_points(r, black) for r, black in zip(self.records, self.a_black)]
            return from_records(self.records, self.a_black, points)
        return from_counts(self.wins, self.draws, self.losses)

    def score(self) -> tuple[float, float, float]:
        """A's mean score (win 1, draw 1/2) and its 95% interval from the distinct evidence (0..1 when
        the games cannot bound it: :meth:`evidence` says why)."""
        ev = self.evidence()
        return ev.score, ev.low, ev.high

    def elo(self) -> tuple[float, float, float]:
        """Elo difference A - B with the interval mapped from the score's, capped at ±ELO_CAP."""
        return tuple(elo_from_score(x) for x in self.score())  # type: ignore[return-value]

    def __str__(self) -> str:
        s, lo, hi = self.score()
        e, elo_lo, elo_hi = (x + 0.0 for x in self.elo())  # + 0.0 turns -0.0 into 0.0 for printing
        how = f"colour-swapped pairs over {self.openings}" if self.pairs else (
            f"openings {self.openings}, seats alternated" if self.openings
            else "from the empty board, seats alternated")  # fmt: skip
        if self.opening_rule:
            how = (f"under {self.opening_rule}, " + ("pairs of seats (each policy the first player once a pair)"
                                                     if self.pairs else "seats alternated"))  # fmt: skip
        lines = [f"{self.name_a} vs {self.name_b}: {self.games} games, {how}"]
        if self.interrupted:
            lines.append("  interrupted: the games finished so far")
        width = max(22, len(self.name_a) + 12)
        lines.append(f"  {'seat of ' + self.name_a:<{width}}{'wins':>6}{'draws':>7}{'losses':>8}")
        for seat, (w, d, l) in self.by_seat.items():
            lines.append(f"  {seat:<{width}}{w:>6}{d:>7}{l:>8}")
        if self.opening_rule:
            lines.append(f"  colour of {self.name_a}")
            for colour, (w, d, l) in self.by_colour.items():
                lines.append(f"  {colour:<{width}}{w:>6}{d:>7}{l:>8}")
        lines.append(f"  {'total':<{width}}{self.wins:>6}{self.draws:>7}{self.losses:>8}")
        if self.opening_rule:
            lines.append(f"  {self.black_share()}")
        faults = self.faults()
        if faults:
            lines.append(f"  {fault_text(faults)} (see the records)")
        glitches = sum(sum(r.glitches) for r in self.records)
        if glitches:
            lines.append(f"  {glitches} engine glitch(es) recovered without a forfeit")
        if self.pairs:
            lines.append(f"  pairs by {self.name_a}'s points 0, 1/2, 1, 3/2, 2: {self.pentanomial()}")
        ev = self.evidence()
        if ev.paired:
            lines.append(f"  {ev.describe()}")
        if ev.bounded:
            lines.append(f"  score {s:.3f} (95% {lo:.3f}..{hi:.3f}); {_elo_text(s, lo, hi, e, elo_lo, elo_hi)}")
        else:
            lines.append(f"  score {s:.3f}: no interval and no Elo, the games cannot bound them")
        if self.sprt is not None:
            lines.append(f"  {self.sprt_text()}")
        return "\n".join(lines)

    def sprt_text(self) -> str:
        """The SPRT's line: its LLR, bounds and verdict, and what the LLR counted when some samples were replays."""
        assert self.sprt is not None
        lower, upper = self.sprt.bounds
        what = "colour pair" if self.pairs else "game"
        verdict = {"H1": f"H1 accepted (Elo >= {self.sprt.elo1:g})", "H0": f"H0 accepted (Elo <= {self.sprt.elo0:g})"}
        text = f"{self.sprt}: LLR {self.llr:+.2f} ({lower:+.2f}, {upper:+.2f}): "
        counted = f"{self.sprt_distinct} distinct {what}s of {self.sprt_samples}"
        if self.replaying:
            return (text + f"no decision on this evidence: the last {self.replaying} {what}(s) replayed the "
                    f"{self.replaying} before them move for move, so more games would add nothing ({counted}; "
                    f"vary the openings)")  # fmt: skip
        text += verdict.get(self.decision or "", "no decision yet")
        if self.sprt_distinct < self.sprt_samples:
            text += f" ({counted}: a replayed {what} adds nothing)"
        return text


    def black_share(self) -> str:
        """How often each policy held black: ``greedy held black in 3 of 4 games (as the first player 2 of 2, as the
        second 1 of 2); random in 1``."""
        first = [black for i, black in enumerate(self.a_black) if i % 2 == 0]  # match() seats A first in even games
        second = [black for i, black in enumerate(self.a_black) if i % 2]
        held = sum(self.a_black)
        return (f"{self.name_a} held black in {held} of {self.games} games (as the first player {sum(first)} of "
                f"{len(first)}, as the second {sum(second)} of {len(second)}); {self.name_b} in {self.games - held}")


def fault_text(faults: dict[str, int]) -> str:
    """Games lost by a fault in words, the one wording of the arena and ``rate``: ``4 game(s) lost by a crash``,
    ``3 game(s) lost by a fault: 2 by a timeout, 1 by a crash`` (``faults``: kind -> games, most frequent first)."""
    if len(faults) == 1:
        ((kind, count),) = faults.items()
        return f"{count} game(s) lost by {_article(kind)}"
    kinds = ", ".join(f"{count} by {_article(kind)}" for kind, count in faults.items())
    return f"{sum(faults.values())} game(s) lost by a fault: {kinds}"


def _article(kind: str) -> str:
    """``"an illegal move"``, ``"a timeout"``: a fault kind in a sentence."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _elo_text(s: float, lo: float, hi: float, e: float, elo_lo: float, elo_hi: float) -> str:
    """The Elo line: an end of the score interval at 0% or 100% bounds no Elo, so it is said, not printed as ±cap."""
    if s >= 1.0:
        return f"Elo at least {elo_lo:+.0f} (95%; every game won: no upper bound)"
    if s <= 0.0:
        return f"Elo at most {elo_hi:+.0f} (95%; every game lost: no lower bound)"
    low = "no lower bound" if lo <= 0.0 else f"{elo_lo:+.0f}"
    high = "no upper bound" if hi >= 1.0 else f"{elo_hi:+.0f}"
    return f"Elo {e:+.0f} (95% {low}..{high})"


def elo_from_score(score: float) -> float:
    """Elo difference that predicts ``score``; ±ELO_CAP at 0 and 1."""
    if score <= 0.0:
        return -ELO_CAP
    if score >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400.0 * math.log10(1.0 / score - 1.0)))


def a_points(record: GameRecord, a_black: bool) -> float:
    """A's points in one game: 1 win, 1/2 draw, 0 loss; a RecordError for a game with no result."""
    return record.points(BLACK if a_black else WHITE)


def pair_points(records: list[GameRecord], a_black: list[bool] | None = None) -> Iterator[float]:
    """A's points in each completed pair (games 2p and 2p+1: A black, then A white; or, under an opening rule,
    whichever colour ``a_black[i]`` says A held in game ``i``)."""
    for i in range(0, len(records) - 1, 2):
        first, second = (True, False) if a_black is None else (a_black[i], a_black[i + 1])
        yield a_points(records[i], first) + a_points(records[i + 1], second)


def resolve_openings(openings: Any, game: Any) -> Any:
    """What ``openings`` means for ``game``: the one place that decides a match's default, for :func:`match`,
    the round robin and the command line alike.

    ``"default"`` is :func:`~boardgame_envs.games.opening_positions.match_default`'s set (the ladder's starts:
    ``connect_four_2ply``, ``rif26`` on 15x15 renju, the balanced sets on freestyle boards), or None where the
    game has none (tic-tac-toe) or plays under an opening rule (the rule lays the opening); ``None`` and
    ``"none"`` are None, the empty board; anything else is returned as it is (a set's name, a file, a list).
    """
    if isinstance(openings, str) and openings == DEFAULT_OPENINGS:
        return None if isinstance(game, OpeningRuleGame) else opening_sets.match_default(game)
    if isinstance(openings, str) and openings == "none":
        return None
    return openings


def check_policy(policy: Any, env_fn: Callable[[], Any]) -> None:
    """Build ``policy`` once here, so that a bad spec, or a policy for another game (a network trained on
    another, the perfect player beyond its boards), fails before any game is played, not in a worker's game."""
    built = make_policy(policy, seed=0)
    try:
        if not hasattr(built, "act"):
            raise TypeError(f"{spec_name(policy)!r} does not make a policy: it has no act(state)")
        game = env_fn().unwrapped.game
        check_trained_on(spec_name(policy), getattr(built, "game", None), game)
        check = getattr(built, "check_game", None)
        if callable(check):  # a policy that can tell: a model of another game's shape, the perfect player on big boards
            check(game)
    finally:
        if callable(getattr(built, "close", None)):
            built.close()  # an external engine's process: each game starts its own


def check_games_and_jobs(games: int, jobs: int, backend: str = "local") -> None:
    """Raise ValueError for a number of games or jobs that cannot be played, or a backend that cannot play them."""
    check_backend(backend)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    cores = os.cpu_count() or 1
    if backend == "local" and jobs > cores:
        raise ValueError(f"jobs={jobs} is more than the {cores} cores of this machine; use at most {cores}")


def match(
    env_fn: Callable[[], Any], spec_a: Any, spec_b: Any, games: int = 100, seed: int = 0,
    jobs: int = 1, progress: bool = True, *, openings: Any = DEFAULT_OPENINGS, pairs: bool | None = None,
    sprt: SPRT | str | None = None, save_games: str | os.PathLike | None = None, backend: str = "local",
    save_name: str = "game",
) -> MatchResult:  # fmt: skip
    """Play ``games`` games of A against B and count them; parallel over ``jobs`` processes (or Ray workers).

    ``openings``: ``"default"`` (the default: the game's set, as the command line's ``arena`` plays it and
    the ladder rates, see :func:`resolve_openings`), a built-in set name
    (:data:`boardgame_envs.games.opening_positions.NAMES`), a file, or a list (see
    :func:`boardgame_envs.games.opening_positions.resolve`); ``None`` or ``"none"``
    plays from the empty board with A's seat alternating. ``pairs`` (default:
    whenever openings are given) plays each opening twice, colours swapped,
    cycling through the set; ``games`` must then be even. Under an opening rule
    (the game of ``env_fn()`` has one) openings are refused (the rule lays the
    opening) and ``pairs`` (default on) swaps which policy is the first player
    within each pair. ``sprt`` (an
    :class:`~boardgame_envs.arena.sprt.SPRT` or ``"ELO0,ELO1"``) stops the match as
    soon as it decides. ``save_games``: a directory where each game is written
    as SGF, or as a move-list record for a game SGF cannot hold (``game-0001.sgf``, ``game-0001.txt``, ...,
    ``save_name`` before the number; a name already taken, by another process saving into
    the same folder or an earlier match, gets ``game-0001-2.sgf``: no record is written
    over another); a record that cannot be written (a full disk)
    ends the saving, not the match (:attr:`MatchResult.not_saved` says why). ``backend``: ``"local"`` (processes) or
    ``"ray"``.
    """
    check_games_and_jobs(games, jobs, backend)
    for spec in (spec_a, spec_b):
        check_policy(spec, env_fn)
    env = env_fn()
    game = env.unwrapped.game
    rule = game.opening.name if isinstance(game, OpeningRuleGame) else ""
    openings = resolve_openings(openings, game)
    if rule and openings is not None:
        raise ValueError(f"the {rule} opening rule lays the opening of every game: leave out openings")
    chosen = opening_sets.for_game(openings, game) if openings is not None else []
    pairs = bool(chosen or rule) if pairs is None else bool(pairs)
    described = openings if isinstance(openings, str) else (f"{len(chosen)} openings" if chosen else "")
    if pairs and not (chosen or rule):
        raise ValueError("pairs=True needs openings (a pair is one opening played with colours swapped)")
    if pairs and games % 2:
        what = (f"under {rule} plays pairs of seats" if rule
                else f"over openings ({described}) plays colour-swapped pairs")  # fmt: skip
        raise ValueError(f"a match {what}: give an even number of games, not {games} (an odd count is refused, "
                         f"never rounded)")
    if isinstance(sprt, str):
        sprt = SPRT.parse(sprt)
    names = (spec_name(spec_a), spec_name(spec_b))
    if names[0] == names[1]:
        names = (names[0] + " (A)", names[1] + " (B)")
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    starts = len(chosen) or 1  # the starts cycle (and seats alternate), so deterministic players replay a cycle
    samples = Samples(starts if pairs else math.lcm(starts, 2)) if sprt is not None else None
    tasks = []
    for i in range(games):
        opening = (chosen[(i // 2 if pairs else i) % len(chosen)]) if chosen else None
        tasks.append(GameTask(i, env_fn, spec_a, spec_b, names, int(seeds[i]), i % 2 == 0, opening))
    result = MatchResult(names[0], names[1], openings=described, pairs=pairs, sprt=sprt, opening_rule=rule)
    if save_games is not None:
        games_dir(save_games)
    bar = progress_bar(total=games, desc=f"{names[0]} vs {names[1]}", disable=not progress, leave=False)
    outcomes = run_tasks(play_task, tasks, jobs, backend, functools.partial(describe_game, games))
    try:
        for task, record in zip(tasks, outcomes):
            _count(result, task, record)
            if save_games is not None and not result.not_saved:
                try:
                    save_new(record, Path(save_games) / f"{save_name}-{task.index + 1:04d}.sgf")
                except OSError as exc:
                    result.not_saved = f"games {task.index + 1} on were not saved: {exc}"
            bar.update()
            if samples is not None and _sprt_step(result, sprt, samples):
                break
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        outcomes.close()  # stops the workers: at the end, on an SPRT decision, on Ctrl-C or an error
        bar.close()
    return result


def describe_game(games: int, index: int, task: GameTask) -> str:
    """How an error names a match game: ``game 3 of 8 (random black, mcts white)``."""
    black, white = task.names if task.a_black else task.names[::-1]
    return f"game {index + 1} of {games} ({black} black, {white} white)"


def _count(result: MatchResult, task: GameTask, record: GameRecord) -> None:
    a_black = task.a_black == (record.black_seat == 1)  # an opening rule may have given the first seat white
    points = a_points(record, a_black)
    column = 0 if points == 1.0 else 1 if points == 0.5 else 2
    result.by_seat["first" if task.a_black else "second"][column] += 1
    result.by_colour["black" if a_black else "white"][column] += 1
    result.a_black.append(a_black)
    result.records.append(record)


def _sprt_step(result: MatchResult, sprt: SPRT, samples: Samples) -> bool:
    """Update the LLR after a game (after a completed pair in pair matches); True once it decides, or once a
    whole cycle of the starts replayed the one before it (``result.replaying``: undecided, more games add nothing).

    A replayed sample moves the frequencies but adds no evidence, so it never decides: only a new one does.
    """
    records, a_black = result.records, result.a_black
    size = 2 if result.pairs else 1
    if len(records) % size:
        return False
    last = len(records) - size
    (key,) = unit_keys(records[last:], a_black[last:], paired=result.pairs)
    new = samples.add(sum(a_points(r, b) for r, b in zip(records[last:], a_black[last:])) / size, key)
    result.llr = sprt.llr(samples.scores, pairs=result.pairs, distinct=samples.distinct)
    result.sprt_samples, result.sprt_distinct = len(samples.scores), samples.distinct
    if not new:
        result.replaying = samples.cycle if samples.replaying else 0
        return samples.replaying
    result.decision = sprt.decision(result.llr)
    return result.decision is not None


__getattr__ = renamed_attributes(__name__)  # round_robin & co. moved to arena.tournament, with a warning until it goes
