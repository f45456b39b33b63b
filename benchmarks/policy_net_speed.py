"""Speed of the structured policy network (``agents.policy_net.MtgNet``): this tree against an
earlier revision, in the same process, on real observations.

Observations come from random play over the theme decks (``MtgVectorEnv``, 16 games). The
network of ``--baseline`` (a git revision; its ``agents/policy_net.py`` is loaded from ``git
show``) gets the same weights as this tree's (the state dicts must match). Each repetition times
both networks, alternating which goes first, on a fresh random slice of the observations:

- forward at batch 1 and 16 (acting: ``torch.inference_mode``) and 256;
- forward plus backward at batch 256 (a PPO minibatch).

One torch thread (as the trainers use). The figures are medians over ``--reps`` repetitions; on a
shared machine compare the ratios, not the absolute times.

    python benchmarks/policy_net_speed.py                        # vs 21c8a36, 7 repetitions
    python benchmarks/policy_net_speed.py --baseline HEAD~3 --reps 11
    python benchmarks/policy_net_speed.py --baseline none        # this tree only
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
CASES = (("forward", 1), ("forward", 16), ("forward", 256), ("forward+backward", 256))


def observations(steps: int, seed: int) -> np.ndarray:
    """Flat observations of 16 games of random play (theme decks), ``17 * (steps + 1)`` rows."""
    from mtg_env.vector import MtgVectorEnv

    venv = MtgVectorEnv(16, seed=seed, max_turns=40)
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [obs]
    for _ in range(steps):
        acts = [rng.choice(np.flatnonzero(m)) for m in venv.action_masks()]
        obs, *_ = venv.step(np.array(acts))
        out.append(obs)
    venv.close()
    return np.concatenate(out)


def load_revision(rev: str):
    """``agents/policy_net.py`` of git revision ``rev``, imported as a separate module."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:agents/policy_net.py"],
                            check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "policy_net_baseline.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("policy_net_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_case(net: torch.nn.Module, obs: torch.Tensor, kind: str, repeat: int) -> float:
    """Milliseconds per call (mean of ``repeat`` calls)."""
    t = time.perf_counter()
    for _ in range(repeat):
        if kind == "forward":
            with torch.inference_mode():
                net(obs)
        else:
            net.zero_grad(set_to_none=True)
            logits, value = net(obs)
            (logits.sum() + value.sum()).backward()
    return (time.perf_counter() - t) / repeat * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="21c8a36",
                    help="git revision to compare with ('none': this tree only)")
    ap.add_argument("--reps", type=int, default=7, help="repetitions (medians are reported)")
    ap.add_argument("--steps", type=int, default=60, help="random-play steps of the 16 games")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    torch.set_num_threads(1)
    sys.path.insert(0, str(ROOT))
    from agents.policy_net import MtgNet
    from mtg_env.encoding.layout import Capacities

    obs = torch.as_tensor(observations(args.steps, args.seed))
    torch.manual_seed(0)
    nets = {"new": MtgNet(Capacities())}
    if args.baseline != "none":
        old = load_revision(args.baseline).MtgNet(Capacities())
        old.load_state_dict(nets["new"].state_dict())
        nets = {"old": old, **nets}
    rng = np.random.default_rng(args.seed)
    times: dict[tuple[str, int, str], list[float]] = {}
    for rep in range(args.reps + 1):  # repetition 0 warms up
        for kind, batch in CASES:
            start = int(rng.integers(0, len(obs) - batch + 1))
            x = obs[start:start + batch]
            repeat = max(1, 32 // batch)
            order = list(nets.items()) if rep % 2 else list(nets.items())[::-1]
            for name, net in order:
                ms = time_case(net, x, kind, repeat)
                if rep:
                    times.setdefault((kind, batch, name), []).append(ms)
    print(f"{len(obs)} observations; medians of {args.reps} repetitions, one torch thread")
    header = f"{'case':>24}" + "".join(f"{name + ' ms':>12}" for name in nets)
    print(header + ("    speedup" if len(nets) == 2 else ""))
    for kind, batch in CASES:
        med = [float(np.median(times[(kind, batch, name)])) for name in nets]
        line = f"{kind + ' @' + str(batch):>24}" + "".join(f"{m:12.2f}" for m in med)
        print(line + (f"    x{med[0] / med[1]:.2f}" if len(med) == 2 else ""))


if __name__ == "__main__":
    main()
