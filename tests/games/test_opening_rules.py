"""The opening rules (Soosõrv-N, Taraguchi-N, RIF, Swap2), phase by phase, from the rules' texts."""

from __future__ import annotations

import numpy as np
import pytest
from ascii_boards import parse

from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.games.opening_rules import RULE_NAMES, opening_rule
from boardgame_envs.games.protocol import IllegalMoveError
from boardgame_envs.games.opening_positions import load

RENJU15 = MNKGame(15, 5, "renju")


def soosorv(size: int = 15, n: int = 8) -> OpeningRuleGame:
    return OpeningRuleGame(MNKGame(size, 5, "renju"), f"soosorv{n}")


def play(game: OpeningRuleGame, moves: str):
    return game.state_after(moves.split())


def names(state, mask=None) -> set[str]:
    mask = state.legal_mask() if mask is None else mask
    return {state.game.action_name(int(a)) for a in np.flatnonzero(mask)}


def canonical(board: np.ndarray, perms: np.ndarray) -> bytes:
    images = []
    for perm in perms:
        image = np.empty_like(board)
        image[perm] = board
        images.append(image.tobytes())
    return min(images)


# ------------------------------------------------------------------ names and boards
def test_names_are_forgiving_and_unknown_names_list_the_valid_ones():
    assert opening_rule("Soosõrv-8", "renju").name == "soosorv8"
    assert opening_rule("TARAGUCHI_10", "renju").name == "taraguchi10"
    assert opening_rule(True, "renju").name == "soosorv8" and opening_rule(True, "standard").name == "swap2"
    with pytest.raises(ValueError, match=r"unknown opening rule 'soosorv9'.*soosorv1..soosorv8.*swap2"):
        opening_rule("soosorv9", "renju")
    with pytest.raises(ValueError, match="swap2 is an opening rule of freestyle and standard, not of renju; "
                                         "under renju use soosorv1..soosorv8, taraguchi1..taraguchi10, rif"):
        opening_rule("swap2", "renju")
    with pytest.raises(ValueError, match="soosorv8 is an opening rule of renju, not of freestyle; under freestyle "
                                         "use swap2"):
        opening_rule("soosorv8", "freestyle")
    with pytest.raises(TypeError, match="is a name"):
        opening_rule(8, "renju")
    assert len(RULE_NAMES) == 20


@pytest.mark.parametrize(
    ("size", "k", "rule", "opening", "message"),
    [
        (14, 5, "renju", "soosorv8", "odd size"),
        (7, 5, "renju", "taraguchi10", "at least 9x9"),
        (7, 5, "renju", "soosorv8", "offers need a larger board"),
        (9, 3, "freestyle", "swap2", "win_length >= 4"),
    ],
)
def test_boards_that_cannot_hold_the_rule_are_refused(size, k, rule, opening, message):
    with pytest.raises(ValueError, match=message):
        OpeningRuleGame(MNKGame(size, k, rule), opening)


def test_actions_are_the_points_then_the_decisions():
    game = soosorv()
    assert game.num_actions == 225 + 2 + 8 and game.decisions[:3] == ("swap", "keep", "offers=1")
    assert game.action_name(112) == "h8" and game.action_name(225) == "swap" and game.action_name(234) == "offers=8"
    assert game.parse_action(" Offers=3 ") == 229 and game.parse_action("h8") == 112
    with pytest.raises(ValueError, match="or a decision of soosorv8: swap, keep, offers=1"):
        game.parse_action("pass")
    with pytest.raises(ValueError, match="out of range"):
        game.action_name(235)
    perms = game.symmetries()
    assert len(perms) == 8 and all(sorted(p) == list(range(235)) and list(p[225:]) == list(range(225, 235))
                                   for p in perms)  # fmt: skip


# ------------------------------------------------------------------ the 26 openings
def test_the_first_three_stones_are_exactly_the_26_canonical_openings():
    game = soosorv()
    perms = np.stack(game.cell_symmetries())
    found = set()
    state = game.new_state()
    assert names(state) == {"h8"}  # the first stone: the centre
    state.play(game.parse_action("h8"))
    for second in state.legal_actions():
        two = state.clone()
        two.play(int(second))
        for third in two.legal_actions():
            three = two.clone()
            three.play(int(third))
            found.add(canonical(three.board, perms))
    rif26 = set()
    for opening in load("rif26"):
        board = np.zeros(225, dtype=np.int8)
        for i, a in enumerate(opening.moves):
            board[a] = 1 + i % 2
        rif26.add(canonical(board, perms))
    assert len(rif26) == 26 and found == rif26


