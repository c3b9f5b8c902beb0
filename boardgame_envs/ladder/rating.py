"""Place any policy on a ladder's scale: adaptive games against the levels, an Elo with a 95% interval.

``rate`` starts against the middle level and, after each batch of colour-swapped
pairs, moves to the level whose published Elo is nearest the running estimate, so
most games are played near a 50% score, where each one says the most; after a
clean sweep it goes to the top level (a clean defeat: the bottom one), the only
level that can bound the estimate there. The estimate is the maximum-likelihood Elo
of the policy with every level held at its published rating, and its interval is
the profile-likelihood one (:func:`boardgame_envs.ladder.elo.fit_against`): no
virtual games, which pulled a few games' estimate towards the middle level, so a
95% interval covers the truth about 95% of the time from 4 games on
(``baselines/studies/results/rate_coverage.md``). A policy that won (lost) every game gets a
one-sided bound, never a two-sided interval. The interval measures the policy's
games only, on the published scale (each level's own interval is in the table).
Games lost by a fault (an engine's crash, timeout, bad answer, illegal move) count as
losses, as in the arena, and the rating names them in the arena's words
(:func:`~boardgame_envs.arena.matches.fault_text`), the policy's and the levels' apart:
an Elo bound earned by crashing is not read as a weak player's.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.arena.backends import Workers, check_backend
from boardgame_envs.arena.matches import check_policy, fault_text
from boardgame_envs.arena.records import games_dir, save_new
from boardgame_envs.envs.factory import env_fn as game_env_fn
from boardgame_envs.ladder.elo import Estimate, fit_against
from boardgame_envs.ladder.games import Task, play
from boardgame_envs.ladder.ladders import Level, ladder_for, levels
from boardgame_envs.policies.registry import spec_name
from boardgame_envs.arena.progress import progress_bar


@dataclass
class Rating:
    """A policy's place on a ladder: Elo, its 95% interval, and the games against each level.

    ``elo`` is ``+inf`` when the policy won every game (``high`` is then ``inf`` and
    ``low`` a one-sided 95% bound), ``-inf`` when it lost every game (the mirror
    case); :meth:`describe` says which. ``top`` and ``bottom`` are the ladder's
    highest and lowest rated levels.
    """

    policy: str
    ladder: str
    elo: float
    low: float
    high: float
    games: int
    per_level: dict[str, list[int]] = field(default_factory=dict)  # level name -> [wins, draws, losses]
    interrupted: bool = False
    top: Level | None = None
    bottom: Level | None = None
    above: str = ""  # levels the ladder has above ``top`` that were not played here, and how to play them
    opening_rule: str = ""  # the games were played under this opening rule; the levels were rated without one
    faults: dict[str, int] = field(default_factory=dict)  # the policy's games lost by a fault, by kind
    level_faults: dict[str, int] = field(default_factory=dict)  # the levels' games lost by a fault, by kind

    @property
    def half_width(self) -> float:
        """Half the interval's width (infinite for a one-sided bound)."""
        return (self.high - self.low) / 2

    @property
    def bounded(self) -> bool:
        """Whether the games bound the Elo on both sides."""
        return math.isfinite(self.low) and math.isfinite(self.high)

    def describe(self) -> str:
        """The estimate in words: ``Elo +X (95% +L .. +H)``, or the one-sided bound and why there is no other."""
        if self.elo == math.inf:
            return self._one_sided("won", "at least", self.low, self.top, "above", self.low > self.top.elo)
        if self.elo == -math.inf:
            return self._one_sided("lost", "at most", self.high, self.bottom, "below", self.high < self.bottom.elo)
        return f"Elo {_elo(self.elo)} (95% {_elo(self.low)} .. {_elo(self.high)})"

    def _one_sided(self, result: str, side: str, bound: float, end: Level, beyond: str, past: bool) -> str:
        why = f"one-sided 95%; it {result} all {self.games} games"
        if end.name not in self.per_level:
            other = "stronger" if beyond == "above" else "weaker"
            return f"Elo {side} {_elo(bound)} ({why}: no bound on the other side until it meets {other} levels)"
        if past:  # the bound itself lies beyond the end level
            edge = "top" if beyond == "above" else "bottom"
            return f"{beyond} the {edge} of the ladder: Elo {side} {_elo(bound)} ({why}, {end.name}'s too)"
        return f"Elo {side} {_elo(bound)} ({why}, {end.name}'s too; the ladder has no level {beyond} it)"

    def __str__(self) -> str:
        head = f"{self.policy} on the {self.ladder} ladder: {self.describe()}, {self.games} games"
        if self.interrupted:
            head += " (interrupted: the estimate so far)"
        lines = [head, f"  {'level':<16}{'wins':>6}{'draws':>7}{'losses':>8}"]
        for name, (w, d, l) in self.per_level.items():
            lines.append(f"  {name:<16}{w:>6}{d:>7}{l:>8}")
        if self.faults:
            lines.append(f"  {self.policy}: {fault_text(self.faults)}")
            losses = sum(l for _, _, l in self.per_level.values())
            if sum(self.faults.values()) == losses:
                lines.append("  note: every game it lost was lost by a fault, not played out: the Elo measures "
                             "the faults, not the play")  # fmt: skip
        if self.level_faults:
            lines.append(f"  the levels: {fault_text(self.level_faults)}")
        if self.above and self.top is not None and self.elo >= self.top.elo:  # the built-in top cannot place it
            lines.append(f"  note: {self.above}")
        if self.opening_rule:
            lines.append(f"  note: played under the {self.opening_rule} opening rule, but the levels' published Elo "
                         f"comes from games without one (three stones near the centre): this is a rating against "
                         f"levels measured in another game")  # fmt: skip
        return "\n".join(lines)


