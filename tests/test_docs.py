"""Every documented line runs: the Python blocks of README.md and docs/*.md, and the README's commands.

Python blocks (```python) run as a reader runs them: each alone, in a fresh
namespace and a fresh temporary directory (so ``runs/...`` paths land there),
unless its first line is the comment ``# continues the previous block``: such a
block runs after the previous block of its page, in its namespace and
directory. A block that needs an earlier one and does not say so fails here.
The README's command blocks (```bash) run line by line: ``boardgame-envs ...``
as ``python -m boardgame_envs ...``, ``python ...`` with this interpreter.

A block that takes long as written (a training run, a 1,000-game match) is
marked by an HTML comment just before it, which the rendered page does not
show, naming text replacements that shorten it::

    <!-- docs-test: "--minutes 2" -> "--iterations 1", 'opponent="mcts"' -> 'opponent="random"' -->

The replacements apply unless ``BOARDGAME_ENVS_DOCS_FAST=0``, which runs
every block exactly as written (and takes its time). Set-up commands (``pip
install``, the test command itself) and long-running servers
(``tensorboard``) are listed in ``NOT_RUN``; each one is named, none is skipped
silently.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FAST = os.environ.get("BOARDGAME_ENVS_DOCS_FAST", "1") != "0"
# Commands of the README that are not run here, and why.
NOT_RUN = {
    "python -m pip install -r requirements-dev.txt": "the set-up itself (checked on a fresh clone, not in the tests)",
    "python -m pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu": "the CPU-only set-up's "
    "first step, from an index the test machines need not reach (test_the_readme_installs_the_pinned_torch)",
    "python -m pytest -q": "the test command that runs this test",
    "tensorboard --logdir runs/": "a server that runs until stopped",
}
CONTINUES = "# continues the previous block"
FENCE = re.compile(r"^(?:<!--\s*docs-test:(?P<marks>.*?)-->\s*\n)?```(?P<lang>\w*)\n(?P<code>.*?)^```", re.M | re.S)
REPLACEMENT = re.compile(r"""(["'])(.*?)\1\s*->\s*(["'])(.*?)\3""")


def blocks(path: Path, lang: str) -> list[tuple[int, str]]:
    """``(line, code)`` of each ``lang`` block of ``path``, shortened by its marks when FAST."""
    text = path.read_text()
    found = []
    for m in FENCE.finditer(text):
        if m["lang"] != lang:
            continue
        code = m["code"]
        if FAST and m["marks"]:
            for _, old, _, new in REPLACEMENT.findall(m["marks"]):
                assert old in code, f"{path.name}: the mark replaces {old!r}, which its block does not hold"
                code = code.replace(old, new)
        found.append((text.count("\n", 0, m.start("code")) + 1, code))
    return found


def commands() -> list[tuple[str, str]]:
    """``(where, command)`` of each line of the README's bash blocks that is not only a comment."""
    found = []
    for line, code in blocks(ROOT / "README.md", "bash"):
        for i, text in enumerate(code.splitlines()):
            if shlex.split(text, comments=True):
                found.append((f"README.md:{line + i}", text.split(" #")[0].strip()))
    return found


def continues(code: str) -> bool:
    """Whether a block says, on its first line, that it continues the previous block of its page."""
    return code.lstrip("\n").startswith(CONTINUES)


def chains(path: Path) -> list[list[tuple[int, str]]]:
    """The Python blocks of ``path`` as a reader runs them: each chain a block that runs alone, then the
    blocks that continue it. A page's first block cannot continue anything."""
    found: list[list[tuple[int, str]]] = []
    for line, code in blocks(path, "python"):
        if continues(code):
            assert found, f"{path.name}:{line}: the page's first Python block says it continues a previous one"
            found[-1].append((line, code))
        else:
            found.append([(line, code)])
    return found


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_python_blocks_run_as_a_reader_runs_them(path, tmp_path, monkeypatch):
    for first, *rest in chains(path):
        folder = tmp_path / f"line-{first[0]}"
        folder.mkdir()
        monkeypatch.chdir(folder)
        namespace: dict = {"__name__": "__docs__"}
        for line, code in [first, *rest]:
            try:
                exec(compile(code, f"{path.name}:{line}", "exec"), namespace)
            except NameError as exc:
                hint = "" if line != first[0] else f"; if it continues the previous block, say so: {CONTINUES!r} as its first line"
                pytest.fail(f"{path.name}, block at line {line}: NameError: {exc} (it does not run alone{hint})")
            except Exception as exc:
                pytest.fail(f"{path.name}, block at line {line}: {type(exc).__name__}: {exc}")


def test_the_collector_sees_every_kind_of_block():
    assert len(blocks(ROOT / "README.md", "python")) >= 4
    assert any(c.startswith("boardgame-envs train") for _, c in commands())


def test_a_block_that_leans_on_the_one_before_fails_unless_it_says_so(tmp_path, monkeypatch):
    """The runner can fail: a second block using the first one's ``env`` without the mark is caught,
    and with the mark it runs in the first one's namespace."""
    first = "```python\nenv = {'agents': 2}\n```\n\n"
    second = "```python\n{mark}print(env['agents'])\n```\n"
    page = tmp_path / "page.md"
    page.write_text(first + second.format(mark=""))
    with pytest.raises(pytest.fail.Exception, match="block at line 6: NameError: .*does not run alone"):
        test_python_blocks_run_as_a_reader_runs_them(page, tmp_path, monkeypatch)
    page.write_text(first + second.format(mark=CONTINUES + "\n"))
    assert [len(chain) for chain in chains(page)] == [2]
    (tmp_path / "again").mkdir()
    test_python_blocks_run_as_a_reader_runs_them(page, tmp_path / "again", monkeypatch)


def test_the_dev_requirements_need_no_index_but_pypi():
    """CI installs requirements-dev.txt reaching PyPI only: an index or wheel-folder option there would break it
    (PyTorch's CPU index belongs in the README's CPU-only commands, not in this file)."""
    lines = [line.split("#")[0].strip() for line in (ROOT / "requirements-dev.txt").read_text().splitlines()]
    options = [line for line in lines if line.startswith("-") and not line.startswith("-e ")]
    assert options == []
    assert "torch==2.13.0" in lines


def test_the_readme_installs_the_pinned_torch():
    """Every torch the README's commands install is the version requirements-dev.txt pins (else the set-up
    would replace it), and pyproject's train extra allows it."""
    pinned = re.search(r"^torch==(\S+)$", (ROOT / "requirements-dev.txt").read_text(), re.M)[1]
    installs = [c for _, c in commands() if c.startswith("python -m pip install torch")]
    assert installs and all(f"torch=={pinned} " in c + " " for c in installs)
    assert any("--index-url https://download.pytorch.org/whl/cpu" in c for c in installs)
    assert f"<={pinned}" in (ROOT / "pyproject.toml").read_text() or f"=={pinned}" in (ROOT / "pyproject.toml").read_text()


COST = re.compile(r"\b\d+ s\b|\bminutes?\b|\ban hour\b")


def test_every_readme_command_says_what_it_costs():
    """A reader should know before running a command whether it takes seconds or an hour: each one's
    comment gives its measured cost (or its budget), except the set-up and the interactive ``play``."""
    silent = []
    for line, code in blocks(ROOT / "README.md", "bash"):
        for i, text in enumerate(code.splitlines()):
            command, _, comment = text.partition(" #")
            command = command.strip()
            if command and command not in NOT_RUN and not command.startswith("boardgame-envs play ") and not COST.search(comment):
                silent.append(f"README.md:{line + i}: {command}")
    assert silent == []


# A line that trains: a library's learn() or train(), the trainer's command, a training script or an example.
TRAINS = re.compile(r"\.learn\(|\.train\(\)|boardgame-envs train "
                    r"|baselines/(studies/)?(ppo_\w+|alphazero_gomoku|sb3_maskable_ppo)\.py|examples/\w+\.py")
TRAINING_COST = re.compile(r"\b\d[\d,.]* s\b|\bseconds?\b|\bminutes?\b|\bCPU-(seconds|minutes?|hours?)\b|\ban hour\b")


def uncosted_training_lines(text: str, name: str) -> list[str]:
    """``name:line: command`` of each training command or call in the code blocks of ``text`` (as written,
    without the docs-test marks) whose comment does not say what it costs; a command continued over several
    lines (``\\``) may say it in any of its lines' comments."""
    silent = []
    for m in FENCE.finditer(text):
        lines, first = m["code"].splitlines(), text.count("\n", 0, m.start("code")) + 1
        i = 0
        while i < len(lines):
            j = i
            while lines[j].split(" #")[0].rstrip().endswith("\\") and j + 1 < len(lines):
                j += 1
            code = " ".join(line.split(" #")[0].strip().rstrip("\\").strip() for line in lines[i : j + 1])
            comments = " ".join(line.partition(" #")[2] for line in lines[i : j + 1])
            if not code.lstrip().startswith("#") and TRAINS.search(code) and not TRAINING_COST.search(comments):
                silent.append(f"{name}:{first + i}: {code.strip()}")
            i = j + 1
    return silent


def test_every_training_snippet_says_what_it_costs():
    """Issue 39: a reader should know what a training snippet costs before running it, and it should finish
    in that: each line that trains says, in its comment, its measured cost or its budget."""
    silent = [line for path in DOCS for line in uncosted_training_lines(path.read_text(), path.name)]
    assert silent == []
    page = ("```python\nmodel.learn(10_000)\nmodel.learn(64)   # 3 s of CPU\n```\n\n"
            "```bash\nboardgame-envs train x \\\n    --minutes 2\n"
            "boardgame-envs train y \\\n    --minutes 2   # 2 minutes\n```\n")
    assert uncosted_training_lines(page, "p.md") == ["p.md:2: model.learn(10_000)",
                                                     "p.md:7: boardgame-envs train x --minutes 2"]


@pytest.fixture(scope="module")
def readme_dir(tmp_path_factory):
    """Where the README's commands run, one after another as a reader would: a checkpoint
    written by ``train`` is read by the next ``play`` (which reads no input and stops)."""
    return tmp_path_factory.mktemp("readme_commands")


@pytest.mark.slow
@pytest.mark.parametrize("where,command", commands(), ids=[w for w, _ in commands()])
def test_readme_commands_run(where, command, readme_dir):
    if command in NOT_RUN:
        pytest.skip(f"not run: {NOT_RUN[command]}")
    argv = shlex.split(command, comments=True)
    if argv[0] == "boardgame-envs":
        argv = [sys.executable, "-m", "boardgame_envs", *argv[1:]]
    elif argv[0] == "python":
        argv = [sys.executable, *argv[1:]]
    else:
        pytest.fail(f"{where}: no rule to run {command!r}; run it here or add it to NOT_RUN with a reason")
    argv = [str(ROOT / a) if a.startswith("baselines/") else a for a in argv]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(argv, cwd=readme_dir, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, f"{where}: {command}\n{done.stderr[-2000:]}"
