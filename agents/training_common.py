"""What the training scripts share: their typed configs and the model they start from.

:class:`PPOConfig` (``python -m agents.ppo``), :class:`BCConfig` (``python -m agents.imitation``),
:func:`load_config` (either one, or any such dataclass, from YAML and ``--set`` overrides) and
:func:`new_model` (an untrained MaskablePPO model with the structured or MLP policy). PPO
training, behaviour cloning and the checkpoint writer all build on these, so they live apart
from every one of them (no training module imports another one back).

>>> cfg = load_config(overrides=["max_turns=30", "decks=[starter_green, starter_red]"])
>>> cfg.max_turns, cfg.decks, cfg.env_config()["decks"]
(30, ('starter_green', 'starter_red'), ('starter_green', 'starter_red'))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["BCConfig", "PPOConfig", "load_config", "new_model"]

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


@dataclass
class BCConfig:
    """Everything behaviour cloning depends on (saved in the checkpoint's metadata)."""

    # dataset
    data_dir: str = "results/bc/data"
    games: int = 500
    seed: int = 0
    decks: tuple[str, ...] = ()  # the deck pool pairings are drawn from; () = the theme decks
    max_turns: int = 40
    capacities: dict[str, int] = field(default_factory=dict)  # env capacity keys; {} = defaults
    workers: int = 2  # processes playing the games; 0 = in this process
    shard_games: int = 25  # games per shard file (a unit of work)
    # training
    run_dir: str = "results/bc"
    epochs: int = 8
    batch_size: int = 256
    learning_rate: float = 1e-3
    lr_decay: bool = True  # cosine decay to 0 over the epochs
    weight_decay: float = 0.0
    val_fraction: float = 0.1  # of the games
    value_coef: float = 0.5
    value_gamma: float = 0.995  # per remaining decision of the player (PPO's gamma)
    max_samples: int = 0  # train on a random N of the training samples (0 = all)
    extra_data: tuple[str, ...] = ()  # more datasets trained on with data_dir (e.g. DAgger's)
    init_from: str = ""  # start from this checkpoint's weights instead of a new network
    kind_weights: dict[str, float] = field(default_factory=dict)  # cross-entropy weight per kind
    net: dict[str, int] = field(default_factory=lambda: {"embed": 16, "d_row": 64, "d_ctx": 128,
                                                         "hidden": 64})
    threads: int = 1  # torch threads
    # evaluation (seat-balanced paired seeds)
    eval_games: int = 100  # per opponent, half in each seat; 0 = none
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    eval_seed: int = 1_000_003
    # DAgger (``dagger``): rounds of the current policy playing the heuristic, its decisions
    # labelled with the heuristic's, then training on everything so far from its weights
    dagger_rounds: int = 3
    dagger_games: int = 200  # per round, the policy in each seat half of them
    dagger_dir: str = "results/bc/dagger"  # round_N/data and round_N/run
    dagger_init: str = ""  # the first round's policy; "" = train one on data_dir first
    dagger_expert: str = "heuristic"  # the agent spec whose choices label the policy's decisions
    dagger_base_data: bool = True  # retrain on data_dir too (False: extra_data and the rounds')
    dagger_eval_games: int = 0  # after each round, games against the heuristic (eval_seed)

    def env_config(self) -> dict[str, Any]:
        """The env config of the evaluation games (and of the PPO model's spaces)."""
        return {"max_turns": self.max_turns, **self.capacities}

    def pool(self) -> tuple[str, ...]:
        from mtg_env.env.config import default_deck_names

        return tuple(self.decks) or default_deck_names()


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
    """A config dataclass ``cls`` (:class:`PPOConfig` by default; also :class:`BCConfig`, or
    ``agents.expert_iteration.ExItConfig``) from ``base`` (a dict, e.g. a checkpoint's config), then
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


def new_model(cfg: PPOConfig, env: Any, verbose: int = 0) -> Any:
    """An untrained MaskablePPO model for ``env`` with ``cfg``'s policy (``structured``:
    :class:`agents.policy_net.MtgPolicy` with every capacity spelled out; ``mlp``: SB3's MLP)
    and algorithm settings."""
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