def _elo(x: float) -> str:
    """A finite Elo as the tables print it, signed, with no ``-0``."""
    return f"{round(x):+d}"


def check_rating_games(games: Any) -> None:
    """Raise ValueError unless ``games`` is a number of games a rating can play: an even number from 2.

    An odd count is refused, never rounded up behind the caller's back: the count asked for is the count played.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise ValueError(f"games must be an integer of at least 2 (one colour-swapped pair), got {games!r}")
    if games % 2:
        raise ValueError(f"games={games}: a rating plays colour-swapped pairs (each start with either side first), "
                         f"so give an even number, e.g. {games + 1}")


def _check(games: int, jobs: int, backend: str) -> None:
    check_rating_games(games)
    check_backend(backend)
    cores = os.cpu_count() or 1
    top = cores if backend == "local" else math.inf  # a Ray cluster may have more cores than this machine
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= top:
        limit = f"in 1..{cores} (the cores here)" if backend == "local" else "of at least 1"
        raise ValueError(f"jobs must be an integer {limit}, got {jobs!r}")


def estimate(table: list[Level], per_level: dict[str, list[int]]) -> Estimate:
    """The agent's Elo and 95% interval from its ``[wins, draws, losses]`` against each level, levels held fixed."""
    elo = {lv.name: lv.elo for lv in table}
    rows = [(elo[name], w + d + l, w + 0.5 * d) for name, (w, d, l) in per_level.items()]
    return fit_against(*zip(*rows))


def nearest(table: list[Level], elo: float) -> Level:
    """The level whose published Elo is nearest ``elo`` (the weaker one on a tie); ``+-inf``: the top or bottom level."""
    if math.isinf(elo):
        return _ends(table)[elo > 0]
    return min(table, key=lambda lv: (abs(lv.elo - elo), lv.elo))


def _ends(table: list[Level]) -> tuple[Level, Level]:
    """The lowest and highest rated levels (a build's early table may not list them in order)."""
    return min(table, key=lambda lv: lv.elo), max(table, key=lambda lv: lv.elo)


