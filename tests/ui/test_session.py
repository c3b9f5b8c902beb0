"""The play session both fronts share: one undo rule, the opponent handed a copy."""

from __future__ import annotations

from boardgame_envs import tictactoe_v0
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.ui.session import PlaySession


class Lowest:
    """Plays the lowest legal point, and scribbles on the state it is handed (which must not matter)."""

    def act(self, position):
        state = game_state_of(position)
        action = int(state.legal_actions()[0])
        state.play(action)  # a policy that writes on its state: the session's game must not change
        return action


def test_undo_takes_back_the_persons_last_move_and_the_reply():
    session = PlaySession(tictactoe_v0.raw_env, Lowest(), human_first=True)
    assert not session.undo()  # nothing of the person's yet
    session.play(4)
    session.play(session.opponent_move())
    assert session.moves == [4, 0] and session.state.num_moves == 2
    assert session.undo() and session.moves == [] and session.humans_turn


def test_undo_after_the_person_ends_the_game_takes_back_only_that_move():
    # X: 4 3 5 wins the middle row; O (lowest): 0 1. The winning move has no reply to take back.
    session = PlaySession(tictactoe_v0.raw_env, Lowest(), human_first=True)
    for mine in (4, 3, 5):
        session.play(mine)
        if not session.over:
            session.play(session.opponent_move())
    assert session.over and session.winner() == 1 and session.moves == [4, 0, 3, 1, 5]
    assert session.undo() and session.moves == [4, 0, 3, 1] and session.humans_turn


def test_the_opponents_opening_move_stays_when_the_person_plays_second():
    session = PlaySession(tictactoe_v0.raw_env, Lowest(), human_first=False)
    session.play(session.opponent_move())
    assert not session.undo() and session.moves == [0]
    session.play(4)
    session.play(session.opponent_move())
    assert session.undo() and session.moves == [0]
