"""One game of a person against a policy, behind every front (the terminal and the window).

:class:`PlaySession` holds the moves, the env they lead to and whose turn it
is, and owns the one undo rule: **undo takes back the person's last move and
everything played after it** (the reply), so the person is to move again. An
opponent's opening move, played before the person's first, stays. A front
only reads the session and calls its methods; it never keeps a second copy of
the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgame_envs.games.protocol import State
from boardgame_envs.policies.base import Forfeit


class PlaySession:
    """A person (``human_first``: the first seat) against ``opponent`` on the games ``env_fn()`` makes (raw AEC envs).

    ``play`` raises :class:`~boardgame_envs.games.mnk.IllegalMoveError` (a ``ValueError``)
    and leaves the game as it was; the opponent and the hint policy are handed a copy of the
    state, so a policy that writes on what it is given cannot change the game.
    """

    def __init__(self, env_fn: Callable[[], Any], opponent: Any, human_first: bool = True, hint_policy: Any = None) -> None:
        self.env_fn = env_fn
        self.opponent = opponent
        self.human_first = human_first
        self._hint_policy = hint_policy
        self.new_game()

    # ------------------------------------------------------------- the position
    def new_game(self) -> None:
        """Back to the empty board, the person in the same seat."""
        self.moves: list[int] = []
        self.actors: list[int] = []  # the seat that took each of ``moves`` (1 first, 2 second)
        self.forfeit: str | None = None  # why the opponent lost by its own fault (an engine crashed, ...)
        self.env = self._replay()
        self.human = self.env.possible_agents[0 if self.human_first else 1]

    def _replay(self) -> Any:
        env = self.env_fn()
        env.reset()
        for action in self.moves:
            env.step(action)
        return env

    @property
    def state(self) -> State:
        return self.env.unwrapped.game_state

    @property
    def over(self) -> bool:
        """The game has ended: by the rules, or by the opponent's forfeit."""
        return self.state.terminal or self.forfeit is not None

    @property
    def humans_turn(self) -> bool:
        return not self.over and self.env.agent_selection == self.human

    @property
    def human_seat(self) -> int:
        """1 for the first seat, 2 for the second."""
        return self.env.possible_agents.index(self.human) + 1

    def winner(self) -> int:
        """The winner's seat (1 first, 2 second), 0 for a draw or an unfinished game; a forfeit loses."""
        if self.forfeit is not None:
            return self.human_seat
        return int(self.state.winner)

    # ------------------------------------------------------------- moves
    def play(self, action: int) -> None:
        """Play ``action`` for the side to move (the person, or the opponent's answer)."""
        if self.over:
            raise ValueError("the game is over")
        actor = self.env.possible_agents.index(self.env.agent_selection) + 1
        self.env.step(int(action))  # an illegal move raises here, and the raw env stays as it was
        self.moves.append(int(action))
        self.actors.append(actor)

    def can_undo(self) -> bool:
        return any(self._is_human_move(i) for i in range(len(self.moves)))

    def _is_human_move(self, index: int) -> bool:
        return self.actors[index] == (1 if self.human_first else 2)

    def undo(self) -> bool:
        """Take back the person's last move and every move after it; False (and nothing changes) if there is none."""
        mine = [i for i in range(len(self.moves)) if self._is_human_move(i)]
        if not mine:
            return False
        del self.moves[mine[-1] :]
        del self.actors[mine[-1] :]
        self.forfeit = None
        self.env = self._replay()
        return True

    # ------------------------------------------------------------- the other side
    def ask(self, policy: Any) -> Callable[[], int]:
        """``policy``'s choice in the current position, as a call to make now or on a worker thread.

        The state is copied now, so the game may be drawn (not changed) while the policy thinks.
        """
        snapshot = self.state.clone()
        return lambda: int(policy.act(snapshot))

    def opponent_move(self) -> int:
        """The opponent's choice in the current position (not played: the caller plays it).

        Raises :class:`~boardgame_envs.policies.base.Forfeit` when the opponent loses by its
        own fault; :meth:`opponent_forfeits` records it.
        """
        return self.ask(self.opponent)()

    def opponent_forfeits(self, why: Forfeit | str) -> None:
        self.forfeit = f"{self.env.agent_selection} forfeits: {why}"

    @property
    def hint_policy(self) -> Any:
        if self._hint_policy is None:
            from boardgame_envs.policies import AlphaBetaPolicy

            self._hint_policy = AlphaBetaPolicy(seed=0)
        return self._hint_policy

    def hint(self) -> int:
        """The move the hint policy (alpha-beta unless given) would play for the person."""
        return self.ask(self.hint_policy)()
