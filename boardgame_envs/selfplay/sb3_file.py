"""Stable-Baselines3 zips read without unpickling: the policy rebuilt from plain data, its weights as tensors only.

SB3's own loader unpickles every ``:serialized:`` entry of a zip's ``data`` (and whatever else it finds
there), so a model file from a stranger can run code. This reader takes from the zip only what acting needs:

- the **spaces**, rebuilt from the plain fields SB3 writes beside each pickled space (a ``Box``'s
  ``_shape``, ``dtype``, ``low``, ``high``; a ``Discrete``'s ``n``): the pickles are never decoded;
- the **policy class**, named by a pickle read with a restricted unpickler that admits only the classes
  of :data:`POLICY_CLASSES` (and returns their names, never the classes themselves);
- the **policy keyword arguments**, plain JSON, or a pickle read the same way admitting only
  :data:`ACTIVATIONS`, :data:`EXTRACTORS` and :data:`OPTIMIZERS` (optimizers are accepted and not used);
- ``policy.pth``, through :func:`~boardgame_envs.safeio.load_tensor_bytes` (``weights_only=True``).

Every other ``:serialized:`` entry is either one acting does not need (:data:`UNUSED`: schedules, buffers,
the last observations, ...), left undecoded, or refused in one line naming it. Before anything is built,
the zip's entries are capped by their declared sizes, and the network's parameter count is computed from
``net_arch``, the extractor's settings and the spaces and refused past :data:`PARAMETERS_LIMIT`.
docs/trust.md says what is refused and how to convert such a model.
"""

from __future__ import annotations

import base64
import binascii
import math
import os
import re
import zipfile
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.safeio import (
    TEXT_LIMIT,
    ClassRef,
    FileRefusedError,
    load_restricted,
    load_tensor_bytes,
    open_regular,
    open_regular_file,
    open_zip,
    parse_json,
    read_member,
    state_dict_misfit,
)

#: The most bytes an SB3 zip may hold on disk, and all its entries unpacked: 1 GiB.
ZIP_LIMIT = 1024**3
#: The most bytes of ``policy.pth`` (declared, before it is inflated): 256 MiB.
POLICY_LIMIT = 256 * 1024**2
#: The most parameters (weights and biases) of a network an SB3 zip may describe: 25 million (100 MB in float32).
#: The shipped ``pretrained:sb3-connect-four`` has 57 thousand.
PARAMETERS_LIMIT = 25_000_000
#: The most hidden layers in ``net_arch`` (each list), and the most units in one layer or extractor setting.
LAYERS_LIMIT, WIDTH_LIMIT = 64, 65_536
WHAT = "SB3 model"

_POLICIES = "stable_baselines3.common.policies"
_DQN = "stable_baselines3.dqn.policies"
_MASKABLE = "sb3_contrib.common.maskable.policies"
#: The policy classes a zip may name, and the algorithm each belongs to (PPO or A2C: told by ``clip_range``).
POLICY_CLASSES = {
    (_MASKABLE, "MaskableActorCriticPolicy"): "MaskablePPO", (_MASKABLE, "MaskableActorCriticCnnPolicy"): "MaskablePPO",
    (_POLICIES, "ActorCriticPolicy"): "PPO", (_POLICIES, "ActorCriticCnnPolicy"): "PPO",
    (_DQN, "DQNPolicy"): "DQN", (_DQN, "CnnPolicy"): "DQN",
}  # fmt: skip
_ACTIVATION_NAMES = ("ReLU", "Tanh", "ELU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Softplus", "Mish", "SELU",
                     "CELU", "ReLU6", "Hardtanh", "Hardswish", "Hardsigmoid", "Tanhshrink", "Identity")  # fmt: skip
#: torch activation classes ``activation_fn`` may name.
ACTIVATIONS = {("torch.nn.modules.activation", name) for name in _ACTIVATION_NAMES if name != "Identity"} | {
    ("torch.nn.modules.linear", "Identity")}  # fmt: skip
