"""Self-play and learner throughput of expert iteration, with and without network inference.

    python benchmarks/exit_speed.py                      # 8 games, 4 at once, iterations 4
    python benchmarks/exit_speed.py --games 16 --iterations 8 --runs 3

Plays the same self-play games (the guided search for both seats, both recorded, random
built-in deck pairings) in this process three ways, and reports positions (recorded searched
decisions) per CPU second and games per CPU second, medians over ``--runs``:

- ``network``: the shipped network gives the priors and scores the leaves (``mix``), requests of
  the concurrent games batched (what ``agents.expert_iteration`` runs);
- ``network, one game at a time``: the same with ``games_at_once=1`` (no batching across games);
- ``no inference``: a stand-in that answers uniform priors and a value of 0.5 without encoding or
  running the network (leaves scored by the hand-written evaluation alone, ``mix=0``), so the
  rest of the search's cost shows: rollouts, sampling, recording.

Then the learner: samples per second of ``train_generation`` on the network-played games' data.
One torch thread, CPU.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import torch

from agents.expert_iteration import (
    ExItConfig,
    load_window,
    play_games,
    samples_from_games,
    selfplay_specs,
    train_generation,
)
from agents.policy_value import Evaluation, PolicyValueNet


class NoInference(PolicyValueNet):
    """Uniform priors over the legal options and a value of 0.5, without the network."""

    def evaluate(self, positions: Any) -> list[Evaluation]:
        out = []
        for game, player in positions:
            d = game.decision
            texts = [a.text for a in d.options] if d is not None and d.player == player else []
            out.append(Evaluation({t: 1.0 / len(texts) for t in texts}, 0.5))
        self.positions += len(out)
        return out


def _play(cfg: ExItConfig, net: PolicyValueNet, at_once: int, mix: float) -> tuple[float, list]:
    specs = selfplay_specs(cfg, 1, 0, [])
    search = dict(cfg.search_kwargs(cfg.noise), mix=mix)
    t = time.process_time()
    results = play_games(specs, {"gen_000": net}, at_once, search, cfg.max_turns)
    return time.process_time() - t, results


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--at-once", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    cfg = ExItConfig(games_per_generation=args.games, iterations=args.iterations, seed=args.seed,
                     opponents={"self": 1.0}, workers=0)
    net = PolicyValueNet.load("trained", device="cpu")
    null = NoInference(net.net)
    rows: dict[str, list[tuple[float, float]]] = {}
    data = None
    for _ in range(args.runs):
        for name, pv, at_once, mix in (("network", net, args.at_once, cfg.mix),
                                       ("network, one game at a time", net, 1, cfg.mix),
                                       ("no inference", null, args.at_once, 0.0)):
            cpu, results = _play(cfg, pv, at_once, mix)
            arrays = samples_from_games(results, 1)
            positions = len(arrays["z"])
            games = sum(1 for r in results if not r["error"])
            rows.setdefault(name, []).append((positions / cpu, games / cpu))
            if name == "network":
                data = arrays
    print(f"self-play: {args.games} games, iterations {args.iterations}, {args.at_once} at once, "
          f"medians of {args.runs} run(s), CPU time, one process\n")
    print("| configuration | positions per CPU s | games per CPU s |")
    print("|---|---:|---:|")
    for name, vals in rows.items():
        print(f"| {name} | {statistics.median(v[0] for v in vals):.1f} | "
              f"{statistics.median(v[1] for v in vals):.3f} |")
    assert data is not None
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        import numpy as np

        np.savez(Path(tmp) / "gen_001.npz", **data)
        window = load_window(tmp, [1])
        state = {k: v.clone() for k, v in net.net.state_dict().items()}
        caps = {f: getattr(net.caps, f) for f in net.caps.__dataclass_fields__}
        _, metrics = train_generation(cfg, state, net.net_kwargs, caps, window, 1)
    print(f"\nlearner: {metrics['train_samples']} samples x {cfg.epochs} epochs, "
          f"{metrics['learner_samples_per_s']:.0f} samples/s (batch {cfg.batch_size}, 1 thread)")


if __name__ == "__main__":
    main()
