"""Networks trained here and shipped with the package: ``PRETRAINED`` and where their weights are.

Each entry says what the network plays, how it was trained (the command, so
anyone can train it again) and how strong it measured. Three kinds: AlphaZero
networks (``kind="alphazero"``, ``NAME.pt``: the network's shape, its game and its
state dict, no optimizer or replay buffer, read through :mod:`boardgame_envs.safeio`: tensors only),
played with their search; and the PPO recipes' models, played by their policy alone:
``kind="sb3"`` (``NAME.zip``, a MaskablePPO model as Stable-Baselines3 saves it, read without
unpickling: :mod:`boardgame_envs.selfplay.sb3_file`) and
``kind="boardnet"`` (``NAME.pt``, the single-file PPO's network, weights only). The files
are package data in ``boardgame_envs/alphazero/pretrained/``. This module needs no
torch; loading does (``make_policy("pretrained:NAME")``, through
:func:`boardgame_envs.selfplay.pretrained.from_pretrained`).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path


class UnknownPretrainedError(ValueError):
    """A name that is not in :data:`PRETRAINED`."""


@dataclass(frozen=True)
class LadderRating:
    """Where ``boardgame-envs rate pretrained:NAME ...`` placed a network on its game's ladder."""

    ladder: str  # a ladder's name (boardgame_envs.ladder.LADDERS)
    elo: float
    low: float  # the 95% interval
    high: float
    games: int


@dataclass(frozen=True)
class Pretrained:
    """One shipped network: its game, how it was trained, how strong it is."""

    KINDS = ("alphazero", "sb3", "boardnet")

    name: str
    game: str  # the catalog's name: "tictactoe", "gomoku", "connect_four"
    rule: str | None  # the m,n,k parameters; None for a game that has none (connect four)
    board_size: int | None
    win_length: int | None
    simulations: int  # PUCT simulations a move it plays with unless told otherwise (0: a policy alone)
    command: str  # the training command that made it
    date: str  # when it was trained (UTC)
    rating: str  # its measured strength, with the match that measured it
    ladder_rating: LadderRating | None = None  # the same rating as data, listed under its ladder's table
    threats: bool = False  # the threat-aware search it plays with unless told otherwise (as it was rated)
    vcf_nodes: int = 0
    kind: str = "alphazero"  # one of KINDS: how the file is read and played (see the module docstring)

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise ValueError(f"{self.name}: kind must be one of {', '.join(self.KINDS)}, got {self.kind!r}")

    @property
    def path(self) -> Path:
        """The weights file inside the installed package."""
        suffix = ".zip" if self.kind == "sb3" else ".pt"
        return Path(str(resources.files("boardgame_envs.alphazero") / "pretrained" / f"{self.name}{suffix}"))

    def plays_with(self) -> str:
        """How it plays when rated and by default, in words."""
        if self.kind != "alphazero":
            return "its policy's most likely move, no search"
        return f"{self.simulations} simulations a move" + (" with the threat search" if self.threats else "")


