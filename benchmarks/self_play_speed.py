"""Collection speed by training opponent: learner steps/s of the vector env over worker processes
against random, heuristic, a self-play pool, and frozen snapshots only.

The learner is the structured policy (``agents.policy_net.MtgPolicy``, default sizes, untrained,
sampling) deciding for all games in the parent process, as in PPO's rollout collection;
``--learner random`` picks uniformly random legal actions instead (env and opponent cost only).
Pool opponents: ``pool`` = random + heuristic + ``--snapshots`` frozen copies of the policy,
uniform weights; ``snapshots`` = the frozen copies only. Frozen policies run in the workers,
deciding each worker's waiting games per snapshot in one forward pass (one torch thread each).

    python benchmarks/self_play_speed.py                     # 16 games, 2 workers, 600 steps each
    python benchmarks/self_play_speed.py --steps 200 --opponents random,pool --learner random
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch


def build_policy(num_envs: int):
    from sb3_contrib import MaskablePPO

    from agents.policy_net import MtgPolicy
    from mtg_env.vector import MtgVectorEnv, Sb3VecEnv

    env = Sb3VecEnv(MtgVectorEnv(1, seed=0))
    return MaskablePPO(MtgPolicy, env, n_steps=8, batch_size=8, seed=0,
                       policy_kwargs={"capacities": {}}).policy


def opponent_for(name: str, policy, snapshots: int):
    from agents.self_play import FrozenPolicy
    from mtg_env.vector import OpponentMix

    frozen = {f"snap_{k}": FrozenPolicy.from_policy(policy, f"snap_{k}", seed=k)
              for k in range(snapshots)}
    if name == "pool":
        return OpponentMix({"random": "random", "heuristic": "heuristic", **frozen})
    if name == "snapshots":
        return OpponentMix(frozen)
    return name


def run(venv, policy, steps: int, learner: str, seed: int) -> tuple[float, float]:
    """(learner steps/s, games/s) over ``steps`` batched steps after one warm-up step."""
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset(seed=seed)
    n = venv.num_envs
    games = 0
    t0 = 0.0
    for k in range(steps + 1):
        if k == 1:
            t0 = time.perf_counter()
        masks = venv.action_masks()
        if learner == "policy":
            actions, _ = policy.predict(obs, action_masks=masks, deterministic=False)
        else:
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, _, term, trunc, _ = venv.step(actions)
        games += int((term | trunc).sum()) if k else 0
    dt = time.perf_counter() - t0
    return steps * n / dt, games / dt


def main() -> None:
    from mtg_env.env.config import default_deck_names, load_deck
    from mtg_env.vector import SubprocMtgVectorEnv

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=600, help="batched steps per opponent")
    ap.add_argument("--num-envs", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--snapshots", type=int, default=4, help="frozen snapshots in the pool")
    ap.add_argument("--opponents", default="random,heuristic,pool,snapshots")
    ap.add_argument("--learner", choices=("policy", "random"), default="policy")
    ap.add_argument("--max-turns", type=int, default=40)
    args = ap.parse_args()
    torch.set_num_threads(1)
    for name in default_deck_names():  # forked workers inherit the loaded cards
        load_deck(name)
    policy = build_policy(args.num_envs)
    print(f"{args.num_envs} games over {args.workers} workers, learner: {args.learner}")
    print(f"{'opponent':<12}{'learner steps/s':>16}{'games/s':>10}")
    for name in args.opponents.split(","):
        venv = SubprocMtgVectorEnv(args.num_envs, opponent=opponent_for(name, policy,
                                                                          args.snapshots),
                                   seed=0, num_workers=args.workers, context="fork",
                                   max_turns=args.max_turns)
        try:
            sps, gps = run(venv, policy, args.steps, args.learner, seed=0)
        finally:
            venv.close()
        print(f"{name:<12}{sps:>16,.0f}{gps:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
