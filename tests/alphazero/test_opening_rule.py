"""AlphaZero under a tournament opening rule: self-play through the opening's decisions, their policy targets,
symmetries that move points and keep decisions, checkpoints that name the rule, NetworkPolicy in every phase."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import torch

from boardgame_envs import gomoku_v0
from boardgame_envs.alphazero import (
    AlphaZeroConfig,
    AlphaZeroTrainer,
    NetworkPolicy,
    PolicyValueNet,
    load_checkpoint,
)
from boardgame_envs.alphazero.checkpoint import (
    CheckpointError,
    game_from_dict,
    game_to_dict,
    save_checkpoint,
)
from boardgame_envs.alphazero.policy import value_decides
from boardgame_envs.alphazero.trainer import network_shape
from boardgame_envs.cli import main as cli_main
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.games.protocol import cell_symmetries, as_family
from boardgame_envs.policies.puct_protocol import ProtocolForest, make_forest
from boardgame_envs.games.symmetry import random_permutations

SWAP2_7 = functools.partial(gomoku_v0.env, board_size=7, win_length=4, rule="freestyle", opening_rule="swap2")
PLAIN_7 = functools.partial(gomoku_v0.env, board_size=7, win_length=4, rule="freestyle")
TINY = {"parallel_games": 6, "games_per_iteration": 6, "simulations": 8, "train_steps": 3, "batch_size": 32,
        "blocks": 1, "channels": 8, "eval_every": 0, "progress": False, "tensorboard": False, "warm_start": None}


def tiny_config(out, **overrides) -> AlphaZeroConfig:
    return AlphaZeroConfig.for_game("gomoku", 7, out=None if out is None else str(out), **{**TINY, **overrides})


def tiny_net(game, seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    shape = (*game.shape, game.num_planes)
    return PolicyValueNet(**network_shape(game, shape), blocks=1, channels=8).eval()


def test_training_checkpoints_the_rule_and_resumes(tmp_path):
    trainer = AlphaZeroTrainer(SWAP2_7, tiny_config(tmp_path, iterations=1))
    game = trainer.game
    # Not the m,n,k family: the numba paths (49 actions) stay out; the protocol's forest searches all 52.
    assert as_family(game, "mnk") is None and isinstance(make_forest(1, game, 100), ProtocolForest)
    assert trainer.net.hparams == {"in_planes": game.num_planes, "board_size": 7, "blocks": 1, "channels": 8,
                                   "rows": 7, "num_actions": 52, "decisions": 3}  # fmt: skip
    rows = trainer.train()
    # Every finished Swap2 game ends its opening with one colour taken: by the second player, or after `more`.
    row = rows[0]
    assert row["opening_black"] + row["opening_white"] == pytest.approx(1.0)
    assert 0.0 <= row["black_win_rate"] <= 1.0 and np.isfinite(row["loss"])
    checkpoint = load_checkpoint(tmp_path)
    assert checkpoint["game"] == {"size": 7, "win_length": 4, "rule": "freestyle", "opening_rule": "swap2"}
    assert game_from_dict(checkpoint["game"]) == game
    resumed = AlphaZeroTrainer(SWAP2_7, tiny_config(tmp_path, iterations=2))
    assert resumed.iteration == 1 and len(resumed.buffer) == len(trainer.buffer)
    assert [r["iteration"] for r in resumed.train()] == [2.0]
    # The same board without the rule (or under another) is another game: the run is not resumed on it.
    with pytest.raises(CheckpointError, match="cannot resume.*is for"):
        AlphaZeroTrainer(PLAIN_7, tiny_config(tmp_path, iterations=3))


def test_policy_targets_cover_the_decisions():
    trainer = AlphaZeroTrainer(SWAP2_7, tiny_config(None, simulations=6))
    examples, stats = trainer.self_play(6)
    points = trainer.game.points
    deciding = examples.masks[:, points:].any(axis=1)  # the positions of Swap2's choices
    assert deciding.sum() >= stats.games  # one choice a game at least
    assert not examples.masks[deciding, :points].any()  # a decision step allows no stone
    assert np.allclose(examples.policies[deciding, points:].sum(axis=1), 1.0)
    assert np.allclose(examples.policies[~deciding, points:], 0.0)
    assert np.allclose(examples.policies.sum(axis=1), 1.0)
    assert ((examples.policies > 0) <= examples.masks).all()


def test_symmetries_move_the_points_and_keep_the_decisions():
    """An example moved by a symmetry is the example of the position whose stones were laid at the image
    points: its planes, its mask; decision columns stay where they are."""
    game = OpeningRuleGame(MNKGame(7, 4, "freestyle"), "swap2")
    played = ["b2", "d4", "f3", "more", "a1", "c6"]  # to the first player's colour choice
    actions = [game.parse_action(a) for a in played]
    cells, moves = cell_symmetries(game), game.symmetries()
    for k in (3, 6):  # at the second player's choice (decisions only) and at the colour choice
        state = game.state_after(actions[:k])
        for s in range(8):  # the image of the position, laid at the image points, as the rules see it
            image = game.state_after([int(moves[s][a]) for a in actions[:k]])
            assert (image.legal_mask() == state.legal_mask()[np.argsort(moves[s])]).all()
    state = game.state_after(actions[:2])  # a stone step: the mask covers points only
    planes = np.repeat(state.planes(state.to_move).transpose(2, 0, 1)[None], 64, axis=0)
    masks = np.repeat(state.legal_mask()[None], 64, axis=0)
    policies = np.zeros((64, game.num_actions), dtype=np.float32)
    policies[:, : game.points] = np.arange(game.points) / 2000.0  # a value a point: tells the symmetry used
    policies[:, game.points:] = [0.1, 0.2, 0.3]  # not legal here: only to see that they do not move
    out_planes, out_masks, out_policies = random_permutations(planes, masks, policies, np.random.default_rng(0),
                                                              cells, moves)  # fmt: skip
    assert (out_policies[:, game.points:] == policies[:, game.points:]).all()
    seen = set()
    for row in range(64):
        s = next(s for s in range(8) if (out_policies[row] == policies[0][np.argsort(moves[s])]).all())
        seen.add(s)
        image = game.state_after([int(moves[s][a]) for a in actions[:2]])
        assert (out_planes[row] == image.planes(image.to_move).transpose(2, 0, 1)).all()
        assert (out_masks[row] == image.legal_mask()).all()
    assert len(seen) == 8


@pytest.mark.parametrize("rule,played", [
    ("soosorv8", "h8 h9 j10 keep g5 offers=3 keep f4 k12 d11 d11"),  # to the choice among the offered fifth moves
    ("taraguchi10", "h8 keep h9 swap j10 keep g5 offers=10 a1 b1 c1"),  # zones, swaps, then fifth-move offers
])  # fmt: skip
def test_every_phase_of_the_renju_rules_looks_the_same_through_a_symmetry(rule, played):
    """The zones are central squares and "symmetric offers" is a symmetric relation: a position laid at the
    image points has the image planes and mask in every phase, so augmenting by the board's symmetries is sound."""
    game = OpeningRuleGame(MNKGame(15, 5, "renju"), rule)
    actions = [game.parse_action(a) for a in played.split()]
    cells, moves = np.stack(cell_symmetries(game)), game.symmetries()
    for k in range(len(actions) + 1):
        state = game.state_after(actions[:k])
        for s in range(1, 8):
            image = game.state_after([int(moves[s][a]) for a in actions[:k]])
            assert image.phase == state.phase
            assert (image.legal_mask()[moves[s]] == state.legal_mask()).all(), (k, s)
            flat = state.planes(state.to_move).reshape(-1, game.num_planes)
            assert (image.planes(image.to_move).reshape(-1, game.num_planes)[cells[s]] == flat).all(), (k, s)


