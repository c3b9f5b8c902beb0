"""``boardnet:PATH``: the single-file PPO's network as a policy: its own game only, legal moves, one-line errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from boardgame_envs import gomoku_v0, tictactoe_v0
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.policies.registry import PolicySpecError, make_policy
from boardgame_envs.selfplay.boardnet import BoardNet, BoardNetPolicy, load_net, save_net

GOMOKU9 = MNKGame(size=9, win_length=5, rule="freestyle")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("boardnet")
    torch.manual_seed(0)
    net = BoardNet(GOMOKU9.new_state().planes(1).shape[-1], 8, 2)
    save_net(net, folder / "gomoku9.pt", game=GOMOKU9)
    save_net(net, folder / "anonymous.pt")  # as the training run's snapshots are: no game
    (folder / "junk.pt").write_bytes(b"not a network")
    return folder, net


def test_round_trip_keeps_weights_and_game(files):
    folder, net = files
    loaded, game = load_net(folder / "gomoku9.pt")
    assert game == GOMOKU9 and loaded.shape == net.shape == (net.shape[0], 8, 2)
    for a, b in zip(net.state_dict().values(), loaded.state_dict().values()):
        assert torch.equal(a, b)
    assert load_net(folder / "anonymous.pt")[1] is None


def test_greedy_plays_the_networks_best_legal_move(files):
    folder, _ = files
    policy = make_policy(f"boardnet:{folder / 'gomoku9.pt'}", seed=0)
    env = gomoku_v0.env(board_size=9, rule="freestyle")
    env.reset(seed=0)
    for ply in range(20):
        mask = env.observe(env.agent_selection)["action_mask"]
        p = policy.distribution(env)
        action = policy.act(env)
        assert mask[action] == 1 and action == int(np.argmax(p)), ply
        assert np.isclose(p.sum(), 1) and p[mask == 0].sum() == 0  # the illegal points get nothing
        env.step(action)


def test_sampling_is_seeded_and_legal(files):
    folder, _ = files
    spec = f"boardnet:{folder / 'gomoku9.pt'}:sample=true"
    state = GOMOKU9.new_state()
    for move in (40, 41, 30):
        state.play(move)  # in place
    draws = [[make_policy(spec, seed=s).act(state)] for s in range(30)]
    assert len({d[0] for d in draws}) > 1  # an untrained network spreads its moves
    assert [make_policy(spec, seed=3).act(state) for _ in range(3)] == [make_policy(spec, seed=3).act(state)] * 3
    legal = np.flatnonzero(game_state_of(state).legal_mask())
    assert all(d[0] in legal for d in draws)


def test_another_game_is_refused(files):
    folder, _ = files
    policy = make_policy(f"boardnet:{folder / 'gomoku9.pt'}")
    env = gomoku_v0.env()  # 15x15 renju: the convolutions would run on it, so the file's game must refuse it
    env.reset(seed=0)
    with pytest.raises(ValueError, match="trained on .*9x9.*not"):
        policy.act(env)
    anonymous = make_policy(f"boardnet:{folder / 'anonymous.pt'}")
    ttt = tictactoe_v0.env()
    ttt.reset(seed=0)
    assert ttt.unwrapped.game.new_state().planes(1).shape[-1] != anonymous.net.shape[0]  # 2 planes, not 4
    with pytest.raises(ValueError, match="takes 4 planes"):
        anonymous.act(ttt)


def test_bad_files_and_arguments_are_one_line_errors(files):
    folder, _ = files
    with pytest.raises(PolicySpecError, match="no network file"):
        make_policy("boardnet:/no/such/file.pt")
    with pytest.raises(PolicySpecError, match="junk.pt: the BoardNet file is not a torch file"):
        make_policy(f"boardnet:{folder / 'junk.pt'}")
    with pytest.raises(PolicySpecError, match="simulations"):
        make_policy(f"boardnet:{folder / 'gomoku9.pt'}:simulations=3")
    with pytest.raises(ValueError, match="sample must be true or false"):
        BoardNetPolicy(BoardNet(3, 4, 1), sample="yes")


def test_the_spec_sets_one_torch_thread_unless_told(files, torch_threads):
    folder, _ = files
    path = folder / "gomoku9.pt"
    torch.set_num_threads(2)
    make_policy(f"boardnet:{path}")
    assert torch.get_num_threads() == 1  # one position a move: a second thread only spins
    make_policy(f"boardnet:{path}:torch_threads=2")
    assert torch.get_num_threads() == 2
    make_policy(f"boardnet:{path}:torch_threads=none")  # left as it is
    assert torch.get_num_threads() == 2
    for bad in ("0", "true", "two"):
        with pytest.raises(PolicySpecError, match="torch_threads must be a positive integer, got"):
            make_policy(f"boardnet:{path}:torch_threads={bad}")
