"""A small convolutional policy-value network and its files: what ``baselines/ppo_selfplay.py`` trains, as a policy.

``boardnet:PATH`` (or ``make_policy("boardnet:runs/ppo-gomoku9-s0/final.pt")``) plays the
network saved at PATH: its most likely legal move, or with ``sample=true`` a move drawn
from its policy. The shipped ``pretrained:ppo-gomoku9`` is such a file.

The network (:class:`BoardNet`) is 3x3 convolutions that keep the board (planes in,
channels first), a 1x1 policy head with one logit per point and a value head over the
board's mean and max; it has no fully connected layer over the points, so nothing in
its weights fixes the board size. That is why the file says which game it learned
(:func:`save_net` with ``game``): the policy refuses any other game, where the weights
would load and play on without complaint.

**The head comes from the game** (:func:`head_of`, through the protocol's
:func:`~boardgame_envs.games.protocol.action_at_cell` and
:func:`~boardgame_envs.games.protocol.other_actions`): ``cells`` where each action is its
own cell (m,n,k games), ``columns`` where an action is a column (connect four: the
log-sum-exp of the column's points), else ``actions``, an explicit map: each cell action's
logit from the points that mean it, and one logit per other action (a pass, an opening
rule's swap) from the board pooled, as the value reads it.

A file is ``{"shape": (planes, channels, layers), "weights": state_dict, "game": ...}``, plus
``"blocks"`` (residual blocks) and ``"head"`` (``"columns"`` for connect four) where they are not the
plain network's 0 and ``"cells"``; an ``actions`` head also states ``"cell_actions"`` (per cell,
the action it means, -1 for none) and ``"num_actions"``. It is
read through the loading layer (``torch.load(weights_only=True)``, tensors checked against
their storage: no code runs, no memory past the file's), its shape capped and checked against
the stored tensors before the network is built; ``game`` is absent in the training run's own snapshots.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from boardgame_envs.games.protocol import action_at_cell, other_actions
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.policies.registry import PolicySpecError
from boardgame_envs.safeio import FileRefusedError, atomic_save_tensors, load_tensors, state_dict_misfit
from boardgame_envs.safeio.file_kinds import sb3_hint
from boardgame_envs.selfplay.sb3_policy import encode, set_spec_threads


class Residual(nn.Module):
    """Two 3x3 convolutions with a skip: ``relu(x + conv(relu(conv(x))))``, the board and channels kept."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


#: The policy heads: ``cells``, one logit per point (an action is a point: m,n,k games); ``columns``, the
#: per-point logits reduced over each column by log-sum-exp (an action is a column: connect four); ``actions``,
#: any game's map from cells to actions (:func:`head_of`), with a logit per other action (a pass, a swap).
HEADS = ("cells", "columns", "actions")
CELLS_LIMIT = 64 * 64  # the most cells an ``actions`` head may state (a file's list is checked against it first)
ACTIONS_LIMIT = 1 << 16


def head_of(game: Any) -> dict[str, Any]:
    """The policy head that fits ``game``, as :class:`BoardNet`'s keyword arguments: ``{"head": "cells"}`` where
    every action is its own cell, ``{"head": "columns"}`` where the actions are the columns, else the ``actions``
    head with ``cell_actions`` (per cell, the action a click there means, -1 for none) and ``num_actions``.

    The protocol says which actions are cells (``cell_of``) and which cells mean which action
    (``action_at_cell``); a game whose two answers disagree (an action no cell means, yet not an other action)
    is a ValueError naming it."""
    rows, cols = game.shape
    n = int(game.num_actions)
    cell_actions = [-1 if a is None else a for a in (action_at_cell(game, c) for c in range(rows * cols))]
    meant, others = set(cell_actions) - {-1}, set(other_actions(game))
    lost = sorted(set(range(n)) - meant - others)
    if lost or meant & others:
        both = sorted(meant & others)
        a = (both or lost)[0]
        said = "has no cell (cell_of) yet a cell means it" if both else "has a cell (cell_of) that no cell means"
        raise ValueError(f"{game.describe()}: action {game.action_name(a)} {said} (action_at_cell): a network "
                         "cannot tell where it plays")  # fmt: skip
    if n == rows * cols and cell_actions == list(range(n)):
        return {"head": "cells"}
    if n == cols and cell_actions == [c % cols for c in range(rows * cols)]:
        return {"head": "columns"}
    return {"head": "actions", "cell_actions": cell_actions, "num_actions": n}


