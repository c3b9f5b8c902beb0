"""Self-play with the libraries people already use: opponent pools, Elo while training, trained models as specs.

* :class:`OpponentPool`: the learner's frozen snapshots, built-in levels and any policy, one
  drawn per game (uniform, latest-heavy, or prioritised by the learner's losses), saved and
  resumed with the run; the single-agent and vector envs take it as ``opponent=pool``.
* :class:`EloCallback` (SB3), :class:`EloTracker` and :func:`rate_during_training` (any loop): the learner's Elo on
  its game's ladder every so often, at a bounded share of the training's CPU time; :class:`CpuBudget` (SB3)
  stops ``learn()`` when the process has spent a budget of CPU time.
* ``sb3:PATH`` (:class:`Sb3Policy`): a saved MaskablePPO / PPO / A2C / DQN model as a policy,
  in ``rate``, ``arena``, ``play``, ``demo`` and the Gomocup brain; ``boardnet:PATH``
  (:class:`BoardNetPolicy`) the same for the single-file PPO's network; ``pretrained:NAME``
  any shipped network (:mod:`~boardgame_envs.selfplay.pretrained`).
* :class:`RunClock`: a run's CPU budget over its sessions and its ratings' schedule and
  ``curve.csv``, as the PPO recipes in ``baselines/`` keep them.

Importing this package costs no torch: the SB3 parts load on first use.
"""

from boardgame_envs.selfplay.pool import OpponentPool

_LAZY = {"EloCallback": "callback", "CpuBudget": "callback", "EloTracker": "elo", "rate_during_training": "elo",
         "Sb3Policy": "sb3_policy", "Sb3Actor": "sb3_policy", "load_actor": "sb3_policy", "load_model": "sb3_policy",
         "BoardNetPolicy": "boardnet", "RunClock": "runclock"}  # fmt: skip


def __getattr__(name: str):  # PEP 562: torch and SB3 load when these are first asked for
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"boardgame_envs.selfplay.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BoardNetPolicy", "CpuBudget", "EloCallback", "EloTracker", "OpponentPool", "RunClock", "Sb3Actor",
           "Sb3Policy", "load_actor", "load_model", "rate_during_training"]
