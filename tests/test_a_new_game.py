"""A game added to the catalog leaves the every-game tests green, with no test edit.

The game is one the suite was not written for (tests/games/keep_apart.py): games
40 to 90 plies long, a pass that is forced where a player has no open cell and
illegal elsewhere, no numba kernels, and a declared parameter named ``size``. It
is put in the catalog for a whole pytest run, before the tests are collected, as
a game shipped in the package would be (tests/conformance/temporary.py,
``BOARDGAME_ENVS_TESTS_NEW_GAME``), and that run plays every test of the files
below whose id names it: the conformance kit, the batched engine and Gymnasium's
``make_vec`` with SB3, the catalog's own checks, AlphaZero's defaults, the
pictures, the window, replay and records.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from conformance.temporary import NEW_GAME_VARIABLE, add_for_the_run

ROOT = Path(__file__).resolve().parents[1]
GAME = "keep_apart"
# The test files that run over every catalog game (parametrised by the catalog or the kit's cases). The RL
# libraries' wrappers (tests/envs/test_library_wrappers.py) are left to the kit's own test games: importing
# Tianshou and TorchRL again would double this test's cost, and they take a game through its AEC env alone.
EVERY_GAME_FILES = (
    "tests/conformance/test_rules.py", "tests/conformance/test_envs.py", "tests/conformance/test_known_positions.py",
    "tests/conformance/test_policies.py", "tests/conformance/test_tools.py", "tests/vector/test_every_game.py",
    "tests/vector/test_backend_choice.py", "tests/games/test_catalog.py", "tests/alphazero/test_defaults.py",
    "tests/render/test_drawing_hook.py", "tests/ui/test_any_game_window.py", "tests/ui/test_any_game_replay.py",
    "tests/envs/test_info_values.py", "tests/arena/test_record_results.py",
)  # fmt: skip


def test_the_every_game_tests_hold_for_a_new_long_game_with_passes(tmp_path):
    report = tmp_path / "report.xml"
    env = {**os.environ, NEW_GAME_VARIABLE: GAME, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", GAME, f"--junitxml={report}",
               *EVERY_GAME_FILES]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-30:])
    assert run.returncode == 0, tail
    outcomes: Counter = Counter()
    for case in ET.parse(report).iter("testcase"):
        kind = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        parts = case.get("classname").split(".")  # tests.vector.test_every_game (and a class, if any)
        module = next(i for i, part in enumerate(parts) if part.startswith("test_"))
        outcomes["/".join(parts[: module + 1]) + ".py", kind] += 1
    assert not [key for key in outcomes if key[1] in ("failure", "error")], outcomes
    for path in EVERY_GAME_FILES:  # each file played the new game (a file whose tests missed it would pass empty)
        assert outcomes[path, "passed"] >= 1, f"{path} ran no test of {GAME}: {dict(outcomes)}"
    assert sum(n for (_, kind), n in outcomes.items() if kind == "passed") >= 50


def test_a_name_that_is_no_new_game_is_refused_in_one_line():
    with pytest.raises(ValueError, match=rf"^{NEW_GAME_VARIABLE}='chess' names no new test game; expected one of {GAME}$"):
        add_for_the_run("chess")
