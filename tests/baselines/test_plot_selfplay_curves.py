"""baselines/plot_selfplay_curves.py: runs' curve.csv files drawn as Elo against CPU-hours, one panel per ladder."""

from __future__ import annotations

import subprocess
import sys

import pytest
from baseline_scripts import BASELINES, load_baseline

HEADER = "cpu_hours,steps,updates,elo,low,high,games,rate_cpu_s,rate_share\n"


def write_curve(path, rows):
    path.write_text(HEADER + "".join(f"{h},{s},{s // 4096},{e},{lo},{hi},200,2.0,0.02\n" for h, s, e, lo, hi in rows))
    return path


@pytest.fixture
def curves(tmp_path):
    c4 = write_curve(tmp_path / "c4.csv",
                     [(0.0, 0, 120, 50, 190), (0.5, 40960, 460, 390, 530), (0.25, 20480, 330, 260, 400)])
    g9 = write_curve(tmp_path / "g9.csv",
                     [(0.0, 0, 457, 405, 507), (0.1, 4096, 1047, 997, 1097), (0.2, 8192, "inf", 1700, "inf")])
    return c4, g9


def test_two_panels_with_targets_are_drawn_to_a_png(tmp_path, curves):
    plot = load_baseline("plot_selfplay_curves")
    c4, g9 = curves
    out = tmp_path / "img" / "curves.png"  # a folder not there yet is made
    argv = ["--out", str(out),
            "--panel", "connect four", "--curve", f"SB3, seed 0={c4}", "--target", "mcts:simulations=1000=987",
            "--panel", "9x9 gomoku", "--curve", f"PPO, seed 0={g9}", "--curve", f"PPO again={g9}",
            "--target", "greedy=1659"]
    assert plot.main(argv) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
    panels = plot.panels_of([("panel", "connect four"), ("curve", f"SB3={c4}"),
                             ("target", "mcts:simulations=1000=987"), ("panel", "g9"), ("curve", f"a=b={g9}")])
    assert [p.title for p in panels] == ["connect four", "g9"]
    assert panels[0].targets == [("mcts:simulations=1000", 987.0)]  # split at the last '='
    assert [r["cpu_hours"] for r in panels[0].curves[0][1]] == [0.0, 0.25, 0.5]  # sorted by CPU-hours
    assert panels[1].curves[0][0] == "a=b" and panels[1].curves[0][1][-1]["elo"] == float("inf")


def test_curves_before_any_panel_go_in_one_untitled_panel(curves):
    plot = load_baseline("plot_selfplay_curves")
    panels = plot.panels_of([("curve", f"a={curves[0]}"), ("curve", f"b={curves[1]}")])
    assert [(p.title, len(p.curves)) for p in panels] == [("", 2)]


@pytest.mark.parametrize("args,says", [
    (["--curve", "no-equals-sign"], "--curve takes LABEL=PATH"),
    (["--curve", "run=missing.csv"], "missing.csv: no such file"),
    (["--curve", "run={bad}"], "no column low"),
    (["--curve", "run={c4}", "--target", "greedy=strong"], "--target takes LABEL=ELO with a number"),
    (["--curve", "run={c4}", "--target", "greedy=nan"], "finite Elo"),
    (["--panel", "empty", "--target", "greedy=1659"], "panel 'empty' has no --curve"),
    ([], "nothing to draw"),
])  # fmt: skip
def test_a_bad_argument_is_one_line_and_exit_status_2(tmp_path, curves, args, says):
    bad = tmp_path / "bad.csv"
    bad.write_text("cpu_hours,elo,high\n0.1,100,200\n")
    args = [a.format(c4=curves[0], bad=bad) for a in args]
    script = str(BASELINES / "plot_selfplay_curves.py")
    done = subprocess.run([sys.executable, script, "--out", str(tmp_path / "x.png"), *args], cwd=tmp_path,
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and says in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_a_curve_with_no_rating_yet_or_a_word_for_a_number_is_refused(tmp_path):
    plot = load_baseline("plot_selfplay_curves")
    with pytest.raises(ValueError, match="no ratings yet"):
        plot.read_curve(write_curve(tmp_path / "empty.csv", []))
    (tmp_path / "word.csv").write_text(HEADER + "0.1,0,0,strong,1,2,200,1,0.1\n")
    with pytest.raises(ValueError, match=r"word.csv:2: .*must be numbers"):
        plot.read_curve(tmp_path / "word.csv")
