"""A stable-baselines3 ``VecEnv`` over the mtg_env vector envs (needs the ``[rl]`` extra).

>>> from mtg_env.vector import MtgVectorEnv, Sb3VecEnv
>>> venv = Sb3VecEnv(MtgVectorEnv(2, seed=0, max_turns=5))
>>> venv.reset().shape[0], venv.env_method("action_masks")[0].dtype
(2, dtype('bool'))

sb3-contrib's ``MaskablePPO`` reads the masks through ``env_method("action_masks")``, so
``MaskablePPO("MlpPolicy", Sb3VecEnv(...))`` trains with exact masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from .subproc import SubprocMtgVectorEnv
from .sync import MtgVectorEnv


class Sb3VecEnv(VecEnv):
    """Adapts :class:`~mtg_env.vector.MtgVectorEnv` or :class:`~mtg_env.vector.SubprocMtgVectorEnv`
    to SB3's ``VecEnv``: ``dones`` is terminated or truncated, a finished game's last observation
    is ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` marks a
    truncation (so SB3 bootstraps its value), and the outcome (``winner``, ``end_reason``,
    ``return``, ``length``) is in that info too."""

    def __init__(self, venv: MtgVectorEnv | SubprocMtgVectorEnv) -> None:
        if not isinstance(venv, MtgVectorEnv | SubprocMtgVectorEnv):
            raise TypeError(f"expected an mtg_env vector env, got {type(venv).__name__}")
        self.venv = venv
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if "final_obs" in info:
            for i in np.flatnonzero(info["_final_obs"]):
                final = info["final_info"]
                infos[i] = {k: final[k][i] for k in final
                            if not k.startswith("_") and final.get("_" + k, info["_final_obs"])[i]}
                infos[i]["terminal_observation"] = info["final_obs"][i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, A)`` bool masks of the pending learner decisions."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the games of an mtg_env vector env have no settable attribute "
                             f"{attr_name!r}; build a new vector env with the config you need")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in idx]
        raise AttributeError(f"mtg_env vector envs support env_method('action_masks') only, "
                             f"not {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.venv, attr_name)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


__all__ = ["Sb3VecEnv"]
