"""The MaskablePPO baseline script: its exploring-starts wrapper, and a tiny end-to-end run."""

from __future__ import annotations

import numpy as np
import pytest

from baseline_scripts import load_baseline

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def script():
    return load_baseline("studies/sb3_maskable_ppo")


def test_random_opening_hands_over_a_live_position_with_the_learner_to_move(script):
    from boardgame_envs.envs.single_agent import SingleAgentEnv

    env = script.RandomOpening(SingleAgentEnv(game="tictactoe", seat="random", opponent="alphabeta", flatten=True), 2)
    seen = set()
    env.reset(seed=0)
    for _ in range(300):
        obs, info = env.reset()
        aec = env.unwrapped.aec
        state = aec.game_state
        assert not state.terminal
        assert aec.agent_selection == env.unwrapped.learner
        assert (info["action_mask"] == (state.board == 0)).all()
        # Stones of the learner: 0..2 opening moves (its first real move is still to come).
        learner_stones = int(obs.reshape(3, 3, 2)[:, :, 0].sum())
        assert 0 <= learner_stones <= 2
        seen.add(learner_stones)
    assert seen == {0, 1, 2}


def test_random_opening_is_reproducible_under_reset_seed(script):
    from boardgame_envs.envs.single_agent import SingleAgentEnv

    def boards(seed):
        env = script.RandomOpening(SingleAgentEnv(game="tictactoe", seat="random", opponent="alphabeta", flatten=True), 2)
        first = env.reset(seed=seed)[0]
        return [first, *(env.reset()[0] for _ in range(20))]

    assert all((a == b).all() for a, b in zip(boards(3), boards(3)))
    assert any((a != b).any() for a, b in zip(boards(3), boards(4)))


def test_tiny_training_run_writes_the_report(script, tmp_path):
    out = tmp_path / "report.md"
    args = ["--steps", "2048", "--n-steps", "64", "--batch-size", "128", "--epochs", "1", "--games", "3",
            "--seed", "5", "--out", str(out)]  # fmt: skip
    assert script.main(args) == 0
    text = out.read_text()
    assert "each training game opens with 0..2 random learner moves" in text
    for row in ("| random | first | 3 |", "| random | second | 3 |", "| alphabeta | first | 3 |"):
        assert row in text
    assert "Exact audit" in text
    assert np.isfinite(float(text.split("Training wall time ")[1].split(" s")[0]))


def test_negative_opening_is_refused(script):
    with pytest.raises(SystemExit):
        script.main(["--opening", "-1"])
