"""The parts of a PPO training run besides the algorithm: paired evaluation, CSV logs, curves,
checkpoints (see :mod:`agents.ppo` for the script that puts them together).

Evaluation plays the deterministic policy against an opponent on seat-balanced paired seeds:
two vector envs built with the same seed, the learner in seat 0 in one and seat 1 in the other,
so game ``k`` of slot ``i`` has the same seed, decks and shuffles in both and only the seats are
swapped. Win rates are over decisive games (draws and turn-limit truncations are counted apart,
as in ``mtg-env matchup``) with 95% Wilson intervals.
"""

from __future__ import annotations

import csv
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["EVAL_FIELDS", "TRAIN_FIELDS", "CsvLog", "TrainingCallback", "evaluate_paired",
           "plot_curves"]

TRAIN_FIELDS = ("timesteps", "wall_s", "steps_per_s", "collect_steps_per_s", "update_s",
                "episodes", "win_rate", "mean_return", "mean_length", "policy_loss", "value_loss",
                "entropy_loss", "approx_kl", "clip_fraction", "explained_variance",
                "capacity_truncated")
EVAL_FIELDS = ("timesteps", "wall_s", "opponent", "games", "wins", "losses", "draws",
               "win_rate", "ci_low", "ci_high", "eval_s")
_SB3_KEYS = {"policy_loss": "train/policy_gradient_loss", "value_loss": "train/value_loss",
             "entropy_loss": "train/entropy_loss", "approx_kl": "train/approx_kl",
             "clip_fraction": "train/clip_fraction",
             "explained_variance": "train/explained_variance"}


class CsvLog:
    """Appends rows to a CSV file, writing the header when the file is new. A file that exists
    keeps its own columns (a run resumed from a log written by another version stays aligned)."""

    def __init__(self, path: str | Path, fields: Sequence[str]) -> None:
        self.path = Path(path)
        self.fields = tuple(fields)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists() or self.path.stat().st_size == 0:
            with self.path.open("w", newline="") as f:
                csv.writer(f).writerow(self.fields)
        else:
            with self.path.open(newline="") as f:
                self.fields = tuple(next(csv.reader(f), self.fields))

    def write(self, row: Mapping[str, Any]) -> None:
        with self.path.open("a", newline="") as f:
            csv.writer(f).writerow([_fmt(row.get(k, "")) for k in self.fields])

    def rows(self) -> list[dict[str, str]]:
        with self.path.open(newline="") as f:
            return list(csv.DictReader(f))

    def last_wall(self) -> float:
        """The ``wall_s`` of the last row (0 for an empty log): a resumed run continues it."""
        rows = self.rows()
        return float(rows[-1]["wall_s"]) if rows else 0.0


def _fmt(v: Any) -> Any:
    if isinstance(v, float):
        return f"{v:.6g}"
    return v