#: Features extractors ``features_extractor_class`` may name: the package's BoardCNN, SB3's NatureCNN and FlattenExtractor.
EXTRACTORS = {("boardgame_envs.vector.sb3", "BoardCNN"), ("boardgame_envs.sb3", "BoardCNN"),
              ("stable_baselines3.common.torch_layers", "NatureCNN"),
              ("stable_baselines3.common.torch_layers", "FlattenExtractor")}  # fmt: skip
#: Optimizers ``optimizer_class`` may name; acting uses none, so they are accepted and left out.
OPTIMIZERS = {("torch.optim.adam", "Adam"), ("torch.optim.adamw", "AdamW"), ("torch.optim.rmsprop", "RMSprop"),
              ("torch.optim.sgd", "SGD")}  # fmt: skip
#: ``data`` entries acting does not need: a ``:serialized:`` one is left undecoded (spaces are read from their plain fields).
UNUSED = {"observation_space", "action_space", "lr_schedule", "learning_rate", "clip_range", "clip_range_vf",
          "exploration_schedule", "_last_obs", "_last_episode_starts", "_last_original_obs", "ep_info_buffer",
          "ep_success_buffer", "rollout_buffer_class", "rollout_buffer_kwargs", "replay_buffer_class",
          "replay_buffer_kwargs", "train_freq", "action_noise", "ent_coef", "target_kl", "target_entropy",
          "_vec_normalize_env", "_episode_storage"}  # fmt: skip
_KWARGS = {"net_arch", "activation_fn", "ortho_init", "features_extractor_class", "features_extractor_kwargs",
           "share_features_extractor", "normalize_images", "optimizer_class", "optimizer_kwargs"}  # fmt: skip