def check_action_map(cell_actions: Any, num_actions: Any) -> str | None:
    """Why ``cell_actions`` and ``num_actions`` are no ``actions`` head (a list of ints -1..n-1, one per cell), or None."""
    if isinstance(num_actions, bool) or not isinstance(num_actions, int) or not 1 <= num_actions <= ACTIONS_LIMIT:
        return f"num_actions={repr(num_actions)[:30]}, expected 1..{ACTIONS_LIMIT}"
    if not isinstance(cell_actions, (list, tuple)) or not 1 <= len(cell_actions) <= CELLS_LIMIT:
        return f"cell_actions must be a list of 1..{CELLS_LIMIT} actions, one per cell, got {repr(cell_actions)[:40]}"
    if not all(type(a) is int and -1 <= a < num_actions for a in cell_actions):
        return f"cell_actions must be actions -1..{num_actions - 1} (-1: no action), got {repr(cell_actions)[:40]}"
    return None


class BoardNet(nn.Module):
    """3x3 convolutions that keep the board size (CHW planes in), a logit per action, a value in [-1, 1].

    ``layers`` plain convolutions, then ``blocks`` :class:`Residual` blocks; ``head`` (:data:`HEADS`) maps
    the per-point logits to actions: one per point, one per column, or (``actions``, with ``cell_actions``
    and ``num_actions``: :func:`head_of`) each action from the points that mean it, and each other action
    from the pooled board by a linear layer of its own (``others``). :meth:`for_game` builds the one a game needs.
    """

    def __init__(self, planes: int, channels: int, layers: int, blocks: int = 0, head: str = "cells",
                 cell_actions: list[int] | None = None, num_actions: int | None = None) -> None:  # fmt: skip
        super().__init__()
        if head not in HEADS:
            raise ValueError(f"head must be one of {', '.join(HEADS)}, got {head!r}")
        if (head == "actions") != (cell_actions is not None or num_actions is not None):
            raise ValueError("cell_actions and num_actions go with the actions head, and it needs them")
        body: list[nn.Module] = []
        for i in range(layers):
            body += [nn.Conv2d(planes if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        body += [Residual(channels) for _ in range(blocks)]  # after the plain layers: older files keep their keys
        self.body = nn.Sequential(*body)
        self.policy = nn.Conv2d(channels, 1, 1)
        self.value = nn.Sequential(nn.Linear(2 * channels, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())
        self._shape, self.blocks, self.head = (planes, channels, layers), blocks, head
        if head == "actions":
            self._map_actions(cell_actions, num_actions, channels)

    def _map_actions(self, cell_actions: Any, num_actions: Any, channels: int) -> None:
        """The ``actions`` head's indices: each cell action's points (padded with a -inf point), the order that puts
        the cell actions' and the other actions' logits back in action order, and the other actions' layer."""
        why = check_action_map(cell_actions, num_actions)
        if why is not None:
            raise ValueError(why)
        self.cell_actions, self.num_actions = list(cell_actions), num_actions
        cells = len(cell_actions)
        acting = sorted(set(cell_actions) - {-1})
        others = [a for a in range(num_actions) if a not in set(acting)]
        groups = [[c for c, a in enumerate(cell_actions) if a == action] for action in acting]
        width = max(map(len, groups), default=1)
        index = [g + [cells] * (width - len(g)) for g in groups]  # cell `cells` is the padding's -inf point
        # Buffers, so that .to(device) moves them; not persistent: the map is in the file as a list, not as weights.
        self.register_buffer("_points", torch.tensor(index, dtype=torch.long).reshape(len(groups), width), persistent=False)
        self.register_buffer("_order", torch.argsort(torch.tensor(acting + others, dtype=torch.long)), persistent=False)
        self.others = nn.Linear(2 * channels, len(others)) if others else None

    @classmethod
    def for_game(cls, game: Any, channels: int, layers: int, blocks: int = 0) -> BoardNet:
        """The network for ``game``: its observation planes in, the head :func:`head_of` derives out."""
        return cls(int(game.num_planes), channels, layers, blocks, **head_of(game))

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits ``(B, actions)`` (illegal ones at -1e9) and values ``(B,)`` of uint8 planes ``(B, C, H, W)``:
        ``actions`` is ``H*W`` for the ``cells`` head, ``W`` for ``columns``, ``num_actions`` for ``actions``."""
        h = self.body(obs.float())
        points = self.policy(h).squeeze(1)  # (B, H, W)
        pooled = torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)  # the board as a whole, whatever its size
        if self.head == "cells":
            logits = points.flatten(1)
        elif self.head == "columns":
            logits = points.logsumexp(1)
        else:
            logits = self._action_logits(points.flatten(1), pooled)
        logits = logits.masked_fill(~mask, -1e9)
        return logits, self.value(pooled).squeeze(1)

    def _action_logits(self, points: torch.Tensor, pooled: torch.Tensor) -> torch.Tensor:
        """The ``actions`` head: ``(B, cells)`` point logits and the pooled board -> ``(B, num_actions)``."""
        if points.shape[1] != len(self.cell_actions):
            raise ValueError(f"this network's head maps {len(self.cell_actions)} cells, got a board of {points.shape[1]}")
        if self._points.shape[1] == 1:  # one point an action: its logit as it is
            mine = points[:, self._points[:, 0]]
        else:  # several (a column): their log-sum-exp, the padding's -inf adding nothing
            padded = torch.cat([points, points.new_full((len(points), 1), -math.inf)], 1)
            mine = padded[:, self._points].logsumexp(2)
        if self.others is not None:
            mine = torch.cat([mine, self.others(pooled)], 1)
        return mine[:, self._order]

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(planes, channels, layers)``: the constructor's first arguments (``blocks`` and ``head`` apart)."""
        return self._shape

    @property
    def arch(self) -> dict[str, Any]:
        """The constructor's other arguments, ``{"blocks": ..., "head": ...}`` (and an ``actions`` head's map)."""
        if self.head == "actions":
            return {"blocks": self.blocks, "head": self.head, "cell_actions": list(self.cell_actions),
                    "num_actions": self.num_actions}  # fmt: skip
        return {"blocks": self.blocks, "head": self.head}


def save_net(net: BoardNet, path: str | os.PathLike, game: Any = None) -> None:
    """Write ``net`` (its shape and weights, and ``game`` if given: the game it learned) to ``path``, atomically."""
    data: dict[str, Any] = {"shape": net.shape, "weights": net.state_dict()}
    if net.arch != {"blocks": 0, "head": "cells"}:  # a plain network's file is written as before this option
        data.update(net.arch)
    if game is not None:
        from boardgame_envs.alphazero.checkpoint import game_to_dict

        data["game"] = game_to_dict(game)
    atomic_save_tensors(data, path)


#: The most parameters a BoardNet file may state: 25 million (100 MB in float32); the shipped ones have about 40 thousand.
PARAMETERS_LIMIT = 25_000_000
_SHAPE_LIMITS = (("planes", 64), ("channels", 1024), ("layers", 64))
BLOCKS_LIMIT = 64


def parameter_count(planes: int, channels: int, layers: int, blocks: int = 0, others: int = 0) -> int:
    """The parameters of ``BoardNet(planes, channels, layers, blocks)`` with ``others`` other actions in its head
    (the ``actions`` head's layer; none in the others), from the numbers alone."""
    conv = (channels * 9 + 1) * channels
    body = (planes * 9 + 1) * channels + (layers - 1) * conv + 2 * blocks * conv
    head = (2 * channels + 1) * others if others else 0
    return body + (channels + 1) + (2 * channels * 64 + 64) + (64 + 1) + head


def load_net(path: str | os.PathLike) -> tuple[BoardNet, Any]:
    """The network saved at ``path`` (in eval mode) and its game (None where the file names none).

    Read through :func:`~boardgame_envs.safeio.load_tensors` (tensors only, checked against their storage);
    the stated shape is checked against its bounds and :data:`PARAMETERS_LIMIT`, and the stored tensors'
    shapes against it, before the network is built. A missing file raises FileNotFoundError; anything
    that is not such a file, a ValueError (:class:`~boardgame_envs.safeio.FileRefusedError`) naming it.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no network file at {path}")
    data = load_tensors(path, what="BoardNet file")
    if not isinstance(data, dict) or not {"shape", "weights"} <= set(data):
        raise FileRefusedError(path, "not a BoardNet file (no shape and weights)")
    shape = data["shape"]
    if not isinstance(shape, (tuple, list)) or len(shape) != 3:
        raise FileRefusedError(path, f"not a BoardNet file: its shape is {repr(shape)[:60]}, not (planes, channels, layers)")
    for (name, most), value in zip(_SHAPE_LIMITS, shape):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
            raise FileRefusedError(path, f"its stated shape has {name}={repr(value)[:30]}, expected 1..{most}")
    blocks, head = data.get("blocks", 0), data.get("head", "cells")  # absent in a plain network's file
    if isinstance(blocks, bool) or not isinstance(blocks, int) or not 0 <= blocks <= BLOCKS_LIMIT:
        raise FileRefusedError(path, f"its stated blocks={repr(blocks)[:30]}, expected 0..{BLOCKS_LIMIT}")
    if head not in HEADS:
        raise FileRefusedError(path, f"its stated head={repr(head)[:30]}, expected one of {', '.join(HEADS)}")
    mapped: dict[str, Any] = {}
    if head == "actions":
        mapped = {"cell_actions": data.get("cell_actions"), "num_actions": data.get("num_actions")}
        why = check_action_map(**mapped)
        if why is not None:
            raise FileRefusedError(path, f"its stated actions head: {why}")
    others = mapped["num_actions"] - len(set(mapped["cell_actions"]) - {-1}) if mapped else 0
    count = parameter_count(*shape, blocks, others)
    if count > PARAMETERS_LIMIT:
        raise FileRefusedError(path, f"its stated shape {tuple(shape)} with {blocks} blocks is a network of {count:,} "
                                     f"parameters, over the limit of {PARAMETERS_LIMIT:,}")  # fmt: skip
    with torch.device("meta"):  # shapes without memory
        expected = BoardNet(*shape, blocks, head, **mapped).state_dict()
    misfit = state_dict_misfit(expected, data["weights"])
    if misfit:
        raise FileRefusedError(path, f"its weights do not fit the shape it states: {misfit}")
    game = None
    if data.get("game") is not None:
        from boardgame_envs.alphazero.checkpoint import game_from_dict

        try:
            game = game_from_dict(data["game"])
        except (ValueError, TypeError):
            raise FileRefusedError(path, f"it names no game this package knows: {repr(data['game'])[:80]}") from None
    net = BoardNet(*shape, blocks, head, **mapped)
    net.load_state_dict(data["weights"])
    return net.eval(), game


class BoardNetPolicy:
    """A :class:`BoardNet` as a policy: ``act(state)`` plays its best legal move, or a sampled one.

    ``game`` (the game the network learned) None accepts any game with the network's
    number of planes; given, every other game is refused with a ValueError.
    """

    def __init__(self, net: BoardNet, game: Any = None, name: str = "boardnet", sample: bool = False,
                 seed: int | None = None) -> None:  # fmt: skip
        if not isinstance(sample, (bool, np.bool_)):
            raise ValueError(f"sample must be true or false, got {sample!r}")
        self.net, self.game, self.name, self.sample = net.eval(), game, name, bool(sample)
        self.rng = np.random.default_rng(seed)

    @classmethod
    def from_file(cls, path: str, sample: bool = False, seed: int | None = None,
                  torch_threads: int | None = 1) -> BoardNetPolicy:  # fmt: skip
        """The policy of the file at ``path``: the ``boardnet:PATH`` spec's factory (it sets torch's threads,
        one by default: :func:`~boardgame_envs.policies.base.set_torch_threads`)."""
        set_spec_threads(torch_threads, f"boardnet:{path}")
        try:
            net, game = load_net(path)
        except FileRefusedError as exc:  # its message names the file already
            raise PolicySpecError(f"boardnet:{path}: {sb3_hint(path, 'a BoardNet file') or exc.why}") from None
        except (FileNotFoundError, ValueError) as exc:
            raise PolicySpecError(f"boardnet:{path}: {exc}") from None
        return cls(net, game, f"boardnet:{path}", sample, seed)

    def check_game(self, game: Any) -> None:
        """Refuse a game the network did not learn (or, where its game is unknown, one with other planes)."""
        if self.game is not None:
            if game != self.game:
                raise ValueError(f"{self.name} was trained on {self.game.describe()}, not {game.describe()}")
            return
        planes = game.new_state().planes(1).shape[-1]
        if planes != self.net.shape[0]:
            raise ValueError(f"{self.name} takes {self.net.shape[0]} planes, but {game.describe()} has {planes}: "
                             "it was trained on another game")  # fmt: skip
        head = {key: value for key, value in self.net.arch.items() if key != "blocks"}
        if head != head_of(game):
            raise ValueError(f"{self.name}'s head ({head['head']}) maps other actions than {game.describe()}'s: "
                             "it was trained on another game")  # fmt: skip

    @torch.no_grad()
    def distribution(self, state: Any) -> np.ndarray:
        """The network's move probabilities over the legal points, ``(num_actions,)``."""
        state = game_state_of(state)
        self.check_game(state.game)
        planes = encode(state.planes(state.to_move)[None], "chw")  # as the batched env showed them in training
        mask = torch.from_numpy(np.asarray(state.legal_mask(), dtype=bool))[None]
        logits, _ = self.net(torch.from_numpy(planes), mask)
        return torch.softmax(logits[0].double(), 0).numpy()

    def act(self, state: Any) -> int:
        p = self.distribution(state)
        if self.sample:
            return int(self.rng.choice(len(p), p=p / p.sum()))
        return int(p.argmax())

    def __repr__(self) -> str:
        return f"BoardNetPolicy({self.name!r}, sample={self.sample})"
