"""baselines/README.md lists every recipe and study, and what the docs and code name under baselines/ exists."""

from __future__ import annotations

import re
from pathlib import Path

from baseline_scripts import BASELINES, moved_stubs

ROOT = BASELINES.parent
README = BASELINES / "README.md"
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# A path under baselines/ written out in a doc or a docstring (not one built from pieces, e.g. f"baselines/{x}").
NAMED = re.compile(r"(?<![\w/.])baselines/[\w/.-]*\w\.(?:py|md|csv|json|png)\b")


STUBS = {Path(old).name for old, _ in moved_stubs()}


def scripts() -> list[str]:
    """Every script that is a recipe, a helper or a study, as a path relative to baselines/ (stubs left out)."""
    found = [*(p for p in BASELINES.glob("*.py") if p.name not in STUBS), *(BASELINES / "studies").glob("*.py")]
    return sorted(str(p.relative_to(BASELINES)) for p in found)


def test_the_readme_links_every_script_once():
    links = LINK.findall(README.read_text())
    assert scripts() and "studies/mcts_first_seat.py" in scripts() and "report.py" in scripts()
    assert {s: links.count(s) for s in scripts()} == {s: 1 for s in scripts()}


def test_no_stub_is_listed_as_a_recipe():
    text = README.read_text()
    assert STUBS and [s for s in STUBS if f"]({s})" in text] == []


def test_every_relative_link_in_the_docs_and_results_resolves():
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md"), *BASELINES.rglob("*.md")]
    broken = [f"{page.relative_to(ROOT)}: {target}" for page in pages for target in LINK.findall(page.read_text())
              if "://" not in target and not (page.parent / target).exists()]  # fmt: skip
    assert broken == []


def test_every_path_under_baselines_that_docs_and_code_name_exists():
    """A moved or removed script leaves no reader pointed at nothing, nor at the stub at its old path. Results
    files are left out: they keep the scratch paths their commands wrote to (``--out /tmp/...``, since-folded
    reports)."""
    texts = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), README, *(ROOT / "examples").glob("*.py"),
             *(ROOT / "boardgame_envs").rglob("*.py"), *(ROOT / "boardgame_envs" / "data").rglob("*.txt"),
             *BASELINES.glob("*.py"), *(BASELINES / "studies").glob("*.py")]  # fmt: skip
    stubs = {old for old, _ in moved_stubs()}
    stale = [f"{t.relative_to(ROOT)}: {m}" for t in texts for m in NAMED.findall(t.read_text())
             if not (ROOT / m).exists() or m in stubs]  # fmt: skip
    assert stale == []


def test_the_path_check_catches_a_moved_path():
    assert NAMED.findall("see `baselines/mcts_first_seat.py` and baselines/results/x.md.") == [
        "baselines/mcts_first_seat.py", "baselines/results/x.md"]  # fmt: skip
    assert NAMED.findall('f"baselines/{name}.py", the folder baselines/ and studies/baselines/x.py') == []
