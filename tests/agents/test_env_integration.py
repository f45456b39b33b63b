"""Agents in the PettingZoo / Gymnasium env (skipped while mtg_env.env is not importable)."""

from __future__ import annotations

import pytest

from agents import EnvPolicy, HeuristicAgent, RandomAgent


def test_heuristic_opponent_in_single_agent_env() -> None:
    env_mod = pytest.importorskip("mtg_env.env")
    opponent = HeuristicAgent(strict=True)
    env = env_mod.SingleAgentEnv(opponent=opponent, seed=1, max_turns=30)
    obs, _ = env.reset(seed=1)
    learner = RandomAgent(seed=2)
    for _ in range(2000):
        obs, _, terminated, truncated, _ = env.step(learner.act_masked(obs, env.action_masks()))
        if terminated or truncated:
            break
    assert terminated or truncated
    assert opponent.unmapped == 0 and opponent.errors == 0


def test_env_policy_plays_the_aec_env() -> None:
    env_mod = pytest.importorskip("mtg_env.env")
    aec = env_mod.raw_env(seed=4, max_turns=30) if hasattr(env_mod, "raw_env") else None
    if aec is None:
        pytest.skip("mtg_env.env has no raw_env")
    aec.reset(seed=4)
    policy = EnvPolicy(HeuristicAgent(strict=True), aec, seed=0)
    for _ in aec.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        index = policy(obs["observation"], obs["action_mask"])
        assert aec.action_text(index)  # a legal index
        aec.step(index)
    assert policy.agent.unmapped == 0  # every engine choice had its env index