_DTYPES = ("uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "bool")
_BOX = ("<class 'gymnasium.spaces.box.Box'>", "<class 'gym.spaces.box.Box'>")
_DISCRETE = ("<class 'gymnasium.spaces.discrete.Discrete'>", "<class 'gym.spaces.discrete.Discrete'>")


@dataclass
class Sb3Model:
    """A policy read from an SB3 zip, with the spaces it acts in: what ``sb3:`` specs and pools play with."""

    path: str
    algorithm: str  # "MaskablePPO", "PPO", "A2C" or "DQN"
    policy: Any
    observation_space: Any
    action_space: Any

    def predict(self, observation: np.ndarray, action_masks: np.ndarray | None = None,
                deterministic: bool = True) -> tuple[np.ndarray, None]:  # fmt: skip
        """As SB3's ``model.predict`` (``action_masks`` for MaskablePPO models only)."""
        if self.algorithm == "MaskablePPO":
            return self.policy.predict(observation, deterministic=deterministic, action_masks=action_masks)
        return self.policy.predict(observation, deterministic=deterministic)


@dataclass
class ModelPlan:
    """What an SB3 zip's data describes, checked: enough to build its policy."""

    algorithm: str
    policy_class: ClassRef
    kwargs: dict[str, Any]
    observation_space: Any
    action_space: Any


def read_plan(path: str | os.PathLike) -> ModelPlan:
    """What the SB3 zip at ``path`` describes (algorithm, policy class, settings, spaces), checked, nothing built."""
    with _open(path) as archive:
        return _plan(_data(archive, path), os.fspath(path))


def read_model(path: str | os.PathLike, device: str = "cpu") -> Sb3Model:
    """The model in the SB3 zip at ``path``, read as the module docstring says: nothing unpickled but the
    policy class and keyword arguments, through the allow-list; :class:`FileRefusedError` in one line else."""
    where = os.fspath(path)
    with _open(path) as archive:
        plan = _plan(_data(archive, where), where)
        weights = read_member(archive, "policy.pth", limit=POLICY_LIMIT, what=WHAT)
    weights = load_tensor_bytes(weights, where, limit=POLICY_LIMIT, what="SB3 model's policy.pth")
    return Sb3Model(where, plan.algorithm, _build(plan, weights, where, device), plan.observation_space, plan.action_space)


def _open(path: str | os.PathLike) -> zipfile.ZipFile:
    path = Path(path)
    if not path.is_file():
        if path.exists() and not path.is_dir():
            open_regular(path, WHAT)  # a FIFO, a device, a socket: refused in one line saying which
        raise FileNotFoundError(f"no SB3 model at {path}")
    # One open file for every check and the reading (a FIFO, a device or a folder refused before a read):
    # the file checked is the file read.
    with open_regular_file(path, WHAT) as f:
        size = os.fstat(f.fileno()).st_size
        if size > ZIP_LIMIT:
            raise FileRefusedError(path, f"the {WHAT} is {size:,} bytes, over the {ZIP_LIMIT:,}-byte limit")
        if not zipfile.is_zipfile(f):
            raise FileRefusedError(path, "not a model saved by Stable-Baselines3 (not a zip file, or one cut short)")
    return open_zip(path, total_limit=ZIP_LIMIT, what=WHAT)


def _data(archive: zipfile.ZipFile, where: str | os.PathLike) -> dict[str, Any]:
    if "data" not in archive.namelist():
        raise FileRefusedError(where, "not a model saved by Stable-Baselines3 (no 'data' entry: another zip, or one cut short)")
    data = parse_json(read_member(archive, "data", limit=TEXT_LIMIT, what=WHAT), where, "SB3 model's data")
    if not isinstance(data, dict):
        raise FileRefusedError(where, "not a model saved by Stable-Baselines3 (its data is not a JSON object)")
    return data


def _refuse(where: str | os.PathLike, why: str) -> FileRefusedError:
    return FileRefusedError(where, why)


def _plan(data: dict[str, Any], where: str) -> ModelPlan:
    for key, value in data.items():
        if key not in UNUSED and key not in ("policy_class", "policy_kwargs") and _holds_pickle(value):
            raise _refuse(where, f"its data entry {str(key)[:60]!r} is a pickled Python object, which sb3: does not "
                                 "unpickle (it could run code); see docs/trust.md")  # fmt: skip
    entry = data.get("policy_class")
    if not isinstance(entry, dict) or not isinstance(entry.get(":serialized:"), str):
        raise _refuse(where, "not a model saved by Stable-Baselines3 (no policy class in its data)")
    _refuse_dict_observations(data.get("observation_space"), where)  # the true cause, before the policy class's
    module = entry.get("__module__")
    known = module in {m for m, _ in POLICY_CLASSES}
    if not known and str(module).split(".")[0] in ("stable_baselines3", "sb3_contrib"):  # another algorithm of them
        raise _refuse(where, f"unknown algorithm (policy from {str(module)[:80]}); sb3: loads MaskablePPO, PPO, A2C and DQN")
    if not known:  # a class the training script defined: say so, and the ways on
        raise _refuse(where, f"its policy class is one of its own (defined in {str(module)[:80]}), which sb3: does not "
                             "build: it builds SB3's own policies of MaskablePPO, PPO, A2C and DQN (MlpPolicy, "
                             "CnnPolicy). Train with one of those (a custom network through policy_kwargs: net_arch, "
                             "BoardCNN), or load the model with SB3 in a session you trust and play Sb3Policy(model) "
                             "(docs/trust.md)")  # fmt: skip
    policy_class = load_restricted(_b64(entry[":serialized:"], where, "policy class"), set(POLICY_CLASSES), where,
                                   "policy class")  # fmt: skip
    if not isinstance(policy_class, ClassRef) or policy_class[0] != module:
        raise _refuse(where, f"its policy class is not one sb3: builds (it names {module} beside a pickle of another)")
    algorithm = POLICY_CLASSES[tuple(policy_class)]
    if algorithm == "PPO" and "clip_range" not in data:
        algorithm = "A2C"
    kwargs = _kwargs(data.get("policy_kwargs", {}), where, algorithm == "DQN")
    observation_space, action_space = _box(data.get("observation_space"), where), _discrete(data.get("action_space"), where)
    count = parameter_count(algorithm, policy_class, kwargs, observation_space.shape, action_space.n)
    if count > PARAMETERS_LIMIT:
        raise _refuse(where, f"its network would have {count:,} parameters, over the limit of {PARAMETERS_LIMIT:,} "
                             "(computed from its net_arch and spaces before anything is built)")  # fmt: skip
    return ModelPlan(algorithm, policy_class, kwargs, observation_space, action_space)


def _refuse_dict_observations(entry: Any, where: str) -> None:
    """A model that sees a Dict observation space (SB3's MultiInputPolicy) is refused for what it is: its policy
    class is off the allow-list only because the space is, and saying so tells the way forward."""
    if isinstance(entry, dict) and isinstance(entry.get(":type:"), str) and entry[":type:"].endswith(".Dict'>"):
        keys = re.findall(r"'(\w{1,40})':", str(entry.get("spaces", "")))[:8]
        named = f" (keys {', '.join(keys)})" if keys else ""
        raise _refuse(where, f"its observation space is a Dict{named}, which sb3: does not load: it plays models that "
                             "see the board as one array (a Box), as the package's envs give it (SingleAgentEnv, "
                             "vector.make; MaskablePPO takes the mask from action_masks()). Train on those, or "
                             "wrap the model in a policy whose act(state) builds its own observation "
                             "(docs/trust.md)")  # fmt: skip


def _holds_pickle(value: Any) -> bool:
    stack = [value]
    while stack:  # by hand: JSON nests as deep as its parser allowed
        item = stack.pop()
        if isinstance(item, dict):
            if ":serialized:" in item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _b64(text: str, where: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise _refuse(where, f"its {what} is not base64 text") from None


def _kwargs(raw: Any, where: str, dqn: bool) -> dict[str, Any]:
    """The policy's keyword arguments, checked key by key (classes resolved from the allow-lists)."""
    if isinstance(raw, dict) and ":serialized:" in raw:
        allowed = ACTIVATIONS | EXTRACTORS | OPTIMIZERS
        raw = load_restricted(_b64(raw[":serialized:"], where, "policy_kwargs"), allowed, where, "policy_kwargs")
    if not isinstance(raw, dict):
        raise _refuse(where, "its policy_kwargs is not a table of settings")
    unknown = sorted(str(key)[:40] for key in raw if key not in _KWARGS)
    if unknown:
        raise _refuse(where, f"its policy_kwargs has {', '.join(unknown)}, which sb3: does not build "
                             f"(it builds {', '.join(sorted(_KWARGS))})")  # fmt: skip
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("optimizer_class", "optimizer_kwargs"):
            if key == "optimizer_class" and (not isinstance(value, ClassRef) or value not in OPTIMIZERS):
                raise _refuse(where, f"its policy_kwargs optimizer_class is {_shown(value)}, not one of {_names(OPTIMIZERS)}")
            continue  # acting builds no optimizer that matters: left out
        if key == "net_arch":
            kwargs[key] = _net_arch(value, where, dqn)
        elif key in ("activation_fn", "features_extractor_class"):
            table = ACTIVATIONS if key == "activation_fn" else EXTRACTORS
            if not isinstance(value, ClassRef) or value not in table:
                raise _refuse(where, f"its policy_kwargs {key} is {_shown(value)}, not one of {_names(table)}; "
                                     "see docs/trust.md for converting such a model")  # fmt: skip
            kwargs[key] = value
        elif key == "features_extractor_kwargs":
            kwargs[key] = _plain_settings(value, where)
        elif not isinstance(value, bool):
            raise _refuse(where, f"its policy_kwargs {key} is {_shown(value)}, not true or false")
        elif not dqn or key == "normalize_images":
            kwargs[key] = value
    return kwargs


def _shown(value: Any) -> str:
    return value.dotted if isinstance(value, ClassRef) else repr(value)[:60]


def _names(table: set[tuple[str, str]]) -> str:
    return ", ".join(sorted({name for _, name in table}))


def _widths(value: Any, where: str, what: str) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) > LAYERS_LIMIT:
        raise _refuse(where, f"its {what} is not a list of at most {LAYERS_LIMIT} layer widths: {repr(value)[:60]}")
    for width in value:
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= WIDTH_LIMIT:
            raise _refuse(where, f"its {what} holds {repr(width)[:30]}, not a layer width from 1 to {WIDTH_LIMIT:,}")
    return list(value)


def _net_arch(value: Any, where: str, dqn: bool) -> Any:
    if value is None:
        return None
    if not dqn and isinstance(value, (list, tuple)) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]  # SB3 1.x's [dict(pi=..., vf=...)], which SB3 2 still reads
    if isinstance(value, dict) and not dqn:
        if set(value) - {"pi", "vf"}:
            raise _refuse(where, f"its net_arch names {sorted(map(str, value))}, not pi and vf")
        return {key: _widths(value.get(key, []), where, f"net_arch {key}") for key in ("pi", "vf")}
    return _widths(value, where, "net_arch")


