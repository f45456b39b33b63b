"""The Ray RLlib self-play example (issue 11, item 9): one shared structured policy for both
seats of the PettingZoo AEC env, smoke-run for one training iteration on a local Ray instance."""

from __future__ import annotations

import pytest

pytest.importorskip("ray.rllib", reason="the RLlib example needs the [rllib] extra (ray[rllib])")
pytest.importorskip("torch", reason="the RLlib example needs torch")

import torch as th

from agents import rllib_selfplay
from agents.policy_net import MtgNet
from mtg_env.encoding.layout import Capacities

TINY = "embed=4,d_row=8,d_ctx=8,hidden=8"


def test_one_iteration_trains_the_shared_policy_and_exports_it(tmp_path, capsys) -> None:
    out = tmp_path / "shared.pt"
    code = rllib_selfplay.main(["--iterations", "1", "--env-runners", "0", "--train-batch", "64",
                                "--minibatch", "32", "--epochs", "1", "--max-turns", "10",
                                "--net", TINY, "--export", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "iteration 1: " in printed and " env steps" in printed
    saved = th.load(out)
    assert saved["net"] == {"embed": 4, "d_row": 8, "d_ctx": 8, "hidden": 8}
    assert saved["timesteps"] >= 64
    net = MtgNet(Capacities(**saved["capacities"]), **saved["net"])
    net.load_state_dict(saved["state_dict"])
    logits, values = net(th.zeros(2, net.obs_size))
    assert logits.shape == (2, net.n_actions) and values.shape == (2,)


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
