"""The AEC env of an m,n,k game under an opening rule (:class:`~boardgame_envs.games.opening_game.OpeningRuleGame`).

It is :class:`~boardgame_envs.envs.game_env.GameAECEnv` (observations from
``state.planes``, masks from ``legal_mask``, the rewards of ``returns()``)
with the things an opening adds: the agents are seats with fixed names whose
colours the opening decides, so each agent's ``info`` says the colour it
holds and the phase, in numbers: ``{"color_id": 1, "phase_id": 2}``, the
colour as the game numbers it (1 black, 2 white) and the phase's index in
``game.opening.phases``. Numbers only, because the RL libraries' PettingZoo
wrappers read every info value (TorchRL's ``PettingZooWrapper`` makes a
tensor of each, and a string stops it). The words are on the env, where no
wrapper reads them: ``env.unwrapped.color_of(agent)`` (``"black"``) and
``env.unwrapped.phase`` (``"offer"``); ``env.unwrapped.info_strings = True``
puts the words in the info instead (``{"color": "black", "phase": "offer"}``,
the former default), for code that reads them there under no tensor-making
wrapper. The text
rendering names the phase, who holds which colour and the offered fifth
moves (``+`` on the board); the pictures draw the position with the offers as
hollow stones and the phase in the status line.
``reset(options={"opening": ...})`` plays a list of the game's actions (points
and decisions, or their names: ``"h8 h9 i9 keep a1 offers=2"``) from the start.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.envs.text import render_ansi
from boardgame_envs.games.opening_game import OpeningRuleGame, OpeningState

OFFER_CHAR = "+"


def render_opening_text(state: OpeningState, agents: tuple[str, str] = ("player_0", "player_1")) -> str:
    """The board as text (the base game's rendering), the offered fifth moves as ``+``, then the phase and colours."""
    game = state.game
    lines = render_ansi(state.base).split("\n")
    n = game.size
    shown = state.offers if state.in_opening else ()
    for a in shown:
        row, col = divmod(a, n)
        line = lines[1 + row]
        at = 4 + 2 * col  # the layout of render_ansi: "NN " then a separator and a character per point
        if line[at] == ".":
            lines[1 + row] = line[:at] + OFFER_CHAR + line[at + 1:]
    legend = n + 2
    lines[legend] = lines[legend].replace("X black (first)", "X black")  # the seats, not the colours, take turns
    if shown:
        lines[legend] += f"  {OFFER_CHAR} offered fifth move"
    holders = ", ".join(f"{agents[p - 1]} ({game.player_name(p)}) {game.color_name(state.color_of(p))}" for p in (1, 2))
    lines.insert(legend + 1, f"{game.opening.name}: {holders}")
    if not state.terminal:
        acting = f"{agents[state.to_move - 1]} to act" if state.in_opening else f"{agents[state.to_move - 1]} to move"
        lines.insert(legend + 2, f"phase {state.phase}: {acting}: {state.describe_phase()}")
    elif state.winner:
        lines.append(f"{agents[state.winner - 1]} ({game.player_name(state.winner)}) wins")
    return "\n".join(lines)


class OpeningRuleEnv(GameAECEnv):
    """A PettingZoo AEC env over an :class:`OpeningRuleGame`; env modules subclass it (``gomoku_v0``)."""

    # True: each agent's info in words ({"color": "black", "phase": "offer"}), which tensor-making wrappers
    # refuse; the default is numbers (color_id, phase_id). See the module docstring.
    info_strings = False

    def __init__(self, game: OpeningRuleGame, agent_names: tuple[str, str], render_mode: str | None = None) -> None:
        if not isinstance(game, OpeningRuleGame):
            raise TypeError(f"OpeningRuleEnv plays an OpeningRuleGame, got {type(game).__name__}")
        super().__init__(game, agent_names, render_mode)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game at the first step of the opening, or after ``options={"opening": [actions]}``."""
        super().reset(seed, options)
        self._tell()

    def _after_move(self, agent: str) -> None:
        super()._after_move(agent)
        self._tell()

    def _tell(self) -> None:
        """Each agent's info: the colour it holds and the phase, as numbers (or words: ``info_strings``)."""
        state = self.game_state
        if self.info_strings:
            for agent in self.agents:
                self.infos[agent] = {"color": self.color_of(agent), "phase": state.phase}
            return
        phase_id = self.game.opening.phases.index(state.phase)
        for agent in self.agents:
            self.infos[agent] = {"color_id": int(state.color_of(self._color[agent])), "phase_id": phase_id}

    def color_of(self, agent: str) -> str:
        """The colour ``agent`` holds now, ``"black"`` or ``"white"`` (its info's ``color_id``, in words).

        As the game stands: until the opening is over, a swap may still change it.
        """
        if agent not in self._color:
            raise ValueError(f"unknown agent {agent!r}; expected one of {', '.join(map(repr, self.possible_agents))}")
        return self.game.color_name(self.game_state.color_of(self._color[agent]))

    @property
    def phase(self) -> str:
        """The phase the game is in, ``"play"`` after the opening (the info's ``phase_id``, in words).

        One of ``game.opening.phases``: the rule's step kinds (``"stone"``, ``"swap"``, ``"offer"``, ...)
        in order of first appearance, then ``"play"``.
        """
        return self.game_state.phase

    def stones(self) -> list[int]:
        """The stones on the board in the order laid: the opening's (the chosen offer included), then normal play."""
        state = self.game_state
        played = [] if state.in_opening else self.moves[len(state.actions):]
        return [*state.opening_stones(), *played]

    def render(self) -> Any:
        """``"ansi"``: the board, the offers, the phase; ``"rgb_array"``/``"human"``: a picture of the base position."""
        if self.render_mode is None or self.render_mode == "ansi":
            if self.render_mode is None:
                return super().render()  # warns
            return render_opening_text(self.game_state, tuple(self.possible_agents))
        from boardgame_envs.render import Board

        board = Board.of(self.game_state, self.stones())  # the offers and the phase too
        frame = board.rgb(**self.render_options)
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            from boardgame_envs.render.window import Window

            self._window = Window(fps=self.metadata["render_fps"])
        self._window.show(frame, title=f"{board.title()}, {self.game.opening.name}: {self.game_state.phase}")
        return None