PRETRAINED: dict[str, Pretrained] = {
    p.name: p
    for p in (
        Pretrained(
            name="tictactoe", game="tictactoe", rule="freestyle", board_size=3, win_length=3, simulations=50,
            command="boardgame-envs train tictactoe --iterations 80 --seed 0 --out runs/tictactoe",
            date="2026-11-25",
            rating="draws every game against PerfectPolicy: 0-200-0 (100 games a seat, 50 simulations); tictactoe "
            "ladder +382 (95% +314..+450) in 100 games, level with tictactoe/4 (perfect)",
            ladder_rating=LadderRating("tictactoe", 382, 314, 450, 100),
        ),
        Pretrained(
            name="gomoku-8x8", game="gomoku", rule="freestyle", board_size=8, win_length=5, simulations=400,
            command="python baselines/alphazero_gomoku.py --board-size 8 --win-length 5 --minutes 28 --backend ray "
            "--workers 2 --seed 0 --run-dir runs/g8w  (the 8x8 defaults: a warm start from 600 games of "
            "alphabeta:nodes=1000, then 88 self-play iterations, 11,538 games; 28 minutes on 2 CPU cores)",
            date="2026-11-25",
            rating="184 wins, 8 draws, 8 losses (score 0.940) against uct:playouts=5000 in 200 games; gomoku8 "
            "ladder +1453 (95% +1405..+1501) in 200 games, level with gomoku8/9 (greedy); at 400 simulations "
            "(baselines/results/alphazero_8x8.md)",
            ladder_rating=LadderRating("gomoku8", 1453, 1405, 1501, 200),
        ),
        Pretrained(
            name="renju-15x15", game="gomoku", rule="renju", board_size=15, win_length=5, simulations=400,
            command="boardgame-envs train renju --iterations 0 --seed 0 --workers 1 --out runs/r15/warm, then "
            "boardgame-envs train renju --threats --vcf-nodes 50 --iterations 60 --seed 0 --workers 1 "
            "--snapshot-every 4 --out runs/r15/new from a copy of its checkpoint (a warm start from 600 games of "
            "alphabeta:nodes=1000, then 60 threat-aware self-play iterations, 3,877 games; 5.05 CPU-hours on one "
            "core, resumed over four calls; baselines/results/alphazero_renju_curves.md)",
            date="2026-11-26",
            rating="38 wins, 5 draws, 9 losses (score 0.779, 95% 0.674..0.883) against renju/14 "
            "(alphabeta:nodes=16000,depth=12) over the 26 RIF openings in colour-swapped pairs; renju ladder +3340 "
            "(95% +3260..+3428) in 100 games, above renju/14 (+3111); at 400 simulations with its threat search "
            "(threats=True, vcf_nodes=50) (baselines/results/alphazero_renju_curves.md)",
            ladder_rating=LadderRating("renju", 3340, 3260, 3428, 100),
            threats=True, vcf_nodes=50,
        ),
        Pretrained(
            name="renju-15x15-v1", game="gomoku", rule="renju", board_size=15, win_length=5, simulations=400,
            command="boardgame-envs train renju --blocks 4 --channels 48 --simulations 64 --warm-start "
            "alphabeta:nodes=1000 --warm-games 600 --warm-steps 1000 --minutes 45 --backend ray --workers 2 "
            "--seed 0 --out runs/renju  (a warm start from 600 alpha-beta games, then 12 self-play iterations, "
            "906 games; 45 minutes on 2 CPU cores)",
            date="2026-11-25",
            rating="51 wins, 1 loss (score 0.981) against mcts over the 26 RIF openings in colour-swapped pairs; renju "
            "ladder +2329 (95% +2258..+2400) in 96 games, level with renju/11 (greedy); at 400 simulations "
            "(baselines/results/alphazero_renju.md)",
            ladder_rating=LadderRating("renju", 2329, 2258, 2400, 96),
        ),
        Pretrained(
            name="connect-four", game="connect_four", rule=None, board_size=None, win_length=None, simulations=200,
            command="boardgame-envs train connect_four --minutes 50 --seed 0 --eval-every 0 --out runs/c4, then "
            "the same with --minutes 40 --backend ray --workers 2 (resumed; the defaults of the catalog: a 3x32 "
            "network, 100 simulations, pure self-play from random weights; 249 iterations, 16,354 games)",
            date="2026-11-26",
            rating="182 wins, 6 draws, 12 losses (score 0.925) against mcts (2,000 simulations) in 200 games, seats "
            "alternated; connect_four ladder +1255 (95% +1185..+1326) in 100 games, level with connect_four/7 "
            "(alphabeta:nodes=16000); at 200 simulations (baselines/results/alphazero_connect_four.md)",
            ladder_rating=LadderRating("connect_four", 1255, 1185, 1326, 100),
        ),
        Pretrained(
            name="ppo-connect-four", game="connect_four", rule=None, board_size=None, win_length=None, simulations=0,
            kind="boardnet",
            command="python baselines/ppo_selfplay.py --game connect_four --seed 1 --cpu-hours 2 --channels 32 "
            "--layers 1 --blocks 3 --random-moves 2 --rate-games 100 --out runs/ppo-c4-s1 (the single-file PPO on "
            "connect four's batched engine: one 3x3 convolution and 3 residual blocks of 32 channels, a logit per "
            "column, the learner's first 0..2 moves random, 128 games at once against an opponent pool: random, "
            "greedy at epsilon 0.75/0.5/0.25, greedy and its own last 10 snapshots; its final.pt after the whole "
            "2 CPU-hour budget, 1,282 updates, 5,251,072 steps, resumed across sessions; seed 0's rated +810; "
            "baselines/results/ppo_selfplay.md)",
            date="2026-11-28",
            rating="connect_four ladder +884 (95% +834..+934) in 200 games, between connect_four/4 (greedy) and /5 "
            "(mcts, 1,000 simulations); its policy's most likely move, no search (baselines/results/ppo_selfplay.md)",
            ladder_rating=LadderRating("connect_four", 884, 834, 934, 200),
        ),
        Pretrained(
            name="sb3-connect-four", game="connect_four", rule=None, board_size=None, win_length=None, simulations=0,
            kind="sb3",
            command="python baselines/ppo_sb3_pool.py --game connect_four --seed 0 --cpu-hours 2 --net 128 --lr 3e-4 "
            "--out runs/sb3-connect-four-s0 (the script's defaults until 2026-11-27: MaskablePPO, an MLP of two "
            "128-unit layers on the flat planes, 16 games at once against an opponent pool: random, greedy at epsilon 0.75/0.5/0.25, greedy and its own last 5 "
            "snapshots; its model.zip when the run was stopped on its plateau, at 1.07 CPU-hours and 5,693,440 steps; "
            "baselines/results/ppo_sb3_pool.md)",
            date="2026-11-27",
            rating="connect_four ladder +486 (95% +416..+556) in 100 games, between connect_four/2 "
            "(greedy:epsilon=0.5) and /3 (greedy:epsilon=0.2); its policy's most likely move, no search "
            "(baselines/results/ppo_sb3_pool.md)",
            ladder_rating=LadderRating("connect_four", 486, 416, 556, 100),
        ),
        Pretrained(
            name="ppo-gomoku9", game="gomoku", rule="freestyle", board_size=9, win_length=5, simulations=0,
            kind="boardnet",
            command="python baselines/ppo_selfplay.py --game gomoku9 --seed 2 --cpu-hours 2 --channels 32 --layers 1 "
            "--blocks 3 --random-moves 3 --rate-games 100 --out runs/ppo-g9res-s2 (the single-file PPO: one 3x3 "
            "convolution and 3 residual blocks of 32 channels, the learner's first 0..3 moves random, 128 games at "
            "once on the batched engine against an opponent pool: random, greedy at epsilon 0.75/0.5/0.25, greedy "
            "and its own last 10 snapshots; its final.pt after the whole 2 CPU-hour budget, 883 updates, 3,616,768 "
            "steps, resumed across sessions; seeds 0 and 1 rated +1369 and +1274; baselines/results/ppo_selfplay.md)",
            date="2026-11-29",
            rating="gomoku9 ladder +1431 (95% +1382..+1481) in 200 games, between gomoku9/6 (greedy:epsilon=0.2) "
            "and /7 (greedy:epsilon=0.1); its policy's most likely move, no search (baselines/results/ppo_selfplay.md)",
            ladder_rating=LadderRating("gomoku9", 1431, 1382, 1481, 200),
        ),
        Pretrained(
            name="ppo-renju", game="gomoku", rule="renju", board_size=15, win_length=5, simulations=0,
            kind="boardnet",
            command="python baselines/ppo_selfplay.py --game renju --seed 0 --cpu-hours 4 --out runs/ppo-renju-s0 "
            "(the single-file PPO as for ppo-gomoku9, on 15x15 renju; its final.pt after the whole 4 CPU-hour "
            "budget, 670 updates, 2,744,320 steps, resumed across sessions; baselines/results/ppo_selfplay.md)",
            date="2026-11-27",
            rating="renju ladder +1526 (95% +1475..+1575) in 200 games, between renju/6 (greedy:epsilon=0.38) "
            "and /7 (greedy:epsilon=0.27); its policy's most likely move, no search (baselines/results/ppo_selfplay.md)",
            ladder_rating=LadderRating("renju", 1526, 1475, 1575, 200),
        ),
    )
}


def rated_on(ladder: str, markdown: bool = False) -> list[str]:
    """Lines for the shipped networks rated on ``ladder`` (a ladder's name), strongest first; none: ``[]``."""
    rated = [(p, p.ladder_rating) for p in PRETRAINED.values() if p.ladder_rating and p.ladder_rating.ladder == ladder]
    if not rated:
        return []
    lines = ["pretrained networks rated on this ladder (boardgame-envs rate pretrained:NAME ...):"]
    for p, r in sorted(rated, key=lambda pair: -pair[1].elo):
        elo, interval = f"{r.elo:+.0f}", f"{r.low:+.0f} .. {r.high:+.0f}"
        tail = f"{r.games} games, {p.plays_with()}"
        lines.append(f"- `pretrained:{p.name}`: {elo} ({interval}), {tail}" if markdown
                     else f"  pretrained:{p.name:<16} {elo:>6}  {interval}  {tail}")  # fmt: skip
    return lines


def pretrained(name: str) -> Pretrained:
    """The entry called ``name``; :class:`UnknownPretrainedError` lists the names there are."""
    try:
        return PRETRAINED[name]
    except KeyError:
        raise UnknownPretrainedError(f"no pretrained network {name!r}; there are: {', '.join(PRETRAINED)}") from None
