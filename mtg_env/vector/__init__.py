"""Vector envs for training: many games stepped together into preallocated batch arrays.

- :class:`MtgVectorEnv`: N games in this process (Gymnasium ``VectorEnv``, SAME_STEP autoreset).
- :class:`SubprocMtgVectorEnv`: the same over worker processes writing into shared memory.
- :class:`Sb3VecEnv`: either one as a stable-baselines3 ``VecEnv`` with ``action_masks()`` for
  sb3-contrib's ``MaskablePPO`` (needs the ``[rl]`` extra).

The opponent is ``"random"``, any agent (by name or object), a policy, a
:class:`BatchPolicy` that decides for every waiting game in one call (self-play), or an
:class:`OpponentMix` of those drawn per episode (a self-play pool, ``agents.self_play``). See
``docs/env.md`` for the figures.
"""

from typing import Any

from .batch import BatchPolicy, GameBatch, OpponentMix
from .subproc import SubprocMtgVectorEnv
from .sync import MtgVectorEnv

__all__ = ["BatchPolicy", "GameBatch", "MtgVectorEnv", "OpponentMix", "Sb3VecEnv",
           "SubprocMtgVectorEnv"]


def __getattr__(name: str) -> Any:
    if name == "Sb3VecEnv":  # imports stable-baselines3 only when asked for
        from .sb3 import Sb3VecEnv

        return Sb3VecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
