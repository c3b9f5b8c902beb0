"""A ladder's published table (JSON package data), its text and markdown forms, its plot, and the docs' copy.

The docs show every shipped table between two marker comments; after a build,
``python -m boardgame_envs.ladder.report --docs docs/evaluation.md`` rewrites what
lies between them from the data (``--check`` only says whether it is up to date).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardgame_envs.arena.matches import fault_text
from boardgame_envs.ladder.elo import Ratings
from boardgame_envs.ladder.games import GameResult
from boardgame_envs.ladder.ladders import LADDERS, Ladder, LadderError, engine_of, ladder_for, load_table

DOCS_BEGIN = "<!-- ladder tables: made by `python -m boardgame_envs.ladder.report --docs FILE` from the data; do not edit -->"
DOCS_END = "<!-- end of ladder tables -->"
REGENERATE = "python -m boardgame_envs.ladder.report --docs docs/evaluation.md"


def write_table(
    ladder: Ladder, ratings: Ratings, log: list[GameResult], pair_games: dict[tuple[str, str], int], target: float,
    command: str, machine: str, games_needed: Callable[[int, float, float], int],
    engines: dict[str, dict[str, str]] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Write ``LADDER.json`` (package data, or a built ladder's folder): every level's Elo and interval, every
    adjacent difference's, how it was made."""
    specs = set(ladder.specs)
    played = [r for r in log if r.a in specs and r.b in specs]
    games_of = {s: sum(1 for r in played if s in (r.a, r.b)) for s in ladder.specs}
    rows = []
    for spec in ladder.specs:
        low, high = ratings.interval(spec)
        rows.append({"spec": spec, "elo": round(float(ratings.elo[ratings.index(spec)]), 1), "low": round(low, 1),
                     "high": round(high, 1), "games": games_of[spec]})  # fmt: skip
    adjacent = []
    for a, b in zip(ladder.specs, ladder.specs[1:]):
        diff, half = ratings.difference(b, a)
        n = pair_games[(a, b)]
        adjacent.append({"from": a, "to": b, "diff": round(diff, 1), "half_width": round(half, 1), "games": n,
                         "more_games_for_target": games_needed(n, half, target)})  # fmt: skip
    table = {
        "ladder": ladder.name, "game": ladder.game, "board_size": ladder.board_size, "rule": ladder.rule,
        "model": "Bradley-Terry (Elo) maximum likelihood, draws as half points, level 0 pinned at 0, "
                 "one virtual draw per pair that played; 95% intervals from the Hessian",
        "target_half_width": target, "games": len(played), "command": command, "machine": machine,
        "updated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "levels": rows, "adjacent": adjacent,
    }  # fmt: skip
    if ladder.parameters:
        table["parameters"] = dict(ladder.parameters)  # a built ladder's game's parameters (ladders.built_ladder)
    table["forfeits"] = sum(1 for r in played if r.fault)  # games lost by a fault (an engine's crash, timeout, ...)
    kinds: dict[str, int] = {}
    for r in played:
        if r.fault:
            kinds[r.fault] = kinds.get(r.fault, 0) + 1
    if kinds:  # by kind, most frequent first, as the arena and rate name them
        table["faults"] = dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    if engines:
        table["engines"] = engines  # the external levels' engines: source, commit, build, what the binary said
    ladder.table_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = ladder.table_path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(table, indent=1) + "\n")
    tmp.replace(ladder.table_path)
    return table


def format_table(ladder: Ladder | str, markdown: bool = False) -> str:
    """The published table as aligned text (or markdown): level, spec, Elo, 95% interval, step from below."""
    ladder = ladder_for(ladder) if isinstance(ladder, str) else ladder
    table = load_table(ladder)
    steps = [None] + table["adjacent"]
    title = f"{ladder.name} ladder ({ladder.describe()}): {table['games']} games, updated {table['updated']}"
    head = ("level", "spec", "Elo", "95% interval", "step", "step ±95%", "games")
    rows = []
    for i, (lv, step) in enumerate(zip(table["levels"], steps)):
        rows.append((
            f"{ladder.name}/{i}" + ("*" if lv["spec"].startswith("engine:") else ""), lv["spec"], f"{lv['elo']:+.0f}", f"{lv['low']:+.0f} .. {lv['high']:+.0f}",
            "" if step is None else f"{step['diff']:+.0f}", "" if step is None else f"±{step['half_width']:.0f}",
            str(lv["games"]),
        ))  # fmt: skip
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(f"`{c}`" if k == 1 else c for k, c in enumerate(r)) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
    fmt = "  ".join(f"{{:{'<' if k < 2 else '>'}{w}}}" for k, w in enumerate(widths))
    footer = f"regenerate: {table['command']}  (machine: {table['machine']})"
    notes = external_notes(ladder, table)
    if table.get("forfeits"):
        faults = table.get("faults") or {"fault": table["forfeits"]}  # (a table written before kinds were kept)
        notes.append(f"{fault_text(faults)}, not played out (the log's 'fault' field)")
    return "\n".join([title, fmt.format(*head), *(fmt.format(*r) for r in rows), *notes, footer])