def _plain_settings(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise _refuse(where, f"its features_extractor_kwargs is not a table of settings: {repr(value)[:60]}")
    for key, item in value.items():
        plain = isinstance(item, (bool, float, str)) or item is None
        if not plain and not (isinstance(item, int) and 0 <= item <= WIDTH_LIMIT):
            raise _refuse(where, f"its features_extractor_kwargs {key[:40]} is {repr(item)[:40]}, not a plain "
                                 f"setting (integers from 0 to {WIDTH_LIMIT:,})")  # fmt: skip
    return dict(value)


def _box(entry: Any, where: str) -> Any:
    """The observation ``Box`` from the plain fields SB3 writes beside the pickled space."""
    from gymnasium import spaces

    if not isinstance(entry, dict) or entry.get(":type:") not in _BOX:
        raise _refuse(where, "its observation space is not a Box (sb3: plays models that see a board as one array)")
    shape, dtype = entry.get("_shape"), entry.get("dtype")
    if (not isinstance(shape, list) or not 1 <= len(shape) <= 3
            or any(isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4096 for n in shape)
            or math.prod(shape) > 1_000_000):  # fmt: skip
        raise _refuse(where, f"its observation shape is {repr(shape)[:60]}, not 1 to 3 sizes of a board's planes")
    if dtype not in _DTYPES:
        raise _refuse(where, f"its observation dtype is {repr(dtype)[:40]}, not one of {', '.join(_DTYPES)}")
    low, high = (_bound(entry.get(key), entry.get(f"{key}_repr"), where, key) for key in ("low", "high"))
    return spaces.Box(low, high, tuple(shape), np.dtype(dtype))


_NUMBER = re.compile(r"-?inf|nan|[-+]?\d+\.?\d*(?:e[-+]?\d+)?|True|False", re.IGNORECASE)


def _bound(text: Any, short: Any, where: str, key: str) -> float:
    """A Box bound as one number. Acting reads the bounds only to tell an image (0..255, divided by 255) from
    other arrays, so a bound that varies over the planes is taken at its lowest (``low``) or highest value."""
    for candidate in (short, text):
        if isinstance(candidate, str):
            values = [float(v) if v not in ("True", "False") else float(v == "True") for v in _NUMBER.findall(candidate)]
            if values:
                return min(values) if key == "low" else max(values)
    raise _refuse(where, f"its observation space has no readable {key} bound")


def _discrete(entry: Any, where: str) -> Any:
    from gymnasium import spaces

    if not isinstance(entry, dict) or entry.get(":type:") not in _DISCRETE:
        raise _refuse(where, "its action space is not Discrete (sb3: plays models that choose one of a game's actions)")
    n, start = str(entry.get("n")), str(entry.get("start", "0"))
    if not n.isdigit() or not 1 <= int(n) <= 100_000 or start != "0":
        raise _refuse(where, f"its action space is Discrete({n[:20]}, start={start[:20]}), not 1 to 100,000 actions from 0")
    return spaces.Discrete(int(n))


def parameter_count(algorithm: str, policy_class: ClassRef, kwargs: dict[str, Any], shape: tuple[int, ...],
                    actions: int) -> int:  # fmt: skip
    """The parameters of the network ``kwargs`` describe, computed from the numbers alone (nothing built):
    the features extractor, the hidden layers of ``net_arch`` and the heads (twice for DQN: its target net)."""
    extractor = kwargs.get("features_extractor_class")
    if extractor is None:
        extractor = ClassRef(("stable_baselines3.common.torch_layers", "NatureCNN" if "Cnn" in policy_class[1] else "FlattenExtractor"))
    settings = kwargs.get("features_extractor_kwargs", {})
    features, extracting = _extractor_size(extractor[1], shape, settings)
    net_arch = kwargs.get("net_arch")
    if net_arch is None:
        net_arch = [] if extractor[1] == "NatureCNN" else [64, 64] if algorithm == "DQN" else {"pi": [64, 64], "vf": [64, 64]}

    def mlp(widths: list[int], into: int) -> tuple[int, int]:
        total = 0
        for width in widths:
            total, into = total + into * width + width, width
        return total, into

    if algorithm == "DQN":
        hidden, last = mlp(net_arch, features)
        return 2 * (extracting + hidden + last * actions + actions)
    pi, vf = (net_arch["pi"], net_arch["vf"]) if isinstance(net_arch, dict) else (net_arch, net_arch)
    (pi_params, pi_last), (vf_params, vf_last) = mlp(pi, features), mlp(vf, features)
    extractors = 1 if kwargs.get("share_features_extractor", True) else 2
    return extractors * extracting + pi_params + vf_params + pi_last * actions + actions + vf_last + 1


def _extractor_size(name: str, shape: tuple[int, ...], settings: dict[str, Any]) -> tuple[int, int]:
    """(features out, parameters) of an allowed extractor for observations of ``shape``, from its settings."""

    def setting(key: str, default: int) -> int:
        value = settings.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1

    if name == "FlattenExtractor":
        return math.prod(shape), 0
    c, h, w = (*([1] * (3 - len(shape))), *shape)  # a shape that is not CHW fails in the constructor, after this
    if name == "BoardCNN":
        features, channels, layers = setting("features_dim", 128), setting("channels", 32), min(setting("layers", 2), LAYERS_LIMIT)
        convs = (c * channels * 9 + channels) + (layers - 1) * (channels * channels * 9 + channels)
        return features, convs + channels * h * w * features + features
    features = setting("features_dim", 512)  # NatureCNN: 8x8/4, 4x4/2, 3x3/1 convolutions, then a linear layer
    for kernel, stride in ((8, 4), (4, 2), (3, 1)):
        h, w = max((h - kernel) // stride + 1, 1), max((w - kernel) // stride + 1, 1)
    convs = (c * 32 * 64 + 32) + (32 * 64 * 16 + 64) + (64 * 64 * 9 + 64)
    return features, convs + 64 * h * w * features + features


def _class(ref: ClassRef) -> Any:
    return getattr(import_module(ref[0].replace("boardgame_envs.sb3", "boardgame_envs.vector.sb3")), ref[1])


class _NoOptimizer:
    """Stands in for the optimizer SB3's policies build in their constructor: acting never steps it."""

    def __init__(self, params: Any, lr: float = 0.0, **kwargs: Any) -> None:
        self.param_groups: list[dict[str, Any]] = []

    def state_dict(self) -> dict[str, Any]:
        return {}


def _build(plan: ModelPlan, weights: Any, where: str, device: str) -> Any:
    """The policy object, built with its allowed class and checked settings, its weights checked then loaded."""
    import torch

    kwargs = {key: _class(value) if isinstance(value, ClassRef) else value for key, value in plan.kwargs.items()}
    kwargs["optimizer_class"] = _NoOptimizer  # a model that only acts is never trained (and torch's first
    # optimizer imports torch._dynamo: seconds on the first model a process loads)
    if plan.algorithm != "DQN":
        kwargs["ortho_init"] = False  # every weight is loaded from the file: the initial values are not needed
    try:
        policy = _class(plan.policy_class)(plan.observation_space, plan.action_space, lambda _: 0.0, **kwargs)
    except (TypeError, ValueError, AssertionError, RuntimeError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        raise _refuse(where, f"its policy cannot be built from its settings: {first}") from None
    misfit = state_dict_misfit(policy.state_dict(), weights)
    if misfit:
        raise _refuse(where, f"its weights do not fit the network its data describes: {misfit}")
    with torch.no_grad():
        policy.load_state_dict(weights)
    policy.set_training_mode(False)
    return policy.to(device)
