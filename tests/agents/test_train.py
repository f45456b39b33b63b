"""PPO training (agents/ppo.py, agents/training.py): config loading and overrides, a smoke run
over two worker processes with evaluation, logs, curve and checkpoints, and resuming."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("sb3_contrib", reason="PPO training needs the [rl] extra (torch, sb3-contrib)")

from agents.checkpoint import load_checkpoint, read_meta
from agents.ppo import PPOConfig, load_config, train
from agents.training import evaluate_paired

TINY = {"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8}


def _rows(path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_config_loads_from_yaml_with_overrides(tmp_path) -> None:
    cfg = load_config("configs/ppo.yaml")
    assert cfg.policy == "structured" and cfg.num_workers == 2
    assert cfg.eval_opponents == ("random", "heuristic")
    cfg = load_config("configs/ppo.yaml", ["total_timesteps=1234", "learning_rate=1e-3",
                                           "net={embed: 4, d_row: 8}", "eval_opponents=[random]",
                                           "decks=[kamahls_temper, molimos_might]"])
    assert cfg.total_timesteps == 1234 and cfg.learning_rate == pytest.approx(1e-3)
    assert cfg.net == {"embed": 4, "d_row": 8} and cfg.eval_opponents == ("random",)
    assert cfg.env_config()["decks"] == ("kamahls_temper", "molimos_might")
    base = load_config(overrides=["seed=5"], base={"seed": 3, "n_steps": 64})
    assert (base.seed, base.n_steps) == (5, 64)
    with pytest.raises(ValueError, match="unknown config key 'lr'"):
        load_config("configs/ppo.yaml", ["lr=0.1"])
    with pytest.raises(ValueError, match="total_timesteps must be a int"):
        load_config(overrides=["total_timesteps=lots"])
    with pytest.raises(ValueError, match="not key=value"):
        load_config(overrides=["seed"])
    (tmp_path / "bad.yaml").write_text("n_epochs: 2\nbogus: 1\n")
    with pytest.raises(ValueError, match="bogus"):
        load_config(tmp_path / "bad.yaml")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A few hundred steps over two worker processes with a tiny network."""
    import torch

    torch.set_num_threads(1)
    d = tmp_path_factory.mktemp("ppo_run")
    cfg = PPOConfig(total_timesteps=256, num_envs=4, num_workers=2, n_steps=32, batch_size=64,
                    n_epochs=1, max_turns=12, net=dict(TINY), eval_every=128, eval_games=2,
                    eval_opponents=("random",), checkpoint_every=128, run_dir=str(d))
    model = train(cfg)
    return cfg, model, d


def test_smoke_run_logs_evaluates_plots_and_checkpoints(run) -> None:
    _, model, d = run
    assert model.num_timesteps == 256
    rows = _rows(d / "train.csv")
    assert [int(r["timesteps"]) for r in rows] == [128, 256]
    assert all(float(r["collect_steps_per_s"]) > 0 for r in rows)
    assert rows[1]["value_loss"] not in ("", "nan")  # the first update's losses are logged
    ev = _rows(d / "eval.csv")
    assert [(int(r["timesteps"]), r["opponent"], int(r["games"])) for r in ev] == \
        [(128, "random", 2), (256, "random", 2)]
    for r in ev:
        assert int(r["wins"]) + int(r["losses"]) + int(r["draws"]) == 2
    assert (d / "curve.png").stat().st_size > 1000
    for name in ("ckpt_128.zip", "ckpt_256.zip"):
        assert (d / "checkpoints" / name).exists()
    meta = read_meta(d / "final.zip")
    assert meta["config"]["net"] == TINY and meta["num_timesteps"] == 256


def test_resume_continues_from_a_checkpoint(run) -> None:
    _, _, d = run
    ckpt = d / "checkpoints" / "ckpt_128.zip"
    base = read_meta(ckpt)["config"]
    resumed = load_config(overrides=["total_timesteps=384", "eval_every=0",
                                     "checkpoint_every=0"], base=base)
    model = train(resumed, resume=ckpt)
    assert model.num_timesteps == 384
    rows = _rows(d / "train.csv")
    assert [int(r["timesteps"]) for r in rows][-2:] == [256, 384]
    wall = [float(r["wall_s"]) for r in rows]
    assert wall[-2] >= wall[1]  # the resumed run's clock continues the logged one
    again, meta = load_checkpoint(d / "final.zip")
    assert meta["num_timesteps"] == 384 and again.policy.net_kwargs["d_row"] == TINY["d_row"]


def test_paired_evaluation_swaps_seats_on_the_same_games() -> None:
    """Random against random on paired seeds: every game is counted once, in both seats."""
    class Uniform:
        def predict(self, obs, action_masks, deterministic):
            import numpy as np
            rng = np.random.default_rng(len(obs))
            return np.array([rng.choice(np.flatnonzero(m)) for m in action_masks]), None

    res = evaluate_paired(Uniform(), "random", 6, seed=4, env_config={"max_turns": 8})
    assert res["games"] == 6
    assert res["wins"] + res["losses"] + res["draws"] == 6
