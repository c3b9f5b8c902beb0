"""The trainer's search options: threat-aware NetworkPolicy and self-play (proven targets), playout cap
randomization (per-tree budgets, targets of full searches only)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from ascii_boards import state_from
from threat_positions import FORBIDDEN_BLOCK, FOUR_TO_BLOCK, VCF_IN_THREE, at

from boardgame_envs import tictactoe_v0
from boardgame_envs.alphazero import AlphaZeroConfig, AlphaZeroTrainer, NetworkPolicy
from boardgame_envs.alphazero.network import PolicyValueNet
from boardgame_envs.alphazero.selfplay import SelfPlay
from boardgame_envs.alphazero.targets import result_targets
from boardgame_envs.games.mnk import PLANE_OPPONENT, PLANE_OWN, MNKGame
from boardgame_envs.policies import make_policy


def random_net(game: MNKGame, seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    return PolicyValueNet(game.num_planes, game.size, blocks=1, channels=8).eval()


@pytest.mark.parametrize("simulations", [0, 2])
def test_network_policy_with_threats_blocks_and_wins_by_fours(simulations):
    game = MNKGame(9, 5, "freestyle")
    net = random_net(game)
    block = state_from(FOUR_TO_BLOCK)
    vcf = state_from(VCF_IN_THREE)
    policy = NetworkPolicy(net, game, simulations=simulations, threats=True, vcf_nodes=100, seed=0)
    assert policy.act(block) == at(2, 6)
    assert policy.act(vcf) == at(1, 4)
    plain = NetworkPolicy(net, game, simulations=simulations, seed=0, threats=False)
    assert plain.distribution(block)[at(2, 6)] < 0.5  # an untrained net has no idea


def test_pretrained_spec_takes_the_threat_options():
    policy = make_policy("pretrained:renju-15x15:simulations=2,threats=true,vcf_nodes=100", seed=0)
    assert policy.threats and policy.vcf_nodes == 100 and policy.simulations == 2
    state = state_from(FORBIDDEN_BLOCK, rule="renju", to_move=2)
    assert policy.act(state) == at(6, 7, 15)  # a four whose block black may not play
    with pytest.raises(ValueError, match="needs threats=True"):
        make_policy("pretrained:renju-15x15:threats=false,vcf_nodes=100")


def test_proven_values_stand_in_for_the_result():
    colors = np.array([1, 2, 1, 2])
    proven = np.array([np.nan, np.nan, -1.0, 1.0])  # black, then white, proven: the last two moves
    targets = result_targets(1, colors, np.arange(4)[::-1], 0.0, 9, proven)
    assert targets.tolist() == [1.0, -1.0, -1.0, 1.0]
    assert result_targets(1, colors, np.arange(4)[::-1], 0.5, 4, proven).tolist() == [0.625, -0.75, -0.875, 1.0]


def test_threat_aware_self_play_targets_a_win_at_once_and_proven_losses():
    """Tic-tac-toe self-play with threats: a position with a win at once has its winning move as the
    whole policy target and +1 as value; one where the opponent has two wins at once has -1."""
    config = AlphaZeroConfig.for_game("tictactoe", parallel_games=16, simulations=8, threats=True, value_decay=0.0,
                                      progress=False, out=None)  # fmt: skip
    game = MNKGame(3, 3)
    examples, stats = SelfPlay(tictactoe_v0.env, config, seed=0).play(random_net(game), 40)
    rules = game.rules_array()
    wins_now = lost = 0
    for planes, policy, value in zip(examples.planes, examples.policies, examples.values):
        board = (planes[..., PLANE_OWN] * 1 + planes[..., PLANE_OPPONENT] * 2).ravel().astype(np.int8)
        mine = [a for a in range(9) if board[a] == 0 and _wins(board, rules, a, 1)]
        theirs = [a for a in range(9) if board[a] == 0 and _wins(board, rules, a, 2)]
        if mine:
            wins_now += 1
            assert np.flatnonzero(policy).tolist() in [[a] for a in mine] and value == 1.0
        elif len(theirs) >= 2:
            lost += 1
            assert value == -1.0
    assert wins_now >= 10 and lost >= 1 and stats.games >= 40


def _wins(board, rules, a, color):
    from boardgame_envs.policies.kernels import wins

    return wins(board.copy(), rules, a, color)


def test_playout_cap_randomization_keeps_policy_targets_of_full_searches_only():
    config = AlphaZeroConfig.for_game("tictactoe", parallel_games=16, simulations=8, full_search_prob=0.25,
                                      cheap_simulations=2, value_decay=0.0, progress=False, out=None)  # fmt: skip
    examples, stats = SelfPlay(tictactoe_v0.env, config, seed=0).play(random_net(MNKGame(3, 3)), 40)
    with_target = examples.policies.sum(axis=1) > 0
    assert np.allclose(examples.policies[with_target].sum(axis=1), 1.0)
    assert 0.1 < with_target.mean() < 0.4 and 0.1 < stats.full_searches / stats.moves < 0.4
    assert np.isin(examples.values, (-1.0, 0.0, 1.0)).all()  # every move has its value target


def test_the_policy_loss_skips_examples_without_a_policy_target(tmp_path):
    config = AlphaZeroConfig.for_game("tictactoe", blocks=1, channels=8, batch_size=16, progress=False, out=None)
    trainer = AlphaZeroTrainer(tictactoe_v0.env, config)
    planes = np.zeros((8, 3, 3, trainer.game.num_planes), dtype=np.int8)
    masks = np.ones((8, 9), dtype=bool)
    trainer.buffer.add(planes, masks, np.zeros((8, 9), dtype=np.float32), np.ones(8, dtype=np.float32))
    losses = trainer.learn(2)
    assert losses["policy_loss"] == 0.0 and losses["value_loss"] > 0


@pytest.mark.parametrize("bad", [{"full_search_prob": 0.0}, {"full_search_prob": 0.5, "cheap_simulations": 0},
                                 {"full_search_prob": 0.5, "simulations": 8, "cheap_simulations": 8},
                                 {"vcf_nodes": 10}, {"threats": "yes"}])  # fmt: skip
def test_bad_search_options_are_value_errors(bad):
    with pytest.raises(ValueError):
        AlphaZeroConfig.for_game("tictactoe", **bad)


def test_gumbel_self_play_targets_the_improved_policy():
    config = AlphaZeroConfig.for_game("tictactoe", parallel_games=16, simulations=8, root="gumbel", gumbel_k=4,
                                      full_search_prob=0.5, cheap_simulations=2, progress=False, out=None)  # fmt: skip
    examples, stats = SelfPlay(tictactoe_v0.env, config, seed=0).play(random_net(MNKGame(3, 3)), 30)
    with_target = examples.policies.sum(axis=1) > 0
    assert np.allclose(examples.policies[with_target].sum(axis=1), 1.0) and 0.3 < with_target.mean() < 0.7
    # The improved policy spreads over every legal move (completed values), unlike 8 visits over 4 candidates.
    spread = (examples.policies[with_target] > 0).sum(axis=1)
    assert (spread == examples.masks[with_target].sum(axis=1)).all()
    assert stats.games >= 30


def test_network_policy_with_a_gumbel_root():
    game = MNKGame(9, 5, "freestyle")
    policy = NetworkPolicy(random_net(game), game, simulations=8, root="gumbel", gumbel_k=4, threats=True)
    assert policy.act(state_from(FOUR_TO_BLOCK)) == at(2, 6)
    distribution = policy.distribution(state_from(VCF_IN_THREE))
    assert np.isclose(distribution.sum(), 1.0)
    with pytest.raises(ValueError, match="root must be"):
        NetworkPolicy(random_net(game), game, root="mcts")
    with pytest.raises(ValueError, match="unknown root"):
        AlphaZeroConfig.for_game("tictactoe", root="alphago")


def test_threats_are_on_by_default_but_pretrained_networks_play_as_rated():
    game = MNKGame(9, 5, "freestyle")
    policy = NetworkPolicy(random_net(game), game)
    assert policy.threats and policy.vcf_nodes == 50
    assert NetworkPolicy(random_net(game), game, threats=False).vcf_nodes == 0
    rated = make_policy("pretrained:tictactoe")
    assert not rated.threats and rated.vcf_nodes == 0
    assert make_policy("pretrained:tictactoe:threats=true").vcf_nodes == 50


def test_train_flags_set_the_search_options_and_none_overrides_a_default():
    import argparse

    from boardgame_envs.alphazero.cli import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["gomoku", "--warm-start", "none", "--root", "gumbel", "--threats", "--vcf-nodes", "50",
                              "--full-search-prob", "0.25"])  # fmt: skip
    assert (args.warm_start, args.root, args.threats, args.vcf_nodes, args.full_search_prob) == (
        None, "gumbel", True, 50, 0.25)  # fmt: skip
    assert not hasattr(args, "simulations")  # left out: the game's default stands
