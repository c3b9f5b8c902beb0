"""AlphaZero_Gomoku (github.com/junxiaosong/AlphaZero_Gomoku) as a self-play reference measured in the same run.

Their code is not part of this project and is never copied into it. A user
names a checkout of theirs (``--anchor PATH`` or the environment variable
:data:`ANCHOR_ENV`); :func:`run_anchor` copies the three files their PyTorch
self-play needs into a temporary folder, puts this very file beside them as the
driver, and runs it there in a child process (their modules are named ``game``
and ``mcts_alphaZero``, so they stay out of our process). The checkout itself is
only read.

The driver (this file run as a script) plays their self-play exactly as their
``train.py`` does, ``Game(Board(...)).start_self_play(MCTSPlayer(...), temp=1.0)``
with ``MCTSPlayer(net.policy_value_fn, c_puct=5, n_playout=N, is_selfplay=1)``
and ``PolicyValueNet(width, height)`` (fresh weights: a search's speed does not
depend on what the network has learnt), with one torch thread. A position is
one move searched and played (one item of the play data a game returns). It
plays a warm-up game first, then whole games until ``seconds`` of CPU time are
spent (at least one game), and prints one JSON line.

The one shim for current torch is applied at run time in the child: their
``F.log_softmax(x)`` omits ``dim``, which torch deprecates (a warning today, an
error some day); the driver fills in the dimension torch's own implicit rule
picks, so the numbers are those of their code. Nothing else is changed: their
search runs with autograd on and deep-copies the board every playout, as theirs does.

Only the standard library is imported at module level: the driver imports torch
and their modules when it runs. :func:`count_macs` lives here so both sides'
networks are counted by the same function.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ANCHOR_ENV = "BOARDGAME_ENVS_ALPHAZERO_GOMOKU"
"""Environment variable naming a checkout of AlphaZero_Gomoku (the ``--anchor`` default)."""
ANCHOR_URL = "https://github.com/junxiaosong/AlphaZero_Gomoku"
FILES = ("game.py", "mcts_alphaZero.py", "policy_value_net_pytorch.py")
"""What their PyTorch self-play imports (its other files are other frameworks, training and play)."""
C_PUCT = 5
TEMPERATURE = 1.0
"""Their ``train.py``'s ``c_puct`` and self-play ``temp``."""
DRIVER = "selfplay_driver.py"


@dataclass
class Measured:
    """Self-play positions played, and the CPU and wall seconds they took (either side of the bench)."""

    positions: int
    cpu_s: float
    wall_s: float

    @property
    def per_core(self) -> float:
        """Positions per CPU second of the process."""
        return self.positions / self.cpu_s


@dataclass
class AnchorRun(Measured):
    """What the driver measured at one simulation count."""

    simulations: int
    games: int


@dataclass
class AnchorReport:
    runs: list[AnchorRun]
    params: int
    macs: int
    """Multiply-accumulates of one position through their network (convolutions and linear layers)."""
    torch_version: str
    shims: list[str]


def anchor_path(given: str | None) -> Path | None:
    """The checkout named by ``given`` or else :data:`ANCHOR_ENV`; None when neither names one.

    Raises ``ValueError`` naming the problem when the named folder is missing or lacks one of :data:`FILES`.
    """
    text = given or os.environ.get(ANCHOR_ENV) or None
    if text is None:
        return None
    path = Path(text).expanduser()
    if not path.is_dir():
        raise ValueError(f"AlphaZero_Gomoku checkout {str(path)!r} is not a folder (clone {ANCHOR_URL})")
    missing = [name for name in FILES if not (path / name).is_file()]
    if missing:
        raise ValueError(f"{str(path)!r} is not an AlphaZero_Gomoku checkout: it lacks {', '.join(missing)}")
    return path


