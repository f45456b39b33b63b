"""Imitation warm start: behaviour cloning of :class:`~agents.heuristic.HeuristicAgent` into the
structured policy (:class:`agents.policy_net.MtgPolicy`), then PPO fine-tuning from it.

Three steps, one typed config (:class:`BCConfig`, YAML in ``configs/bc.yaml``, ``--set k=v``
overrides, read by :func:`agents.training_common.load_config`)::

    python -m agents.imitation generate --config configs/bc.yaml --set games=2000
    python -m agents.imitation train --config configs/bc.yaml
    python -m agents.imitation evaluate results/bc/best.zip --games 200
    python -m agents.imitation dagger --config configs/bc.yaml --set epochs=2
    python -m agents.ppo --config configs/ppo.yaml --set init_from=results/bc/best.zip

**Dataset** (``generate``, :mod:`agents.imitation_data`): ``games`` games of HeuristicAgent
against HeuristicAgent on random theme-deck pairings, every decision with more than one legal
option recorded as the env's observation and mask with the heuristic's choice, the decision kind
and the value target, in compressed shards with a manifest (the format is described there).

**Training** (``train``): the network of ``MtgPolicy`` (the same sizes as the PPO config's
``net``) is trained with cross-entropy of its masked action logits against the heuristic's
index plus ``value_coef`` times the squared error of its value against the outcome discounted by
``value_gamma`` per remaining decision of that player (PPO's discounted return, so fine-tuning
starts with a sensible critic). The split is by game: ``val_fraction`` of the games are held
out. Each epoch logs train/validation loss and top-1 accuracy to ``run_dir/bc.csv`` and the
validation accuracy per decision kind to ``run_dir/bc_kinds.csv``. ``best.zip`` (best
validation loss) and ``final.zip`` are :mod:`agents.checkpoint` files of a MaskablePPO model
(the PPO config: capacities, ``net``, ``max_turns``), so ``--agent ppo:PATH`` plays them and
``init_from=PATH`` starts PPO from them; their metadata has a ``behaviour_cloning`` entry (the
dataset manifest's summary, epochs, accuracies).

**DAgger** (``dagger``, :func:`dagger`): rounds in which the current policy plays the heuristic,
every decision of its seat is labelled with the expert's choice from the same view
(:func:`play_recorded` with a ``learner``; the expert is ``dagger_expert``, the heuristic by
default, or a search such as ``mcts:iters=1`` that beats it), and a policy is retrained from its
weights on all the data so far (``extra_data``, ``init_from``), so the clone learns what to do in
the states its own mistakes lead to.

**Evaluation** (``evaluate``): seat-balanced paired-seed games of the deterministic policy (or,
with ``--sample``, of the policy sampled) against ``random`` and ``heuristic``
(:func:`agents.training.evaluate_paired`, 95% Wilson intervals).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from .imitation_data import (
    KINDS,
    Dataset,
    game_plan,
    generate,
    load_dataset,
    load_datasets,
    play_recorded,
)
from .training_common import BCConfig
from .training_common import new_model as new_ppo_model

__all__ = ["BCConfig", "Dataset", "dagger", "evaluate_checkpoint", "game_plan", "generate",
           "load_dataset", "load_datasets", "play_recorded", "plot_dagger", "split_by_game",
           "train_bc"]

BC_FIELDS = ("epoch", "wall_s", "train_samples", "train_loss", "train_ce", "train_value_loss",
             "train_acc", "val_samples", "val_loss", "val_ce", "val_value_loss", "val_acc",
             "val_random_acc", "lr")
KIND_FIELDS = ("epoch", "kind", "samples", "acc", "random_acc")


# -- training ------------------------------------------------------------------------------

def ppo_config(cfg: BCConfig) -> Any:
    """The PPO config a behaviour-cloned checkpoint records (so ``--resume``/``init_from``
    rebuild the same network and env)."""
    from .training_common import PPOConfig

    return PPOConfig(seed=cfg.seed, max_turns=cfg.max_turns, capacities=dict(cfg.capacities),
                     policy="structured", net=dict(cfg.net), num_envs=1, num_workers=0,
                     threads=cfg.threads, opponent="heuristic")


def new_model(cfg: BCConfig) -> Any:
    """An untrained MaskablePPO model with the structured policy, for ``cfg``'s env."""
    from mtg_env.vector import MtgVectorEnv, Sb3VecEnv

    env = Sb3VecEnv(MtgVectorEnv(1, seed=cfg.seed, **cfg.env_config()))
    try:
        return new_ppo_model(ppo_config(cfg), env, 0)
    finally:
        env.close()


