"""The Ray RLlib self-play example: one shared structured policy for both
seats of the PettingZoo AEC env, smoke-run for one training iteration on a local Ray instance."""

from __future__ import annotations

import pytest

pytest.importorskip("ray.rllib", reason="the RLlib example needs the [rllib] extra (ray[rllib])")
pytest.importorskip("torch", reason="the RLlib example needs torch")

import torch as th

from agents import rllib_selfplay
from agents.policy_net import MtgNet

TINY = "embed=4,d_row=8,d_ctx=8,hidden=8"


def test_one_iteration_trains_the_shared_policy_and_exports_it(tmp_path, capsys) -> None:
    """One RLlib iteration, then ``--export``: the shared network is written as a policy
    checkpoint with the RLlib run in its metadata, and plays as ``ppo:PATH`` like any trained
    policy (legal games in a matchup)."""
    from agents import make_agent
    from agents.checkpoint import read_meta
    from mtg_env.sim import run_matchup

    out = tmp_path / "shared.zip"
    code = rllib_selfplay.main(["--iterations", "1", "--env-runners", "0", "--train-batch", "64",
                                "--minibatch", "32", "--epochs", "1", "--max-turns", "10",
                                "--net", TINY, "--export", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "iteration 1: " in printed and " env steps" in printed and f"ppo:{out}" in printed
    meta = read_meta(out)
    assert meta["config"]["net"] == {"embed": 4, "d_row": 8, "d_ctx": 8, "hidden": 8}
    assert meta["config"]["opponent"] == "self_play"
    assert meta["rllib_self_play"]["timesteps"] >= 64
    agent = make_agent(f"ppo:{out}")
    net = agent.model.policy.net
    assert isinstance(net, MtgNet) and net.card_embedding.embedding_dim == 4
    logits, values = net(th.zeros(2, net.obs_size))
    assert logits.shape == (2, net.n_actions) and values.shape == (2,)
    res = run_matchup("kamahls_temper", "molimos_might", games=2, seed=1,
                      agents=(f"ppo:{out}", "random"), workers=1, max_turns=8)
    assert len(res.results) == 2 and all(r.error is None for r in res.results)


def test_the_module_masks_illegal_actions() -> None:
    """Only legal actions (mask 1) keep a finite logit; the policy never samples the others."""
    import gymnasium as gym
    import numpy as np
    from ray.rllib.core.columns import Columns

    import mtg_env

    env = mtg_env.env(flatten=True)
    space = env.observation_space("player_0")
    module = rllib_selfplay.MtgRLModule(observation_space=space, action_space=env.action_space("player_0"),
                                        model_config={"embed": 4, "d_row": 8, "d_ctx": 8, "hidden": 8})
    env.reset(seed=3)
    obs, *_ = env.last()
    batch = {Columns.OBS: {"observation": th.as_tensor(obs["observation"][None]),
                           "action_mask": th.as_tensor(obs["action_mask"][None])}}
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    legal = np.flatnonzero(obs["action_mask"])
    assert int(th.argmax(logits)) in legal
    illegal = np.setdiff1d(np.arange(logits.shape[0]), legal)
    assert bool((logits[illegal] < -1e30).all()) and bool((logits[legal] > -1e30).all())
    assert isinstance(space, gym.spaces.Dict)


@pytest.mark.parametrize("argv", [["--iterations", "0"], ["--net", "embed=x"], ["--net", "width=3"],
                                  ["--export", "/nonexistent/dir/x.pt"], ["--env-runners", "-1"]])
def test_bad_options_are_one_line_errors_before_ray_starts(argv, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        rllib_selfplay.main(argv)
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err
