"""A run's numbers kept as it goes (``metrics.jsonl``) and drawn at its end (``summary.png``).

Each iteration appends its scalars (the same as TensorBoard's) as one JSON
line in ``out/metrics.jsonl``, so the picture covers the whole run across
resumes. :func:`plot_summary` draws the losses and the evaluation scores
against the iterations with matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

METRICS = "metrics.jsonl"
SUMMARY = "summary.png"
LOSSES = ("loss", "policy_loss", "value_loss")


def append_metrics(out: Path, row: dict[str, float]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / METRICS, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")


def read_metrics(out: str | Path) -> list[dict[str, float]]:
    """The rows of ``out/metrics.jsonl`` in iteration order; a repeated iteration keeps its last row.

    (An iteration is repeated when a run was killed after logging it and
    before its checkpoint, and the resumed run played it again.)
    """
    path = Path(out) / METRICS
    if not path.is_file():
        return []
    rows: dict[float, dict[str, float]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a kill
            rows[row["iteration"]] = row
    return [rows[k] for k in sorted(rows)]


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
