"""A value network for the search's leaves, learned from the results of heuristic self-play.

    python -m agents.value_training --config configs/value.yaml
    python -m agents.value_training --config configs/value.yaml --set games=2000 --set epochs=1

The network-guided search (:mod:`agents.guided_search`) rolls every candidate out with
:class:`~agents.heuristic.HeuristicAgent` playing both seats for a couple of turns and then scores
the leaf. What the leaf's score should estimate is therefore the chance of winning *if both
players went on playing like the heuristic*: the value of the rollout policy, the quantity whose
maximisation over the candidates is one step of policy improvement over the heuristic. Full
rollouts estimate it without bias but one 0/1 sample per leaf is too noisy; the hand-written
:func:`agents.mcts.evaluate` is cheap but crude; the expert-iteration network's value was trained on
its own search's games. This module learns it directly:

1. **Positions.** ``games`` heuristic-against-heuristic games on random pairings of ``decks``
   (seeded per game); at each decision, with probability ``sample_rate``, the position is encoded
   from *both* players' sides (each side's observation holds only what that player may see, as
   the search's leaves are encoded) and stored sparse, with the game's result for that player
   (+1 a win, -1 a loss, 0 a draw). Games run on ``workers`` processes.
2. **Training.** The network starts from ``init_from`` (the shipped network, so its row encoders
   already know the cards) and is trained on the value loss alone (mean squared error to the
   result) for ``epochs`` passes; a tenth of the games (``holdout``) is held out. Reported per
   epoch: the held-out error, beside the error of a constant 0, of :func:`agents.mcts.evaluate`
   mapped to [-1, 1], and of the starting network's value.
3. **Output.** ``run_dir/value.zip`` (a checkpoint ``ppo:PATH`` and ``PolicyValueNet.load`` read;
   only its value head is meant to be used: its policy head drifts, nothing trains it),
   ``run_dir/positions.npz`` and ``run_dir/value.csv``. ``mcts:net=trained:vnet=PATH`` searches
   with the shipped network's prior and this network's value at the leaves.
"""

from __future__ import annotations

import csv
import dataclasses
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

__all__ = ["ValueConfig", "collect", "load", "main", "run", "train"]

_CHUNK = 50  # games per unit of work


