"""Multi-agent self-play with Ray RLlib: one shared structured policy plays both seats.

The PettingZoo AEC env (``mtg_env.env(flatten=True)``) goes through RLlib's ``PettingZooEnv``
wrapper; both agents (``player_0`` and ``player_1``) map to one policy, ``shared``, so every game
is the policy against itself and both seats' experience trains it (parameter-sharing
self-play). The policy is :class:`agents.policy_net.MtgNet`, the same structured network as
``agents.ppo``, in an RLlib ``RLModule`` that applies the env's action mask to the logits
(illegal actions get a logit of ``FLOAT_MIN``, so they are never sampled).

Locally (starts a Ray instance on this machine; 2 iterations, environments in the driver)::

    python -m agents.rllib_selfplay --iterations 2 --env-runners 0

On a cluster: start Ray there (``ray start --head`` on the head node, ``ray start
--address=HEAD:6379`` on the others), then run the script on a node of the cluster with
``--address auto`` (or set ``RAY_ADDRESS``) and as many ``--env-runners`` as there are spare
cores; each env runner is a Ray actor stepping ``--envs-per-runner`` games, and the learner
gathers their episodes. Every node needs this package installed (``pip install -e ".[rllib]"``).

After training, ``--export PATH.zip`` writes the shared network as a policy checkpoint
(:func:`agents.checkpoint.save_net_checkpoint`: the same format as ``agents.ppo``'s, with the
RLlib run in its metadata), so ``--agent ppo:PATH.zip`` plays it in matchups and tournaments and
``init_from`` fine-tunes it.

Needs the ``[rllib]`` extra (``ray[rllib]``, torch).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import torch as th
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from agents.policy_net import MtgNet
from mtg_env.encoding.layout import Capacities

__all__ = ["MtgRLModule", "build_config", "env_creator", "main"]

POLICY = "shared"
NET_KEYS = ("embed", "d_row", "d_ctx", "hidden")
ENV_NAME = "mtg_env_selfplay"


def env_creator(env_config: dict[str, Any]):
    """RLlib's view of the AEC env: ``PettingZooEnv(mtg_env.env(flatten=True, **env_config))``,
    with ``illegal_action="raise"`` unless ``env_config`` says otherwise: the module masks the
    illegal actions, so one reaching the env is a bug that should stop training, as in the
    vector envs, rather than a lost game to learn from."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    import mtg_env

    return PettingZooEnv(mtg_env.env(flatten=True, **{"illegal_action": "raise", **env_config}))


class MtgRLModule(TorchRLModule, ValueFunctionAPI):
    """:class:`MtgNet` as an RLlib module: masked action logits and the state value.

    ``model_config``: ``capacities`` (the env's capacity keys) and the sizes of :class:`MtgNet`
    (``embed``, ``d_row``, ``d_ctx``, ``hidden``). The observation space is the env's
    ``Dict(observation=Box, action_mask=Box)``.
    """

    def setup(self) -> None:
        cfg = dict(self.model_config or {})
        caps = Capacities(**(cfg.get("capacities") or {}))
        # RLlib merges its own defaults (vf_share_layers, ...) into model_config: keep ours.
        self.net_kwargs = {k: cfg[k] for k in NET_KEYS if k in cfg}
        space = self.observation_space
        if not isinstance(space, gym.spaces.Dict) or "action_mask" not in space.spaces:
            raise ValueError(f"MtgRLModule needs the env's Dict(observation, action_mask) "
                             f"observations, got {space}")
        self.net = MtgNet(caps, **self.net_kwargs)
        self.capacities = dict(cfg.get("capacities") or {})
        if space["observation"].shape != (self.net.obs_size,):
            raise ValueError(f"the observation has {space['observation'].shape} values but the "
                             f"capacities {caps} make {self.net.obs_size}: pass the env's "
                             "capacities in model_config={'capacities': {...}}")

    def _masked(self, batch: dict[str, Any]) -> tuple[th.Tensor, th.Tensor]:
        obs = batch[Columns.OBS]
        logits, values = self.net(obs["observation"])
        mask = obs["action_mask"].to(logits.dtype)
        return logits + th.clamp(th.log(mask), min=FLOAT_MIN), values

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._masked(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, values = self._masked(batch)
        # The values ride along as the "embeddings", so the loss needs no second pass.
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: values}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> th.Tensor:
        if embeddings is not None:
            return embeddings
        return self._masked(batch)[1]


