"""``python -m boardgame_envs.bench renju``: runs from the package alone, prints only what it measured."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from boardgame_envs.bench import renju as renju_bench

ROOT = Path(__file__).resolve().parents[2]
QUICK = ["--repeat", "2", "--seconds", "0.3"]


def _only_the_repository(monkeypatch) -> None:
    """Files outside the repository look absent, as on a plain clone with nothing beside it."""
    def inside(path) -> bool:
        return Path(path).resolve().is_relative_to(ROOT)

    for name in ("is_file", "exists"):
        original = getattr(Path, name)
        monkeypatch.setattr(Path, name, lambda self, original=original: inside(self) and original(self))
    read_text = Path.read_text

    def guarded_read_text(self, *args, **kwargs):
        if not inside(self):
            raise FileNotFoundError(self)
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", guarded_read_text)


def test_runs_from_the_package_alone(monkeypatch, capsys, tmp_path):
    _only_the_repository(monkeypatch)
    monkeypatch.chdir(tmp_path)
    renju_bench.main(QUICK)
    out = capsys.readouterr().out
    assert len(re.findall(r"^  mid\d\d ", out, re.M)) == 6


def test_without_the_reference_package_no_reference_figure_is_printed(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "renju", None)
    monkeypatch.setitem(sys.modules, "renju.check_forbid", None)
    renju_bench.main(QUICK)
    out = capsys.readouterr().out
    assert "not installed: no pure-Python reference" in out
    assert not re.search(r"reference [\d,]+ µs|times ours|\d+x(?!\d)", out)


def test_the_ratio_is_of_the_two_rates_it_prints(capsys):
    renju_bench.main(QUICK)
    out = capsys.readouterr().out
    found = re.findall(r"^  (freestyle|renju)\s+([\d,]+) games/s", out, re.M)
    rates = {rule: float(rate.replace(",", "")) for rule, rate in found}
    ratio = float(re.search(r"renju / freestyle: ([\d.]+)", out).group(1))
    assert abs(ratio - rates["renju"] / rates["freestyle"]) < 0.01 + 0.01 * ratio
    board_us = float(re.search(r"mean ([\d.]+) µs a board", out).group(1))
    reference = re.search(r"measured now: ([\d,]+) µs a board, ([\d,]+) times ours", out)
    reference_us, times = (float(x.replace(",", "")) for x in reference.groups())
    assert abs(reference_us / board_us - times) <= 0.02 * times + 1  # the printed figures are rounded
