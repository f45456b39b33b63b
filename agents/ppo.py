"""PPO training: sb3-contrib's MaskablePPO with the structured policy over worker processes, and
the trained policy as an agent.

A typed config loaded from YAML, overridden from the command line::

    python -m agents.ppo --config configs/ppo.yaml
    python -m agents.ppo --config configs/ppo.yaml --set total_timesteps=200000 --set num_envs=8
    python -m agents.ppo --resume results/ppo/checkpoints/ckpt_100000.zip --set total_timesteps=400000

The games run in :class:`~mtg_env.vector.SubprocMtgVectorEnv` workers (``num_workers``, default
2, one per core) behind :class:`~mtg_env.vector.Sb3VecEnv`; the policy is
:class:`agents.policy_net.MtgPolicy` (``policy: structured``) or SB3's MLP (``policy: mlp``).
Everything goes to ``run_dir``: ``train.csv`` (one row per rollout: throughput, episodes, losses),
``eval.csv`` and ``curve.png`` (every ``eval_every`` steps: seat-balanced paired-seed games
against each of ``eval_opponents`` with 95% Wilson intervals, see :mod:`agents.training`),
``checkpoints/ckpt_<steps>.zip`` every ``checkpoint_every`` steps and ``final.zip`` (written by
:func:`agents.checkpoint.save_checkpoint`, with the config). ``--resume`` continues a checkpoint
up to ``total_timesteps`` (its config, then ``--config``/``--set`` on top), appending to the logs.
The learner's seat and the deck pairing are random per episode; rewards are +1 / -1 / 0 at the
end (plus ``reward_shaping``). ``opponent: pool`` is self-play against a pool of frozen past
policies plus ``pool_members`` (:mod:`agents.self_play`; ``pool.csv`` and ``pool/`` in
``run_dir``, restored on ``--resume``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from .policy_agent import PPOAgent
from .training_common import PPOConfig, load_config, new_model

__all__ = ["PPOAgent", "PPOConfig", "evaluate", "init_weights", "load_config", "train"]


def _vec_env(cfg: PPOConfig, opponent: Any = None):
    from mtg_env.vector import MtgVectorEnv, Sb3VecEnv, SubprocMtgVectorEnv

    opponent = cfg.opponent if opponent is None else opponent
    if cfg.num_workers > 0:
        if cfg.start_method == "fork":
            # Load the cards and decks once here: forked workers inherit them (the first game
            # of a fresh process pays for the whole card database).
            from mtg_env.env.config import default_deck_names, load_deck

            for name in cfg.decks or default_deck_names():
                load_deck(name)
        venv = SubprocMtgVectorEnv(cfg.num_envs, opponent=opponent, seed=cfg.seed,
                                   num_workers=min(cfg.num_workers, cfg.num_envs),
                                   context=cfg.start_method, **cfg.env_config())
    else:
        venv = MtgVectorEnv(cfg.num_envs, opponent=opponent, seed=cfg.seed, **cfg.env_config())
    return Sb3VecEnv(venv)


def init_weights(model: Any, cfg: PPOConfig) -> dict[str, Any]:
    """Load the policy weights of the checkpoint ``cfg.init_from`` into a new ``model`` (the
    PPO fine-tuning of a behaviour-cloned policy); returns the checkpoint's metadata.

    Raises :class:`~agents.checkpoint.CheckpointMismatchError` for a checkpoint of another card
    vocabulary, layout or observation shape, and :class:`~agents.checkpoint.CheckpointError`
    when its policy class, capacities or network sizes differ from ``cfg``'s (the weights would
    not fit)."""
    from .checkpoint import CheckpointError, load_checkpoint

    src, meta = load_checkpoint(cfg.init_from)
    path = cfg.init_from
    want_caps = dict(model.policy.net_kwargs["capacities"]) if cfg.policy == "structured" else None
    have = type(src.policy).__name__, type(model.policy).__name__
    if have[0] != have[1]:
        raise CheckpointError(f"init_from {path!r} holds a {have[0]} but this run builds a "
                              f"{have[1]} (policy: {cfg.policy})")
    if src.observation_space.shape != model.observation_space.shape \
            or int(src.action_space.n) != int(model.action_space.n):
        raise CheckpointError(
            f"init_from {path!r}: observation {src.observation_space.shape} / "
            f"{int(src.action_space.n)} actions, but this run's env has "
            f"{model.observation_space.shape} / {int(model.action_space.n)} (capacities "
            f"{meta.get('capacities')} there; set the same capacities)")
    if want_caps is not None:
        theirs = {k: v for k, v in src.policy.net_kwargs.items() if k != "capacities"}
        ours = {k: v for k, v in model.policy.net_kwargs.items() if k != "capacities"}
        if theirs != ours:
            raise CheckpointError(f"init_from {path!r} has network sizes {theirs} but this run "
                                  f"has {ours}: set net={theirs}")
    model.policy.load_state_dict(src.policy.state_dict())
    return meta


# What a checkpoint keeps of the one its weights started from (its own ``started_from`` too, so
# the chain goes back to the first run): how it was made, not what it was trained for.
_PROVENANCE_KEYS = ("saved_at", "algorithm", "num_timesteps", "config", "behaviour_cloning",
                    "rllib_self_play", "exported", "started_from")


def provenance(path: str | Path, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The ``started_from`` metadata of a run whose weights came from checkpoint ``path`` with
    metadata ``meta`` (:func:`init_weights`): its path and how it was made."""
    return {"path": str(path), **{k: meta[k] for k in _PROVENANCE_KEYS if k in meta}}


