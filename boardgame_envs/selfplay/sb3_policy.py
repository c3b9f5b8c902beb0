"""Trained Stable-Baselines3 models as policies: the ``sb3:PATH`` spec, and batched actors for pools and ratings.

``make_policy("sb3:runs/ppo.zip")`` (or ``boardgame-envs rate sb3:runs/ppo.zip --game tictactoe``)
loads a MaskablePPO, PPO, A2C or DQN zip (the algorithm is read from the file; nothing in it
is unpickled: :mod:`boardgame_envs.selfplay.sb3_file`) and plays its greedy move;
``sb3:PATH:sample=true`` samples from its policy instead (PPO-family models only: DQN has
no distribution to sample). Arguments: ``sample``, ``layout``
(``hwc``, ``chw`` or ``flat``: how the env the model learned on laid out its observations;
read from the model's observation shape unless it fits two layouts), ``device``,
``torch_threads`` (torch's CPU threads, set process-wide when the spec is made: 1 by
default, as one position at a time is too little work to share; ``none`` leaves torch's
setting alone).

Invariant: the model sees a position exactly as the single-agent env and the vector env
showed it positions in training (:func:`encode`, the mover's planes), and it only ever
plays a legal move: the scores of illegal actions (its logits, or a DQN's Q-values) are
masked out, for models trained with masks or without.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.policies.base import game_state_of, set_torch_threads
from boardgame_envs.policies.registry import PolicySpecError
from boardgame_envs.selfplay.sb3_file import Sb3Model, read_model, read_plan

LAYOUTS = ("hwc", "chw", "flat")


def set_spec_threads(torch_threads: int | None, name: str) -> None:
    """:func:`~boardgame_envs.policies.base.set_torch_threads` for the spec ``name``: a bad value is a spec error."""
    try:
        set_torch_threads(torch_threads)
    except ValueError as exc:
        raise PolicySpecError(f"{name}: {exc}") from None


def shapes(planes: tuple[int, int, int]) -> dict[str, tuple[int, ...]]:
    """The observation shape of each layout, for a game whose planes are ``(h, w, c)``."""
    h, w, c = planes
    return {"hwc": (h, w, c), "chw": (c, h, w), "flat": (h * w * c,)}


def layout_of(observation_shape: tuple[int, ...], planes: tuple[int, int, int], name: str = "the model") -> str:
    """The layout (``hwc``, ``chw`` or ``flat``) whose shape is ``observation_shape`` for these planes.

    Raises a ValueError when no layout fits (a model of another game) or two do (give ``layout=``).
    """
    fits = [layout for layout, shape in shapes(planes).items() if shape == tuple(observation_shape)]
    if not fits:
        options = ", ".join(f"{shape} ({layout})" for layout, shape in shapes(planes).items())
        raise ValueError(f"{name} takes observations of shape {tuple(observation_shape)}, but this game's are "
                         f"{options}: it was trained on another game")  # fmt: skip
    if len(fits) > 1:
        raise ValueError(f"{name}'s observation shape {tuple(observation_shape)} fits both {' and '.join(fits)}: "
                         f"say which with layout={fits[0]} or layout={fits[1]}")  # fmt: skip
    return fits[0]


def encode(planes: np.ndarray, layout: str) -> np.ndarray:
    """Planes ``(k, h, w, c)`` (0/1 int8, the games' own) as a batch of observations in ``layout`` (uint8),
    as :class:`~boardgame_envs.envs.single_agent.SingleAgentEnv` builds them."""
    planes = np.asarray(planes).astype(np.uint8, copy=False)
    if layout == "flat":
        return planes.reshape(len(planes), -1)
    return np.ascontiguousarray(planes.transpose(0, 3, 1, 2)) if layout == "chw" else planes


def algorithm_of(path: str | os.PathLike) -> Any:
    """The SB3 class that saved the zip at ``path`` (MaskablePPO, PPO, A2C or DQN), read from its ``data`` entry
    without unpickling (:func:`~boardgame_envs.selfplay.sb3_file.read_plan`)."""
    name = read_plan(path).algorithm
    if name == "MaskablePPO":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    import stable_baselines3

    return getattr(stable_baselines3, name)


def load_model(path: str | os.PathLike, device: str = "cpu") -> Sb3Model:
    """The policy of the SB3 zip at ``path`` (MaskablePPO, PPO, A2C or DQN) and its spaces, to act with.

    Read without unpickling anything from the file (:mod:`boardgame_envs.selfplay.sb3_file`): a zip that
    carries code, custom classes or a network past the caps is :class:`~boardgame_envs.safeio.FileRefusedError`
    (a ValueError), one line naming the file; a missing file, FileNotFoundError. The training schedules,
    buffers and optimizer are not read: acting needs none. A path without ``.zip`` where the ``.zip`` file is
    (SB3's ``save("DIR/model")`` writes ``DIR/model.zip``) is answered by naming the file.
    """
    given = Path(path)
    zipped = given.with_name(given.name + ".zip")
    if not given.exists() and given.suffix != ".zip" and zipped.is_file():
        raise FileNotFoundError(f"no SB3 model at {given}, but there is {zipped} (SB3's save() adds .zip): "
                                f"give sb3:{zipped}")  # fmt: skip
    return read_model(path, device)


class Sb3Actor:
    """A model's choice for a batch of observations: ``actor(observations, action_masks) -> actions``.

    Greedy (the legal action of highest logit or Q-value) unless ``sample``; the
    legal actions only, whatever the model was trained with. This is the batched
    callable that opponent pools and the vector env take.
    """

    def __init__(self, model: Any, sample: bool = False, seed: int | None = None) -> None:
        if not isinstance(sample, (bool, np.bool_)):
            raise ValueError(f"sample must be true or false, got {sample!r}")
        self.model = model
        self.sample = bool(sample)
        self.q_values = hasattr(model.policy, "q_net")
        if self.sample and self.q_values:
            raise ValueError("sample=true needs a policy distribution; a DQN model has Q-values only (greedy)")
        self.rng = np.random.default_rng(seed)
        if getattr(model.observation_space, "shape", None) is None:  # a Dict (MultiInputPolicy) or Tuple space
            raise ValueError(f"the model sees a {type(model.observation_space).__name__} observation space "
                             f"({_keys(model.observation_space)}); Sb3Policy shows a model the board as one array, "
                             "as the package's envs do (SingleAgentEnv, vector.make: the mask comes through "
                             "action_masks()): train on those, or wrap your model in a policy whose act(state) "
                             "builds its own observation")  # fmt: skip
        self.observation_shape = tuple(model.observation_space.shape)
        self.num_actions = int(model.action_space.n)

    def scores(self, observations: np.ndarray) -> np.ndarray:
        """The model's logits (or Q-values) ``(k, A)`` for a batch of observations."""
        import torch

        policy = self.model.policy
        obs, _ = policy.obs_to_tensor(observations)
        with torch.no_grad():
            if self.q_values:
                out = policy.q_net(obs)
            else:
                out = policy.get_distribution(obs).distribution.logits
        return out.cpu().numpy().astype(np.float64)

    def __call__(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks, dtype=bool)
        if len(masks) == 0:
            return np.zeros(0, dtype=np.int64)
        if not masks.any(axis=1).all():
            raise ValueError("a position with no legal action was handed to the model")
        scores = np.where(masks, self.scores(observations), -np.inf)
        if not self.sample:
            return scores.argmax(axis=1).astype(np.int64)
        p = np.exp(scores - scores.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        return np.array([self.rng.choice(p.shape[1], p=row) for row in p], dtype=np.int64)


def _keys(space: Any) -> str:
    """The keys of a Dict space (``"keys action_mask, observation"``), or its repr, short."""
    keys = getattr(space, "spaces", None)
    return f"keys {', '.join(map(str, keys))}"[:120] if isinstance(keys, dict) else repr(space)[:120]


def load_actor(path: str | os.PathLike, sample: bool = False, seed: int | None = None, device: str = "cpu") -> Sb3Actor:
    """The batched actor of the SB3 zip at ``path`` (the opponent pools' default snapshot loader uses it)."""
    return Sb3Actor(load_model(path, device), sample, seed)


class Sb3Policy:
    """A trained SB3 model as a policy: ``act(state)`` builds the mover's observation as its env did and
    returns its best legal action (or a sampled one); see the module docstring.

    ``layout`` None reads the layout from the model's observation shape at the first game.
    """

    def __init__(self, model: Any, name: str = "sb3", sample: bool = False, layout: str | None = None,
                 seed: int | None = None) -> None:  # fmt: skip
        if layout is not None and layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
        self.actor = Sb3Actor(model, sample, seed)
        self.name = name
        self.layout = layout
        self._layout = layout  # the layout in use, read from the model at the first game when not given
        self._checked: Any = None  # the game last checked, so act checks once per game object

    @classmethod
    def from_file(cls, path: str, sample: bool = False, layout: str | None = None, device: str = "cpu",
                  seed: int | None = None, torch_threads: int | None = 1) -> Sb3Policy:  # fmt: skip
        """The policy of the zip at ``path``: the ``sb3:PATH`` spec's factory (it sets torch's threads)."""
        if layout is not None and layout not in LAYOUTS:
            raise PolicySpecError(f"unknown layout {layout!r} for sb3:{path}; expected one of {', '.join(LAYOUTS)}")
        set_spec_threads(torch_threads, f"sb3:{path}")
        return cls(load_model(path, device), f"sb3:{path}", sample, layout, seed)

    @property
    def rng(self) -> np.random.Generator:
        """The sampling generator (envs and matches reseed a policy through this attribute)."""
        return self.actor.rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self.actor.rng = value

    def check_game(self, game: Any) -> None:
        """Refuse a game the model cannot play: other observation shapes or another number of actions."""
        if game is self._checked:
            return
        state = game.new_state()
        planes = tuple(state.planes(state.to_move).shape)
        wanted = self.actor.observation_shape
        if self.layout is None:
            self._layout = layout_of(wanted, planes, self.name)
        elif shapes(planes)[self.layout] != wanted:
            layout_of(wanted, planes, self.name)  # another game: say so
            raise ValueError(f"{self.name} takes observations of shape {wanted}, not this game's planes laid out "
                             f"as {self.layout} {shapes(planes)[self.layout]}")  # fmt: skip
        else:
            self._layout = self.layout
        if self.actor.num_actions != game.num_actions:
            raise ValueError(f"{self.name} chooses among {self.actor.num_actions} actions, but this game has "
                             f"{game.num_actions}: it was trained on another game")  # fmt: skip
        self._checked = game

    def act(self, state: Any) -> int:
        state = game_state_of(state)
        self.check_game(state.game)
        planes = state.planes(state.to_move)[None]
        return int(self.actor(encode(planes, self._layout), state.legal_mask()[None])[0])

    def __repr__(self) -> str:
        return f"Sb3Policy({self.name!r}, sample={self.actor.sample})"