class Walk:
    """``rate``'s choice of opponents and its running estimate, apart from how the games are played.

    It starts at ``start`` (default the middle level); :meth:`record` counts a game, :meth:`advance`
    fits the games so far and moves to the level nearest the estimate. The coverage
    simulation (``baselines/studies/rate_coverage.py``) drives the same object with scores
    drawn from the Elo model.
    """

    def __init__(self, table: list[Level], start: Level | None = None) -> None:
        self.table = table
        self.opponent = start or table[len(table) // 2]
        self.per_level: dict[str, list[int]] = {}
        self.games = 0
        self.above = ""  # the ladder's levels above this table's top that cannot be played here (see playable_levels)
        self.opening_rule = ""  # the opening rule the games are played under ("" for none)
        self.faults: dict[str, int] = {}  # the agent's games lost by a fault, by kind
        self.level_faults: dict[str, int] = {}  # the levels'

    def record(self, score: float, fault: str = "") -> None:
        """One game against the current opponent: the agent's score, 1, 0.5 or 0, and the loser's fault if it
        forfeited (``"crash"``, ``"timeout"``, ...; "" for a game played out)."""
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game's score is 0, 0.5 or 1, got {score!r}")
        if fault and score == 0.5:
            raise ValueError(f"a game lost by a fault ({fault}) has a loser, but its score is 0.5")
        self.per_level.setdefault(self.opponent.name, [0, 0, 0])[{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
        self.games += 1
        if fault:
            counts = self.faults if score == 0.0 else self.level_faults
            counts[fault] = counts.get(fault, 0) + 1

    def estimate(self) -> Estimate:
        return estimate(self.table, self.per_level)

    def advance(self) -> Estimate:
        """The estimate from every game so far; the next opponent is the level nearest it."""
        est = self.estimate()
        self.opponent = nearest(self.table, est.elo)
        return est

    def rating(self, policy: str, ladder: str, est: Estimate, interrupted: bool = False) -> Rating:
        per_level = {lv.name: list(self.per_level[lv.name]) for lv in self.table if lv.name in self.per_level}
        bottom, top = _ends(self.table)
        return Rating(policy, ladder, est.elo, est.low, est.high, self.games, per_level, interrupted, top, bottom,
                      self.above, self.opening_rule, _by_count(self.faults), _by_count(self.level_faults))  # fmt: skip


def _by_count(faults: dict[str, int]) -> dict[str, int]:
    """Fault kinds most frequent first (then by name), as the arena lists them."""
    return dict(sorted(faults.items(), key=lambda kv: (-kv[1], kv[0])))


def rate(
    policy: Any, game: str, rule: str | None = None, board_size: int | None = None, games: int = 400, seed: int = 0,
    jobs: int = 1, precision: float | None = None, progress: bool = True,
    on_batch: Callable[[Rating], None] | None = None, backend: str = "local",
    save_games: str | os.PathLike | None = None, opening_rule: str | None = None, start: float | None = None,
) -> Rating:  # fmt: skip
    """Rate ``policy`` (a spec, a ``.pt`` checkpoint, an object with ``act(state)``) on ``game``'s ladder.

    Plays ``games`` games (an even number: colour-swapped pairs; an odd one is refused), fewer only when
    ``precision`` stops it early, in batches
    of ``jobs`` pairs, each batch against the level nearest the running estimate;
    stops early once the 95% half-width is at most ``precision`` Elo (never while the
    rating is one-sided). Ctrl-C stops the games and returns the estimate so far
    (``interrupted=True``) once a pair has been played, else re-raises. ``backend``: ``"local"`` (``jobs`` processes) or
    ``"ray"``; the games and the rating do not depend on it. ``save_games``: a
    directory that receives every game as SGF, ``game-0001.sgf``, ... in the order
    played (never over another file: a taken name gets a suffix, see
    :func:`~boardgame_envs.arena.records.save_new`). ``opening_rule`` (``"swap2"``,
    ``"soosorv8"``, ...) plays every game under
    that tournament opening rule, each pair swapping which side is the first player;
    the levels keep the Elo they were rated with, in games without one (the rating
    says so). ``start``: an Elo to begin near (the first games are against the built-in
    level nearest it; default the middle built-in level): a rating repeated while the
    policy trains starts from its last estimate and spends its few games where they say most.
    """
    _check(games, jobs, backend)
    if start is not None and (isinstance(start, bool) or not isinstance(start, (int, float)) or math.isnan(start)):
        raise ValueError(f"start must be an Elo (a number), got {start!r}")
    if precision is not None and not precision > 0:
        raise ValueError(f"precision must be a positive number of Elo, got {precision!r}")
    ladder = ladder_for(game, rule, board_size)
    env_fn = ladder.env_fn() if opening_rule is None else game_env_fn(ladder.game, opening_rule=opening_rule,
                                                                       **ladder.params)  # fmt: skip
    ruled = getattr(getattr(env_fn().unwrapped.game, "opening", None), "name", "")  # the rule's name, "" for none
    table, above = playable_levels(levels(game, rule, board_size), ruled or None)
    check_policy(policy, env_fn)
    name = spec_name(policy)
    rng = np.random.default_rng(seed)
    pairs = games // 2
    builtin = [lv for lv in table if not lv.external]
    first = builtin[len(builtin) // 2] if start is None else nearest(builtin, start)  # engines or not
    walk = Walk(table, start=first)
    walk.above = above
    walk.opening_rule = ruled
    rating = walk.rating(name, ladder.name, Estimate(math.nan, -math.inf, math.inf))
    if save_games is not None:
        games_dir(save_games)
    bar = progress_bar(total=2 * pairs, desc=f"rating {name}", disable=not progress)
    try:
        with Workers(jobs, backend) as workers:
            while walk.games < 2 * pairs:
                opponent = walk.opponent
                batch = min(jobs, pairs - walk.games // 2)
                tasks = []
                for _ in range(batch):
                    pair_seed = int(rng.integers(2**63))
                    opening = () if ruled else ladder.opening(pair_seed)  # an opening rule lays its own
                    for a_first in (True, False):
                        tasks.append(Task(policy, opponent.spec, a_first, pair_seed, (name, opponent.name), opening, 0))
                players = (name, f"{opponent.name} ({opponent.spec})")
                for result, record in play(workers, env_fn, tasks, lambda _: players):
                    walk.record(result.score, result.fault)
                    if save_games is not None:
                        save_new(record, Path(save_games) / f"game-{walk.games:04d}.sgf")
                    bar.update()
                rating = walk.rating(name, ladder.name, walk.advance())
                bar.set_postfix_str(f"{rating.describe()}, next vs {walk.opponent.name}")
                if on_batch is not None:
                    on_batch(rating)
                if precision is not None and rating.half_width <= precision:
                    break
    except KeyboardInterrupt:
        bar.close()
        if not walk.games:
            raise
        return walk.rating(name, ladder.name, walk.estimate(), True)  # the games of an unfinished batch count too
    bar.close()
    return rating


def playable_levels(table: list[Level], opening_rule: str | None = None) -> tuple[list[Level], str]:
    """The levels ``rate`` can play here, and a note on the external levels it cannot ("" if none).

    Under an opening rule that Gomocup engines cannot play (any but Swap2) the external levels are left out.

    An external level is playable where its engine is configured (``--engine NAME=PATH`` or
    ``BOARDGAME_ENVS_NAME``); the engine is then checked once to honour a node budget
    (:func:`~boardgame_envs.gomocup.engines.check_node_budget`), so that a binary that is not
    the published player fails before any game instead of faking a rating.
    """
    from boardgame_envs.gomocup.engine import OPENING_RULES
    from boardgame_envs.gomocup.engines import check_node_budget, configured, variable

    if opening_rule is not None and opening_rule not in OPENING_RULES and any(lv.external for lv in table):
        engines = [lv for lv in table if lv.external]
        note = (f"the ladder goes on above with external levels {engines[0].name} .. {engines[-1].name}, not played "
                f"here: Gomocup engines take part in no opening rule but {', '.join(OPENING_RULES)}")  # fmt: skip
        return [lv for lv in table if not lv.external], note
    missing = sorted({lv.engine for lv in table if lv.external and not configured(lv.engine)})
    playable = [lv for lv in table if not lv.external or lv.engine not in missing]
    checked = set()
    for lv in playable:
        if lv.external and lv.engine not in checked:
            check_node_budget(lv.spec, rule=_rule_of(lv))
            checked.add(lv.engine)
    if not missing:
        return playable, ""
    skipped = [lv for lv in table if lv.engine in missing]
    engines = ", ".join(missing)
    how = " or ".join(f"--engine {e}=PATH (or {variable(e)})" for e in missing)
    note = (
        f"the ladder goes on above with external levels {skipped[0].name} .. {skipped[-1].name} "
        f"(up to {skipped[-1].elo:+.0f}, engine {engines}), not played here: build the engine "
        f"(docs/engines.md) and pass {how} to climb into them"
    )
    return playable, note


def _rule_of(level: Level) -> str:
    from boardgame_envs.ladder.ladders import find_ladder

    return find_ladder(level.name.partition("/")[0]).rule or "freestyle"