@dataclass
class ValueConfig:
    """Settings of :func:`run` (YAML keys of ``configs/value.yaml``)."""

    run_dir: str = "results/value"
    """Where positions, metrics and the network go."""
    seed: int = 0
    """Seeds every game's decks, deal and agents, and the training order."""
    decks: list[str] = field(default_factory=lambda: ["all"])
    """Deck names or groups the games' two decks are drawn from (with replacement)."""
    games: int = 24_000
    """Heuristic self-play games to collect positions from."""
    sample_rate: float = 0.02
    """Chance that a decision's position is recorded (from both sides)."""
    max_turns: int = 60
    """Turn limit of a game (a draw at the limit)."""
    workers: int = 2
    """Game processes (0 = in this process)."""
    init_from: str = "trained"
    """The starting weights: ``trained`` (the shipped network) or a checkpoint path."""
    epochs: int = 2
    batch_size: int = 256
    lr: float = 3e-4
    grad_clip: float = 1.0
    holdout: float = 0.1
    """Fraction of the games held out (by game, so no position of theirs is trained on)."""
    threads: int = 2
    """torch threads of the learner."""
    device: str = "auto"
    """The learner's device (auto: CUDA when present)."""

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad value."""
        from mtg_env.engine.deck import expand_deck_groups

        checks = [(self.games >= 1, "games must be at least 1"),
                  (0.0 < self.sample_rate <= 1.0, "sample_rate must be in (0, 1]"),
                  (self.max_turns >= 1, "max_turns must be at least 1"),
                  (self.workers >= 0, "workers must be at least 0"),
                  (self.epochs >= 1, "epochs must be at least 1"),
                  (self.batch_size >= 1, "batch_size must be at least 1"),
                  (self.lr > 0, "lr must be positive"),
                  (0.0 < self.holdout < 1.0, "holdout must be in (0, 1)"),
                  (self.threads >= 1, "threads must be at least 1")]
        for ok, msg in checks:
            if not ok:
                raise ValueError(msg)
        expand_deck_groups(list(self.decks))


# -- positions -----------------------------------------------------------------------------------

def _collect_chunk(job: tuple[ValueConfig, int, int, dict[str, int]]) -> dict[str, list]:
    """Play games ``start .. start + n - 1`` and return their sampled positions."""
    from mtg_env.encoding import Capacities, CapacityError, Observer
    from mtg_env.engine.deck import expand_deck_groups, load_deck
    from mtg_env.sim.runner import derive_seed, play_game

    from .heuristic import HeuristicAgent
    from .mcts import evaluate

    cfg, start, n, caps = job
    observer = Observer(Capacities(**caps), flatten=True)
    pool = list(expand_deck_groups(list(cfg.decks)))
    out: dict[str, list] = {k: [] for k in ("cols", "vals", "player", "game", "turn", "static", "z")}
    for gi in range(start, start + n):
        rng = random.Random(derive_seed(cfg.seed, "value-game", gi))
        decks = [load_deck(rng.choice(pool)), load_deck(rng.choice(pool))]
        rows: list[tuple[np.ndarray, np.ndarray, int, int, float]] = []

        def record(game: Any, rng: random.Random = rng, rows: list = rows) -> None:
            if rng.random() >= cfg.sample_rate:
                return
            for player in (0, 1):
                try:
                    obs, _ = observer.observe(game, player)
                except CapacityError:  # beyond the network's base tables: left out
                    continue
                cols = np.flatnonzero(obs).astype(np.int32)
                rows.append((cols, obs[cols].astype(np.float32), player, game.turn,
                             evaluate(game, player)))

        game = play_game(decks, [HeuristicAgent(), HeuristicAgent()],
                         seed=derive_seed(cfg.seed, "value-deal", gi), max_turns=cfg.max_turns,
                         on_decision=record)
        winner = -1 if game.winner is None else int(game.winner)
        for cols, vals, player, turn, static in rows:
            out["cols"].append(cols)
            out["vals"].append(vals)
            out["player"].append(player)
            out["game"].append(gi)
            out["turn"].append(turn)
            out["static"].append(static)
            out["z"].append(0 if winner < 0 else 1 if winner == player else -1)
    return out


def collect(cfg: ValueConfig, caps: dict[str, int], progress: bool = True) -> dict[str, np.ndarray]:
    """The positions of ``cfg.games`` heuristic self-play games (CSR ``indptr``/``idx``/``val``
    observations; per position ``player``, ``game``, ``turn``, ``static`` and ``z``)."""
    from mtg_env.sim.progress import game_progress

    jobs = [(cfg, s, min(_CHUNK, cfg.games - s), caps) for s in range(0, cfg.games, _CHUNK)]
    parts: dict[str, list] = {k: [] for k in ("cols", "vals", "player", "game", "turn", "static", "z")}
    pool = get_context("spawn").Pool(cfg.workers) if cfg.workers else None
    try:
        results: Any = pool.imap(_collect_chunk, jobs) if pool else map(_collect_chunk, jobs)
        with game_progress(cfg.games, "value positions", enabled=progress) as advance:
            for job, r in zip(jobs, results, strict=True):
                for k in parts:
                    parts[k].extend(r[k])
                advance(job[2])
    finally:
        if pool:
            pool.close()
            pool.join()
    lens = np.fromiter((len(c) for c in parts["cols"]), np.int64, len(parts["cols"]))
    empty32 = np.zeros(0, np.int32)
    return {"indptr": np.concatenate([[0], np.cumsum(lens)]).astype(np.int64),
            "idx": np.concatenate(parts["cols"]) if parts["cols"] else empty32,
            "val": np.concatenate(parts["vals"]) if parts["vals"] else np.zeros(0, np.float32),
            "player": np.asarray(parts["player"], np.int8),
            "game": np.asarray(parts["game"], np.int64),
            "turn": np.asarray(parts["turn"], np.int32),
            "static": np.asarray(parts["static"], np.float32),
            "z": np.asarray(parts["z"], np.int8)}


# -- training ------------------------------------------------------------------------------------

def _dense(data: dict[str, np.ndarray], rows: np.ndarray, size: int) -> np.ndarray:
    from .expert_iteration import csr_cells

    obs = np.zeros((len(rows), size), np.float32)
    r, c = csr_cells(data["indptr"], rows)
    obs[r, data["idx"][c]] = data["val"][c]
    return obs


def _held_out(cfg: ValueConfig, game: np.ndarray) -> np.ndarray:
    from .expert_iteration import held_out_games

    return held_out_games(game, cfg.seed, "value-holdout", cfg.holdout)


def train(cfg: ValueConfig, data: dict[str, np.ndarray], pv: Any,
          log: Any = print) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Train ``pv``'s network (a :class:`~agents.policy_value.PolicyValueNet`) on the value loss;
    its new weights (CPU tensors) and a row of metrics per epoch (epoch 0: before training)."""
    import torch as th

    from mtg_env.sim.runner import derive_seed

    from .policy_value import resolve_device

    th.set_num_threads(cfg.threads)
    th.manual_seed(derive_seed(cfg.seed, "value-torch") % 2**63)
    device = resolve_device(cfg.device)
    net = pv.net.to(device)
    z = data["z"].astype(np.float32)
    held = _held_out(cfg, data["game"])
    train_rows, hold_rows = np.flatnonzero(~held), np.flatnonzero(held)
    if not len(train_rows) or not len(hold_rows):
        raise ValueError(f"{len(z)} positions are too few to hold out {cfg.holdout:.0%} of the "
                         "games: collect more games")
    size = net.obs_size
    static = 2.0 * data["static"] - 1.0

    def holdout_mse() -> float:
        net.eval()
        se = 0.0
        with th.no_grad():
            for a in range(0, len(hold_rows), 1024):
                rows = hold_rows[a:a + 1024]
                _, v = net(th.from_numpy(_dense(data, rows, size)).to(device))
                se += float(((v.float().cpu().numpy() - z[rows]) ** 2).sum())
        return se / len(hold_rows)

    base = {"positions": len(z), "train": len(train_rows), "holdout": len(hold_rows),
            "constant_mse": float((z[hold_rows] ** 2).mean()),
            "static_mse": float(((static[hold_rows] - z[hold_rows]) ** 2).mean())}
    rows_out = [{**base, "epoch": 0, "train_mse": float("nan"), "holdout_mse": holdout_mse(),
                 "seconds": 0.0}]
    log(f"holdout mse: constant 0 {base['constant_mse']:.4f}, evaluate() {base['static_mse']:.4f}, "
        f"{cfg.init_from}'s value {rows_out[0]['holdout_mse']:.4f} ({len(hold_rows)} positions)")
    opt = th.optim.Adam(net.parameters(), lr=cfg.lr)
    rng = np.random.default_rng(derive_seed(cfg.seed, "value-order"))
    for epoch in range(1, cfg.epochs + 1):
        net.train()
        t0 = time.perf_counter()
        total = 0.0
        order = rng.permutation(train_rows)
        for a in range(0, len(order), cfg.batch_size):
            rows = order[a:a + cfg.batch_size]
            _, v = net(th.from_numpy(_dense(data, rows, size)).to(device))
            loss = ((v - th.from_numpy(z[rows]).to(device)) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            if cfg.grad_clip > 0:
                th.nn.utils.clip_grad_norm_(net.parameters(), cfg.grad_clip)
            opt.step()
            total += float(loss.detach()) * len(rows)
        dt = time.perf_counter() - t0
        row = {**base, "epoch": epoch, "train_mse": total / len(train_rows),
               "holdout_mse": holdout_mse(), "seconds": dt}
        rows_out.append(row)
        log(f"epoch {epoch}: train mse {row['train_mse']:.4f}, holdout mse "
            f"{row['holdout_mse']:.4f} ({len(train_rows) / dt:,.0f} samples/s)")
    net.eval()
    return {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}, rows_out


# -- the pipeline --------------------------------------------------------------------------------

def run(cfg: ValueConfig, progress: bool = True) -> Path:
    """Collect the positions (or reuse ``run_dir/positions.npz`` made with the same settings),
    train, save ``run_dir/value.zip``; its path."""
    from .checkpoint import save_net_checkpoint
    from .policy_value import PolicyValueNet

    cfg.validate()
    out = Path(cfg.run_dir)
    out.mkdir(parents=True, exist_ok=True)
    pv = PolicyValueNet.load(cfg.init_from, device="cpu")
    caps = dataclasses.asdict(pv.caps)
    key = {"seed": cfg.seed, "decks": list(cfg.decks), "games": cfg.games,
           "sample_rate": cfg.sample_rate, "max_turns": cfg.max_turns, "caps": caps}
    positions = out / "positions.npz"
    data: dict[str, np.ndarray] | None = None
    if positions.is_file():
        with np.load(positions, allow_pickle=False) as f:
            if str(f["key"]) == repr(key):
                data = {k: f[k] for k in f.files if k != "key"}
                print(f"reusing {positions} ({len(data['z']):,} positions)")
    if data is None:
        t0 = time.perf_counter()
        data = collect(cfg, caps, progress=progress)
        print(f"{cfg.games:,} games, {len(data['z']):,} positions in "
              f"{time.perf_counter() - t0:.0f} s")
        tmp = out / ".positions.tmp.npz"
        np.savez(tmp, key=np.asarray(repr(key)), **data)
        tmp.replace(positions)
    state, metrics = train(cfg, data, pv)
    with open(out / "value.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(metrics[0]))
        w.writeheader()
        w.writerows(metrics)
    return save_net_checkpoint(state, out / "value.zip", net=pv.net_kwargs, capacities=caps,
                               max_turns=cfg.max_turns, seed=cfg.seed, opponent="heuristic_value",
                               extra={"value_training": dataclasses.asdict(cfg),
                                      "holdout_mse": metrics[-1]["holdout_mse"]})


def load(config: str | None = None, overrides: Sequence[str] = ()) -> ValueConfig:
    """The config of a YAML file and ``key=value`` overrides, validated."""
    from .training_common import load_config

    cfg = load_config(config, overrides, cls=ValueConfig)
    cfg.validate()
    return cfg


def main(argv: Sequence[str] | None = None) -> None:
    def command(
        config: Annotated[str | None, typer.Option(help="a YAML config (configs/value.yaml)")] = None,
        set_: Annotated[list[str] | None, typer.Option("--set", help="override a key: key=value")]
        = None,
        progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    ) -> None:
        """Learn the search's leaf value from heuristic self-play results."""
        try:
            cfg = load(config, list(set_ or ()))
        except (ValueError, OSError) as exc:
            raise typer.BadParameter(str(exc)) from None
        path = run(cfg, progress=progress)
        typer.echo(f"wrote {path}")

    app = typer.Typer(add_completion=False)
    app.command()(command)
    app(args=list(argv) if argv is not None else None)


if __name__ == "__main__":
    main()
