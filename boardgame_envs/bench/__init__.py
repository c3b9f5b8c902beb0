"""Benchmarks: scripts that print numbers side by side with a reference, as ratios.

Run ``python -m boardgame_envs.bench NAME`` or ``boardgame-envs bench NAME``;
each ``NAME`` is a module here with a ``main(argv)`` function.
"""
