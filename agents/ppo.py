"""The PPO baseline: train sb3-contrib's MaskablePPO on :class:`~mtg_env.SingleAgentEnv` and
play the trained policy as an agent.

One file, a typed config, in the manner of CleanRL / SB3 training scripts::

    python -m agents.ppo --total-timesteps 200000 --opponent heuristic --out results/ppo.zip
    python -m agents.ppo --help

The learner's seat is random per episode; rewards are +1 / -1 / 0 at the end only. After training
the script evaluates the policy against the opponent and prints its win rate with a 95% Wilson
interval. :class:`PPOAgent` plays a saved policy through the env interface
(``act_masked(observation, action_mask, ...)``), so it can be the opponent of another
``SingleAgentEnv`` or play in the AEC env.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .base import BaseAgent, LegalTexts

__all__ = ["PPOAgent", "PPOConfig", "evaluate", "train"]


@dataclass
class PPOConfig:
    """Everything a training run depends on (saved beside the model)."""

    total_timesteps: int = 100_000
    opponent: str = "random"  # an agent name: random, heuristic, mcts
    decks: tuple[str, ...] = ()  # two deck names for a fixed pairing; () = the theme-deck pool
    seed: int = 0
    max_turns: int = 40
    learning_rate: float = 3e-4
    n_steps: int = 2048
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.995
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    eval_episodes: int = 50
    threads: int = 1
    out: str = "results/ppo.zip"


def _env(cfg: PPOConfig, seed: int):
    from agents import make_agent
    from mtg_env import SingleAgentEnv

    opponent: Any = "random" if cfg.opponent == "random" else make_agent(cfg.opponent)
    kwargs: dict[str, Any] = {"seed": seed, "flatten": True, "max_turns": cfg.max_turns}
    if cfg.decks:
        kwargs["decks"] = list(cfg.decks)
    return SingleAgentEnv(opponent=opponent, **kwargs)


def train(cfg: PPOConfig, verbose: int = 0):
    """Train a MaskablePPO policy; returns the model (also saved to ``cfg.out`` if set)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(cfg.threads)
    env = _env(cfg, cfg.seed)
    model = MaskablePPO("MlpPolicy", env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                        ent_coef=cfg.ent_coef, seed=cfg.seed, verbose=verbose,
                        policy_kwargs={"net_arch": list(cfg.net_arch)})
    model.learn(total_timesteps=cfg.total_timesteps)
    if cfg.out:
        Path(cfg.out).parent.mkdir(parents=True, exist_ok=True)
        model.save(cfg.out)
    return model


def evaluate(model, cfg: PPOConfig, episodes: int, seed: int = 10_000) -> dict[str, float]:
    """Play ``episodes`` games of the (deterministic) policy against ``cfg.opponent``."""
    from mtg_env.sim.stats import wilson_interval

    env = _env(cfg, seed)
    wins = losses = draws = 0
    for ep in range(episodes):
        obs, _ = env.reset(seed=seed + ep)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, term, trunc, _ = env.step(int(action))
            done = term or trunc
        wins += reward > 0
        losses += reward < 0
        draws += reward == 0
    lo, hi = wilson_interval(wins, wins + losses) if wins + losses else (0.0, 1.0)
    return {"episodes": episodes, "wins": wins, "losses": losses, "draws": draws,
            "win_rate": wins / max(wins + losses, 1), "ci_low": lo, "ci_high": hi}


class PPOAgent(BaseAgent):
    """A trained MaskablePPO policy as an agent of the env interface (flat observations)."""

    name = "ppo"

    def __init__(self, model: Any = "results/ppo.zip", deterministic: bool = True) -> None:
        super().__init__()
        if isinstance(model, str | Path):
            from sb3_contrib import MaskablePPO

            model = MaskablePPO.load(str(model))
        self.model = model
        self.deterministic = deterministic

    def act_masked(self, observation: Any, action_mask: Sequence[int],
                   legal_texts: LegalTexts | None = None, view: Any = None) -> int:
        obs = observation["observation"] if isinstance(observation, dict) else observation
        mask = np.asarray(action_mask, dtype=bool)
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return int(action)

    def act(self, view: Any):
        raise NotImplementedError("PPOAgent plays through the env interface (act_masked): "
                                  "its policy reads env observations, not engine views")


def main() -> None:
    import typer

    app = typer.Typer(add_completion=False)

    @app.command()
    def run(total_timesteps: int = PPOConfig.total_timesteps, opponent: str = PPOConfig.opponent,
            decks: str = typer.Option("", help="two comma-separated deck names (default: theme pool)"),
            seed: int = PPOConfig.seed, max_turns: int = PPOConfig.max_turns,
            learning_rate: float = PPOConfig.learning_rate, n_steps: int = PPOConfig.n_steps,
            batch_size: int = PPOConfig.batch_size, eval_episodes: int = PPOConfig.eval_episodes,
            threads: int = PPOConfig.threads, out: str = PPOConfig.out) -> None:
        """Train MaskablePPO against an opponent, save it, and report its win rate."""
        deck_list = tuple(d for d in decks.split(",") if d)
        if deck_list and len(deck_list) != 2:
            raise typer.BadParameter("give exactly two decks, or none for the theme pool")
        cfg = PPOConfig(total_timesteps=total_timesteps, opponent=opponent, decks=deck_list,
                        seed=seed, max_turns=max_turns, learning_rate=learning_rate,
                        n_steps=n_steps, batch_size=batch_size, eval_episodes=eval_episodes,
                        threads=threads, out=out)
        t = time.perf_counter()
        model = train(cfg, verbose=1)
        dt = time.perf_counter() - t
        res = evaluate(model, cfg, cfg.eval_episodes)
        typer.echo(f"trained {cfg.total_timesteps} steps in {dt:.0f}s "
                   f"({cfg.total_timesteps / dt:.0f} steps/s); saved {cfg.out}")
        typer.echo(f"vs {cfg.opponent}: win rate {res['win_rate']:.1%} "
                   f"[{res['ci_low']:.1%}, {res['ci_high']:.1%}] over {res['wins'] + res['losses']} "
                   f"decisive games ({res['draws']} draws)")
        typer.echo(f"config: {dataclasses.asdict(cfg)}")

    app()


if __name__ == "__main__":
    main()
