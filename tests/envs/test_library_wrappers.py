"""The RL libraries' own PettingZoo wrappers take every AEC env of the catalog, every opening rule included:
TorchRL's ``PettingZooWrapper`` (with ``check_env_specs``), RLlib's ``PettingZooEnv`` and Tianshou's
``PettingZooEnv``, each playing whole games of random legal moves. None of the three is a dependency; the set-up
(requirements-dev.txt) installs TorchRL and Tianshou through the package's extras, so their tests run in CI, and
each test is skipped, saying so, where its library is missing (docs/libraries.md installs each, RLlib too)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from info_checks import not_numeric

from conformance.cases import ALL, OPENINGS, case_fixture

case = pytest.fixture(params=ALL + OPENINGS, ids=lambda case: case.id)(case_fixture)


def needs(module: str, library: str):
    return pytest.importorskip(module, reason=f"{library} is not installed here (docs/libraries.md installs it)")


def phase_ids(raw) -> dict[str, int] | None:
    """``phase -> phase_id`` of an opening-rule env, None for a game without an opening."""
    opening = getattr(raw.game, "opening", None)
    return None if opening is None else {phase: i for i, phase in enumerate(opening.phases)}


# ------------------------------------------------------------------------------------------------ TorchRL
def test_torchrl_pettingzoo_wrapper_passes_check_env_specs_and_plays_a_game(case):
    needs("torchrl", "TorchRL")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import check_env_specs

    aec = case.env_fn()()
    env = PettingZooWrapper(aec, use_mask=True, seed=0)  # use_mask: one agent acts at a time
    check_env_specs(env, seed=0)
    rollout = env.rollout(1000)  # random actions within the mask, to the end of one game
    raw = aec.unwrapped
    assert raw.game_state.terminal and bool(rollout["next", "done"][-1])  # ended by the rules, not a bad action
    assert rollout.shape == (len(raw.moves),)  # a step a move
    phases = phase_ids(raw)
    if phases is None:
        assert all("info" not in rollout["next", group].keys() for group in env.group_map)  # nothing to read
        return
    # Replayed move by move, the game says what each agent's info should have said after each step.
    state, told = raw.game.new_state(), []
    for action in raw.moves:
        state.play(action)
        told.append([(state.color_of(seat), phases[state.phase]) for seat in (1, 2)])
    for seat, agent in enumerate(raw.possible_agents):  # one group an agent, as the wrapper groups AEC agents
        info = rollout["next", agent, "info"]
        assert set(info.keys()) == {"color_id", "phase_id"}
        carried = list(zip(info["color_id"].flatten().tolist(), info["phase_id"].flatten().tolist()))
        assert carried == [pair[seat] for pair in told]


# -------------------------------------------------------------------------------------------------- RLlib
def test_rllib_pettingzoo_env_passes_its_check_and_plays_games(case):
    needs("ray.rllib.env.wrappers.pettingzoo_env", "RLlib (ray[rllib] and its requirements)")
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    aec = case.env_fn()()
    env = PettingZooEnv(aec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its check steps an action sampled from the space: likely illegal, a warning
        check_multiagent_environments(env)
    rng = np.random.default_rng(0)
    seen = []
    for game in range(2):
        obs, infos = env.reset(seed=game)
        done = False
        while not done:
            ((agent, observation),) = obs.items()
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
            assert all(not_numeric(info) == {} for info in infos.values()), infos
            seen.extend(infos.values())
            done = terminateds["__all__"] or truncateds["__all__"]
        assert aec.unwrapped.game_state.terminal and set(infos) == set(aec.possible_agents)
    if phase_ids(aec.unwrapped) is not None:
        assert all(set(info) == {"color_id", "phase_id"} for info in seen)


# ----------------------------------------------------------------------------------------------- Tianshou
def test_tianshou_pettingzoo_env_collects_games(case):
    needs("tianshou", "Tianshou")
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv

    make = case.env_fn()
    env = PettingZooEnv(make())
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    infos = [info]
    terminated = truncated = False
    while not (terminated or truncated):
        obs, rewards, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["mask"]))))
        infos.append(info)
    assert env.env.unwrapped.game_state.terminal and all(not_numeric(info) == {} for info in infos)
    # Tianshou's own loop: its vector env stacks the infos of its envs; random masked players in both seats.
    players = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)
    envs = DummyVectorEnv([lambda: PettingZooEnv(make()) for _ in range(2)])
    envs.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its stats warn that multi-agent returns are 2-D
        collector = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(2000, 2))
        stats = collector.collect(n_episode=2, reset_before_collect=True)
    assert stats.n_collected_episodes == 2
