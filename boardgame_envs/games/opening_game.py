"""An m,n,k game played under a tournament opening rule: a Game of the protocol wrapping an :class:`MNKGame`.

:class:`OpeningRuleGame` walks the steps of an
:class:`~boardgame_envs.games.opening_rules.OpeningRule` (stones within
zones, swaps, fifth-move offers and the choice among them) and then hands
over to the base game: from the first move of normal play on, legality, wins,
forbidden points and draws are the base :class:`MNKState`'s own, which the
opening state holds (``state.base``) and plays every stone into.

**Players are seats.** Player 1 is the first player and player 2 the second
for the whole game; the opening decides which colour each plays
(``state.color_of(player)``, ``state.black_player``). ``to_move``, ``winner``
and ``returns()`` speak of seats, while ``board`` holds colours (1 black,
2 white), as the base game's board does.

**Actions.** ``0 .. n*n - 1`` are the board's points, as in the base game
(a stone, an offered fifth move, or the choice of an offered one); then the
rule's decisions (``game.decisions``): ``"swap"``, ``"keep"``,
``"offers=1"`` .. ``"offers=N"``, and Swap2's ``"black"``, ``"white"``,
``"more"``. ``legal_mask()`` holds exactly the actions of the current phase.

**Observation planes** (``planes(player)``, ``(n, n, num_planes)`` int8):

* ``0 .. B-1``: the base game's planes (:mod:`boardgame_envs.games.mnk`) as
  the colour ``player`` now holds sees them (own stones, opponent's, last
  stone, black to lay the next stone, under renju black's forbidden points);
* ``B``: the fifth moves offered so far (while they are offered and chosen from);
* ``B + 1``: all ones when ``player`` holds black;
* ``B + 2``: all ones when ``player`` is to act;
* ``B + 3 ..``: the phase, one-hot over ``game.opening.phases`` (the rule's
  step kinds, then ``"play"``);
* last, for rules where a player declares the number of offers (Soosõrv):
  the declared number, one-hot over ``1 .. N`` (all zeros before the declaration).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgame_envs.games.lines import BLACK, EMPTY, WHITE
from boardgame_envs.games.mnk import MNKGame, MNKState
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.opening_rules import (
    CHOOSE,
    END,
    FIRST,
    HOLDS_BLACK,
    OFFER,
    PLAY,
    SECOND,
    STONE,
    check_board,
    opening_rule,
    symmetric_twins,
    zone_mask,
)
from boardgame_envs.games.protocol import EnvNamesExplained, IllegalMoveError, check_action, returns_of

EXTRA_PLANES = 3  # offered stones, "I hold black", "I am to act"; then the phase one-hot and the declared number


@dataclass(frozen=True)
class OpeningRuleGame:
    """``base`` (an :class:`MNKGame`) played under the opening rule ``opening``; a Game of the protocol.

    ``opening`` is an :class:`OpeningRule` or a name (``"soosorv8"``,
    ``"taraguchi10"``, ``"rif"``, ``"swap2"``; ``True`` for the base rule's
    default). The base rule and board must fit the rule (``ValueError`` says why not).
    ``name`` is the base game's (the catalog's: ``"gomoku"``, ``"renju"``).
    """

    base: MNKGame
    opening: Any  # an OpeningRule once built
    name: str = field(init=False)

    family = "opening_rule"  # no numba kernels of their own: searches see the base game once play begins
    marks = "stones"

    def __post_init__(self) -> None:
        if not isinstance(self.base, MNKGame):
            raise TypeError(f"an opening rule is played over an MNKGame, got {type(self.base).__name__}")
        rule = opening_rule(self.opening, self.base.rule)
        check_board(rule, self.base.size, self.base.win_length)
        n = self.base.size
        set_ = object.__setattr__  # the dataclass is frozen: derived attributes are set once, here
        set_(self, "opening", rule)
        set_(self, "name", self.base.name)
        set_(self, "size", n)
        set_(self, "win_length", self.base.win_length)
        set_(self, "rule", self.base.rule)
        set_(self, "is_renju", self.base.is_renju)
        set_(self, "points", n * n)
        set_(self, "decisions", rule.decisions)
        set_(self, "num_actions", n * n + len(rule.decisions))
        set_(self, "shape", self.base.shape)
        declared = rule.offers if rule.declares else 0
        set_(self, "num_planes", self.base.num_planes + EXTRA_PLANES + len(rule.phases) + declared)
        perms = np.stack(self.base.symmetries())
        set_(self, "_perms", perms)
        zones = {s.zone for s in rule.steps if s.kind == STONE}
        set_(self, "_zones", {z: zone_mask(n, z) for z in zones})
        # The decision actions each step allows, as action numbers.
        index = {d: n * n + i for i, d in enumerate(rule.decisions)}
        set_(self, "_allowed", tuple(tuple(index[d] for d in rule.allowed(s)) for s in rule.steps))

    def __repr__(self) -> str:
        return f"OpeningRuleGame({self.base!r}, {self.opening.name!r})"

    # ----------------------------------------------------------------- protocol
    def new_state(self) -> OpeningState:
        """The empty board, the first step of the opening, the first player holding black."""
        return OpeningState(self)

    def describe(self) -> str:
        """``"15x15, 5 in a row, renju, soosorv8 opening"``."""
        return f"{self.base.describe()}, {self.opening.name} opening"

    def action_name(self, action: int) -> str:
        """A point in renju notation (``"h8"``) or a decision (``"swap"``, ``"offers=3"``)."""
        reason = check_action(self, action)
        if reason is not None:
            raise ValueError(reason)
        a = int(action)
        return self.base.action_name(a) if a < self.points else self.decisions[a - self.points]

    def parse_action(self, text: str) -> int:
        """A point (``"h8"``, ``"row,col"``) or a decision name (``"swap"``) as an action."""
        word = str(text).strip().lower()
        if word in self.decisions:
            return self.points + self.decisions.index(word)
        try:
            return self.base.parse_action(word)
        except ValueError as exc:
            raise ValueError(f"{exc}; or a decision of {self.opening.name}: {', '.join(self.decisions)}") from None

    def player_name(self, player: int) -> str:
        """``"first player"`` or ``"second player"``: the seats, whose colours the opening decides."""
        return "first player" if player == 1 else "second player"

    def color_name(self, color: int) -> str:
        """``"black"`` or ``"white"``."""
        return self.base.player_name(color)

    def symmetries(self) -> Sequence[np.ndarray]:
        """The base board's 8 symmetries on the points; decisions stay where they are."""
        fixed = np.arange(self.points, self.num_actions)
        return [np.concatenate([p, fixed]) for p in self._perms]

    def cell_symmetries(self) -> Sequence[np.ndarray]:
        """The same symmetries as permutations of the board's cells (how the planes move)."""
        return list(self._perms)

    def state_after(self, actions: Sequence[int | str]) -> OpeningState:
        """The state after ``actions`` (action numbers or names) from the start; the first illegal one raises
        :class:`IllegalMoveError` naming its place in the list (for records and engine bridges)."""
        state = self.new_state()
        for i, item in enumerate(actions):
            action = self.parse_action(item) if isinstance(item, str) else item
            reason = state.illegal_reason(action)
            if reason is not None:
                raise IllegalMoveError(f"action {i + 1} ({item!r}): {reason}")
            state.play(action)
        return state


