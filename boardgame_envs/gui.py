"""Play against a policy in a pygame window: ``boardgame-envs play gomoku --gui``.

Click a point to move; the point under the mouse shows a faint stone when it
is legal, and black's forbidden points (renju) carry a red cross and refuse
the click. Buttons (and keys): Undo (``u``) takes back your last move and
the reply, Hint (``h``) rings the move the alpha-beta search likes, New game
(``n``), and ``q`` / Esc / closing the window quits. The opponent thinks on
a worker thread while the window says "thinking…"; the result stays on the
status line at the end.

:class:`PlayWindow` does one round of work per :meth:`PlayWindow.tick`
(events, the opponent's answer, a redraw), so tests drive it headless
(``SDL_VIDEODRIVER=dummy``) by posting pygame events and ticking.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from boardgame_envs.games.notation import point_name
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.render import Board, Options, rgb
from boardgame_envs.render.scene import BAND, BAND_TEXT, geometry
from boardgame_envs.render.window import Window

BUTTONS = (("Undo", "u"), ("Hint", "h"), ("New game", "n"))
BAR_PX = 48
BUTTON_FACE = (96, 78, 58)
BUTTON_OFF = (70, 60, 50)


class PlayWindow:
    """One human against ``opponent`` on the games ``env_fn()`` makes (raw AEC envs)."""

    def __init__(
        self,
        env_fn: Callable[[], Any],
        opponent: Any,
        human_first: bool = True,
        hint_policy: Any = None,
        cell: int | None = None,
        fps: int = 30,
    ) -> None:
        self.env_fn = env_fn
        self.opponent = opponent
        self.human_first = human_first
        self._hint_policy = hint_policy
        self.options = Options(cell=cell)
        self.window = Window("boardgame_envs")
        self.fps = fps
        self.pygame = self.window.pygame
        self.pygame.font.init()
        self._font = self.pygame.font.Font(None, 26)
        self._executor = ThreadPoolExecutor(max_workers=1)
        self._job: Future | None = None
        self._job_kind = ""  # "move" or "hint"
        self.running = True
        self.new_game()

    # ------------------------------------------------------------- the game
    def new_game(self) -> None:
        if self.busy:
            return
        self.moves: list[int] = []
        self.env = self._replay()
        self.human = self.env.possible_agents[0 if self.human_first else 1]
        self.hover: int | None = None
        self.hint: int | None = None
        self.message: str | None = None
        self.forfeit: str | None = None  # why the opponent lost by its own fault (an engine crashed, ...)

    def _replay(self) -> Any:
        env = self.env_fn()
        env.reset()
        for action in self.moves:
            env.step(action)
        return env

    @property
    def busy(self) -> bool:
        """Whether the worker thread is thinking (a move or a hint)."""
        return self._job is not None and not self._job.done()

    @property
    def state(self) -> Any:
        return self.env.unwrapped.game_state

    @property
    def over(self) -> bool:
        """The game has ended: by the rules, or by the opponent's forfeit."""
        return self.state.terminal or self.forfeit is not None

    @property
    def humans_turn(self) -> bool:
        return not self.over and self.env.agent_selection == self.human

    def click(self, action: int) -> None:
        """The human plays ``action`` if it is legal; otherwise the status line says why not."""
        if not self.humans_turn or self.busy:
            return
        reason = self.state.illegal_reason(action)
        if reason is not None:
            self.message = reason
            return
        self._play(action)

    def undo(self) -> None:
        """Take back the human's last move and the reply to it."""
        if self.busy:
            return
        mine = [i for i, _ in enumerate(self.moves) if (i % 2 == 0) == self.human_first]
        if not mine:
            self.message = "nothing to undo"
            return
        del self.moves[mine[-1] :]
        self.env = self._replay()
        self.hint, self.message, self.forfeit = None, None, None

    def ask_hint(self) -> None:
        if not self.humans_turn or self.busy:
            return
        if self._hint_policy is None:
            from boardgame_envs.policies import AlphaBetaPolicy

            self._hint_policy = AlphaBetaPolicy(seed=0)
        self._start("hint", self._hint_policy)

    def _play(self, action: int) -> None:
        self.env.step(int(action))
        self.moves.append(int(action))
        self.hint, self.message = None, None

    def _start(self, kind: str, policy: Any) -> None:
        env = self.env
        self._job_kind = kind
        self._job = self._executor.submit(lambda: int(policy.act(env)))

    def _collect(self) -> None:
        """Start the opponent's move when it is due; take a finished answer."""
        if self._job is not None and self._job.done():
            job, self._job = self._job, None
            try:
                action = job.result()  # a policy's error surfaces here, in the main thread
            except Forfeit as exc:  # an engine that crashed, timed out or broke the rules loses
                if self._job_kind != "move":
                    raise
                self.forfeit = f"{self.env.agent_selection} forfeits: {exc}"
                return
            if self._job_kind == "move":
                self._play(action)
            else:
                self.hint = action
                self.message = f"hint: {point_name(action, self.state.game.size)}"
        if self._job is None and not self.over and not self.humans_turn:
            self._start("move", self.opponent)

    # ------------------------------------------------------------- the window
    def board(self) -> Board:
        return Board.of(self.env, self.moves)

    def status_note(self) -> str | None:
        if self.busy:
            return "finding a hint…" if self._job_kind == "hint" else "thinking…"
        if self.forfeit is not None:
            return f"{self.forfeit} · you win!"
        if self.state.terminal:
            winner = self.state.winner
            if winner == 0:
                return None
            you_won = self.env.possible_agents[winner - 1] == self.human
            return f"{self.board().status()} · {'you win!' if you_won else 'you lose'}"
        return self.message

    def frame(self) -> np.ndarray:
        """The picture the window shows: the board, then the button bar."""
        ghost = self.hover
        if ghost is not None and (not self.humans_turn or self.state.illegal_reason(ghost) is not None):
            ghost = None  # a faint stone only where a click would play
        picture = rgb(self.board(), cell=self.options.cell, ghost=ghost, hint=self.hint, note=self.status_note())
        bar = np.empty((BAR_PX, picture.shape[1], 3), dtype=np.uint8)
        bar[:] = BAND
        return np.concatenate([picture, bar])

    def _buttons(self, width: int, top: int) -> list[tuple[str, str, Any]]:
        rect = self.pygame.Rect
        w = (width - 8 * (len(BUTTONS) + 1)) // len(BUTTONS)
        return [(label, key, rect(8 + i * (w + 8), top + 6, w, BAR_PX - 12)) for i, (label, key) in enumerate(BUTTONS)]

    def draw(self) -> None:
        frame = self.frame()
        self.window.show(frame, title=self.board().title())
        surface = self.window.surface
        top = frame.shape[0] - BAR_PX
        for label, _, box in self._buttons(frame.shape[1], top):
            self.pygame.draw.rect(surface, BUTTON_OFF if self.busy else BUTTON_FACE, box, border_radius=6)
            text = self._font.render(label, True, BAND_TEXT)
            surface.blit(text, text.get_rect(center=box.center))
        self.pygame.display.flip()

    def pixel_of(self, action: int) -> tuple[int, int]:
        """Where ``action`` is in the window (for tests and scripts that post clicks)."""
        x, y = geometry(self.board(), self.options).center(action)
        return round(x), round(y)

    def button_at(self, label: str) -> tuple[int, int]:
        """The centre of the button named ``label`` in the window."""
        geo = geometry(self.board(), self.options)
        return next(box.center for name, _, box in self._buttons(geo.width, geo.height) if name == label)

    # ------------------------------------------------------------- events
    def handle(self, event: Any) -> None:
        pg = self.pygame
        geo = geometry(self.board(), self.options)
        if event.type == pg.QUIT or (event.type == pg.KEYDOWN and event.key in (pg.K_q, pg.K_ESCAPE)):
            self.running = False
        elif event.type == pg.MOUSEMOTION:
            self.hover = geo.action_at(*event.pos)
        elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
            if event.pos[1] >= geo.height:
                for label, key, box in self._buttons(geo.width, geo.height):
                    if box.collidepoint(event.pos):
                        self._command(key)
            else:
                action = geo.action_at(*event.pos)
                if action is not None:
                    self.click(action)
        elif event.type == pg.KEYDOWN and event.unicode in {key for _, key in BUTTONS}:
            self._command(event.unicode)

    def _command(self, key: str) -> None:
        {"u": self.undo, "h": self.ask_hint, "n": self.new_game}[key]()

    def tick(self) -> None:
        """Handle the pending events, take the opponent's answer if ready, redraw."""
        for event in self.pygame.event.get():
            self.handle(event)
        self._collect()
        self.draw()

    def run(self) -> int:
        """Until the window is closed; returns the winner of the last game (0 draw or unfinished)."""
        clock = self.pygame.time.Clock()
        try:
            while self.running:
                self.tick()
                clock.tick(self.fps)  # a person's pace, and an idle CPU
        finally:
            self.close()
        if self.forfeit is not None:  # the opponent lost by its own fault
            return self.env.possible_agents.index(self.human) + 1
        return int(self.state.winner)

    def wait(self, timeout: float = 60.0) -> None:
        """Tick until the worker thread is idle (for scripts and tests); a policy's error surfaces in the tick."""
        for _ in range(2):  # the human's move may start the opponent's
            if self._job is not None and not futures.wait([self._job], timeout).done:
                raise TimeoutError(f"the {self._job_kind} took more than {timeout} s")
            self.tick()

    def close(self) -> None:
        # A search under way finishes on its thread; the window goes at once.
        self._executor.shutdown(wait=False, cancel_futures=True)
        self.window.close()


def play_window(env_fn: Callable[[], Any], opponent: Any, human_first: bool = True, cell: int | None = None) -> int:
    """Open the window and play until it is closed; returns the winner (0 draw or unfinished)."""
    return PlayWindow(env_fn, opponent, human_first=human_first, cell=cell).run()