class BlackIsBetter(torch.nn.Module):
    """A stand-in network: uniform priors, and +0.5 for the player to move when it holds black, else -0.5
    (read from the plane "I hold black")."""

    def __init__(self, game) -> None:
        super().__init__()
        self.holds_black = game.base.num_planes + 1

    def predict(self, planes, masks):
        values = np.where(planes[:, 0, 0, self.holds_black] == 1, 0.5, -0.5)
        return masks / masks.sum(axis=1, keepdims=True), values


@pytest.mark.parametrize("simulations", [0, 30])
def test_the_value_head_takes_the_colour_decisions(simulations):
    """At Swap2's second player's choice the network takes black (its value head likes black), with its search
    and without (a look one action ahead); so does the first player after `more`."""
    game = OpeningRuleGame(MNKGame(9, 5, "freestyle"), "swap2")
    policy = NetworkPolicy(BlackIsBetter(game), game, simulations=simulations, seed=0)
    state = game.state_after(["e5", "a1", "e6"])
    assert value_decides(state) and not value_decides(game.new_state())
    assert game.action_name(policy.act(state)) == "black"
    state = game.state_after(["e5", "a1", "e6", "more", "a9", "e7"])
    assert game.action_name(policy.act(state)) == "black"
    distribution = policy.distribution(state)
    assert distribution[game.parse_action("black")] == pytest.approx(1.0 if simulations == 0 else 30 / 31, abs=0.1)


def play_out(env, policies) -> tuple[object, set[str]]:
    """Play a game of ``env`` to its end; its last state and the phases the policies acted in."""
    env.reset(seed=0)
    phases = set()
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        phases.add(env.unwrapped.game_state.phase)
        env.step(None if terminated or truncated else policies[agent].act(env))
    return env.unwrapped.game_state, phases


