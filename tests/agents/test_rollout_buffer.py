"""PPO's rollout buffer (agents/rollout_buffer.py): the same minibatches as sb3-contrib's
``MaskableRolloutBuffer`` in the same order, without copying the rollout's observations, and
installed by ``agents.ppo.train`` without changing what a checkpoint stores."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="PPO training needs the [rl] extra (torch, sb3-contrib)")

import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from agents.rollout_buffer import MtgRolloutBuffer, use_mtg_buffer

N_STEPS, N_ENVS, D, A = 8, 3, 50, 7


def _filled(cls: type) -> MaskableRolloutBuffer:
    """A full buffer of ``cls`` with the same random rollout every time."""
    rng = np.random.default_rng(0)
    buf = cls(N_STEPS, spaces.Box(-10, 10, (D,), np.float32), spaces.Discrete(A), "cpu",
              gae_lambda=0.95, gamma=0.99, n_envs=N_ENVS)
    for _ in range(N_STEPS):
        buf.add(rng.normal(size=(N_ENVS, D)).astype(np.float32), rng.integers(0, A, (N_ENVS, 1)),
                rng.normal(size=N_ENVS), rng.random(N_ENVS) < 0.2,
                th.from_numpy(rng.normal(size=N_ENVS)), th.from_numpy(rng.normal(size=N_ENVS)),
                action_masks=rng.random((N_ENVS, A)) < 0.5)
    buf.compute_returns_and_advantage(th.zeros(N_ENVS), np.zeros(N_ENVS, bool))
    return buf


def test_minibatches_equal_sb3_contribs_in_the_same_order() -> None:
    np.random.seed(3)
    theirs = [list(b) for _ in range(2) for b in _filled(MaskableRolloutBuffer).get(5)]
    np.random.seed(3)
    ours = [list(b) for _ in range(2) for b in _filled(MtgRolloutBuffer).get(5)]
    assert len(ours) == len(theirs) == 2 * -(-N_STEPS * N_ENVS // 5)
    for a, b in zip(theirs, ours, strict=True):
        for x, y in zip(a, b, strict=True):
            assert x.dtype == y.dtype and th.equal(x, y)


def test_the_rollout_is_flattened_without_a_copy() -> None:
    buf = _filled(MtgRolloutBuffer)
    stored = buf.observations
    next(buf.get(4))
    # env-major underneath: the flattened rollout is a view of the array add() wrote into
    assert np.shares_memory(buf.observations, stored)
    assert buf.observations.shape == (N_STEPS * N_ENVS, D)
    # the rows are env-major, as sb3's swap_and_flatten orders them
    np.testing.assert_array_equal(buf.observations[N_STEPS], stored[0, 1])


def test_ppo_training_uses_it_and_checkpoints_do_not_name_it(tmp_path) -> None:
    from sb3_contrib import MaskablePPO

    from agents.checkpoint import load_checkpoint
    from agents.ppo import PPOConfig, train

    cfg = PPOConfig(total_timesteps=64, num_envs=2, num_workers=0, n_steps=32, batch_size=32,
                    n_epochs=1, net={"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8},
                    eval_every=0, checkpoint_every=0, run_dir=str(tmp_path / "run"))
    model = train(cfg)
    assert isinstance(model.rollout_buffer, MtgRolloutBuffer)
    loaded, _ = load_checkpoint(tmp_path / "run" / "final.zip")
    assert loaded.rollout_buffer_class is MaskableRolloutBuffer
    use_mtg_buffer(loaded)
    assert isinstance(loaded.rollout_buffer, MtgRolloutBuffer)
    assert isinstance(loaded, MaskablePPO)
