"""Every AlphaZero hyperparameter in one dataclass, with defaults per game."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import textwrap
from dataclasses import dataclass
from typing import Any

from boardgame_envs.alphazero.defaults import defaults_for
from boardgame_envs.policies.registry import check_spec
from boardgame_envs.policies.base import SEARCH_LIMITS

BACKENDS = ("local", "ray")
# The most a count of the config may be: far above any run (AlphaZero searched 800 simulations a move),
# far below what numpy can size, so a slip of the keyboard (--simulations 99999999999999999999) is a
# ValueError naming the field, not numpy's "Maximum allowed dimension exceeded". A search tree holds about
# simulations x actions nodes per game, hence the lower bound for the simulation counts.
MAX_COUNT = 10**9
MAX_SIMULATIONS = int(SEARCH_LIMITS["simulations"])  # the one maximum every search's simulations share
ROOTS = ("puct", "gumbel")


@dataclass
class AlphaZeroConfig:
    """Hyperparameters of :class:`~boardgame_envs.alphazero.AlphaZeroTrainer`.

    The game itself is not here: it is whatever the trainer's ``env_fn``
    builds. :meth:`for_game` gives tuned defaults for a game.
    """

    # Network: a ResNet over the env's observation planes.
    blocks: int = 2
    """Residual blocks of the network."""
    channels: int = 32
    """Channels of every convolution."""
    # Self-play.
    parallel_games: int = 128
    """Games searched in lockstep; their leaves form one network batch."""
    games_per_iteration: int = 128
    """Self-play games per iteration."""
    simulations: int = 64
    """PUCT simulations per self-play move."""
    c_puct: float = 1.5
    """PUCT exploration constant."""
    dirichlet_alpha: float = 1.0
    """Root noise concentration; about 10 / (typical number of legal moves)."""
    dirichlet_fraction: float = 0.25
    """Share of the root priors replaced by the noise."""
    temperature_moves: int = 9
    """The first moves of a game are sampled in proportion to visits; later ones greedily."""
    full_search_prob: float = 1.0
    """Playout cap randomization (KataGo): the share of self-play moves searched with ``simulations``; the
    others get ``cheap_simulations``, no root noise and no policy target (their value targets are kept).
    1: every move a full search."""
    cheap_simulations: int = 16
    """Simulations of a cheap search (with full_search_prob below 1); fewer than simulations."""
    root: str = "puct"
    """Self-play's root search: puct (visits, Dirichlet noise, temperature_moves), or gumbel (Gumbel-top-k
    and sequential halving: moves sampled by Gumbel noise, the improved policy as target; for 8-32 simulations)."""
    gumbel_k: int = 16
    """Root candidates of a gumbel root (Gumbel-top-k)."""
    threats: bool = False
    """Threat-aware search (self-play and evaluation): wins at once, forced blocks and proven results
    decide moves without simulations; a proven position's policy target is its proven move, its value
    target the proven value."""
    vcf_nodes: int = 0
    """Positions a continuous-four search may visit at each new leaf (m,n,k games; needs threats; 0: none)."""
    value_decay: float = 0.0
    """Value target of a position t plies before the end: result * (1 - value_decay * t / board points).
    Above 0 it prefers quicker wins and slower losses (the toughest defence when a game is lost); 0 is plain AlphaZero."""
    # Warm start (expert iteration): before the first self-play iteration of a fresh run.
    warm_start: str | None = None
    """Policy spec whose games against itself open a fresh run (e.g. alphabeta:nodes=1000); None: self-play only."""
    warm_games: int = 500
    """Warm-start games; each expert move is an example (one-hot policy target, the result as value target)."""
    warm_random_moves: int = 4
    """Each warm-start game opens with the board's default openings, then 0 to this many random moves near the stones."""
    warm_steps: int = 1000
    """Learning steps on the warm-start examples before self-play begins."""
    init_network: str | None = None
    """A fresh run starts from this network instead of random weights: pretrained:NAME, a checkpoint file or a
    run folder (its latest.pt), of the config's shape; the optimizer and replay buffer start empty. None: random."""
    # Learner: policy cross-entropy + value MSE + L2 (weight_decay).
    buffer_size: int = 20_000
    """Positions kept for training (before symmetry augmentation)."""
    batch_size: int = 256
    """Positions per gradient step."""
    train_steps: int = 80
    """Gradient steps per iteration."""
    lr: float = 2e-3
    """Adam's learning rate at the start."""
    lr_final: float = 0.1
    """The learning rate anneals (cosine) to lr * lr_final over the run's iterations (when set; a run split
    over several calls keeps its schedule), else over this call's minutes."""
    weight_decay: float = 1e-4
    """L2 weight decay."""
    augment: bool = True
    """Train on a random one of the 8 board symmetries of each example."""
    # Schedule: stop after ``iterations`` or ``minutes``, whichever comes first.
    iterations: int | None = None
    """Stop at this many iterations in all (resumed runs count earlier ones); 0: the warm start only
    (one warm start to branch several runs from: copy its out/latest.pt into each run's folder)."""
    minutes: float | None = None
    """Wall-time budget of this call, warm start included (a resumed run gets a new one): a warm start still
    to do stops its games at 30% of it and its learning steps at 50%, scaled down to fit."""
    # Evaluation against built-in policies with the arena.
    eval_every: int = 5
    """Evaluate every this many iterations; 0 turns evaluation off."""
    eval_games: int = 20
    """Games per evaluation opponent, seats alternated."""
    eval_opponents: tuple[str, ...] = ("mcts",)
    """Policy specs to evaluate against (e.g. mcts:simulations=200)."""
    eval_simulations: int = 0
    """The network's PUCT simulations in evaluation; 0 plays its policy head greedily."""
    snapshot_every: int = 0
    """Every this many iterations also keep the network in out/snapshots/iter-NNNN.pt, with the CPU
    seconds of training so far (for compute-to-strength curves, baselines/alphazero_curve.py); 0: none."""
    # Bookkeeping.
    seed: int = 0
    """Seed of self-play, the learner and evaluation."""
    device: str = "auto"
    """Torch device: auto (CUDA when present, else the CPU), cpu, cuda, cuda:1, ..."""
    torch_threads: int | None = 1
    """CPU threads for torch (small nets and batches: more threads only contend); None: torch's default."""
    out: str | None = "runs/alphazero"
    """Run directory: checkpoints and TensorBoard logs; None keeps nothing."""
    tensorboard: bool = True
    """Write TensorBoard logs to the run directory."""
    progress: bool = True
    """Show progress bars (one a phase) and say what the run starts from, its budget's plan and what it did."""
    backend: str = "local"
    """Where self-play runs: local (this process) or ray (Ray workers)."""
    workers: int = 2
    """Ray self-play workers; also the processes (local) or Ray tasks that play the warm-start games."""

    def __post_init__(self) -> None:
        positive = ("blocks", "channels", "parallel_games", "games_per_iteration", "simulations", "buffer_size",
                    "batch_size", "eval_games", "workers", "warm_games", "gumbel_k")  # fmt: skip
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _most(name):
                raise ValueError(f"{name} must be an integer in 1..{_most(name):,}, got {value!r}")
        for name in ("train_steps", "temperature_moves", "eval_every", "eval_simulations", "snapshot_every", "warm_random_moves",
                     "warm_steps", "vcf_nodes"):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _most(name):
                raise ValueError(f"{name} must be an integer in 0..{_most(name):,}, got {value!r}")
        for name in ("c_puct", "dirichlet_alpha", "lr"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        if not 0 < self.lr_final <= 1:
            raise ValueError(f"lr_final must be in (0, 1], got {self.lr_final!r}")
        if isinstance(self.full_search_prob, bool) or not 0 < self.full_search_prob <= 1:
            raise ValueError(f"full_search_prob must be in (0, 1], got {self.full_search_prob!r}")
        if self.full_search_prob < 1 and not 1 <= self.cheap_simulations < self.simulations:
            raise ValueError(f"cheap_simulations must be at least 1 and fewer than simulations ({self.simulations}) "
                             f"when full_search_prob < 1, got {self.cheap_simulations!r}")  # fmt: skip
        if not 0 <= self.dirichlet_fraction <= 1:
            raise ValueError(f"dirichlet_fraction must be in [0, 1], got {self.dirichlet_fraction!r}")
        if not 0 <= self.value_decay < 1:
            raise ValueError(f"value_decay must be in [0, 1), got {self.value_decay!r}")
        if self.weight_decay < 0:
            raise ValueError(f"weight_decay must be >= 0, got {self.weight_decay!r}")
        if self.iterations is not None and self.iterations < 0:
            raise ValueError(f"iterations must be a non-negative integer or None, got {self.iterations!r}")
        if self.minutes is not None and not self.minutes > 0:
            raise ValueError(f"minutes must be positive or None, got {self.minutes!r}")
        if not isinstance(self.threats, bool):
            raise ValueError(f"threats must be True or False, got {self.threats!r}")
        if self.vcf_nodes > 0 and not self.threats:
            raise ValueError(f"vcf_nodes={self.vcf_nodes} needs threats=True (the continuous-four search is part "
                             "of the threat check)")  # fmt: skip
        if self.root not in ROOTS:
            raise ValueError(f"unknown root {self.root!r}; expected one of {', '.join(ROOTS)}")
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; expected one of {', '.join(BACKENDS)}")
        if self.warm_start is not None:
            if not isinstance(self.warm_start, str):
                raise ValueError(f"warm_start must be a policy spec such as 'alphabeta:nodes=1000' or None, got {self.warm_start!r}")
            try:
                check_spec(self.warm_start)
            except ValueError as exc:
                raise ValueError(f"warm_start: {exc}") from None
        if self.init_network is not None:
            if not isinstance(self.init_network, str) or not self.init_network.strip():
                raise ValueError(f"init_network must be pretrained:NAME or a checkpoint path, got {self.init_network!r}")
            if self.warm_start is not None:
                raise ValueError(f"give warm_start or init_network, not both: a run starts from one or the other (warm_start is "
                                 f"{self.warm_start!r}; on the command line, --warm-start none)")
        self.eval_opponents = tuple(self.eval_opponents)
        for spec in self.eval_opponents:
            check_spec(spec)  # a typo fails here, not at the first evaluation

    @classmethod
    def for_game(cls, game: str, board_size: int | None = None, **overrides: Any) -> AlphaZeroConfig:
        """Defaults tuned for ``game`` (a catalog name; gomoku by ``board_size``), then ``overrides``.

        The defaults per game are :func:`boardgame_envs.alphazero.defaults.defaults_for`'s.
        """
        base = defaults_for(game, board_size)
        return cls(**{**base, **overrides})

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def field_docs() -> dict[str, str]:
    """Each field's docstring (the string under it in the class body), for ``--help``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(AlphaZeroConfig)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.target.id] = " ".join(str(after.value.value).split())  # type: ignore[union-attr]
    return docs


def _most(name: str) -> int:
    """The upper bound of the count ``name`` (see :data:`MAX_COUNT`)."""
    return MAX_SIMULATIONS if name.endswith("simulations") else MAX_COUNT
