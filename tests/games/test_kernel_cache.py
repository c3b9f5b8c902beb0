"""drop_stale_cache: a kernel's cache goes when a file it compiled in changes, and only then."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numba

import boardgame_envs

from boardgame_envs.games.kernel_cache import cache_dir, drop_stale_cache

RULE = "@numba.njit(cache=True)\ndef rule(x):\n    return x + {delta}\n"
KERNEL = textwrap.dedent(
    """
    import numba
    import rule_module

    @numba.njit(cache=True)
    def kernel(x):
        return rule_module.rule(x)
    """
)


def run(tmp_path, code):
    """Run ``code`` in a fresh interpreter with ``tmp_path`` on the path; its stdout."""
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_changed_dependency_drops_the_cache(tmp_path):
    (tmp_path / "rule_module.py").write_text("import numba\n" + RULE.format(delta=1))
    (tmp_path / "kernel_module.py").write_text(KERNEL)
    call = (
        "import rule_module, kernel_module\n"
        "from boardgame_envs.games.kernel_cache import drop_stale_cache\n"
        "print(drop_stale_cache(kernel_module.kernel, [rule_module]), kernel_module.kernel(1))\n"
    )
    assert run(tmp_path, call) == "False 2"  # no cache files yet: nothing to drop; compiles and caches
    assert run(tmp_path, call) == "False 2"  # same rules: the cache stays
    (tmp_path / "rule_module.py").write_text("import numba\n" + RULE.format(delta=10))
    # Without the guard numba would load kernel's old machine code and answer 2.
    assert run(tmp_path, call) == "True 11"
    assert run(tmp_path, call) == "False 11"


def test_cache_dir_is_where_numba_writes(tmp_path):
    spec = importlib.util.spec_from_file_location("probe_module", tmp_path / "probe_module.py")
    (tmp_path / "probe_module.py").write_text("import numba\n" + RULE.format(delta=1))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert isinstance(module.rule, numba.core.registry.CPUDispatcher)
    module.rule(1)
    assert list(cache_dir(module.rule).glob("probe_module.*.nbi"))
    assert drop_stale_cache(module.rule, [module]) is True and not list(cache_dir(module.rule).glob("probe_module.*.nbi"))


RULES_V1 = "from probe_pkg.kernel_cache_stub import cached_kernel\nBONUS = 1\n\n@cached_kernel()\ndef rule(x):\n    return x + 1\n"
KERNELS = textwrap.dedent(
    """
    from probe_pkg.kernel_cache_stub import cached_kernel
    from probe_pkg.rules import BONUS, rule

    @cached_kernel()
    def kernel(x):
        return rule(x) * 10 + BONUS
    """
)


def test_cached_kernel_never_runs_a_stale_rule(tmp_path):
    """Every kernel declared with cached_kernel is guarded: editing a compiled-in function or constant
    of another module recompiles it, with no call to the guard in the kernel's module."""
    package = tmp_path / "probe_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    # The decorator, reached through a module of the probe's own package (it follows that package's imports).
    (package / "kernel_cache_stub.py").write_text("from boardgame_envs.games.kernel_cache import cached_kernel\n")
    (package / "rules.py").write_text(RULES_V1)
    (package / "kernels.py").write_text(KERNELS)
    call = "from probe_pkg import kernels\nprint(kernels.kernel(1), sum(kernels.kernel.stats.cache_hits.values()))"
    assert run(tmp_path, call) == "21 0"  # compiled, and cached
    assert run(tmp_path, call) == "21 1"  # loaded from the cache
    (package / "rules.py").write_text(RULES_V1.replace("x + 1", "x + 5"))  # a changed rule
    assert run(tmp_path, call) == "61 0"  # without the guard numba would load the old code and print 21
    (package / "rules.py").write_text(RULES_V1.replace("BONUS = 1", "BONUS = 7"))  # a changed constant
    assert run(tmp_path, call) == "27 0"
    assert run(tmp_path, call) == "27 1"


def test_every_cached_kernel_of_the_package_goes_through_the_guard():
    """No module compiles a cached kernel with numba.njit(cache=True) directly: each uses cached_kernel."""
    root = Path(boardgame_envs.__file__).parent
    offenders = [
        str(path.relative_to(root)) for path in root.rglob("*.py")
        if re.search(r"(njit|jit)\([^)]*cache\s*=\s*True", path.read_text()) and path.name != "kernel_cache.py"
    ]  # fmt: skip
    assert offenders == []
