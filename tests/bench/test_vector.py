"""bench vector runs, and each ratio it prints is the ratio of the rates it prints."""

from __future__ import annotations

import re

from boardgame_envs.bench import vector as bench


def rates(text: str) -> dict[str, float]:
    return {m.group(1).strip(): float(m.group(2)) for m in re.finditer(r"^(.*?)\s+([\d.]+) M steps/s", text, re.M)}


def test_bench_vector_prints_consistent_ratios(capsys):
    bench.main(["--seconds", "0.3", "--rounds", "2"])
    out = capsys.readouterr().out
    found = rates(out)
    assert "15x15 renju, 256 games, ours (serial)" in found
    for title in ("tic-tac-toe", "connect four"):
        ours = found[f"{title}, 1,024 games, ours (serial)"]
        assert ours > 0
        pgx = re.search(rf"^{title} ratio ours / pgx\s+([\d.]+)x", out, re.M)
        if pgx:  # pgx is optional
            assert abs(float(pgx.group(1)) - ours / found[f"{title}, 1,024 games, pgx (vmap + jitted scan, CPU)"]) < 0.02
        else:
            assert f"{title}: pgx is not installed, skipped" in out
    openspiel = [v for k, v in found.items() if k.startswith("OpenSpiel")]
    # [ \t]: a line's ratio only; without OpenSpiel a line ends at "M steps/s" (\s+ would reach the next line's 15x15).
    for line in re.finditer(r"^(15x15 \w+, 256 games, ours \(serial\))[ \t]+([\d.]+) M steps/s[ \t]+([\d.]+)x", out, re.M):
        assert abs(float(line.group(3)) - float(line.group(2)) / openspiel[0]) <= 0.06 * float(line.group(3)) + 0.06


def test_bench_vector_pgx_only_skips_gomoku(capsys):
    bench.main(["--seconds", "0.2", "--rounds", "1", "--pgx-only"])
    found = rates(capsys.readouterr().out)
    assert "connect four, 1,024 games, ours (serial)" in found and not any(k.startswith("15x15") for k in found)
