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


def test_undo_under_an_opening_rule_follows_who_took_each_action():
    """Swap2: the person lays three stones in a row and the opponent takes black (its lowest legal action, the first
    decision), so the person, now white, moves again; undo takes back the person's third stone and the choice after
    it, not "every other action"."""
    import functools

    from boardgame_envs.envs.factory import make_env
    from boardgame_envs.ui.terminal import usage

    env_fn = functools.partial(make_env, "gomoku", 9, 5, "freestyle", raw=True, opening_rule="swap2")
    session = PlaySession(env_fn, Lowest(), human_first=True)
    game = session.state.game
    for name in ("e5", "e6", "f4"):
        session.play(game.parse_action(name))
    assert not session.humans_turn
    session.play(session.opponent_move())
    assert game.action_name(session.moves[-1]) == "black" and session.humans_turn
    session.play(game.parse_action("d4"))
    assert session.actors == [1, 1, 1, 2, 1]
    assert session.undo() and [game.action_name(a) for a in session.moves] == ["e5", "e6", "f4", "black"]
    assert session.undo() and [game.action_name(a) for a in session.moves] == ["e5", "e6"] and session.humans_turn
    assert "or a decision of the opening (black, white, more)" in usage(game)
