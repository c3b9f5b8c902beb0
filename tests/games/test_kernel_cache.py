"""drop_stale_cache: a kernel's cache goes when a file it compiled in changes, and only then."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import numba

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
