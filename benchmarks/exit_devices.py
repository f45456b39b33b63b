"""Expert iteration's throughput on each torch device this machine has: the check to run once on
a CUDA machine (issue: "GPU where there is one").

    python benchmarks/exit_devices.py                       # CPU, and CUDA when torch sees it
    python benchmarks/exit_devices.py --workers 1,8,15 --out results/exit_devices.md

Four measurements, each on every device (``cpu``, and ``cuda`` when present), all with the
shipped network and the self-play settings of ``configs/exit.yaml`` (``--iterations`` worlds per
searched decision, random pairings of every built-in deck):

1. **Network alone**: positions per second of ``PolicyValueNet.evaluate`` (encoding included)
   and of the forward pass alone on the encoded observations, at batch 1, 16, 64 and 256.
   Positions come from heuristic self-play over random deck pairings.
2. **Self-play in one process**: ``play_games`` with the network on the device, 4 and 16 games
   at once (their requests batched into one forward pass per step): positions (recorded searched
   decisions) per wall second.
3. **Self-play on worker processes**: ``run_games`` on ``--workers`` processes, the workers'
   networks on the device (``play_device``): positions per wall second, the scaling a many-core
   machine gives.
4. **Learner**: ``train_generation`` on the self-play samples of 3, one epoch per batch size
   (256, 1024, 4096): samples per second, CPU on one thread and on all cores, and CUDA.

Every figure is one run (the machine is lent for minutes): compare within the table, not across
machines. Writes the tables to stdout and to ``--out`` (markdown) with the raw numbers beside it
as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.expert_iteration import (
    ExItConfig,
    load_window,
    play_games,
    run_games,
    samples_from_games,
    selfplay_specs,
    train_generation,
)
from agents.heuristic import HeuristicAgent
from agents.policy_value import PolicyValueNet
from mtg_env.engine.deck import expand_deck_groups, load_deck
from mtg_env.engine.game import Game

BATCHES = (1, 16, 64, 256)
LEARNER_BATCHES = (256, 1024, 4096)


class Report:
    """Markdown lines printed as they come and kept for ``--out``; raw figures for the JSON."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.raw: dict[str, Any] = {}

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)


def positions(count: int, seed: int) -> list[tuple[Game, int]]:
    """``count`` decision points of heuristic-against-heuristic games (copies), random pairings."""
    rng = random.Random(seed)
    names = expand_deck_groups(["all"])
    out: list[tuple[Game, int]] = []
    while len(out) < count:
        decks = [load_deck(rng.choice(names)) for _ in range(2)]
        game = Game.new(decks, seed=rng.randrange(2**31))
        agents = [HeuristicAgent() for _ in range(2)]
        for i, a in enumerate(agents):
            a.reset(i, rng.randrange(2**31))
        while game.decision is not None and len(out) < count and game.turn <= 30:
            d = game.decision
            if len(d.options) > 1 and rng.random() < 0.3:
                out.append((game.copy(), d.player))
            game.apply(agents[d.player].act(game.view(d.player)))
    return out


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def network_alone(rep: Report, devices: list[str], pos: list[tuple[Game, int]]) -> None:
    rep.say("## 1. The network alone (positions per second)\n")
    rep.say("| device | batch | evaluate (encoding + forward) | forward only |")
    rep.say("|---|---:|---:|---:|")
    for device in devices:
        pv = PolicyValueNet.load("trained", device=device)
        obs = np.stack([pv.encode(g, p)[1] for g, p in pos]).astype(np.float32)
        for batch in BATCHES:
            chunks = [pos[a:a + batch] for a in range(0, len(pos) - batch + 1, batch)][:64]
            pv.evaluate(chunks[0])  # warm-up (CUDA kernels, caches)
            _sync(device)
            t = time.perf_counter()
            n = 0
            for c in chunks:
                pv.evaluate(c)
                n += len(c)
            _sync(device)
            ev = n / (time.perf_counter() - t)
            x = torch.from_numpy(obs).to(device)
            with torch.inference_mode():
                pv.net(x[:batch])
                _sync(device)
                t = time.perf_counter()
                n = 0
                for a in range(0, min(len(obs), 64 * batch) - batch + 1, batch):
                    pv.net(x[a:a + batch])
                    n += batch
                _sync(device)
            fw = n / (time.perf_counter() - t)
            rep.raw.setdefault("network", []).append({"device": device, "batch": batch,
                                                      "evaluate": ev, "forward": fw})
            rep.say(f"| {device} | {batch} | {ev:,.0f} | {fw:,.0f} |")
    rep.say()


def _cfg(args: argparse.Namespace, **over: Any) -> ExItConfig:
    return ExItConfig(**{"games_per_generation": args.games, "iterations": args.iterations,
                         "seed": args.seed, "opponents": {"self": 1.0}, "workers": 0,
                         "threads": 1, **over})