@pytest.mark.parametrize("simulations", [0, 8])
def test_network_policy_plays_whole_games_under_swap2(simulations):
    env = gomoku_v0.env(board_size=9, rule="freestyle", opening_rule="swap2")
    game = env.unwrapped.game
    net = tiny_net(game)
    policies = {agent: NetworkPolicy(net, game, simulations=simulations, seed=i)
                for i, agent in enumerate(env.possible_agents)}  # fmt: skip
    state, phases = play_out(env, policies)
    assert state.terminal and len(state.stones) in (3, 5) and {"stone", "swap2", "play"} <= phases


@pytest.mark.parametrize("rule,acted_in", [("soosorv8", {"swap", "declare", "offer", "choose"}),
                                           ("taraguchi10", {"swap", "choice"})])  # fmt: skip
def test_network_policy_plays_a_renju_game_under_each_rule(rule, acted_in):
    env = gomoku_v0.env(board_size=15, rule="renju", opening_rule=rule)
    game = env.unwrapped.game
    net = tiny_net(game, seed=1)
    policies = {agent: NetworkPolicy(net, game, seed=i) for i, agent in enumerate(env.possible_agents)}
    state, phases = play_out(env, policies)
    assert state.terminal and {"stone", "play", *acted_in} <= phases


def test_a_network_plays_only_the_game_it_was_trained_on(tmp_path):
    plain, ruled = PLAIN_7().unwrapped.game, SWAP2_7().unwrapped.game
    for trained, other in ((plain, ruled), (ruled, plain)):
        path = tmp_path / f"{game_to_dict(trained).get('opening_rule', 'plain')}.pt"
        net = tiny_net(trained)
        save_checkpoint(path, {"game": game_to_dict(trained), "net_hparams": net.hparams, "net": net.state_dict()})
        policy = NetworkPolicy.from_checkpoint(str(path))
        assert policy.game == trained
        state = other.new_state()
        with pytest.raises(ValueError, match="trained under an opening rule plays only under it"):
            policy.act(state)
        policy.act(trained.new_state())


def test_network_shapes_and_checkpoint_shapes_are_checked(tmp_path):
    with pytest.raises(ValueError, match="3 decisions after 49 cells make 52 actions, not num_actions=50"):
        PolicyValueNet(8, 7, rows=7, num_actions=50, decisions=3)
    net = PolicyValueNet(8, 7, rows=7, num_actions=52, decisions=3)
    logits, values = net(torch.zeros(2, 8, 7, 7))
    assert logits.shape == (2, 52) and values.shape == (2,)
    game = {"size": 7, "win_length": 4, "rule": "freestyle", "opening_rule": "swap2"}
    hparams = dict(net.hparams)
    del hparams["rows"], hparams["num_actions"]  # decisions without the action count
    save_checkpoint(tmp_path / "bad.pt", {"game": game, "net_hparams": hparams, "net": net.state_dict()})
    with pytest.raises(CheckpointError, match="damaged network shape"):
        load_checkpoint(tmp_path / "bad.pt")
    save_checkpoint(tmp_path / "rule.pt", {"game": {**game, "opening_rule": "soosorv8"}, "net_hparams": net.hparams,
                                           "net": net.state_dict()})  # fmt: skip
    with pytest.raises(CheckpointError, match="names no game"):  # soosorv8 is a renju rule
        load_checkpoint(tmp_path / "rule.pt")
    # A checkpoint of a plain m,n,k game names it as it always did.
    assert game_to_dict(MNKGame(7, 4, "freestyle")) == {"size": 7, "win_length": 4, "rule": "freestyle"}


def test_cli_trains_under_an_opening_rule(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["train", "gomoku", "--board-size", "7", "--win-length", "4", "--rule", "freestyle", "--opening-rule",
            "swap2", "--iterations", "1", "--no-progress", "--parallel-games", "4", "--games-per-iteration", "4",
            "--simulations", "4", "--blocks", "1", "--channels", "8", "--train-steps", "2", "--eval-every", "0",
            "--warm-start", "none", "--no-tensorboard"]  # fmt: skip
    assert cli_main(args) == 0
    out = capsys.readouterr().out
    assert "--opening-rule swap2 --opponent runs/gomoku7_freestyle_swap2/latest.pt" in out
    assert load_checkpoint(tmp_path / "runs/gomoku7_freestyle_swap2")["game"]["opening_rule"] == "swap2"
    assert cli_main(["train", "gomoku", "--opening-rule", "swap2", "--iterations", "1"]) == 2  # swap2 under renju
    assert "swap2 is an opening rule of freestyle and standard, not of renju" in capsys.readouterr().err