def build_config(env_config: dict[str, Any] | None = None, net: dict[str, Any] | None = None,
                 env_runners: int = 0, envs_per_runner: int = 1, train_batch: int = 512,
                 minibatch: int = 128, epochs: int = 2, lr: float = 3e-4, seed: int = 0):
    """The ``PPOConfig``: the env, one shared policy for both seats, the module, PPO settings."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    env_config = dict(env_config or {})
    register_env(ENV_NAME, env_creator)
    model = {"capacities": dict(env_config.get("capacities") or {}),
             **(net or {"embed": 16, "d_row": 64, "d_ctx": 128, "hidden": 64})}
    return (
        PPOConfig()
        # RLlib's env check steps unmasked random actions, which this env raises on as illegal.
        .environment(ENV_NAME, env_config=env_config, disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=envs_per_runner)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, *a, **k: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY: RLModuleSpec(module_class=MtgRLModule, model_config=model)}))
        .training(train_batch_size_per_learner=train_batch, minibatch_size=minibatch,
                  num_epochs=epochs, lr=lr, gamma=0.995, lambda_=0.95, entropy_coeff=0.01)
        .debugging(seed=seed)
    )


def _get(d: dict, *path: str, default: Any = None) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return default
        d = d[key]
    return d


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=2, help="training iterations (default 2)")
    ap.add_argument("--env-runners", type=int, default=0,
                    help="Ray actors stepping games (0: in the driver; default 0)")
    ap.add_argument("--envs-per-runner", type=int, default=1)
    ap.add_argument("--train-batch", type=int, default=512, help="env steps per iteration")
    ap.add_argument("--minibatch", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--max-turns", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--net", default="embed=16,d_row=64,d_ctx=128,hidden=64",
                    help="network sizes as key=value pairs (default: agents.ppo's)")
    ap.add_argument("--address", default=None,
                    help="Ray cluster address ('auto' joins a running cluster; default: a local "
                         "instance)")
    ap.add_argument("--export", default=None,
                    help="write the trained policy here as a checkpoint zip (ppo:PATH plays it)")
    args = ap.parse_args(argv)
    if args.iterations < 1 or args.train_batch < 1 or args.minibatch < 1 or args.epochs < 1:
        ap.error("--iterations, --train-batch, --minibatch and --epochs must be at least 1")
    if args.env_runners < 0 or args.envs_per_runner < 1 or args.max_turns < 1:
        ap.error("--env-runners must be at least 0, --envs-per-runner and --max-turns at least 1")
    try:
        net = {k: int(v) for k, v in (kv.split("=", 1) for kv in args.net.split(","))}
    except ValueError:
        ap.error(f"--net: expected key=integer pairs separated by commas, got {args.net!r}")
    if not set(net) <= set(NET_KEYS) or min(net.values()) < 1:
        ap.error(f"--net: keys are {', '.join(NET_KEYS)}, values at least 1; got {args.net!r}")
    if args.export:
        parent = Path(args.export).resolve().parent
        if not parent.is_dir():
            ap.error(f"--export: directory {parent} does not exist")

    import ray

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    try:
        config = build_config({"max_turns": args.max_turns, "seed": args.seed}, net=net,
                              env_runners=args.env_runners, envs_per_runner=args.envs_per_runner,
                              train_batch=args.train_batch, minibatch=args.minibatch,
                              epochs=args.epochs, seed=args.seed)
        algo = config.build_algo()
        t0 = time.perf_counter()
        steps = 0
        for it in range(1, args.iterations + 1):
            result = algo.train()
            steps = int(_get(result, "num_env_steps_sampled_lifetime", default=0)
                        or _get(result, "env_runners", "num_env_steps_sampled_lifetime", default=0))
            episodes = _get(result, "env_runners", "num_episodes_lifetime", default="?")
            length = _get(result, "env_runners", "episode_len_mean", default=float("nan"))
            loss = _get(result, "learners", POLICY, "policy_loss", default=float("nan"))
            print(f"iteration {it}: {steps} env steps, {episodes} episodes, mean episode length "
                  f"{float(length):.0f}, policy loss {float(loss):.4f}, "
                  f"{time.perf_counter() - t0:.0f}s", flush=True)
        if args.export:
            from agents.checkpoint import save_net_checkpoint

            module = algo.get_module(POLICY)
            out = save_net_checkpoint(
                module.net.state_dict(), args.export, net=module.net_kwargs,
                capacities=module.capacities, max_turns=args.max_turns, seed=args.seed,
                opponent="self_play",
                extra={"rllib_self_play": {"iterations": args.iterations, "timesteps": steps,
                                           "train_batch": args.train_batch,
                                           "minibatch": args.minibatch, "epochs": args.epochs,
                                           "env_runners": args.env_runners}})
            print(f"wrote {out} (play it with --agent ppo:{out})")
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
