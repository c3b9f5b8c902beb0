"""Elo against CPU-hours for the self-play recipes: the curve.csv files their runs write, one panel per ladder.

``baselines/ppo_selfplay.py`` and ``baselines/ppo_sb3_pool.py`` append a row to ``OUT/curve.csv``
at each rating (``cpu_hours, steps, updates|rollouts, elo, low, high, games, rate_cpu_s,
rate_share``). This script draws such files: each curve the Elo with its 95% interval as a
band, against the training process's CPU-hours; curves on different ladders go in different
panels, since their Elo scales are not one scale. A target is a dashed line across its panel.

    python baselines/plot_selfplay_curves.py --out docs/img/selfplay_curves.png \\
        --panel "connect four (connect_four ladder)" \\
            --curve "SB3 MaskablePPO + pool, seed 0=runs/sb3-connect-four-s0/curve.csv" \\
            --target "mcts:simulations=1000=987" \\
        --panel "9x9 gomoku (gomoku9 ladder)" \\
            --curve "single-file PPO, seed 0=runs/ppo-gomoku9-s0/curve.csv" \\
            --target "greedy=1659"

Every ``--curve`` and ``--target`` belongs to the ``--panel`` before it (to one untitled
panel when none is given). A curve is ``LABEL=PATH`` and a target ``LABEL=ELO``, split at the
last ``=``, so a label may hold ``=`` (``mcts:simulations=1000=987``) and a path may not.
A rating that won (lost) every game has an infinite Elo and a one-sided bound; it is drawn
as a triangle at that bound.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

COLUMNS = ("cpu_hours", "elo", "low", "high")


@dataclass
class Panel:
    """One ladder's panel: its title, its curves (label, rows) and its target lines (label, Elo)."""

    title: str
    curves: list[tuple[str, list[dict[str, float]]]] = field(default_factory=list)
    targets: list[tuple[str, float]] = field(default_factory=list)


def split_last(text: str, what: str) -> tuple[str, str]:
    """``LABEL=VALUE`` split at the last ``=``; ValueError when either side is empty."""
    label, eq, value = text.rpartition("=")
    if not eq or not label.strip() or not value.strip():
        raise ValueError(f"{what} takes LABEL={'PATH' if what == '--curve' else 'ELO'}, got {text!r}")
    return label.strip(), value.strip()


def read_curve(path: Path) -> list[dict[str, float]]:
    """The rows of a run's curve.csv as numbers (the columns this plot uses), by CPU-hours.
    ValueError names the file when it is missing, lacks a column, holds no row or a value that is no number."""
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if missing := [c for c in COLUMNS if c not in (reader.fieldnames or [])]:
            raise ValueError(f"{path}: no column {', '.join(missing)} (a curve.csv has {', '.join(COLUMNS)}, ...)")
        rows = []
        for line, raw in enumerate(reader, start=2):
            try:
                rows.append({c: float(raw[c]) for c in COLUMNS})
            except (TypeError, ValueError):
                raise ValueError(f"{path}:{line}: {', '.join(COLUMNS)} must be numbers") from None
    if not rows:
        raise ValueError(f"{path}: no ratings yet")
    return sorted(rows, key=lambda r: r["cpu_hours"])


def panels_of(items: list[tuple[str, str]]) -> list[Panel]:
    """The panels that the options say, in their order: ``("panel", TITLE)``, ``("curve", LABEL=PATH)``,
    ``("target", LABEL=ELO)``. ValueError for a malformed item or a panel without a curve."""
    panels: list[Panel] = []
    for kind, text in items:
        if kind == "panel":
            panels.append(Panel(text))
            continue
        if not panels:
            panels.append(Panel(""))
        if kind == "curve":
            label, path = split_last(text, "--curve")
            panels[-1].curves.append((label, read_curve(Path(path))))
        else:
            label, value = split_last(text, "--target")
            try:
                elo = float(value)
            except ValueError:
                raise ValueError(f"--target takes LABEL=ELO with a number, got {text!r}") from None
            if not math.isfinite(elo):
                raise ValueError(f"--target takes a finite Elo, got {text!r}")
            panels[-1].targets.append((label, elo))
    if not panels:
        raise ValueError("nothing to draw: give at least one --curve LABEL=PATH")
    if empty := [p.title or "(untitled)" for p in panels if not p.curves]:
        raise ValueError(f"panel {empty[0]!r} has no --curve")
    return panels


def plot(panels: list[Panel], out: Path, title: str | None = None) -> Path:
    """One panel per ladder side by side: Elo (95% band) against CPU-hours, targets dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), dpi=100, squeeze=False)
    for ax, panel in zip(axes[0], panels):
        for label, rows in panel.curves:
            finite = [r for r in rows if math.isfinite(r["elo"])]
            xs = [r["cpu_hours"] for r in finite]
            (line,) = ax.plot(xs, [r["elo"] for r in finite], "o-", markersize=3, label=label)
            ax.fill_between(xs, [r["low"] for r in finite], [r["high"] for r in finite], color=line.get_color(),
                            alpha=0.2, linewidth=0)  # fmt: skip
            for bound, marker, side in ((math.inf, "^", "low"), (-math.inf, "v", "high")):
                beyond = [r for r in rows if r["elo"] == bound]
                if beyond:  # a one-sided interval: at least (at most) this
                    ax.scatter([r["cpu_hours"] for r in beyond], [r[side] for r in beyond], marker=marker,
                               color=line.get_color())  # fmt: skip
        for label, elo in panel.targets:
            ax.axhline(elo, color="0.35", linestyle="--", linewidth=1)
            ax.annotate(f"target {elo:+.0f} ({label})", (0.01, elo), xycoords=("axes fraction", "data"),
                        xytext=(0, 3), textcoords="offset points", fontsize=8, color="0.25")  # fmt: skip
        ax.set_title(panel.title)
        ax.set_xlabel("CPU-hours of training (process CPU time, ratings included)")
        ax.set_ylabel("Elo on the ladder, 95% interval")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


class _InOrder(argparse.Action):
    """Keeps --panel, --curve and --target in the order given: a curve belongs to the panel before it."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.items = [*(namespace.items or []), (self.dest, values)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--panel", dest="panel", action=_InOrder, metavar="TITLE",
                        help="start a panel (one per ladder); the curves and targets after it go in it")
    parser.add_argument("--curve", dest="curve", action=_InOrder, metavar="LABEL=PATH", help="a run's curve.csv")
    parser.add_argument("--target", dest="target", action=_InOrder, metavar="LABEL=ELO",
                        help="a dashed line at this Elo, e.g. 'greedy=1659'")  # fmt: skip
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--title", default=None, help="a title over all panels")
    parser.set_defaults(items=None)
    args = parser.parse_args(argv)
    try:
        panels = panels_of(args.items or [])
    except ValueError as exc:
        print(f"plot_selfplay_curves.py: error: {exc}", file=sys.stderr)
        return 2
    print(plot(panels, args.out, args.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