def external_notes(ladder: Ladder, table: dict[str, Any]) -> list[str]:
    """Lines on the ladder's external levels: which they are, the engine's build, how to play them."""
    from boardgame_envs.gomocup.engines import KNOWN, configured, variable

    lines = []
    rated = len(table["levels"])
    for name in ladder.engines:
        indices = [i for i, spec in enumerate(ladder.specs) if engine_of(spec) == name]
        first, last = indices[0], indices[-1]
        info = table.get("engines", {}).get(name, {})
        known = KNOWN.get(name)
        build = ", ".join(
            x for x in (info.get("commit", known.commit if known else "")[:10], known.notes if known else "") if x
        )
        state = "configured here" if configured(name) else (
            f"not configured here: build it (docs/engines.md) and pass --engine {name}=PATH or set {variable(name)}"
        )  # fmt: skip
        lines.append(
            f"external levels {ladder.name}/{first} .. {ladder.name}/{last} (marked *): {name}"
            + (f" (commit {build})" if build else "") + f"; {state}"
        )
        unrated = [i for i in indices if i >= rated]
        if unrated:
            lines.append(
                f"not rated yet: {', '.join(f'{ladder.name}/{i}' for i in unrated)} "
                f"(python -m boardgame_envs.ladder.build {ladder.name} --engine {name}=PATH)"
            )
    return lines


def write_plot(ladder: Ladder | str, path: Path | str | None = None) -> Path:
    """Elo against level with 95% error bars, as a PNG (default: next to the table, ``data/LADDER.png``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError('the plot needs matplotlib: pip install "boardgame-envs[plot]"') from None
    ladder = ladder_for(ladder) if isinstance(ladder, str) else ladder
    table = load_table(ladder)
    path = Path(path) if path is not None else ladder.table_path.with_suffix(".png")
    xs = range(len(table["levels"]))
    elo = [lv["elo"] for lv in table["levels"]]
    err = [[lv["elo"] - lv["low"] for lv in table["levels"]], [lv["high"] - lv["elo"] for lv in table["levels"]]]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.errorbar(xs, elo, yerr=err, fmt="o-", capsize=3)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{i}: {lv['spec']}" for i, lv in enumerate(table["levels"])], rotation=60, ha="right",
                       fontsize=7)  # fmt: skip
    ax.set_xlabel("level")
    ax.set_ylabel("Elo (level 0 = 0), 95% interval")
    ax.set_title(f"{ladder.name} ladder ({ladder.describe()}): {table['games']} games, updated {table['updated']}")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise LadderError(f"cannot write the plot {os.fspath(path)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)
    return path


def summary(ladder: Ladder | str) -> str:
    """One paragraph under a table: games, span, which steps are still too wide and how to go on."""
    ladder = ladder_for(ladder) if isinstance(ladder, str) else ladder
    table = load_table(ladder)
    target, steps = table.get("target_half_width", 50.0), table["adjacent"]
    wide = [step for step in steps if step["half_width"] > target]
    text = f"{table['games']:,} games, fitted {table['updated']}; random to the top: {table['levels'][-1]['elo']:+.0f} Elo. "
    if not wide:
        return text + f"Every step is known to ±{target:g} Elo (95%)."
    more = sum(step["more_games_for_target"] for step in steps)
    return text + (
        f"{len(wide)} of {len(steps)} steps are still wider than ±{target:g} Elo; by the usual 1/n scaling they need "
        f"about {more:,} more games in all (the table's `more_games_for_target` gives each pair's share). "
        f"Continue with `{table['command']}`: it plays on from the log."
    )


def docs_tables(docs_dir: Path | str) -> str:
    """Every ladder's plot, markdown table and summary, as the page in ``docs_dir`` shows them."""
    parts = []
    for ladder in LADDERS.values():
        plot = Path(os.path.relpath(ladder.table_path.with_suffix(".png"), docs_dir)).as_posix()
        parts += [f"### `{ladder.name}`", f"![{ladder.name} ladder]({plot})", format_table(ladder, markdown=True), summary(ladder)]
    return "\n\n".join(parts)


def _between_markers(text: str, path: Path) -> re.Match:
    found = re.search(re.escape(DOCS_BEGIN) + r"\n(.*?)\n?" + re.escape(DOCS_END), text, re.S)
    if found is None:
        raise LadderError(f"{path} has no ladder tables to update: put the lines {DOCS_BEGIN} and {DOCS_END} where they go")
    return found


def docs_up_to_date(path: Path | str) -> bool:
    """Whether the tables between the markers of ``path`` are those the shipped data make."""
    path = Path(path)
    return _between_markers(path.read_text(), path).group(1).strip() == docs_tables(path.parent)


def update_docs(path: Path | str) -> bool:
    """Rewrite the tables between the markers of ``path`` from the shipped data; True if anything changed."""
    path = Path(path)
    text = path.read_text()
    found = _between_markers(text, path)
    new = text[: found.start(1)] + docs_tables(path.parent) + "\n\n" + text[found.end(1) :].lstrip("\n")
    if new == text:
        return False
    path.write_text(new)
    return True


class RaisingParser(argparse.ArgumentParser):
    """An argument parser whose errors are ValueErrors, which ``main`` prints as one line (no usage block)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)  # --doc is not --docs
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def main(argv: list[str] | None = None) -> int:
    parser = RaisingParser(prog="python -m boardgame_envs.ladder.report", description=__doc__.split("\n\n")[1])
    parser.add_argument("--docs", metavar="FILE", required=True, help="the markdown page whose ladder tables to rewrite")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if the tables are out of date")
    try:
        args = parser.parse_args(argv)
        if args.check:
            if docs_up_to_date(args.docs):
                return 0
            print(f"{args.docs}: the ladder tables differ from the shipped data; run {parser.prog} --docs {args.docs}")
            return 1
        print(f"{args.docs}: {'updated' if update_docs(args.docs) else 'already up to date'}")
    except (OSError, ValueError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
