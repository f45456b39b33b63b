"""PPO's rollout buffer without the copies of the observations that sb3-contrib's makes.

The observations are large (21,137 floats each with the default capacities: 173 MB for a
2,048-step rollout) and mostly zeros. ``MaskableRolloutBuffer`` stores them step-major,
``(n_steps, n_envs, ...)``, so ``get()`` copies the whole rollout once to order it env-major
(``swap_and_flatten``), and ``to_torch`` copies every minibatch a second time after the
fancy-indexing copy. :class:`MtgRolloutBuffer` keeps the same arrays env-major underneath (the
step-major shape is a transposed view of them, so ``add`` is unchanged) and lets the minibatch
tensors share the freshly indexed arrays. The samples, their order and therefore the training are
the same as with ``MaskableRolloutBuffer`` (``tests/agents/test_rollout_buffer.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

__all__ = ["MtgRolloutBuffer", "use_mtg_buffer"]


class MtgRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` with env-major storage of the observations and action masks
    (``rollout_buffer_class`` of ``MaskablePPO``; :func:`agents.ppo.train` uses it)."""

    def reset(self) -> None:
        super().reset()
        # The transposed view of an env-major array: get()'s swap_and_flatten turns it back
        # into that contiguous array, and the flatten that follows is a reshape, not a copy.
        self.observations = np.zeros((self.n_envs, self.buffer_size, *self.obs_shape),
                                     self.observation_space.dtype).swapaxes(0, 1)
        self.action_masks = np.ones((self.n_envs, self.buffer_size, self.mask_dims),
                                    np.float32).swapaxes(0, 1)

    def to_torch(self, array: np.ndarray, copy: bool = True) -> th.Tensor:
        # Every array _get_samples passes here is a fresh copy (fancy indexing, flatten), so the
        # tensor can share its memory: PPO's update reads the samples and never writes to them.
        return super().to_torch(array, copy=False)


def use_mtg_buffer(model: Any) -> None:
    """Give a ``MaskablePPO`` model (new or loaded) an :class:`MtgRolloutBuffer` in place of its
    ``MaskableRolloutBuffer``, for flat (``Box``) observations; a Dict observation space keeps
    sb3-contrib's dict buffer. Only the buffer object changes (checkpoints don't store it), so
    the saved model still names sb3-contrib's buffer class and loads anywhere."""
    if not isinstance(model.observation_space, spaces.Box) or \
            isinstance(model.rollout_buffer, MtgRolloutBuffer):
        return
    model.rollout_buffer = MtgRolloutBuffer(
        model.n_steps, model.observation_space, model.action_space, model.device,
        gamma=model.gamma, gae_lambda=model.gae_lambda, n_envs=model.n_envs,
        **(model.rollout_buffer_kwargs or {}))
