"""compile_notice: one line when numba compiles in the block, nothing when everything is already compiled."""

from __future__ import annotations

from numba import njit

from boardgame_envs.games.compile_notice import compile_notice


def test_one_line_when_numba_compiles_and_none_otherwise(capsys):
    @njit(cache=False)  # never in the on-disk cache: its first call compiles
    def add(a, b):
        return a + b

    with compile_notice("the test kernels", 3):
        assert add(1, 2) == 3
        assert add(1.5, 2.0) == 3.5  # a second compilation, no second line
    assert capsys.readouterr().err == "boardgame_envs: compiling the test kernels, once: ~3 s\n"
    with compile_notice("the test kernels", 3):
        assert add(2, 2) == 4  # compiled already
    assert capsys.readouterr().err == ""
