"""Every name boardgame_envs.alphazero lists loads: the lazy table names modules that exist."""

import boardgame_envs.alphazero as alphazero


def test_every_listed_name_loads():
    for name in alphazero.__all__:
        assert getattr(alphazero, name) is not None, name
    assert alphazero.ReplayBuffer.__module__ == "boardgame_envs.alphazero.buffer"
