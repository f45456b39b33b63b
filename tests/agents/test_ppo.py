"""Smoke run of the PPO baseline script (CleanRL/SB3 style: typed config, one file)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib", reason="the PPO baseline needs the [rl] extra (torch, sb3-contrib)")

from agents.ppo import PPOAgent, PPOConfig, evaluate, train
from mtg_env import SingleAgentEnv


def test_ppo_trains_saves_evaluates_and_plays_as_an_opponent(tmp_path) -> None:
    cfg = PPOConfig(total_timesteps=256, n_steps=64, batch_size=64, n_epochs=1, max_turns=15,
                    policy="mlp", net_arch=[32], num_envs=2, num_workers=0, eval_every=0,
                    checkpoint_every=0, eval_episodes=2, run_dir=str(tmp_path / "run"),
                    out=str(tmp_path / "ppo.zip"))
    model = train(cfg)
    assert (tmp_path / "ppo.zip").exists()
    res = evaluate(model, cfg, episodes=2)
    assert res["wins"] + res["losses"] + res["draws"] == 2
    agent = PPOAgent(str(tmp_path / "ppo.zip"))
    env = SingleAgentEnv(opponent=agent, seed=3, flatten=True, max_turns=10)
    env.reset(seed=3)
    for _ in range(50):
        mask = env.action_masks()
        _, _, term, trunc, _ = env.step(int(mask.nonzero()[0][0]))
        if term or trunc:
            break