@pytest.mark.parametrize("symmetry", range(8))
def test_every_image_of_an_opening_counts_as_that_opening(symmetry):
    game = soosorv()
    perm = game.cell_symmetries()[symmetry]
    kagetsu = [int(perm[a]) for a in load("rif26")[3].moves]  # h8 h9 i9, turned or mirrored
    state = game.state_after(kagetsu)
    assert state.phase == "swap" and state.to_move == 2


def test_stones_outside_the_opening_zones_are_refused_with_the_phase():
    game = soosorv()
    state = play(game, "h8")
    assert names(state) == {"g7", "g8", "g9", "h7", "h9", "i7", "i8", "i9"}  # the central 3x3
    with pytest.raises(IllegalMoveError, match=r"h10 is outside the central 3x3 square: soosorv8, first player "
                                               r"lays white's stone 2 within the central 3x3"):
        state.play(game.parse_action("h10"))
    state.play(game.parse_action("h9"))
    assert len(names(state)) == 23  # the central 5x5 but for h8 and h9
    assert "outside the central 5x5" in state.illegal_reason(game.parse_action("k11"))
    assert "swap is not a choice now" in state.illegal_reason(game.parse_action("swap"))
    assert "occupied (by white)" in state.illegal_reason(game.parse_action("h9"))


# ------------------------------------------------------------------ Soosõrv, step by step
def test_soosorv_swap_fourth_stone_declaration_swap_offers_and_choice():
    game = soosorv()
    state = play(game, "h8 h9 i9")  # Kagetsu (4D)
    assert (state.phase, state.to_move, state.black_player) == ("swap", 2, 1)
    assert names(state) == {"swap", "keep"}
    state.play(game.parse_action("swap"))  # the second player takes black
    assert (state.phase, state.to_move, state.black_player) == ("stone", 1, 2)  # white (the first) lays the 4th
    assert len(names(state)) == 222  # anywhere
    state.play(game.parse_action("a1"))
    assert state.phase == "declare" and state.to_move == 1
    assert names(state) == {f"offers={k}" for k in range(1, 9)}
    state.play(game.parse_action("offers=3"))
    assert (state.phase, state.to_move, state.due) == ("swap", 2, 3)  # black (the second) may swap back
    state.play(game.parse_action("keep"))
    assert (state.phase, state.to_move) == ("offer", 2)
    for point in ("j10", "g10", "h6"):
        state.play(game.parse_action(point))
    assert (state.phase, state.to_move) == ("choose", 1)
    assert names(state) == {"j10", "g10", "h6"}
    assert "not one of the offered fifth moves" in state.illegal_reason(game.parse_action("h7"))
    state.play(game.parse_action("g10"))
    assert (state.phase, state.to_move, state.board[game.parse_action("g10")]) == ("play", 1, 1)
    assert state.opening_stones() == tuple(game.parse_action(p) for p in ["h8", "h9", "i9", "a1", "g10"])
    assert state.base.to_move == 2 and state.color_of(1) == 2  # white's 6th, by the first player