def one_process(rep: Report, args: argparse.Namespace, devices: list[str]) -> None:
    rep.say(f"## 2. Self-play in one process ({args.games} games, iterations {args.iterations})\n")
    rep.say("| network on | games at once | positions per wall s | positions per CPU s | games |")
    rep.say("|---|---:|---:|---:|---:|")
    for device in devices:
        pv = PolicyValueNet.load("trained", device=device)
        for at_once in (int(a) for a in args.at_once.split(",")):
            cfg = _cfg(args, games_at_once=at_once)
            specs = selfplay_specs(cfg, 1, 0, [])
            w, c = time.perf_counter(), time.process_time()
            results = play_games(specs, {"gen_000": pv}, at_once, cfg.search_kwargs(cfg.noise),
                                 cfg.max_turns)
            w, c = time.perf_counter() - w, time.process_time() - c
            n = len(samples_from_games(results, 1)["z"])
            rep.raw.setdefault("one_process", []).append(
                {"device": device, "at_once": at_once, "positions": n, "wall_s": w, "cpu_s": c})
            rep.say(f"| {device} | {at_once} | {n / w:.1f} | {n / c:.1f} | {len(results)} |")
    rep.say()


def workers(rep: Report, args: argparse.Namespace, devices: list[str]) -> dict[str, np.ndarray]:
    counts = [int(w) for w in args.workers.split(",")]
    rep.say(f"## 3. Self-play on worker processes (iterations {args.iterations}, 8 games at "
            f"once per worker)\n")
    rep.say("| network on | workers | games | positions | wall s | positions per wall s |")
    rep.say("|---|---:|---:|---:|---:|---:|")
    pv = PolicyValueNet.load("trained", device="cpu")
    state = pv.net.state_dict()
    caps = {f: getattr(pv.caps, f) for f in pv.caps.__dataclass_fields__}
    data: dict[str, np.ndarray] = {}
    for device in devices:
        for w in counts:
            games = max(args.games, 2 * w)
            cfg = _cfg(args, games_per_generation=games, workers=w, play_device=device,
                       games_at_once=8)
            specs = selfplay_specs(cfg, 1, 0, [])
            t = time.perf_counter()
            results, _ = run_games(cfg, specs, {"gen_000": state}, pv.net_kwargs, caps,
                                   cfg.search_kwargs(cfg.noise))
            dt = time.perf_counter() - t
            arrays = samples_from_games(results, 1)
            n = len(arrays["z"])
            if n > len(data.get("z", ())):
                data = arrays
            rep.raw.setdefault("workers", []).append(
                {"device": device, "workers": w, "games": games, "positions": n, "wall_s": dt})
            rep.say(f"| {device} | {w} | {games} | {n} | {dt:.1f} | {n / dt:.1f} |")
    rep.say()
    return data


def learner(rep: Report, devices: list[str], data: dict[str, np.ndarray]) -> None:
    pv = PolicyValueNet.load("trained", device="cpu")
    state = {k: v.clone() for k, v in pv.net.state_dict().items()}
    caps = {f: getattr(pv.caps, f) for f in pv.caps.__dataclass_fields__}
    cores = os.cpu_count() or 1
    setups = [("cpu", 1), *([("cpu", cores)] if cores > 1 else []),
              *[(d, 1) for d in devices if d != "cpu"]]
    with tempfile.TemporaryDirectory() as tmp:
        np.savez(Path(tmp) / "gen_001.npz", **data)
        window = load_window(tmp, [1])
        rep.say(f"## 4. Learner ({len(window)} samples, one epoch per row)\n")
        rep.say("| device | torch threads | batch | samples per s |")
        rep.say("|---|---:|---:|---:|")
        for device, threads in setups:
            torch.set_num_threads(threads)
            for batch in LEARNER_BATCHES:
                cfg = ExItConfig(device=device, batch_size=batch, epochs=1, holdout=0.0)
                if device == "cuda":  # the first epoch on a device pays for kernel set-up
                    train_generation(cfg, state, pv.net_kwargs, caps, window, 1)
                _, m = train_generation(cfg, state, pv.net_kwargs, caps, window, 1)
                rep.raw.setdefault("learner", []).append(
                    {"device": device, "threads": threads, "batch": batch,
                     "samples_per_s": m["learner_samples_per_s"]})
                rep.say(f"| {device} | {threads} | {batch} | {m['learner_samples_per_s']:,.0f} |")
    torch.set_num_threads(1)
    rep.say()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=16, help="self-play games per measurement")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--at-once", default="4,16", help="games at once in one process (section 2)")
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    ap.add_argument("--positions", type=int, default=1024, help="positions for the network alone")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip", default="", help="sections to skip, e.g. 2,3")
    ap.add_argument("--out", default="", help="markdown file for the tables (JSON beside it)")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    devices = ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]
    skip = {s for s in args.skip.split(",") if s}
    rep = Report()
    gpu = torch.cuda.get_device_name(0) if "cuda" in devices else "none"
    rep.say("# Expert iteration's throughput by device\n")
    rep.say(f"Python {platform.python_version()}, torch {torch.__version__}, "
            f"{os.cpu_count()} CPU cores, GPU: {gpu}\n")
    rep.raw["machine"] = {"python": platform.python_version(), "torch": torch.__version__,
                          "cores": os.cpu_count(), "gpu": gpu}
    t0 = time.perf_counter()
    if "1" not in skip:
        network_alone(rep, devices, positions(args.positions, args.seed))
    if "2" not in skip:
        one_process(rep, args, devices)
    data = workers(rep, args, devices)
    if "4" not in skip:
        learner(rep, devices, data)
    rep.say(f"Whole check: {time.perf_counter() - t0:.0f} s.")
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(rep.lines) + "\n")
        out.with_suffix(".json").write_text(json.dumps(rep.raw, indent=1) + "\n")


if __name__ == "__main__":
    main()
