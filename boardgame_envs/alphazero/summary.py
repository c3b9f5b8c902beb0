"""A run's numbers kept as it goes (``metrics.jsonl``) and drawn at its end (``summary.png``).

Each iteration appends its scalars (the same as TensorBoard's) as one JSON
line in ``out/metrics.jsonl``, so the picture covers the whole run across
resumes. :func:`plot_summary` draws the losses and the evaluation scores
against the iterations with matplotlib (the ``plot`` extra).

Invariant: the file holds one row an iteration, up to the checkpoint's. A run
that logged an iteration and then could not save it (killed, a full disk) plays
it again on resume; :func:`sync_metrics`, called by the trainer when it opens a
run, first drops the rows past the checkpoint (and a line cut by a kill), rewriting
the file whole, so the log never reads 1, 2, 3, 4, 5, 5, 6.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from boardgame_envs.safeio import DiskFullError, FileRefusedError, atomic_write_text, open_append, read_text
from boardgame_envs.safeio.errors import DISK_FULL

METRICS = "metrics.jsonl"
SUMMARY = "summary.png"
LOSSES = ("loss", "policy_loss", "value_loss")


def append_metrics(out: Path, row: dict[str, float]) -> None:
    """Append ``row`` to ``out/metrics.jsonl``; a full disk is :class:`~boardgame_envs.safeio.DiskFullError`
    (a line it cut short is dropped by the next :func:`sync_metrics`)."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        with open_append(out / METRICS, "metrics log", encoding="utf-8") as f:  # a FIFO there is refused, not waited on
            f.write(json.dumps(row) + "\n")
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise DiskFullError(out / METRICS, exc.errno) from None
        raise


def read_metrics(out: str | Path) -> list[dict[str, float]]:
    """The rows of ``out/metrics.jsonl`` in iteration order; a repeated iteration keeps its last row.

    (A file written before :func:`sync_metrics` existed may repeat an iteration: a run killed after
    logging it and before its checkpoint played it again.) The file is read bounded
    (:func:`~boardgame_envs.safeio.read_text`); a line that is not a row (cut by a kill) is skipped.
    """
    rows: dict[float, dict[str, float]] = {}
    for line in _lines(Path(out) / METRICS):
        row = _row(line)
        if row is not None:
            rows[row["iteration"]] = row
    return [rows[k] for k in sorted(rows)]


def sync_metrics(out: str | Path, iteration: int, warm_done: bool = True) -> int:
    """Make ``out/metrics.jsonl`` hold the rows of the run up to ``iteration`` (the checkpoint's); how many
    lines it dropped, each kind with a line on stderr.

    Dropped: rows past ``iteration`` (logged, then not saved: the resumed run plays them again), the warm
    start's row (iteration 0) while the checkpoint's warm start is not ``warm_done``, and lines that are not
    rows (cut by a kill). The file is rewritten whole, or left untouched when nothing is dropped."""
    path = Path(out) / METRICS
    lines = _lines(path)
    kept, cut, later = [], 0, 0
    for line in lines:
        row = _row(line)
        if row is None:
            cut += bool(line.strip())
        elif row["iteration"] > iteration or (row["iteration"] == 0 and not warm_done):
            later += 1
        else:
            kept.append(line if line.endswith("\n") else line + "\n")
    if cut or later:
        atomic_write_text(path, "".join(kept))
        if later:
            print(f"{path}: dropped {later} row(s) logged after the checkpoint (iteration {iteration}), which the "
                  "run plays again", file=sys.stderr, flush=True)  # fmt: skip
        if cut:
            print(f"{path}: dropped {cut} line(s) that are not rows (cut short by a kill)", file=sys.stderr, flush=True)
    return cut + later


def _lines(path: Path) -> list[str]:
    try:
        text = read_text(path, what="metrics log")
    except (FileNotFoundError, IsADirectoryError):
        return []
    except FileRefusedError as exc:
        raise FileRefusedError(exc.path, f"{exc.why}; repair it or move it aside, then run again") from None
    return io.StringIO(text).readlines()


def _row(line: str) -> dict[str, float] | None:
    """The row a line holds; None for a line that is not one (cut short, damaged)."""
    try:
        row = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(row, dict) or isinstance(row.get("iteration"), bool) \
            or not isinstance(row.get("iteration"), (int, float)):  # fmt: skip
        return None
    return row


def plot_summary(rows: Iterable[dict[str, float]], path: str | Path, title: str = "AlphaZero") -> Path:
    """Losses (left) and evaluation scores (right) against iterations, written to ``path`` (PNG).

    Raises ``ValueError`` when there is nothing to draw or matplotlib is missing.
    """
    rows = list(rows)
    if not rows:
        raise ValueError("no iterations to plot")
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise ValueError("the summary plot needs matplotlib: pip install 'boardgame-envs[plot]'") from None
    fig = Figure(figsize=(10, 4), dpi=100, layout="constrained")
    ax_loss, ax_eval = fig.subplots(1, 2, sharex=True)
    ax_loss.xaxis.set_major_locator(MaxNLocator(integer=True))
    for key in LOSSES:
        points = [(r["iteration"], r[key]) for r in rows if key in r]
        if points:
            ax_loss.plot(*zip(*points), label=key.replace("_", " "))
    ax_loss.set(xlabel="iteration", ylabel="training loss", title="loss")
    ax_loss.legend()
    scores = sorted({k for r in rows for k in r if k.startswith("score_vs_")})
    for key in scores:
        points = [(r["iteration"], r[key]) for r in rows if key in r]
        ax_eval.plot(*zip(*points), marker="o", label=key.removeprefix("score_vs_"))
    ax_eval.set(xlabel="iteration", ylabel="score (win 1, draw 0.5)", title="evaluation", ylim=(-0.02, 1.02))
    if scores:
        ax_eval.legend(title="against")
    else:
        ax_eval.text(0.5, 0.5, "no evaluation in this run", ha="center", va="center", transform=ax_eval.transAxes)
    fig.suptitle(title)
    fig.savefig(path)
    return Path(path)
