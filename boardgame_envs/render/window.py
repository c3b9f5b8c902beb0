"""A pygame window that shows board pictures (the envs' ``render_mode="human"`` and the play window).

pygame is the ``gui`` extra; it is imported when a window opens. With
``SDL_VIDEODRIVER=dummy`` the window exists only in memory, which is how
the tests drive it.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np


def import_pygame() -> Any:
    """pygame, or a ``ValueError`` saying how to install it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError:
        raise ValueError("a window needs pygame: pip install 'boardgame-envs[gui]'") from None
    return pygame


class Window:
    """One window showing ``uint8 (H, W, 3)`` pictures; it takes the size of the picture shown.

    ``fps`` paces :meth:`show` (at most that many pictures a second) so a
    person can follow a game; there is no pacing without a screen (the
    dummy video driver).
    """

    def __init__(self, title: str = "boardgame_envs", fps: float | None = None) -> None:
        self.pygame = import_pygame()
        self.pygame.display.init()
        self.title = title
        self.fps = fps
        self.surface: Any = None
        self._clock = self.pygame.time.Clock()

    @property
    def headless(self) -> bool:
        return self.pygame.display.get_driver() in ("dummy", "offscreen")

    @property
    def is_open(self) -> bool:
        return self.surface is not None

    def show(self, frame: np.ndarray, title: str | None = None) -> None:
        """Draw ``frame``, flip the screen once, and let the window's events through (so it stays responsive)."""
        self.paint(frame, title)
        self.pygame.display.flip()
        self.pygame.event.pump()
        if self.fps and not self.headless:
            self._clock.tick(self.fps)

    def paint(self, frame: np.ndarray, title: str | None = None) -> None:
        """Put ``frame`` on the window's surface without flipping the screen, so a caller can draw more
        on top (the play window's buttons) and then flip once: no frame on screen shows half a drawing."""
        pygame = self.pygame
        h, w = frame.shape[:2]
        if self.surface is None or self.surface.get_size() != (w, h):
            if not pygame.display.get_init():
                pygame.display.init()
            self.surface = pygame.display.set_mode((w, h))
        if title is not None:
            self.title = title
        pygame.display.set_caption(self.title)
        picture = pygame.image.frombuffer(np.ascontiguousarray(frame).tobytes(), (w, h), "RGB")
        self.surface.blit(picture, (0, 0))

    def save(self, path: str) -> None:
        """Write what the window shows to ``path`` (PNG)."""
        if self.surface is None:
            raise ValueError("the window shows nothing yet: nothing to save")
        self.pygame.image.save(self.surface, path)

    def close(self) -> None:
        if self.surface is not None:
            self.pygame.display.quit()
            self.surface = None