def evaluate_paired(policy: Any, opponent: Any, games: int, seed: int,
                    env_config: Mapping[str, Any], num_envs: int = 8) -> dict[str, Any]:
    """Play ``games`` (rounded up to an even number) games of ``policy`` (anything with SB3's
    ``predict(obs, action_masks=..., deterministic=True)``) against ``opponent`` (a name such as
    ``"random"``/``"heuristic"``, an agent, or a batch policy), half in each seat on paired seeds.
    Returns counts, the decisive-game win rate and its 95% Wilson interval."""
    from mtg_env.sim.stats import wilson_interval
    from mtg_env.vector import MtgVectorEnv

    pairs = max(1, math.ceil(games / 2))
    n = min(num_envs, pairs)
    per_slot = [pairs // n + (1 if i < pairs % n else 0) for i in range(n)]
    wins = losses = draws = 0
    for seat in (0, 1):
        venv = MtgVectorEnv(n, opponent=opponent, learner_seat=seat, seed=seed, copy=False,
                            **dict(env_config))
        try:
            done = [0] * n
            obs, _ = venv.reset(seed=seed)
            while any(d < k for d, k in zip(done, per_slot, strict=True)):
                actions, _ = policy.predict(obs, action_masks=venv.action_masks(),
                                            deterministic=True)
                obs, _, _, _, info = venv.step(np.asarray(actions).reshape(n))
                if "final_info" not in info:
                    continue
                final = info["final_info"]
                for i in np.flatnonzero(info["_final_info"]):
                    if done[i] >= per_slot[i]:
                        continue
                    done[i] += 1
                    winner = int(final["winner"][i])
                    if winner < 0:
                        draws += 1
                    elif winner == int(final["seat"][i]):
                        wins += 1
                    else:
                        losses += 1
        finally:
            venv.close()
    decisive = wins + losses
    lo, hi = wilson_interval(wins, decisive)
    return {"games": wins + losses + draws, "wins": wins, "losses": losses, "draws": draws,
            "win_rate": wins / decisive if decisive else math.nan, "ci_low": lo, "ci_high": hi}


def plot_curves(eval_csv: str | Path, out_png: str | Path) -> Path | None:
    """Win rate (95% Wilson band) per opponent against timesteps and against wall time, as a
    PNG; None when the log has no rows yet."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = CsvLog(eval_csv, EVAL_FIELDS).rows()
    if not rows:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for opp in sorted({r["opponent"] for r in rows}):
        sel = [r for r in rows if r["opponent"] == opp]
        wr = np.array([float(r["win_rate"]) for r in sel])
        lo = np.array([float(r["ci_low"]) for r in sel])
        hi = np.array([float(r["ci_high"]) for r in sel])
        for ax, xs in ((axes[0], [int(r["timesteps"]) for r in sel]),
                       (axes[1], [float(r["wall_s"]) / 60 for r in sel])):
            line, = ax.plot(xs, wr, marker="o", label=f"vs {opp}")
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2)
    axes[0].set_xlabel("environment steps")
    axes[1].set_xlabel("wall time (minutes)")
    return save_win_rate_figure(fig, axes, "PPO evaluation: seat-balanced paired seeds, 95% "
                                "Wilson interval", out_png)


def save_win_rate_figure(fig: Any, axes: Sequence[Any], title: str, out_png: str | Path) -> Path:
    """Finish a figure of win-rate panels (y from 0 to 1, the 50% line, grid, legend, title)
    and write it to ``out_png`` as a PNG."""
    import matplotlib.pyplot as plt

    axes[0].set_ylabel("win rate (decisive games)")
    for ax in axes:
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _callback_base() -> type:
    from stable_baselines3.common.callbacks import BaseCallback

    return BaseCallback


class TrainingCallback(_callback_base()):  # type: ignore[misc]
    """Logs each rollout to ``train.csv``, evaluates every ``eval_every`` steps (``eval.csv``,
    ``curve.png``) and checkpoints every ``checkpoint_every`` steps (``checkpoints/``), all under
    ``run_dir``. ``wall_offset``: seconds already spent by the run being resumed. ``extra_meta``:
    more metadata written into every checkpoint (:func:`agents.checkpoint.save_checkpoint`)."""

    def __init__(self, run_dir: str | Path, config: Mapping[str, Any], env_config: Mapping[str, Any],
                 eval_every: int, eval_games: int, eval_opponents: Sequence[str],
                 checkpoint_every: int, eval_seed: int = 1_000_003, wall_offset: float = 0.0,
                 verbose: int = 0, extra_meta: Mapping[str, Any] | None = None) -> None:
        super().__init__(verbose)
        self.run_dir = Path(run_dir)
        self.config = dict(config)
        self.extra_meta = dict(extra_meta or {})
        self.env_config = dict(env_config)
        self.eval_every = eval_every
        self.eval_games = eval_games
        self.eval_opponents = tuple(eval_opponents)
        self.checkpoint_every = checkpoint_every
        self.eval_seed = eval_seed
        self.wall_offset = wall_offset
        self.train_log = CsvLog(self.run_dir / "train.csv", TRAIN_FIELDS)
        self.eval_log = CsvLog(self.run_dir / "eval.csv", EVAL_FIELDS)
        self.eval_results: list[dict[str, Any]] = []
        self._t0 = 0.0
        self._steps0 = 0
        self._rollout_t = 0.0
        self._rollout_end_t: float | None = None
        self._update_s = math.nan
        self._episodes: list[dict[str, Any]] = []
        self._eval_s = 0.0

    def wall(self) -> float:
        return self.wall_offset + time.perf_counter() - self._t0

    def _on_training_start(self) -> None:
        self._t0 = time.perf_counter()
        self._steps0 = self.num_timesteps
        self._next_eval = (self.num_timesteps // self.eval_every + 1) * self.eval_every \
            if self.eval_every > 0 else math.inf
        self._next_ckpt = (self.num_timesteps // self.checkpoint_every + 1) \
            * self.checkpoint_every if self.checkpoint_every > 0 else math.inf

    def _on_rollout_start(self) -> None:
        now = time.perf_counter()
        if self._rollout_end_t is not None:
            self._update_s = now - self._rollout_end_t
        self._rollout_t = now
        self._rollout_steps0 = self.num_timesteps

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            if "winner" in info:
                self._episodes.append(info)
        return True

    def _on_rollout_end(self) -> None:
        now = time.perf_counter()
        self._rollout_end_t = now
        collect = (self.num_timesteps - self._rollout_steps0) / max(now - self._rollout_t, 1e-9)
        eps = self._episodes
        self._episodes = []
        wins = sum(1 for e in eps if int(e["winner"]) == int(e["seat"]))
        values = self.model.logger.name_to_value
        row: dict[str, Any] = {
            "timesteps": self.num_timesteps, "wall_s": self.wall(),
            "steps_per_s": (self.num_timesteps - self._steps0)
            / max(now - self._t0 - self._eval_s, 1e-9),
            "collect_steps_per_s": collect, "update_s": self._update_s, "episodes": len(eps),
            "win_rate": wins / len(eps) if eps else math.nan,
            "mean_return": float(np.mean([float(e["return"]) for e in eps])) if eps else math.nan,
            "mean_length": float(np.mean([float(e["length"]) for e in eps])) if eps else math.nan,
            # games cut short because their position outgrew the observation's capacities
            "capacity_truncated": sum(1 for e in eps if e.get("end_reason") == "capacity"),
        }
        for k, key in _SB3_KEYS.items():
            row[k] = float(values[key]) if key in values else math.nan
        self.train_log.write(row)
        if self.verbose:
            print(f"[{self.num_timesteps}] {row['steps_per_s']:.0f} steps/s "
                  f"(collect {collect:.0f}/s) episodes {len(eps)} win {row['win_rate']:.2f}"
                  + (f" ({row['capacity_truncated']} cut short by the observation's capacities)"
                     if row["capacity_truncated"] else ""), flush=True)
        if self.num_timesteps >= self._next_ckpt:
            self.save(f"ckpt_{self.num_timesteps}")
            self._next_ckpt = (self.num_timesteps // self.checkpoint_every + 1) \
                * self.checkpoint_every
        if self.num_timesteps >= self._next_eval:
            self.evaluate()
            self._next_eval = (self.num_timesteps // self.eval_every + 1) * self.eval_every

    def save(self, name: str) -> Path:
        """Checkpoint the model as ``checkpoints/<name>.zip`` (with the run's config)."""
        from .checkpoint import save_checkpoint

        return save_checkpoint(self.model, self.run_dir / "checkpoints" / f"{name}.zip",
                               config=self.config, extra=self.extra_meta)

    def evaluate(self) -> list[dict[str, Any]]:
        """Evaluate now against every evaluation opponent; log, plot and return the rows."""
        t = time.perf_counter()
        out = []
        for opp in self.eval_opponents:
            t_opp = time.perf_counter()
            res = evaluate_paired(self.model.policy, opp, self.eval_games, self.eval_seed,
                                  self.env_config)
            row = {"timesteps": self.num_timesteps, "wall_s": self.wall(), "opponent": opp,
                   **res, "eval_s": time.perf_counter() - t_opp}
            self.eval_log.write(row)
            out.append(row)
            if self.verbose:
                print(f"[{self.num_timesteps}] eval vs {opp}: {res['win_rate']:.2f} "
                      f"[{res['ci_low']:.2f}, {res['ci_high']:.2f}] "
                      f"({res['wins']}-{res['losses']}-{res['draws']})", flush=True)
        plot_curves(self.eval_log.path, self.run_dir / "curve.png")
        self.eval_results.extend(out)
        self._eval_s += time.perf_counter() - t
        return out