def train(cfg: PPOConfig, verbose: int = 0, resume: str | Path | None = None):
    """Train (or with ``resume``, continue a checkpoint) up to ``cfg.total_timesteps`` steps;
    returns the model. Logs, evaluations and checkpoints go to ``cfg.run_dir``; the final
    checkpoint is ``run_dir/final.zip`` (and ``cfg.out`` if set)."""
    import torch

    from .checkpoint import load_checkpoint, save_checkpoint
    from .rollout_buffer import use_mtg_buffer
    from .training import TRAIN_FIELDS, CsvLog, TrainingCallback

    torch.set_num_threads(cfg.threads)
    run_dir = Path(cfg.run_dir)
    pool = None
    if cfg.opponent == "pool":
        from .self_play import OpponentPool

        pool = OpponentPool.for_run(run_dir / "pool", resume is not None, cfg.pool_members,
                                    cfg.pool_size, cfg.pool_scheme, cfg.pool_floor,
                                    cfg.pool_memory, cfg.seed)
    env = _vec_env(cfg, pool.mix() if pool is not None else None)
    try:
        extra: dict[str, Any] = {}
        if resume is not None:
            model, meta = load_checkpoint(resume)
            model.set_env(env)
            wall = CsvLog(run_dir / "train.csv", TRAIN_FIELDS).last_wall()
            if "started_from" in meta:
                extra["started_from"] = meta["started_from"]
        else:
            model = new_model(cfg, env, verbose)
            if cfg.init_from:
                extra["started_from"] = provenance(cfg.init_from, init_weights(model, cfg))
            wall = 0.0
        use_mtg_buffer(model)
        config = dataclasses.asdict(cfg)
        callback = TrainingCallback(run_dir, config, cfg.env_config(), cfg.eval_every,
                                    cfg.eval_games, cfg.eval_opponents, cfg.checkpoint_every,
                                    wall_offset=wall, verbose=verbose, extra_meta=extra)
        if pool is not None:
            from stable_baselines3.common.callbacks import CallbackList

            from .self_play import SelfPlayCallback

            callback = CallbackList([callback, SelfPlayCallback(
                pool, cfg.pool_snapshot_every, run_dir / "pool.csv", wall_offset=wall,
                verbose=verbose)])
        remaining = cfg.total_timesteps - model.num_timesteps
        if remaining > 0:
            model.learn(total_timesteps=remaining, callback=callback,
                        reset_num_timesteps=resume is None)
        save_checkpoint(model, run_dir / "final.zip", config=config, extra=extra)
        if cfg.out:
            save_checkpoint(model, cfg.out, config=config, extra=extra)
    finally:
        env.close()
    return model


def evaluate(model, cfg: PPOConfig, episodes: int, seed: int = 10_000,
             opponent: str | None = None) -> dict[str, Any]:
    """Seat-balanced paired-seed games of the deterministic policy against ``opponent``
    (default ``cfg.opponent``, or ``heuristic`` for a pool): counts, decisive-game win rate and
    95% Wilson interval."""
    from .training import evaluate_paired

    if opponent is None:
        opponent = cfg.opponent if cfg.opponent != "pool" else "heuristic"
    return evaluate_paired(model.policy, opponent, episodes, seed,
                           cfg.env_config())


def main() -> None:
    from .requirements import RL_INSTALL, missing_modules

    if missing_modules():  # training needs torch and sb3-contrib: one line, not a traceback
        typer.echo(f"error: python -m agents.ppo needs the [rl] extra: {RL_INSTALL}", err=True)
        raise SystemExit(2)
    app = typer.Typer(add_completion=False)

    @app.command()
    def run(config: str = typer.Option(None, help="a YAML config (see configs/ppo.yaml)"),
            set_: Annotated[list[str] | None, typer.Option(
                "--set", help="override a config key: key=value (repeatable)")] = None,
            resume: str = typer.Option(None, help="continue training this checkpoint"),
            quiet: bool = typer.Option(False, help="no per-rollout lines")) -> None:
        """Train MaskablePPO, evaluating and checkpointing as configured; report the result."""
        base = None
        if resume:
            from .checkpoint import read_meta

            meta = read_meta(resume)
            base = dict(meta.get("config") or {})
            if isinstance(meta.get("capacities"), dict):  # as trained, whatever today's defaults
                base["capacities"] = dict(meta["capacities"])
        try:
            cfg = load_config(config, set_ or (), base=base)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        if cfg.decks and len(cfg.decks) != 2:
            raise typer.BadParameter("give exactly two decks, or none for the theme pool")
        t = time.perf_counter()
        from .checkpoint import checkpoint_errors_as_usage

        with checkpoint_errors_as_usage():
            model = train(cfg, verbose=0 if quiet else 1, resume=resume)
        dt = time.perf_counter() - t
        typer.echo(f"trained to {model.num_timesteps} steps in {dt:.0f}s; "
                   f"logs and checkpoints in {cfg.run_dir}")
        for opp in cfg.eval_opponents:
            res = evaluate(model, cfg, cfg.eval_episodes, opponent=opp)
            typer.echo(f"vs {opp}: win rate {res['win_rate']:.1%} "
                       f"[{res['ci_low']:.1%}, {res['ci_high']:.1%}] over "
                       f"{res['wins'] + res['losses']} decisive games ({res['draws']} draws)")

    app()


if __name__ == "__main__":
    main()