def run_anchor(path: Path, board_size: int, simulations: list[int], seconds: float, seed: int = 0,
               timeout: float | None = None) -> AnchorReport:  # fmt: skip
    """Their self-play on a ``board_size`` board, five in a row, at each of ``simulations``: see the module doc.

    ``path`` is read only; the run happens in a temporary folder that is removed afterwards. A failure of
    their code raises ``RuntimeError`` with the end of its error output.
    """
    args = {"board_size": board_size, "n_in_row": 5, "simulations": list(simulations), "seconds": seconds,
            "seed": seed, "c_puct": C_PUCT, "temp": TEMPERATURE}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="alphazero_gomoku_") as folder:
        for name in FILES:
            shutil.copyfile(path / name, Path(folder) / name)
        shutil.copyfile(__file__, Path(folder) / DRIVER)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        done = subprocess.run([sys.executable, DRIVER, json.dumps(args)], cwd=folder, env=env, check=False,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)  # fmt: skip
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"AlphaZero_Gomoku's self-play failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    out = json.loads(lines[-1])
    return AnchorReport([AnchorRun(**run) for run in out["runs"]], out["params"], out["macs"], out["torch"],
                        out["shims"])  # fmt: skip


def count_macs(module: Any, shape: tuple[int, ...]) -> int:
    """Multiply-accumulates of one forward pass of ``module`` on zeros of ``shape`` (batch 1): its Conv2d and Linear
    layers, counted from their output sizes (biases, activations and normalisation are left out, on both sides)."""
    import torch
    from torch import nn

    total = 0

    def hook(layer: Any, _inputs: Any, output: Any) -> None:
        nonlocal total
        per_output = layer.in_features if isinstance(layer, nn.Linear) else (
            layer.in_channels // layer.groups * layer.kernel_size[0] * layer.kernel_size[1])  # fmt: skip
        total += output.numel() // output.shape[0] * per_output

    handles = [m.register_forward_hook(hook) for m in module.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    try:
        with torch.no_grad():
            module(torch.zeros(shape))
    finally:
        for handle in handles:
            handle.remove()
    return total


def _shim_log_softmax() -> str:
    """Fill in ``dim`` where a caller of ``F.log_softmax`` leaves it out, as torch's implicit rule would."""
    from torch.nn import functional

    original = functional.log_softmax

    def log_softmax(input: Any, dim: int | None = None, *args: Any, **kwargs: Any) -> Any:
        if dim is None:
            dim = 0 if input.dim() in (0, 1, 3) else 1  # torch's _get_softmax_dim
        return original(input, dim, *args, **kwargs)

    functional.log_softmax = log_softmax
    return "F.log_softmax without dim: the dim torch's implicit rule picks, passed explicitly"


def _drive(args: dict[str, Any]) -> dict[str, Any]:
    """Run in the temporary folder beside their files: their self-play at each simulation count."""
    import numpy as np
    import torch

    torch.set_num_threads(1)
    shims = [_shim_log_softmax()]
    from game import Board, Game
    from mcts_alphaZero import MCTSPlayer
    from policy_value_net_pytorch import PolicyValueNet

    np.random.seed(args["seed"])
    torch.manual_seed(args["seed"])
    n = args["board_size"]
    net = PolicyValueNet(n, n, model_file=None, use_gpu=False)
    game = Game(Board(width=n, height=n, n_in_row=args["n_in_row"]))

    def player(simulations: int) -> Any:
        return MCTSPlayer(net.policy_value_fn, c_puct=args["c_puct"], n_playout=simulations, is_selfplay=1)

    game.start_self_play(player(8), temp=args["temp"])  # warm-up: torch's first calls
    runs = []
    for simulations in args["simulations"]:
        selfplay = player(simulations)
        games = positions = 0
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        while games == 0 or time.process_time() - cpu_start < args["seconds"]:
            _, data = game.start_self_play(selfplay, temp=args["temp"])
            positions += len(list(data))
            games += 1
        runs.append({"simulations": simulations, "games": games, "positions": positions,
                     "cpu_s": time.process_time() - cpu_start, "wall_s": time.perf_counter() - wall_start})  # fmt: skip
    module = net.policy_value_net
    return {"runs": runs, "params": sum(p.numel() for p in module.parameters()),
            "macs": count_macs(module, (1, 4, n, n)), "torch": torch.__version__, "shims": shims}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(_drive(json.loads(sys.argv[1]))))
