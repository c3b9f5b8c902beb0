"""Play against a policy in a pygame window: ``boardgame-envs play gomoku --gui``.

Click a point to move (in connect four, anywhere in a column; in a game
that draws itself, such as dots and boxes, on the cell of the line: each
action is where its cell is, :func:`~boardgame_envs.games.protocol.cell_of`); on m,n,k
boards the point under the mouse shows a faint stone when it is legal, and
black's forbidden points (renju) carry a red cross and refuse the click. Buttons (and keys): Undo (``u``) takes back your last move and
the reply (the session's one rule), Hint (``h``) rings the move the
alpha-beta search likes, New game (``n``), and ``q`` / Esc / closing the
window quits. An action of the game that is no cell (a pass:
:func:`~boardgame_envs.games.protocol.other_actions`) gets a button of its
own, labelled with its name, and the key of its first letter where that key
is free; the status line says when the opponent takes one. The opponent thinks on a worker thread while the window says
"thinking…"; the result stays on the status line at the end.

The window is drawn once per change and flipped once per drawing (board and
buttons together); an idle window sleeps in ``pygame.event.wait`` and draws
nothing. :class:`PlayWindow` does one round of work per :meth:`PlayWindow.tick`
(events, the opponent's answer, a drawing if anything changed), so tests
drive it headless (``SDL_VIDEODRIVER=dummy``) by posting pygame events and ticking.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from boardgame_envs.games.protocol import cell_of, as_family, other_actions
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.render import Board, Options, rgb
from boardgame_envs.render.cells import CellGeometry
from boardgame_envs.render.scene import BAND, BAND_TEXT, geometry
from boardgame_envs.render.window import Window
from boardgame_envs.ui.escape import printable
from boardgame_envs.ui.session import PlaySession

BUTTONS = (("Undo", "u"), ("Hint", "h"), ("New game", "n"))
RESERVED_KEYS = {"u", "h", "n", "q"}  # the buttons' keys and quit: an action's button never takes them
BAR_PX = 48
BUTTON_FACE = (96, 78, 58)
BUTTON_OFF = (70, 60, 50)
IDLE_WAIT_MS = 1000  # an idle window wakes this often (for nothing but the loop's own checks)
BUSY_WAIT_MS = 30  # while the worker thinks: how soon its answer is seen


def check_display() -> None:
    """Refuse (``ValueError``) where no window could be seen: on Linux and the BSDs with neither
    ``DISPLAY`` nor ``WAYLAND_DISPLAY`` set, SDL falls back to its offscreen driver and the game would
    wait on a window nobody sees. A ``SDL_VIDEODRIVER`` set by hand is trusted (``dummy`` keeps the
    window in memory, as the tests do; ``kmsdrm`` draws on a console)."""
    if os.environ.get("SDL_VIDEODRIVER") or sys.platform in ("darwin", "win32", "cygwin"):
        return
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return
    raise ValueError("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set): "
                     "play in the terminal (leave out --gui)")  # fmt: skip


class PlayWindow:
    """One person against ``opponent`` on the games ``env_fn()`` makes (raw AEC envs).

    The game is a :class:`~boardgame_envs.ui.session.PlaySession` (``self.session``);
    the window adds the mouse, the worker thread and the picture.
    """

    def __init__(
        self,
        env_fn: Callable[[], Any],
        opponent: Any,
        human_first: bool = True,
        hint_policy: Any = None,
        cell: int | None = None,
    ) -> None:
        self.session = PlaySession(env_fn, opponent, human_first=human_first, hint_policy=hint_policy)
        self.options = Options(cell=cell)
        # The m,n,k family has its own pictures (stones on a grid, coordinates, a status band);
        # any other game is drawn as cells, with the status note on the button bar.
        self._mnk = as_family(self.state.game, "mnk") is not None
        self._cells = None if self._mnk else CellGeometry(self.state.game, cell or 64)
        self.buttons = list(BUTTONS) + action_buttons(self.state.game)
        # A button's key names its command: an action's key (or "#<action>" where no key was free) plays it.
        self._actions = {key: a for (_, key), a in zip(self.buttons[len(BUTTONS):], other_actions(self.state.game))}
        self.window = Window("boardgame_envs")
        self.pygame = self.window.pygame
        self.pygame.font.init()
        self._font = self.pygame.font.Font(None, 26)
        self._executor = ThreadPoolExecutor(max_workers=1)
        self._job: Future | None = None
        self._job_kind = ""  # "move" or "hint"
        self._shown: tuple | None = None  # what the last drawing showed; None: draw at the next tick
        self.frames_drawn = 0
        self.running = True
        self._reset_marks()

    def _reset_marks(self) -> None:
        self.hover: int | None = None
        self.hint: int | None = None
        self.message: str | None = None

    # ------------------------------------------------------------- the game
    @property
    def env(self) -> Any:
        return self.session.env

    @property
    def moves(self) -> list[int]:
        return self.session.moves

    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def over(self) -> bool:
        return self.session.over

    @property
    def humans_turn(self) -> bool:
        return self.session.humans_turn

    @property
    def busy(self) -> bool:
        """Whether the worker thread is thinking (a move or a hint)."""
        return self._job is not None and not self._job.done()

    def new_game(self) -> None:
        if self.busy:
            return
        self.session.new_game()
        self._reset_marks()

    def click(self, action: int) -> None:
        """The person plays ``action`` if it is legal; otherwise the status line says why not."""
        if not self.humans_turn or self.busy:
            return
        reason = self.state.illegal_reason(action)
        if reason is not None:
            self.message = reason
            return
        self.session.play(action)
        self.hint, self.message = None, None

    def undo(self) -> None:
        """Take back the person's last move and the reply to it."""
        if self.busy:
            return
        if self.session.undo():
            self.hint, self.message = None, None
        else:
            self.message = "nothing to undo"

    def ask_hint(self) -> None:
        if self.humans_turn and not self.busy:
            self._start("hint", self.session.hint_policy)

    def _start(self, kind: str, policy: Any) -> None:
        self._job_kind = kind
        self._job = self._executor.submit(self.session.ask(policy))

    def _collect(self) -> None:
        """Start the opponent's move when it is due; take a finished answer."""
        if self._job is not None and self._job.done():
            job, self._job = self._job, None
            try:
                action = job.result()  # a policy's error surfaces here, in the main thread
            except Forfeit as exc:  # an engine that crashed, timed out or broke the rules loses
                if self._job_kind != "move":
                    raise
                self.session.opponent_forfeits(printable(str(exc)))
                return
            if self._job_kind == "move":
                self.session.play(action)
                self.hint, self.message = None, None
                if cell_of(self.state.game, action) is None:  # a pass leaves no mark on the board: say it
                    game = self.state.game
                    self.message = f"{game.player_name(self.session.actors[-1])}: {game.action_name(action)}"
            else:
                self.hint = action
                self.message = f"hint: {self.state.game.action_name(action)}"
        if self._job is None and not self.over and not self.humans_turn:
            self._start("move", self.session.opponent)

    # ------------------------------------------------------------- the picture
    def board(self) -> Board:
        return Board.of(self.env, self.moves)

    def status_note(self) -> str | None:
        if self.busy:
            return "finding a hint…" if self._job_kind == "hint" else "thinking…"
        if self.session.forfeit is not None:
            return f"{self.session.forfeit} · you win!"
        if self.state.terminal:
            if self.state.winner == 0:
                return None
            you_won = self.state.winner == self.session.human_seat
            said = self.board().status() if self._mnk else f"{self.state.game.player_name(self.state.winner)} wins"
            return f"{said} · {'you win!' if you_won else 'you lose'}"
        return self.message

    def _ghost(self) -> int | None:
        """The hovered point when a click there would play (a faint stone), else None."""
        ghost = self.hover
        if not self._mnk or (ghost is not None and (not self.humans_turn or self.state.illegal_reason(ghost) is not None)):
            return None
        return ghost

    def _view(self) -> tuple:
        """Everything the picture depends on: a drawing is due when this changes."""
        return tuple(self.moves), self._ghost(), self.hint, self.status_note(), self.busy

    def frame(self) -> np.ndarray:
        """The board and an empty button bar (the buttons are drawn on it by :meth:`draw`)."""
        if self._mnk:
            picture = rgb(self.board(), cell=self.options.cell, ghost=self._ghost(), hint=self.hint, note=self.status_note())
        else:
            # The game's own drawing (the protocol's hook), with the hint's ring on the action's cell.
            picture = rgb(self.state, cell=self._cells.cell, status=False, hint=self.hint)
        bar = np.empty((BAR_PX, picture.shape[1], 3), dtype=np.uint8)
        bar[:] = BAND
        return np.concatenate([picture, bar])

    def _buttons(self, width: int, top: int) -> list[tuple[str, str, Any]]:
        rect = self.pygame.Rect
        w = (width - 8 * (len(self.buttons) + 1)) // len(self.buttons)
        return [(label, key, rect(8 + i * (w + 8), top + 6, w, BAR_PX - 12)) for i, (label, key) in enumerate(self.buttons)]

    def draw(self) -> None:
        """Paint the board and the buttons, then flip the screen once: no frame shows one without the other."""
        self._shown = self._view()
        frame = self.frame()
        title = self.board().title() if self._mnk else f"{self.state.game.name}, {self.state.num_moves} moves"
        self.window.paint(frame, title=title)
        surface = self.window.surface
        top = frame.shape[0] - BAR_PX
        note = None if self._mnk else self.status_note()
        if note:  # cell pictures have no status band: the note goes above the buttons' bar, on the board's frame
            text = self._font.render(note, True, BAND_TEXT)
            surface.blit(text, text.get_rect(midbottom=(frame.shape[1] // 2, top - 2)))
        for label, _, box in self._buttons(frame.shape[1], top):
            self.pygame.draw.rect(surface, BUTTON_OFF if self.busy else BUTTON_FACE, box, border_radius=6)
            text = self._font.render(label, True, BAND_TEXT)
            surface.blit(text, text.get_rect(center=box.center))
        self.pygame.display.flip()
        self.frames_drawn += 1

    def pixel_of(self, action: int) -> tuple[int, int]:
        """Where ``action`` is in the window (for tests and scripts that post clicks)."""
        x, y = self._geometry().center(action)
        return round(x), round(y)

    def _geometry(self) -> Any:
        return geometry(self.board(), self.options) if self._mnk else self._cells

    def button_at(self, label: str) -> tuple[int, int]:
        """The centre of the button named ``label`` in the window."""
        geo = self._geometry()
        return next(box.center for name, _, box in self._buttons(geo.width, geo.height) if name == label)

    # ------------------------------------------------------------- events
    def handle(self, event: Any) -> None:
        pg = self.pygame
        geo = self._geometry()
        if event.type == pg.QUIT or (event.type == pg.KEYDOWN and event.key in (pg.K_q, pg.K_ESCAPE)):
            self.running = False
        elif event.type in (pg.VIDEOEXPOSE, getattr(pg, "WINDOWEXPOSED", pg.VIDEOEXPOSE)):
            self._shown = None  # the system lost the picture: draw it again
        elif event.type == pg.MOUSEMOTION:
            self.hover = geo.action_at(*event.pos)
        elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
            if event.pos[1] >= geo.height:
                for _, key, box in self._buttons(geo.width, geo.height):
                    if box.collidepoint(event.pos):
                        self._command(key)
            else:
                action = geo.action_at(*event.pos)
                if action is not None:
                    self.click(action)
        elif event.type == pg.KEYDOWN and event.unicode in {key for _, key in self.buttons}:
            self._command(event.unicode)

    def _command(self, key: str) -> None:
        if key in self._actions:
            self.click(self._actions[key])
            return
        {"u": self.undo, "h": self.ask_hint, "n": self.new_game}[key]()

    def tick(self, events: list[Any] | None = None) -> None:
        """Handle ``events`` (default: the pending ones), take the opponent's answer if ready, draw if anything changed."""
        for event in self.pygame.event.get() if events is None else events:
            self.handle(event)
        self._collect()
        if self.running and self._view() != self._shown:
            self.draw()

    def run(self) -> int:
        """Until the window is closed; returns the winner of the last game (0 draw or unfinished).

        The loop sleeps in ``pygame.event.wait``: a person's event wakes it at once, the worker's
        answer within ``BUSY_WAIT_MS``; with nothing happening it draws nothing.
        """
        try:
            while self.running:
                first = self.pygame.event.wait(BUSY_WAIT_MS if self._job is not None else IDLE_WAIT_MS)
                events = [first] if first.type != self.pygame.NOEVENT else []
                self.tick(events + self.pygame.event.get())
        finally:
            self.close()
        return self.session.winner()

    def wait(self, timeout: float = 60.0) -> None:
        """Tick until the worker thread is idle (for scripts and tests); a policy's error surfaces in the tick."""
        for _ in range(2):  # the person's move may start the opponent's
            if self._job is not None and not futures.wait([self._job], timeout).done:
                raise TimeoutError(f"the {self._job_kind} took more than {timeout} s")
            self.tick()

    def close(self) -> None:
        # A search under way finishes on its thread; the window goes at once.
        self._executor.shutdown(wait=False, cancel_futures=True)
        self.window.close()


def action_buttons(game: Any) -> list[tuple[str, str]]:
    """A button for each action of ``game`` that is no cell: its name, and a key of its own.

    The key is the name's first letter where that is free (``"p"`` for ``"pass"``); otherwise a digit
    ``1``..``9`` not yet taken, so no key means two things; past those, the button alone plays it (its key
    ``"#<action>"`` is one no key press types).
    """
    taken = set(RESERVED_KEYS)
    out = []
    for action in other_actions(game):
        name = game.action_name(action)
        free = [k for k in (name[:1].lower(), *"123456789") if k and k not in taken]
        key = free[0] if free else f"#{action}"
        taken.add(key)
        out.append((name, key))
    return out


def play_window(env_fn: Callable[[], Any], opponent: Any, human_first: bool = True, cell: int | None = None) -> int:
    """Open the window and play until it is closed; returns the winner (0 draw or unfinished)."""
    return PlayWindow(env_fn, opponent, human_first=human_first, cell=cell).run()
