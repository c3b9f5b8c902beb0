"""docs/libraries.md's install lines work from inside a venv with the project installed.

Each library's block runs, its installs as dry runs, with ``python`` a venv nested in this test's own
environment (a venv whose packages are this environment's, through a ``.pth`` file; its base interpreter's
are not its own): pip would change nothing installed (torch, gymnasium, numpy, the package), and that
venv's python imports torch (the same file, so the same build), the package and the library. A dry run
downloads what is missing, so a library that is not installed here is skipped, saying so (the set-up
installs TorchRL and Tianshou). The pages' commands must run on the reader's ``python``: the former
``python -m venv --system-site-packages venvs/...`` lines gave, from a venv, an environment of the base
interpreter's packages (no torch, no package) and a dry run that fetched another torch.
"""

from __future__ import annotations

import importlib
import os
import re
import shlex
import site
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "libraries.md"
FENCE = re.compile(r"^```bash\n(.*?)^```", re.M | re.S)
LIBRARIES = {"torchrl": "torchrl", "tianshou": "tianshou", "ray": "ray.rllib"}  # pinned in a block -> its module
HELD = {"torch", "numpy", "gymnasium", "pettingzoo", "numba", "boardgame-envs"}


def section(title: str) -> str:
    text = PAGE.read_text()
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def lines(title: str) -> list[str]:
    """The command lines of a section's bash blocks, comments dropped."""
    found = []
    for code in FENCE.findall(section(title)):
        found += [line.split(" #")[0].strip() for line in code.splitlines() if shlex.split(line, comments=True)]
    return found


def blocks() -> dict[str, str]:
    """``library -> its install block``: the block that pins ``library==``."""
    found = {}
    for code in FENCE.findall(section("Install into the environment that runs the project")):
        (library,) = [name for name in LIBRARIES if f" {name}==" in code]
        found[library] = code
    return found


def test_every_command_runs_on_the_readers_python():
    install = lines("Install into the environment that runs the project")
    assert sorted(blocks()) == sorted(LIBRARIES)
    for line in install:
        for command in line.split("&&"):
            words = shlex.split(command)
            assert words[0] in ("python", "mkdir"), line  # no venvs/<name>/bin/pip: the reader's own interpreter
            assert "venv" not in words[1:3], line  # a venv made from a venv gets the base interpreter's packages
    run = lines("Run")
    assert run and all(line.startswith("python examples/") for line in run), run


@pytest.fixture(scope="module")
def nested_venv(tmp_path_factory) -> Path:
    """A venv inside this environment: this environment's site folders (their .pth files too: an editable
    install) reach it through a .pth file of its own; nothing of the base interpreter's but the stdlib."""
    root = tmp_path_factory.mktemp("nested")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True, timeout=120)
    python = root / "venv" / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    folders = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    (Path(purelib) / "_outer_environment.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({folder!r})" for folder in folders if os.path.isdir(folder)) + "\n"
    )
    return root


@pytest.mark.slow
@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_the_install_lines_from_a_venv_keep_torch_and_give_the_library(library, nested_venv):
    module = LIBRARIES[library]
    try:
        importlib.import_module(module)
    except ImportError as exc:  # ray without RLlib's requirements: ray.rllib fails on its first import
        pytest.skip(f"{module} does not import here ({exc}): the dry run would download (docs/libraries.md installs it)")
    venv = nested_venv / "venv"
    env = {**os.environ, "VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONHOME", None)
    code = blocks()[library].replace("pip install ", "pip install --dry-run ")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=nested_venv, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    would = re.findall(r"^Would install (.*)$", done.stdout, re.M)
    changed = {re.sub(r"-[^-]+$", "", item).lower() for line in would for item in line.split()}
    assert not changed & HELD, would
    probe = "import sys, torch, boardgame_envs, {0}; print(sys.prefix, torch.__file__, torch.__version__)"
    shown = subprocess.run(["python", "-c", probe.format(module)], cwd=nested_venv, env=env, capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert shown.returncode == 0, shown.stderr[-2000:]
    import torch

    prefix, torch_file, version = shown.stdout.split()
    assert Path(prefix) == venv  # the reader's venv ran it, not the base interpreter
    assert (torch_file, version) == (torch.__file__, torch.__version__)