def test_a_symmetric_position_refuses_symmetric_offers():
    game = soosorv(9)
    state = play(game, "e5 e6 e4 keep e7 offers=3 keep d3")
    # Black e4 e5, white e6 e7: the position is its own mirror image about the e column.
    assert np.array_equal(state.board.reshape(9, 9), parse("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . O . . . .
        . . . . O . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """))
    assert "f3 is symmetric to the offered d3 in this position" in state.illegal_reason(game.parse_action("f3"))
    assert "d3 is offered already" in state.illegal_reason(game.parse_action("d3"))
    mask = state.legal_mask()
    assert not mask[game.parse_action("f3")] and mask[game.parse_action("d4")] and mask[game.parse_action("e3")]
    state.play(game.parse_action("e3"))  # its own mirror image: allowed once
    assert not state.legal_mask()[game.parse_action("e3")]
    # Without the mirror (black's third at f4, not e4) the two points are different fifth moves.
    other = play(game, "e5 e6 f4 keep e7 offers=3 keep d3")
    assert other.illegal_reason(game.parse_action("f3")) is None


def test_offers_in_a_position_with_a_diagonal_symmetry():
    game = soosorv(9)
    state = play(game, "e5 f6 d4 keep g7 offers=2 keep c5")  # all on the a1-i9 diagonal
    assert "symmetric to the offered c5" in state.illegal_reason(game.parse_action("e3"))  # the diagonal mirror
    assert state.illegal_reason(game.parse_action("c4")) is None


# ------------------------------------------------------------------ Taraguchi
def to_taraguchi_choice():
    """Taraguchi-10 up to black's choice after the 4th stone, every zone and swap checked on the way."""
    game = OpeningRuleGame(RENJU15, "taraguchi10")
    state = play(game, "h8")
    assert (state.phase, state.to_move) == ("swap", 2)  # the other player may take black's stone over
    state.play(game.parse_action("swap"))
    assert (state.phase, state.to_move, state.black_player) == ("stone", 1, 2)  # white (the first) lays the 2nd
    assert "outside the central 3x3" in state.illegal_reason(game.parse_action("h10"))
    for move in ["h9", "keep"]:
        state.play(game.parse_action(move))
    assert (state.phase, state.to_move) == ("stone", 2)  # black (the second) lays the 3rd within 5x5
    assert "outside the central 5x5" in state.illegal_reason(game.parse_action("k11"))
    for move in ["j10", "keep"]:
        state.play(game.parse_action(move))
    assert "outside the central 7x7" in state.illegal_reason(game.parse_action("l12"))
    state.play(game.parse_action("k11"))  # the 4th, within 7x7
    assert (state.phase, state.to_move) == ("choice", 2)
    assert names(state) == {"swap", "keep", "offers=10"}
    return state


def test_taraguchi_zones_and_a_swap_after_every_stone():
    assert to_taraguchi_choice().game.opening.name == "taraguchi10"


def test_taraguchi_choice_one_with_a_swap():
    game = OpeningRuleGame(RENJU15, "taraguchi10")
    state = to_taraguchi_choice()
    state.play(game.parse_action("swap"))  # black (the second) swaps: the first now lays black's 5th
    assert (state.phase, state.to_move, state.black_player) == ("stone", 1, 1)
    assert "outside the central 9x9" in state.illegal_reason(game.parse_action("m13"))
    state.play(game.parse_action("l12"))
    assert (state.phase, state.to_move) == ("swap", 2)  # white may swap once more
    state.play(game.parse_action("keep"))
    assert (state.phase, state.to_move, state.base.to_move) == ("play", 2, 2)  # white's 6th, anywhere
    assert state.legal_mask()[game.parse_action("a1")]


def test_taraguchi_choice_two_offers_n_stones_anywhere():
    game = OpeningRuleGame(RENJU15, "taraguchi10")
    state = to_taraguchi_choice()
    state.play(game.parse_action("offers=10"))
    assert (state.phase, state.to_move, state.due) == ("offer", 2, 10)
    offers = ["a1", "a15", "o1", "b2", "c3", "d4", "e5", "f6", "n2", "m3"]
    for i, point in enumerate(offers):
        assert state.phase == "offer", i
        state.play(game.parse_action(point))
    assert (state.phase, state.to_move) == ("choose", 1) and names(state) == set(offers)
    state.play(game.parse_action("f6"))
    assert (state.phase, state.to_move) == ("play", 1)


# ------------------------------------------------------------------ RIF and Swap2
def test_rif_has_two_offers_and_no_second_swap():
    game = OpeningRuleGame(RENJU15, "rif")
    state = play(game, "h8 h9 h10 keep h15")  # Kansei, and a 4th on its axis
    assert (state.phase, state.to_move, state.due) == ("offer", 1, 2)
    state.play(game.parse_action("g10"))
    assert "symmetric to the offered g10" in state.illegal_reason(game.parse_action("i10"))  # Kansei is mirrored
    state.play(game.parse_action("g11"))
    state.play(game.parse_action("g11"))
    assert (state.phase, state.to_move) == ("play", 2)


@pytest.mark.parametrize(
    ("moves", "black_player", "to_move"),
    [
        ("h8 h9 i8 black", 2, 1),  # the second player takes black: white (the first) moves
        ("h8 h9 i8 white", 1, 2),  # the second player takes white and moves
        ("h8 h9 i8 more g8 j9 white", 2, 1),  # two more stones; the first player chooses white and moves
        ("h8 h9 i8 more g8 j9 black", 1, 2),
    ],
)
def test_swap2_three_branches(moves, black_player, to_move):
    game = OpeningRuleGame(MNKGame(15, 5, "freestyle"), "swap2")
    state = play(game, "h8 h9")
    assert state.to_move == 1 and len(names(state)) == 223  # the first player lays all three, anywhere
    state = play(game, moves)
    assert (state.phase, state.black_player, state.to_move) == ("play", black_player, to_move)
    assert state.base.to_move == 2  # white's move after 2+1 or 3+2 stones


def test_swap2_choice_lists_its_options():
    game = OpeningRuleGame(MNKGame(15, 5, "standard"), "swap2")
    state = play(game, "h8 h9 i8")
    assert names(state) == {"black", "white", "more"}
    assert "h10 is not a choice now: swap2, second player takes black, takes white, or lays two more stones" in (
        state.illegal_reason(game.parse_action("h10")))
    state = play(game, "h8 h9 i8 more g8 j9")
    assert names(state) == {"black", "white"} and state.to_move == 1


# ------------------------------------------------------------------ after the opening: the base game
def test_after_the_opening_the_renju_rules_hold_and_wins_go_to_the_seat():
    game = soosorv()
    state = play(game, "h8 h9 j10 keep a1 offers=1 keep j8 j8 b1 k7 c1")
    assert state.phase == "play" and state.to_move == 1 and state.color_of(1) == 1
    i9 = game.parse_action("i9")
    assert state.illegal_reason(i9) == "i9 is forbidden for black: double-three"
    assert not state.legal_mask()[i9]
    with pytest.raises(IllegalMoveError, match="swap is an opening decision; the opening is over"):
        state.play(game.parse_action("swap"))
    free = OpeningRuleGame(MNKGame(15, 5, "freestyle"), "swap2")
    state = play(free, "h8 h9 i8 black a1 j8 a2 k8 a3")
    assert state.to_move == 2
    state.play(free.parse_action("l8"))  # the second player's black five
    assert state.terminal and state.winner == 2 and state.returns() == (-1.0, 1.0)
    assert not state.legal_mask().any()


def test_planes_show_colour_phase_offers_and_the_declared_number():
    game = soosorv(9)
    state = play(game, "e5 e6 e4 swap e7 offers=2 keep d3")  # the second player holds black and offers
    assert (state.to_move, state.black_player) == (2, 2)
    b = game.base.num_planes
    phases = game.opening.phases
    assert game.num_planes == b + 3 + len(phases) + 8
    mine, theirs = state.planes(2), state.planes(1)
    assert mine[4, 4, 0] == 1 and theirs[4, 4, 1] == 1  # black's e5: own for the second player
    d3 = (6, 3)
    assert mine[d3][b] == 1 and mine[:, :, b].sum() == 1  # the offered fifth move
    assert mine[:, :, b + 1].all() and not theirs[:, :, b + 1].any()  # who holds black
    assert mine[:, :, b + 2].all() and not theirs[:, :, b + 2].any()  # who acts
    assert mine[:, :, b + 3 + phases.index("offer")].all() and mine[:, :, b + 3: b + 3 + len(phases)].sum() == 81
    assert mine[:, :, b + 3 + len(phases) + 1].all()  # offers=2 declared
    assert state.planes(1).shape == (9, 9, game.num_planes) and state.planes(1).dtype == np.int8


def test_clones_are_independent_and_illegal_actions_change_nothing():
    game = soosorv(9)
    state = play(game, "e5 e6 e4 keep e7 offers=3 keep d3")
    copy = state.clone()
    copy.play(game.parse_action("d4"))
    assert state.offers == [game.parse_action("d3")] and len(copy.offers) == 2
    before = state.search_key()
    with pytest.raises(IllegalMoveError):
        state.play(game.parse_action("f3"))
    assert state.search_key() == before and state.legal_mask().sum() == copy.clone().legal_mask().sum() + 2


@pytest.mark.parametrize(
    ("size", "rule", "opening"),
    [(9, "renju", "soosorv8"), (9, "renju", "taraguchi10"), (9, "renju", "rif"), (9, "freestyle", "swap2"),
     (15, "renju", "soosorv8"), (8, "standard", "swap2")],
)
def test_random_games_the_mask_is_exactly_the_legal_actions(size, rule, opening):
    game = OpeningRuleGame(MNKGame(size, 5, rule), opening)
    rng = np.random.default_rng(size)
    seen = set()
    for _ in range(4 if size == 15 else 12):
        state = game.new_state()
        while not state.terminal:
            mask = state.legal_mask()
            if state.in_opening or rng.random() < 0.1:  # every action of every opening phase, some of play
                for a in range(game.num_actions):
                    assert (state.illegal_reason(a) is None) == mask[a], (a, state.describe_phase())
            seen.add(state.phase)
            state.play(int(rng.choice(np.flatnonzero(mask))))
        assert state.winner == (state.player_of(state.base.winner) if state.base.winner else 0)
    assert seen == set(game.opening.phases)