def zone_words(zone: int | None) -> str:
    """Where a stone of ``zone`` goes, in words: ``"at the centre"``, ``"within the central 5x5"``, ``"anywhere"``."""
    if zone is None:
        return "anywhere"
    return "at the centre" if zone == 0 else f"within the central {2 * zone + 1}x{2 * zone + 1}"


class OpeningState(EnvNamesExplained):
    """A position of an :class:`OpeningRuleGame`: the base position, the step of the opening, the colours.

    Change it only through :meth:`play`, which validates before it mutates.
    """

    __slots__ = (
        "_twins", "actions", "base", "black_player", "board", "due", "game", "last_move", "num_moves", "offers",
        "step", "stones", "terminal", "to_move", "winner",
    )  # fmt: skip

    def __init__(self, game: OpeningRuleGame) -> None:
        self.game = game
        self.base: MNKState = game.base.new_state()
        self.board = self.base.board  # the same array: colours, as the base game has them
        self.winner = 0
        self.terminal = False
        self.num_moves = 0  # actions taken, decisions included
        self.last_move = -1  # the last stone laid
        self.black_player = 1  # the player (seat) holding black; the opening's swaps change it
        self.due = 0 if game.opening.declares else game.opening.offers  # fifth-move offers to lay
        self.offers: list[int] = []  # the fifth moves offered, in order
        self._twins = np.zeros(game.points, dtype=np.bool_)  # points symmetric to an offer (offers included)
        self.actions: list[int] = []  # the opening's actions in order (a tuple once play begins)
        self.stones: list[int] = []  # the opening's stones in the order laid on the board (the chosen offer too)
        self.step = 0
        self.to_move = self._actor(0)

    # ---------------------------------------------------------------- queries
    @property
    def phase(self) -> str:
        """The current step's kind (``"stone"``, ``"swap"``, ``"offer"``, ...) or ``"play"`` after the opening."""
        return PLAY if self.step == END else self.game.opening.steps[self.step].kind

    @property
    def in_opening(self) -> bool:
        return self.step != END

    def color_of(self, player: int) -> int:
        """The colour (1 black, 2 white) that ``player`` (1 first, 2 second) holds now."""
        return BLACK if player == self.black_player else WHITE

    def player_of(self, color: int) -> int:
        """The player holding ``color``."""
        return self.black_player if color == BLACK else 3 - self.black_player

    def _actor(self, index: int) -> int:
        actor = self.game.opening.steps[index].actor
        if actor == FIRST:
            return 1
        if actor == SECOND:
            return 2
        return self.black_player if actor == HOLDS_BLACK else 3 - self.black_player

    def colour_choice_ahead(self) -> bool:
        """Whether a colour decision (a swap, a Swap2 choice) still lies between this step and normal play."""
        return self.in_opening and self.game.opening.colour_choice_ahead(self.step)

    def describe_phase(self) -> str:
        """The current step in words: who does what, and where."""
        game = self.game
        if self.step == END:
            return "the opening is over: normal play"
        step = game.opening.steps[self.step]
        who = game.player_name(self.to_move)
        where = zone_words(step.zone)
        stone = game.color_name(self.base.to_move)
        offered = ", ".join(point_name(a, game.size) for a in self.offers)
        text = {
            STONE: f"{who} lays {stone}'s stone {self.base.num_moves + 1} {where}",
            "swap": f"{who} may swap colours (swap) or keep them (keep)",
            "declare": f"{who} declares how many fifth moves black offers (offers=1..{game.opening.offers})",
            "choice": f"{who} takes choice 1 (swap or keep, then black's 5th within the central 9x9) "
                      f"or choice 2 (offers={game.opening.offers})",
            "swap2": f"{who} takes black, takes white, or lays two more stones (more)",
            "colour": f"{who} chooses a colour (black or white)",
            OFFER: f"{who} offers black's fifth move {len(self.offers) + 1} of {self.due}, "
                   f"none symmetric to another" + (f" (offered: {offered})" if offered else ""),
            CHOOSE: f"{who} chooses one of the offered fifth moves: {offered}",
        }[step.kind]  # fmt: skip
        return f"{game.opening.name}, {text}"

    def legal_mask(self) -> np.ndarray:
        """Bool ``(num_actions,)``: exactly the actions of the current phase (none once terminal)."""
        game = self.game
        mask = np.zeros(game.num_actions, dtype=np.bool_)
        if self.step == END:
            if not self.terminal:
                mask[: game.points] = self.base.legal_mask()
            return mask
        step = game.opening.steps[self.step]
        if step.kind == STONE:
            mask[: game.points] = self.base.legal_mask() & game._zones[step.zone]
        elif step.kind == OFFER:
            mask[: game.points] = self.base.legal_mask() & ~self._twins
        elif step.kind == CHOOSE:
            mask[self.offers] = True
        else:
            mask[list(game._allowed[self.step])] = True
        return mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` is illegal now (naming the phase), or None if it is legal."""
        game = self.game
        if self.step == END:
            if type(action) is int and 0 <= action < game.points:
                return self.base.illegal_reason(action)
            reason = check_action(game, action)
            if reason is not None:
                return reason
            if action >= game.points:
                return f"{game.action_name(action)} is an opening decision; the opening is over: normal play"
            return self.base.illegal_reason(int(action))
        reason = check_action(game, action)
        if reason is not None:
            return f"{reason} ({self.describe_phase()})"
        a = int(action)
        step = game.opening.steps[self.step]
        phase = self.describe_phase  # put in words only for an illegal action
        if step.kind not in (STONE, OFFER, CHOOSE):
            allowed = game._allowed[self.step]
            if a not in allowed:
                choices = " or ".join(game.decisions[b - game.points] for b in allowed)
                return f"{game.action_name(a)} is not a choice now: {phase()}; choose {choices}"
            return None
        if a >= game.points:
            return f"{game.action_name(a)} is not a choice now: {phase()}"
        name = point_name(a, game.size)
        if step.kind == CHOOSE:
            return None if a in self.offers else f"{name} is not one of the offered fifth moves: {phase()}"
        if self.board[a] != EMPTY:
            return f"{name} is occupied (by {game.color_name(int(self.board[a]))}): {phase()}"
        if step.kind == STONE and not game._zones[step.zone][a]:
            if step.zone == 0:
                return f"{name} is not the centre ({point_name(game.points // 2, game.size)}): {phase()}"
            return f"{name} is outside the central {2 * step.zone + 1}x{2 * step.zone + 1} square: {phase()}"
        if step.kind == OFFER and self._twins[a]:
            if a in self.offers:
                return f"{name} is offered already: {phase()}"
            twin = next(b for b in self.offers if symmetric_twins(self.board, b, game._perms)[a])
            return (f"{name} is symmetric to the offered {point_name(twin, game.size)} in this position: "
                    f"no two fifth-move offers may be ({phase()})")  # fmt: skip
        reason = self.base.illegal_reason(a)  # black's forbidden points under renju
        return None if reason is None else f"{reason} ({phase()})"

    # ------------------------------------------------------------------ moves
    def play(self, action: int) -> None:
        """Take ``action`` for the player to act; raise :class:`IllegalMoveError` (state unchanged) if illegal."""
        if self.step == END:
            if not (type(action) is int and 0 <= action < self.game.points):
                reason = self.illegal_reason(action)
                if reason is not None:
                    raise IllegalMoveError(reason)
            base = self.base
            base.play(int(action))  # validates: the base game's rules, its messages
            self.num_moves += 1
            self.last_move = base.last_move
            if base.terminal:
                self.terminal = True
                self.winner = self.player_of(base.winner) if base.winner else 0
            self.to_move = self.black_player if base.to_move == BLACK else 3 - self.black_player
            return
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(reason)
        self._opening_step(int(action))

    def _opening_step(self, a: int) -> None:
        game = self.game
        index = self.step
        step = game.opening.steps[index]
        self.actions.append(a)
        self.num_moves += 1
        decision = None
        if step.kind in (STONE, CHOOSE):
            self.base._place(a)
            self.stones.append(a)
            self.last_move = a
        elif step.kind == OFFER:
            self.offers.append(a)
            self._twins |= symmetric_twins(self.board, a, game._perms)
            if len(self.offers) < self.due:
                return  # the same player offers the next one
        else:
            decision = game.decisions[a - game.points]
            mover = self.to_move
            if decision == "swap":
                self.black_player = 3 - self.black_player
            elif decision.startswith("offers="):
                self.due = int(decision.partition("=")[2])
            elif decision in ("black", "white"):
                self.black_player = mover if decision == "black" else 3 - mover
        nxt = step.next_step(index, decision)
        if nxt == END:
            self.step = END
            self.actions = tuple(self.actions)  # the opening is over: shared by clones from now on
            self.stones = tuple(self.stones)
            self.to_move = self.player_of(self.base.to_move)
            self.terminal = self.base.terminal  # (no five fits in an opening; kept true to the base game anyway)
        else:
            self.step = nxt
            self.to_move = self._actor(nxt)

    def clone(self) -> OpeningState:
        other = OpeningState.__new__(OpeningState)
        other.game = self.game
        other.base = self.base.clone()
        other.board = other.base.board
        other.to_move = self.to_move
        other.winner = self.winner
        other.terminal = self.terminal
        other.num_moves = self.num_moves
        other.last_move = self.last_move
        other.step = self.step
        other.black_player = self.black_player
        other.due = self.due
        opening = self.step != END
        other.offers = list(self.offers) if opening else self.offers
        other._twins = self._twins.copy() if opening else self._twins
        other.actions = list(self.actions) if opening else self.actions
        other.stones = list(self.stones) if opening else self.stones
        return other

    # --------------------------------------------------------------- outputs
    def planes(self, viewer: int) -> np.ndarray:
        """The observation planes ``(n, n, num_planes)`` int8 as player ``viewer`` sees them (module docstring)."""
        game = self.game
        n = game.size
        out = np.zeros((n, n, game.num_planes), dtype=np.int8)
        b = game.base.num_planes
        out[:, :, :b] = self.base.planes(self.color_of(viewer))
        if self.offers and self.step != END:
            rows, cols = np.divmod(np.asarray(self.offers), n)
            out[rows, cols, b] = 1
        if viewer == self.black_player:
            out[:, :, b + 1] = 1
        if viewer == self.to_move and not self.terminal:
            out[:, :, b + 2] = 1
        phases = game.opening.phases
        out[:, :, b + EXTRA_PLANES + phases.index(self.phase)] = 1
        if game.opening.declares and self.due:
            out[:, :, b + EXTRA_PLANES + len(phases) + self.due - 1] = 1
        return out

    def returns(self) -> tuple[float, float]:
        """Final rewards ``(first player, second player)``: +1 win, -1 loss, 0 draw or unfinished."""
        return returns_of(self.winner)

    def opening_stones(self) -> tuple[int, ...]:
        """The stones laid in the opening, in order (black first, colours alternating): a move list for engines."""
        return tuple(self.stones)

    def search_key(self) -> bytes:
        """A key telling apart any two states a search may meet (board, step, colours, offers)."""
        head = (self.to_move, self.step & 0xFF, self.black_player, self.due)
        return self.board.tobytes() + bytes(head) + np.asarray(self.offers, dtype=np.int16).tobytes()

    def __repr__(self) -> str:
        status = "over" if self.terminal else f"{self.game.player_name(self.to_move)} to act"
        return f"<OpeningState {self.game.describe()}, {self.phase}, {self.num_moves} actions, {status}>"
