"""A rating plays exactly the games asked for: colour-swapped pairs, so an odd count is refused with the reason
(never rounded up to one more game than asked), by ``rate``, its command and the Elo callback alike."""

from __future__ import annotations

import pytest

from boardgame_envs.cli import main
from boardgame_envs.ladder import rate


def test_the_command_refuses_an_odd_count_in_one_line(capsys):
    assert main(["rate", "random", "connect_four", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a rating plays colour-swapped pairs" in err and "e.g. 4" in err


def test_rate_refuses_an_odd_count_and_plays_an_even_one_exactly():
    with pytest.raises(ValueError, match="games=3: a rating plays colour-swapped pairs"):
        rate("random", "connect_four", games=3, progress=False)
    assert rate("random", "connect_four", games=4, progress=False).games == 4


def test_the_help_says_what_is_played():
    from boardgame_envs.cli import build_parser

    sub = next(a for a in build_parser()._subparsers._group_actions if a.dest == "command").choices["rate"]
    text = " ".join(sub.format_help().split())
    assert "games to play at most" not in text and "an even number (colour-swapped pairs; an odd one is refused)" in text


def test_the_elo_callback_refuses_an_odd_count_when_made():
    from boardgame_envs.selfplay import EloCallback

    with pytest.raises(ValueError, match="games=5: a rating plays colour-swapped pairs"):
        EloCallback("tictactoe", every=100, games=5)
