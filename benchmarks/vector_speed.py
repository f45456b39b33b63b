"""Vector env speed: learner steps per second with N games in one process and over workers.

The learner picks a uniformly random legal index in every game (vectorised over the batch); the
opponent is the random agent inside the vector env. Reports learner steps/s (the opponent's
decisions come on top) and games/s, wall clock, medians of runs.

    python benchmarks/vector_speed.py                       # N = 16 and 64; 1 process, 1 and 2 workers
    python benchmarks/vector_speed.py --steps 200 --runs 3 --sizes 16
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from mtg_env.vector import MtgVectorEnv, SubprocMtgVectorEnv


def run(venv, steps: int, seed: int) -> tuple[float, float, float]:
    """(learner steps/s, games/s, games per CPU second of this process) over ``steps`` batched
    steps (the CPU figure leaves out worker processes: meaningful in-process only)."""
    rng = np.random.default_rng(seed)
    venv.reset(seed=seed)
    n = venv.num_envs
    games = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(steps):
        masks = venv.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # uniform among legal
        _, _, term, trunc, _ = venv.step(actions)
        games += int((term | trunc).sum())
    dt = time.perf_counter() - t0
    return steps * n / dt, games / dt, games / (time.process_time() - c0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=400, help="batched steps per run")
    ap.add_argument("--runs", type=int, default=3, help="runs per configuration (median shown)")
    ap.add_argument("--sizes", default="16,64", help="comma-separated numbers of games")
    args = ap.parse_args()
    print(f"{'configuration':<40}{'learner steps/s':>16}{'games/s':>10}{'cpu games/s':>13}")
    for n in (int(s) for s in args.sizes.split(",")):
        configs = [(f"MtgVectorEnv N={n}", lambda n=n: MtgVectorEnv(n)),
                   (f"SubprocMtgVectorEnv N={n} workers=1",
                    lambda n=n: SubprocMtgVectorEnv(n, num_workers=1, context="fork")),
                   (f"SubprocMtgVectorEnv N={n} workers=2",
                    lambda n=n: SubprocMtgVectorEnv(n, num_workers=2, context="fork"))]
        for name, make in configs:
            venv = make()
            try:
                results = [run(venv, args.steps, seed) for seed in range(args.runs)]
            finally:
                venv.close()
            sps = statistics.median(r[0] for r in results)
            gps = statistics.median(r[1] for r in results)
            cps = statistics.median(r[2] for r in results) if "Subproc" not in name else float("nan")
            print(f"{name:<40}{sps:>16,.0f}{gps:>10.1f}{cps:>13.1f}")


if __name__ == "__main__":
    main()