def split_by_game(ds: Dataset, val_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample indices of the training and validation games (a fraction of the games, at least
    one when there are two or more)."""
    games = np.unique(ds.game)
    rng = np.random.default_rng(seed)
    n_val = round(len(games) * val_fraction)
    if val_fraction > 0 and len(games) > 1:
        n_val = min(max(n_val, 1), len(games) - 1)
    val_games = rng.choice(games, size=n_val, replace=False) if n_val else np.zeros(0, games.dtype)
    is_val = np.isin(ds.game, val_games)
    return np.flatnonzero(~is_val), np.flatnonzero(is_val)


def _losses(net: Any, ds: Dataset, rows: np.ndarray, cfg: BCConfig) -> tuple[Any, ...]:
    import torch as th

    obs, mask = ds.batch(rows)
    logits, value = net(th.from_numpy(obs))
    m = th.from_numpy(mask)
    logits = logits.masked_fill(~m, -1e8)
    target = th.from_numpy(ds.action[rows].astype(np.int64))
    ce = th.nn.functional.cross_entropy(logits, target, reduction="none")
    ret = th.from_numpy((ds.outcome[rows] * cfg.value_gamma ** ds.remaining[rows])
                        .astype(np.float32))
    vl = (value - ret) ** 2
    correct = logits.argmax(-1) == target
    return ce, vl, correct, m.sum(-1)


def _evaluate_split(net: Any, ds: Dataset, rows: np.ndarray, cfg: BCConfig) -> dict[str, Any]:
    import torch as th

    ce_sum = vl_sum = 0.0
    correct = np.zeros(len(rows), np.bool_)
    n_legal = np.zeros(len(rows), np.int64)
    with th.no_grad():
        for a in range(0, len(rows), 1024):
            r = rows[a:a + 1024]
            ce, vl, c, n = _losses(net, ds, r, cfg)
            ce_sum += float(ce.sum())
            vl_sum += float(vl.sum())
            correct[a:a + len(r)] = c.numpy()
            n_legal[a:a + len(r)] = n.numpy()
    n = max(len(rows), 1)
    kinds = ds.kind[rows]
    per_kind = {KINDS[k]: {"samples": int((kinds == k).sum()),
                           "acc": float(correct[kinds == k].mean()),
                           "random_acc": float((1 / n_legal[kinds == k]).mean())}
                for k in np.unique(kinds)}
    return {"samples": len(rows), "ce": ce_sum / n, "value_loss": vl_sum / n,
            "loss": (ce_sum + cfg.value_coef * vl_sum) / n, "acc": float(correct.mean()) if
            len(rows) else math.nan, "random_acc": float((1 / np.maximum(n_legal, 1)).mean())
            if len(rows) else math.nan, "kinds": per_kind}


def train_bc(cfg: BCConfig, verbose: bool = False, dataset: Dataset | None = None) -> dict[str, Any]:
    """Behaviour-clone the dataset in ``cfg.data_dir`` into a new structured policy; writes
    ``bc.csv``, ``bc_kinds.csv``, ``best.zip`` and ``final.zip`` to ``cfg.run_dir`` and returns
    ``{"model", "best", "history"}``."""
    import torch as th

    from .checkpoint import save_checkpoint
    from .training import CsvLog

    th.set_num_threads(cfg.threads)
    th.manual_seed(cfg.seed)
    ds = dataset if dataset is not None else load_datasets((cfg.data_dir, *cfg.extra_data),
                                                           cfg.capacities)
    train_rows, val_rows = split_by_game(ds, cfg.val_fraction, cfg.seed)
    if cfg.max_samples and cfg.max_samples < len(train_rows):  # a random subset, all games
        pick = np.random.default_rng(cfg.seed + 1).choice(len(train_rows), cfg.max_samples,
                                                          replace=False)
        train_rows = train_rows[np.sort(pick)]
    if not len(train_rows):
        raise ValueError("the dataset has no training samples")
    model = new_model(cfg)
    if cfg.init_from:
        from .ppo import init_weights

        init_weights(model, dataclasses.replace(ppo_config(cfg), init_from=cfg.init_from))
    net = model.policy.net
    weights = np.ones(len(KINDS), np.float32)
    for k, w in cfg.kind_weights.items():
        if k not in KINDS:
            raise ValueError(f"kind_weights: unknown decision kind {k!r} (one of {KINDS})")
        weights[KINDS.index(k)] = w
    kind_w = th.from_numpy(weights)
    opt = th.optim.Adam(net.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    steps_per_epoch = math.ceil(len(train_rows) / cfg.batch_size)
    total = steps_per_epoch * cfg.epochs
    sched = th.optim.lr_scheduler.LambdaLR(
        opt, (lambda s: 0.5 * (1 + math.cos(math.pi * s / total))) if cfg.lr_decay
        else (lambda s: 1.0))
    run_dir = Path(cfg.run_dir)
    log = CsvLog(run_dir / "bc.csv", BC_FIELDS)
    klog = CsvLog(run_dir / "bc_kinds.csv", KIND_FIELDS)
    rng = np.random.default_rng(cfg.seed)
    config = dataclasses.asdict(ppo_config(cfg))
    summary = {"dataset": {k: ds.manifest.get(k) for k in ("games", "samples", "seed", "decks",
                                                           "max_turns", "vocab_signature",
                                                           "layout_signature")},
               "data_dir": str(cfg.data_dir), "extra_data": [str(d) for d in cfg.extra_data],
               "init_from": cfg.init_from, "bc_config": dataclasses.asdict(cfg),
               "train_samples": len(train_rows), "val_samples": len(val_rows)}
    history: list[dict[str, Any]] = []
    best_loss = math.inf
    best_path = run_dir / "best.zip"
    t0 = time.perf_counter()
    for epoch in range(1, cfg.epochs + 1):
        net.train()
        order = rng.permutation(train_rows)
        t_epoch = time.perf_counter()
        ce_sum = vl_sum = 0.0
        n_correct = 0
        for a in range(0, len(order), cfg.batch_size):
            rows = order[a:a + cfg.batch_size]
            ce, vl, correct, _ = _losses(net, ds, rows, cfg)
            w = kind_w[th.from_numpy(ds.kind[rows].astype(np.int64))]
            loss = (w * ce).sum() / w.sum() + cfg.value_coef * vl.mean()
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            sched.step()
            ce_sum += float(ce.detach().sum())
            vl_sum += float(vl.detach().sum())
            n_correct += int(correct.sum())
            done = a + len(rows)
            if verbose and (a // cfg.batch_size + 1) % 100 == 0:
                print(f"  epoch {epoch}: {done}/{len(order)} samples, loss "
                      f"{(ce_sum + cfg.value_coef * vl_sum) / done:.4f}, acc "
                      f"{n_correct / done:.3f} ({done / (time.perf_counter() - t_epoch):.0f} "
                      "samples/s)", flush=True)
        net.eval()
        val = _evaluate_split(net, ds, val_rows, cfg) if len(val_rows) else None
        n = len(order)
        row = {"epoch": epoch, "wall_s": time.perf_counter() - t0, "train_samples": n,
               "train_loss": (ce_sum + cfg.value_coef * vl_sum) / n, "train_ce": ce_sum / n,
               "train_value_loss": vl_sum / n, "train_acc": n_correct / n,
               "lr": sched.get_last_lr()[0]}
        if val is not None:
            row.update({"val_samples": val["samples"], "val_loss": val["loss"],
                        "val_ce": val["ce"], "val_value_loss": val["value_loss"],
                        "val_acc": val["acc"], "val_random_acc": val["random_acc"]})
            for k, v in sorted(val["kinds"].items()):
                klog.write({"epoch": epoch, "kind": k, **v})
        log.write(row)
        history.append({**row, "val_kinds": val["kinds"] if val else {}})
        if verbose:
            msg = (f"epoch {epoch}: train loss {row['train_loss']:.4f} acc {row['train_acc']:.3f}")
            if val is not None:
                msg += f" | val loss {val['loss']:.4f} acc {val['acc']:.3f}"
            print(msg + f" ({row['wall_s']:.0f}s)", flush=True)
        score = val["loss"] if val is not None else row["train_loss"]
        meta = {"behaviour_cloning": {**summary, "epoch": epoch, "train_acc": row["train_acc"],
                                      "val_acc": val["acc"] if val else None,
                                      "val_loss": val["loss"] if val else None}}
        if score < best_loss:
            best_loss = score
            save_checkpoint(model, best_path, config=config, extra=meta)
    save_checkpoint(model, run_dir / "final.zip", config=config, extra=meta)
    return {"model": model, "best": best_path, "history": history}


class _Sampling:
    """A policy whose ``predict`` samples from the masked distribution whatever it is asked."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def predict(self, obs: Any, action_masks: Any = None, deterministic: bool = True) -> Any:
        return self.policy.predict(obs, action_masks=action_masks, deterministic=False)


def evaluate_checkpoint(path: str | Path, games: int, opponents: Sequence[str] = ("random",
                                                                                   "heuristic"),
                        seed: int = 1_000_003, threads: int = 1,
                        deterministic: bool = True) -> dict[str, dict[str, Any]]:
    """Seat-balanced paired-seed games of a checkpoint's policy against each opponent (its
    config's ``max_turns`` and capacities): ``{opponent: result}``. ``deterministic=False``
    samples from the masked policy (torch's RNG seeded with ``seed``) instead of taking the
    most likely action."""
    import torch as th

    from .checkpoint import load_checkpoint
    from .training import evaluate_paired

    th.set_num_threads(threads)
    model, meta = load_checkpoint(path)
    conf = meta.get("config") or {}
    caps = meta.get("capacities") or conf.get("capacities") or {}  # as trained
    env_config = {"max_turns": conf.get("max_turns", 40), **caps}
    policy = model.policy if deterministic else _Sampling(model.policy)
    out = {}
    for opp in opponents:
        th.manual_seed(seed)
        t = time.perf_counter()
        out[opp] = {**evaluate_paired(policy, opp, games, seed, env_config),
                    "seconds": time.perf_counter() - t}
    return out


# -- DAgger --------------------------------------------------------------------------------

DAGGER_FIELDS = ("round", "policy", "games", "samples", "wins", "losses", "draws",
                 "agreement", "collect_s", "train_s", "train_samples", "val_acc", "eval_wins",
                 "eval_losses", "eval_draws", "eval_win_rate", "eval_s", "checkpoint")


def plot_dagger(csv_paths: Sequence[str | Path], out_png: str | Path) -> Path | None:
    """The evaluation of each DAgger round's policy against the heuristic (95% Wilson band)
    against the round and against the wall time spent (collecting, retraining, evaluating), as
    a PNG. Several ``dagger.csv`` files are one run continued (rounds numbered on from the
    first); None when no round was evaluated."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mtg_env.sim import wilson_interval

    from .training import CsvLog, save_win_rate_figure

    xs, walls, wr, lo, hi = [], [], [], [], []
    wall = 0.0
    for path in csv_paths:
        for r in CsvLog(path, DAGGER_FIELDS).rows():
            wall += sum(float(r.get(k) or 0) for k in ("collect_s", "train_s", "eval_s"))
            if int(r["round"]) == 0 or not r.get("eval_wins"):
                continue
            w, n = int(r["eval_wins"]), int(r["eval_wins"]) + int(r["eval_losses"])
            xs.append(len(xs) + 1)
            walls.append(wall / 60)
            wr.append(w / n if n else math.nan)
            band = wilson_interval(w, n)
            lo.append(band[0])
            hi.append(band[1])
    if not xs:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, x in ((axes[0], xs), (axes[1], walls)):
        line, = ax.plot(x, wr, marker="o", label="vs heuristic")
        ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.2)
    axes[0].set_xlabel("DAgger round")
    axes[1].set_xlabel("wall time of the rounds (minutes)")
    return save_win_rate_figure(fig, axes, "DAgger: each round's policy against the heuristic, "
                                "seat-balanced paired seeds, 95% Wilson interval", out_png)


def dagger(cfg: BCConfig, verbose: bool = False) -> dict[str, Any]:
    """DAgger (dataset aggregation) from the heuristic-vs-heuristic dataset in ``data_dir``.

    Round ``r`` (1 .. ``dagger_rounds``): the current policy plays ``dagger_games`` games
    against HeuristicAgent (:func:`generate` with ``policy``, seed derived from ``seed`` and
    ``r``; ``dagger_dir/round_r/data``), every decision of its seat labelled with the choice of
    ``dagger_expert``; then a policy is trained from the current one's weights on ``data_dir``
    (unless ``dagger_base_data`` is false), ``extra_data`` and every round's data so far
    (``epochs`` epochs, ``dagger_dir/round_r/run``) and its ``best.zip`` becomes the current
    policy; with ``dagger_eval_games`` it then plays that many seat-balanced paired-seed games
    against the heuristic (``eval_seed``). The first policy is ``dagger_init``, or one trained on
    ``data_dir`` alone (``dagger_dir/round_0``). Writes ``dagger_dir/dagger.csv`` (per round:
    the policy's results in the collected games, its agreement with the labels, times,
    validation accuracy, the evaluation) and, with evaluations, ``dagger_curve.png``
    (:func:`plot_dagger`); returns ``{"best", "rounds"}``, ``best`` being the last
    round's checkpoint. Rounds whose games were already collected with the same settings reuse
    them (:func:`generate`), so a longer run extends a shorter one."""
    from mtg_env.sim.runner import derive_seed

    from .training import CsvLog

    root = Path(cfg.dagger_dir)
    log = CsvLog(root / "dagger.csv", DAGGER_FIELDS)
    policy = cfg.dagger_init
    rows: list[dict[str, Any]] = []
    if not policy:
        t = time.perf_counter()
        res = train_bc(dataclasses.replace(cfg, run_dir=str(root / "round_0" / "run")), verbose)
        policy = str(res["best"])
        row = {"round": 0, "games": 0, "samples": 0, "train_s": time.perf_counter() - t,
               "train_samples": res["history"][-1]["train_samples"],
               "val_acc": res["history"][-1].get("val_acc"), "checkpoint": policy}
        log.write(row)
        rows.append(row)
    data = list(cfg.extra_data)
    for r in range(1, cfg.dagger_rounds + 1):
        rdir = root / f"round_{r}"
        t = time.perf_counter()
        gcfg = dataclasses.replace(cfg, data_dir=str(rdir / "data"), games=cfg.dagger_games,
                                   seed=derive_seed(cfg.seed, "dagger", r) % 2**31)
        m = generate(gcfg, verbose=verbose, policy=policy)
        collect_s = time.perf_counter() - t
        data.append(gcfg.data_dir)
        t = time.perf_counter()
        sets = {"extra_data": tuple(data)} if cfg.dagger_base_data else \
            {"data_dir": data[0], "extra_data": tuple(data[1:])}
        res = train_bc(dataclasses.replace(cfg, run_dir=str(rdir / "run"), init_from=policy,
                                           **sets), verbose)
        agreed = sum(a["agree"] for a in m["agreement"].values())
        row = {"round": r, "policy": policy, "games": m["games"], "samples": m["samples"],
               **m["learner_results"], "agreement": agreed / max(m["samples"], 1),
               "collect_s": collect_s, "train_s": time.perf_counter() - t,
               "train_samples": res["history"][-1]["train_samples"],
               "val_acc": res["history"][-1].get("val_acc"), "checkpoint": str(res["best"])}
        if cfg.dagger_eval_games:
            ev = evaluate_checkpoint(res["best"], cfg.dagger_eval_games, ("heuristic",),
                                     cfg.eval_seed, cfg.threads)["heuristic"]
            row.update(eval_wins=ev["wins"], eval_losses=ev["losses"], eval_draws=ev["draws"],
                       eval_win_rate=ev["win_rate"], eval_s=ev["seconds"])
        log.write(row)
        rows.append(row)
        if cfg.dagger_eval_games:
            plot_dagger([log.path], root / "dagger_curve.png")
        if verbose:
            ev_text = (f"; then {row['eval_wins']}-{row['eval_losses']}-{row['eval_draws']} "
                       "in the evaluation" if cfg.dagger_eval_games else "")
            print(f"round {r}: the policy went {row['wins']}-{row['losses']}-{row['draws']} "
                  f"against the heuristic, agreed with {cfg.dagger_expert} on "
                  f"{row['agreement']:.1%} of {m['samples']} decisions; retrained in "
                  f"{row['train_s']:.0f}s -> {res['best']}{ev_text}", flush=True)
        policy = str(res["best"])
    return {"best": policy, "rounds": rows}


# -- the command line ----------------------------------------------------------------------

_Config = Annotated[str | None, typer.Option(help="a YAML config (see configs/bc.yaml)")]
_Set = Annotated[list[str] | None, typer.Option("--set", help="override a key: key=value")]


def _load(config: str | None, set_: list[str] | None) -> BCConfig:
    from .training_common import load_config

    try:
        return load_config(config, set_ or (), cls=BCConfig)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def main() -> None:
    from .checkpoint import checkpoint_errors_as_usage

    app = typer.Typer(add_completion=False, rich_markup_mode="markdown",
                      help="Imitation warm start: behaviour cloning of the heuristic agent into "
                           "the structured policy, then PPO fine-tuning from it.")

    @app.command("generate")
    def generate_cmd(config: _Config = None, set_: _Set = None) -> None:
        """Play heuristic-vs-heuristic games and write the dataset to data_dir."""
        cfg = _load(config, set_)
        m = generate(cfg, verbose=True)
        typer.echo(f"{m['games']} games ({len(m['failed_games'])} failed), {m['samples']} "
                   f"samples in {m['seconds']:.0f}s with {cfg.workers} workers -> {cfg.data_dir}")

    @app.command("train")
    def train_cmd(config: _Config = None, set_: _Set = None) -> None:
        """Behaviour-clone the dataset; then evaluate best.zip if eval_games > 0."""
        _train_then_evaluate(_load(config, set_), train_bc, "best checkpoint")

    @app.command("dagger")
    def dagger_cmd(config: _Config = None, set_: _Set = None) -> None:
        """DAgger rounds: the policy plays the heuristic, which labels its decisions; retrain.

        Each round retrains on everything collected so far; then the last policy is evaluated if
        eval_games > 0."""
        _train_then_evaluate(_load(config, set_), dagger, "last checkpoint")

    @app.command("evaluate")
    def evaluate_cmd(path: str, games: int = typer.Option(100, help="per opponent"),
                     opponents: str = typer.Option("random,heuristic"),
                     seed: int = typer.Option(1_000_003),
                     sample: bool = typer.Option(False, help="sample from the policy instead "
                                                 "of its most likely action")) -> None:
        """Seat-balanced paired-seed games of a checkpoint against each opponent."""
        with checkpoint_errors_as_usage():
            _report(evaluate_checkpoint(path, games, opponents.split(","), seed,
                                        deterministic=not sample))

    app()


def _train_then_evaluate(cfg: BCConfig, train: Callable[..., dict[str, Any]], label: str) -> None:
    """Run a training command's ``train(cfg)``, print its checkpoint (``label``) and evaluate it
    as the config asks (``eval_games`` > 0)."""
    from .checkpoint import checkpoint_errors_as_usage

    with checkpoint_errors_as_usage():
        res = train(cfg, verbose=True)
    typer.echo(f"{label}: {res['best']}")
    if cfg.eval_games:
        _report(evaluate_checkpoint(res["best"], cfg.eval_games, cfg.eval_opponents, cfg.eval_seed,
                                    cfg.threads))


def _report(results: dict[str, dict[str, Any]]) -> None:
    for opp, r in results.items():
        typer.echo(f"vs {opp}: win rate {r['win_rate']:.1%} [{r['ci_low']:.1%}, "
                   f"{r['ci_high']:.1%}] ({r['wins']}-{r['losses']}, {r['draws']} draws) "
                   f"in {r['seconds']:.0f}s")


if __name__ == "__main__":
    main()
