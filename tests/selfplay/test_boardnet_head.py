"""BoardNet's head from the game: a logit per point, per column, per line, and per other action (a pass, a swap)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from boardgame_envs.games.catalog import GAMES
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.safeio import FileRefusedError
from boardgame_envs.selfplay.boardnet import BoardNet, BoardNetPolicy, head_of, load_net, save_net
from conformance.cases import in_catalog
from games.dots_and_boxes import DotsAndBoxesGame
from games.pass_game import PASS, PassGame

# Dots and boxes, 2x2 boxes: the 5x5 grid of dots (+), boxes (#) and lines; the action each line cell means.
DOTS_GRID = """
    +  0  +  1  +
    2  #  3  #  4
    +  5  +  6  +
    7  #  8  #  9
    + 10  + 11  +
"""


def grid_actions(text: str) -> list[int]:
    return [int(word) if word.isdigit() else -1 for word in text.split()]


def test_each_game_gets_the_head_its_actions_need():
    assert head_of(GAMES["tictactoe"].game()) == {"head": "cells"}
    assert head_of(GAMES["gomoku"].game(9, None, "freestyle")) == {"head": "cells"}
    assert head_of(GAMES["connect_four"].game()) == {"head": "columns"}
    assert head_of(DotsAndBoxesGame()) == {"head": "actions", "cell_actions": grid_actions(DOTS_GRID), "num_actions": 12}
    assert head_of(PassGame()) == {"head": "actions", "cell_actions": list(range(9)), "num_actions": 10}
    swap2 = head_of(GAMES["gomoku"].game(9, None, "freestyle", opening_rule="swap2"))
    assert swap2["cell_actions"] == list(range(81)) and swap2["num_actions"] == 84  # three decisions after the points


def planes(state, viewer=None):
    return torch.from_numpy(state.planes(viewer or state.to_move).transpose(2, 0, 1).copy()[None]).to(torch.uint8)


def test_a_pass_gets_a_logit_of_its_own_from_the_pooled_board_and_each_cell_its_points():
    torch.manual_seed(0)
    game = PassGame()
    net = BoardNet.for_game(game, 4, 1)
    state = game.new_state()
    state.play(4)
    obs, mask = planes(state), torch.from_numpy(state.legal_mask()[None])
    logits, _ = net(obs, mask)
    h = net.body(obs.float())
    points = net.policy(h).flatten(1)[0]
    pooled = torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1)
    assert logits.shape == (1, 10) and logits[0, 4] == -1e9  # b2 is taken
    assert torch.equal(logits[0, [0, 1, 2, 3, 5, 6, 7, 8]], points[[0, 1, 2, 3, 5, 6, 7, 8]])
    assert torch.allclose(logits[0, PASS], net.others(pooled)[0, 0])


def test_a_line_gets_the_logit_of_its_cell():
    torch.manual_seed(0)
    game = DotsAndBoxesGame()
    net = BoardNet.for_game(game, 4, 2)
    state = game.new_state()
    logits, _ = net(planes(state), torch.ones(1, 12, dtype=torch.bool))
    points = net.policy(net.body(planes(state).float())).flatten(1)[0]
    cells = [grid_actions(DOTS_GRID).index(a) for a in range(12)]
    assert cells[:3] == [1, 3, 5] and torch.equal(logits[0], points[cells])
    assert net.others is None  # every action is a line


def test_columns_and_an_other_action_mix_in_the_actions_head():
    torch.manual_seed(0)  # a 2x2 board of two columns, and a pass: action 2
    net = BoardNet(1, 3, 1, head="actions", cell_actions=[0, 1, 0, 1], num_actions=3)
    obs = torch.randint(0, 2, (2, 1, 2, 2), dtype=torch.uint8)
    logits, _ = net(obs, torch.ones(2, 3, dtype=torch.bool))
    h = net.body(obs.float())
    points = net.policy(h).flatten(1)
    assert torch.allclose(logits[:, 0], points[:, [0, 2]].logsumexp(1)) and torch.allclose(logits[:, 1], points[:, [1, 3]].logsumexp(1))
    assert torch.allclose(logits[:, 2], net.others(torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1))[:, 0])


def test_a_game_whose_cells_and_actions_disagree_is_one_line():
    says_pass_is_a_cell = type("Odd", (PassGame,), {"cell_of_action": lambda self, a: int(a) % 9})()
    with pytest.raises(ValueError, match="action pass has a cell \\(cell_of\\) that no cell means") as info:
        head_of(says_pass_is_a_cell)
    assert "\n" not in str(info.value)
    a_cell_means_the_pass = type("Odd", (PassGame,), {"action_of_cell": lambda self, c: PASS if c == 0 else int(c)})()
    with pytest.raises(ValueError, match="action pass has no cell \\(cell_of\\) yet a cell means it"):
        head_of(a_cell_means_the_pass)


@pytest.fixture
def pass_net(tmp_path):
    torch.manual_seed(3)
    net = BoardNet.for_game(PassGame(), 4, 1, blocks=1)
    with in_catalog("place_or_pass"):
        save_net(net, tmp_path / "pass.pt", game=GAMES["place_or_pass"].game())
        yield net, tmp_path / "pass.pt"


def test_an_actions_head_round_trips_and_plays_its_game_as_a_spec(pass_net):
    net, path = pass_net
    loaded, game = load_net(path)
    assert loaded.arch == net.arch and loaded.arch["num_actions"] == 10 and game == PassGame()
    state = game.new_state()
    for a in (0, 1, 2, 3, 5, 4, 7, 6):  # eight stones, none three in a row: c1 and pass are left
        state.play(a)
    policy = make_policy(f"boardnet:{path}")
    p = policy.distribution(state)
    assert p.shape == (10,) and np.isclose(p.sum(), 1) and set(np.flatnonzero(p)) <= {8, PASS}
    obs, mask = planes(state), torch.from_numpy(state.legal_mask()[None])
    assert torch.equal(loaded(obs, mask)[0], net.eval()(obs, mask)[0])


def test_a_network_of_another_games_actions_is_refused_though_its_planes_fit():
    net = BoardNet.for_game(PassGame(), 4, 1)  # three planes, as dots and boxes has
    with pytest.raises(ValueError, match="head \\(actions\\) maps other actions than dots and boxes"):
        BoardNetPolicy(net).act(DotsAndBoxesGame().new_state())


@pytest.mark.parametrize(("extra", "words"), [
    ({"cell_actions": [0, 1]}, ("actions head: num_actions=None",)),
    ({"num_actions": 10}, ("cell_actions must be a list",)),
    ({"cell_actions": list(range(9)), "num_actions": 0}, ("num_actions=0, expected 1..65536",)),
    ({"cell_actions": [0, 1, 9, 3, 4, 5, 6, 7, 8], "num_actions": 9}, ("cell_actions must be actions -1..8",)),
    ({"cell_actions": [0.5] * 9, "num_actions": 10}, ("cell_actions must be actions",)),
    ({"cell_actions": [0] * 5000, "num_actions": 10}, ("a list of 1..4096 actions",)),
    ({"cell_actions": list(range(9)), "num_actions": 12}, ("its weights do not fit", "others")),  # 3 others, not 1
])  # fmt: skip
def test_a_bad_actions_head_in_a_file_is_one_line(tmp_path, extra, words):
    net = BoardNet.for_game(PassGame(), 3, 1)
    torch.save({"shape": net.shape, "weights": net.state_dict(), "head": "actions", **extra}, tmp_path / "a.pt")
    with pytest.raises(FileRefusedError) as info:
        load_net(tmp_path / "a.pt")
    text = str(info.value)
    assert "\n" not in text and all(word in text for word in words), text
