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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from .policy_agent import PPOAgent

__all__ = ["PPOAgent", "PPOConfig", "evaluate", "init_weights", "load_config", "train"]

_C = TypeVar("_C")


@dataclass
class PPOConfig:
    """Everything a training run depends on (saved in every checkpoint)."""

    total_timesteps: int = 100_000
    opponent: str = "random"  # the training opponent: an agent name (random, heuristic, mcts) or pool
    decks: tuple[str, ...] = ()  # two deck names for a fixed pairing; () = the theme-deck pool
    seed: int = 0
    max_turns: int = 40
    reward_shaping: float = 0.0
    capacities: dict[str, int] = field(default_factory=dict)  # env capacity keys; {} = defaults
    # self-play (opponent: pool; see agents.self_play)
    pool_members: tuple[str, ...] = ("random", "heuristic")  # permanent members (agent names)
    pool_size: int = 8  # snapshots of the learner kept (the oldest is dropped)
    pool_snapshot_every: int = 20_000  # steps between snapshots
    pool_scheme: str = "pfsp"  # pfsp: weight max((1 - p_win)^2, floor); uniform
    pool_floor: float = 0.05
    pool_memory: int = 200  # games per opponent the running p_win estimate follows
    # vector env
    num_envs: int = 16
    num_workers: int = 2  # worker processes; 0 = the games in this process (MtgVectorEnv)
    start_method: str = "fork"  # of the workers: fork (inherits the loaded cards) or spawn
    # algorithm
    learning_rate: float = 3e-4
    n_steps: int = 128  # per env: a rollout is num_envs * n_steps steps
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    # network
    policy: str = "structured"  # structured (agents.policy_net.MtgPolicy) or mlp
    net: dict[str, int] = field(default_factory=lambda: {"embed": 16, "d_row": 64, "d_ctx": 128,
                                                         "hidden": 64})
    net_arch: list[int] = field(default_factory=lambda: [256, 256])  # policy: mlp only
    threads: int = 1  # torch threads of the learner process
    # logging, evaluation, checkpoints
    run_dir: str = "results/ppo"
    eval_every: int = 50_000  # 0 = never during training
    eval_games: int = 40  # per opponent, half in each seat
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    checkpoint_every: int = 50_000  # 0 = only the final checkpoint
    eval_episodes: int = 50  # games of the final evaluation (the script's summary)
    out: str = ""  # extra copy of the final checkpoint ("" = run_dir/final.zip only)
    init_from: str = ""  # start from this checkpoint's weights (e.g. behaviour cloning, agents.imitation)

    def env_config(self) -> dict[str, Any]:
        """The env config of every training and evaluation game."""
        cfg: dict[str, Any] = {"max_turns": self.max_turns, **self.capacities}
        if self.decks:
            cfg["decks"] = tuple(self.decks)
        if self.reward_shaping:
            cfg["reward_shaping"] = self.reward_shaping
        return cfg


def _coerce(f: dataclasses.Field, value: Any) -> Any:
    default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
    if isinstance(default, tuple):
        return tuple(value.split(",") if isinstance(value, str) else value)
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, float) and isinstance(value, int | float | str):
        try:  # YAML 1.1 reads "1e-3" (no dot) as a string
            return float(value)
        except ValueError:
            raise ValueError(f"{f.name} must be a float, got {value!r}") from None
    if isinstance(default, int) and isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(default, int | float | str | dict | list) and not isinstance(value, type(default)):
        raise ValueError(f"{f.name} must be a {type(default).__name__}, got {value!r}")
    return value


def load_config(path: str | Path | None = None, overrides: Sequence[str] = (),
                base: Mapping[str, Any] | None = None, cls: type[_C] = PPOConfig) -> _C:  # type: ignore[assignment]
    """A config dataclass ``cls`` (:class:`PPOConfig` by default; also
    :class:`agents.imitation.BCConfig`) from ``base`` (a dict, e.g. a checkpoint's config), then
    the YAML file ``path``, then ``key=value`` overrides (values parsed as YAML:
    ``net={d_row: 32}``, ``eval_opponents=[random]``). Unknown keys and mistyped values raise
    ``ValueError``."""
    import yaml

    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}

    def merge(src: Mapping[str, Any], where: str) -> None:
        for k, v in src.items():
            if k not in fields:
                raise ValueError(f"unknown config key {k!r} in {where}; keys: {', '.join(fields)}")
            values[k] = _coerce(fields[k], v)

    if base:
        merge(base, "the checkpoint config")
    if path is not None:
        data = yaml.safe_load(Path(path).read_text()) or {}
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of config keys")
        merge(data, str(path))
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep:
            raise ValueError(f"override {item!r} is not key=value")
        merge({key.strip(): yaml.safe_load(raw)}, f"--set {item}")
    return cls(**values)


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


def _new_model(cfg: PPOConfig, env: Any, verbose: int):
    from sb3_contrib import MaskablePPO

    if cfg.policy == "structured":
        from .policy_net import MtgPolicy

        policy: Any = MtgPolicy
        from mtg_env.encoding import Capacities

        # Every capacity spelled out, so the checkpoint still loads if a default changes.
        caps = dataclasses.asdict(Capacities(**cfg.capacities))
        policy_kwargs: dict[str, Any] = {"capacities": caps, **cfg.net}
    elif cfg.policy == "mlp":
        policy, policy_kwargs = "MlpPolicy", {"net_arch": list(cfg.net_arch)}
    else:
        raise ValueError(f"policy must be 'structured' or 'mlp', got {cfg.policy!r}")
    return MaskablePPO(policy, env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                       batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                       gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
                       vf_coef=cfg.vf_coef, seed=cfg.seed, verbose=0,
                       policy_kwargs=policy_kwargs)


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
            model = _new_model(cfg, env, verbose)
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
