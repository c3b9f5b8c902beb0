"""The user interfaces: a person plays a policy, or steps through a record.

- :mod:`~boardgame_envs.ui.session`: one game of a person against a policy (the position,
  whose turn, undo, hint, new game), behind both fronts;
- :mod:`~boardgame_envs.ui.terminal`: the terminal front (``boardgame-envs play``);
- :mod:`~boardgame_envs.ui.gui`: the pygame window (``boardgame-envs play --gui``, the ``gui`` extra);
- :mod:`~boardgame_envs.ui.replay`: step through a saved game (``boardgame-envs replay``);
- :mod:`~boardgame_envs.ui.escape`: text from a record or an engine made safe to print.

Nothing here is imported by the layers below; only the command line imports it.
"""
