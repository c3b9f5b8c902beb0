"""The policy-value network: a small ResNet over the env's observation planes.

Input: the planes of an observation, ``(B, C, rows, columns)`` float (the env
gives HWC ``int8``; :meth:`PolicyValueNet.predict` converts); the board need
not be square. Output: policy logits over the game's ``num_actions`` (an m,n,k
board's cells; connect four's 7 columns, read off its 6x7 board by the policy
head's dense layer) and a value in ``[-1, 1]`` for the player to move. Illegal
actions are masked with the env's ``action_mask`` before the softmax, so their
probability is exactly zero.

A game under a tournament opening rule has actions after the board's points:
the rule's decisions (``swap``, ``keep``, ``offers=K``, Swap2's ``black``,
``white``, ``more``; ``decisions=D``). Their logits come from a head of their
own: the residual tower's features pooled over the board (mean and max of
each channel), then a small dense layer. A decision is about the whole
position (is it better for black or for white?), not about a point, so it
reads the pooled features as the value head reads the whole board; the
points' logits stay the usual head's. One softmax runs over all the actions,
and the mask leaves only the current phase's: points or decisions.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

DECISION_HIDDEN = 32  # units of the decision head's hidden layer


class ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(y)))


class PolicyValueNet(nn.Module):
    """ResNet with a policy head (logits over the actions) and a value head (tanh).

    Args:
        in_planes: channels of the observation (the env's plane count).
        board_size: ``n``, the board's columns (and rows, unless ``rows`` is given); the policy covers
            ``n*n`` actions unless ``num_actions`` is given.
        blocks, channels: depth and width of the residual tower.
        rows, num_actions: for a board that is not square or whose actions are not its cells
            (connect four: ``rows=6``, ``board_size=7``, ``num_actions=7``).
        decisions: the last ``decisions`` of the ``num_actions`` are not points but an opening rule's
            decisions, scored by the decision head (module docstring); the others are the board's cells.
    """

    def __init__(self, in_planes: int, board_size: int, blocks: int = 2, channels: int = 32, rows: int | None = None,
                 num_actions: int | None = None, decisions: int | None = None) -> None:  # fmt: skip
        super().__init__()
        self.hparams = {"in_planes": in_planes, "board_size": board_size, "blocks": blocks, "channels": channels}
        if rows is not None or num_actions is not None:  # only then: square-board checkpoints keep their keys
            self.hparams.update(rows=rows, num_actions=num_actions)
        rows = board_size if rows is None else rows
        cells = rows * board_size
        actions = cells if num_actions is None else num_actions
        if decisions is not None:
            if isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 1:
                raise ValueError(f"decisions must be a positive integer or None, got {decisions!r}")
            if actions != cells + decisions:
                raise ValueError(f"{decisions} decisions after {cells} cells make {cells + decisions} actions, "
                                 f"not num_actions={actions}")  # fmt: skip
            self.hparams["decisions"] = decisions
            actions = cells  # the usual head scores the points; the decision head the rest
        self.decision_head = None if decisions is None else nn.Sequential(
            nn.Linear(2 * channels, DECISION_HIDDEN), nn.ReLU(), nn.Linear(DECISION_HIDDEN, decisions))  # fmt: skip
        self.stem = nn.Sequential(nn.Conv2d(in_planes, channels, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(channels), nn.ReLU())  # fmt: skip
        self.tower = nn.Sequential(*(ResidualBlock(channels) for _ in range(blocks)))
        self.policy_head = nn.Sequential(nn.Conv2d(channels, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU(),
                                         nn.Flatten(), nn.Linear(2 * cells, actions))  # fmt: skip
        self.value_head = nn.Sequential(nn.Conv2d(channels, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU(),
                                        nn.Flatten(), nn.Linear(cells, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())  # fmt: skip

    def forward(self, planes: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits (B, num_actions), value (B,))``; with ``mask`` (B, num_actions), illegal logits are ``-inf``."""
        x = self.tower(self.stem(planes))
        logits = self.policy_head(x)
        if self.decision_head is not None:
            pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
            logits = torch.cat([logits, self.decision_head(pooled)], dim=1)
        if mask is not None:
            logits = logits.masked_fill(~mask.bool(), float("-inf"))
        return logits, self.value_head(x).squeeze(-1)

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    @torch.inference_mode()
    def predict(self, planes_hwc: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Priors ``(B, num_actions)`` (zero on illegal actions) and values ``(B,)`` for env observations.

        ``planes_hwc`` is ``(B, rows, columns, C)`` as the env gives it, ``mask`` its
        ``(B, num_actions)`` action masks (each with a legal action).
        """
        was_training = self.training
        if was_training:  # (switching modes walks every module: only when needed)
            self.eval()
        x = torch.from_numpy(np.ascontiguousarray(planes_hwc)).to(self.device).permute(0, 3, 1, 2).float()
        m = torch.from_numpy(np.ascontiguousarray(mask, dtype=np.bool_)).to(self.device)
        logits, value = self(x, m)
        priors = torch.softmax(logits, dim=-1)
        if was_training:
            self.train()
        return priors.cpu().numpy(), value.cpu().numpy()


def resolve_device(name: str) -> torch.device:
    """``"auto"``: CUDA when present, else the CPU; otherwise the named device, which must exist here.

    A name torch does not know (``"tpu"``) or a device this machine lacks (``"cuda"``
    without a GPU or with a CPU-only torch) raises ``ValueError`` now, not at the first tensor.
    """
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except (RuntimeError, TypeError):
        raise ValueError(f"unknown device {name!r}; expected auto, cpu, cuda or cuda:N") from None
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise ValueError(f"device {name!r}: no CUDA GPU here (torch {torch.__version__}); use cpu or auto")
        if device.index is not None and device.index >= count:
            raise ValueError(f"device {name!r}: this machine has {count} CUDA GPU(s), cuda:0..cuda:{count - 1}")
    elif device.type == "mps" and not torch.backends.mps.is_available():
        raise ValueError(f"device {name!r}: no Apple MPS here; use cpu or auto")
    return device
