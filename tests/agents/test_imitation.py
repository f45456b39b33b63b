"""Behaviour cloning of the heuristic (agents/imitation.py): the dataset, a training step, the
checkpoint as a ``ppo:PATH`` agent, and PPO starting from it (``init_from``)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="behaviour cloning needs the [rl] extra (torch, sb3-contrib)")

import torch

from agents import make_agent
from agents.checkpoint import CheckpointError, load_checkpoint, read_meta
from agents.imitation import BCConfig, generate, load_dataset, split_by_game, train_bc
from agents.ppo import PPOConfig, load_config, train
from mtg_env.env.config import load_deck
from mtg_env.sim.runner import play_game

TINY_NET = {"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _cfg(tmp: Path, **kw) -> BCConfig:
    base = {"games": 2, "max_turns": 3, "shard_games": 1, "workers": 0, "seed": 5,
            "data_dir": str(tmp / "data"), "run_dir": str(tmp / "run"), "net": dict(TINY_NET),
            "batch_size": 64, "epochs": 3, "learning_rate": 3e-3, "val_fraction": 0.5,
            "eval_games": 0}
    return BCConfig(**{**base, **kw})


@pytest.fixture(scope="module")
def bc_run(tmp_path_factory) -> tuple[BCConfig, dict]:
    tmp = tmp_path_factory.mktemp("bc")
    cfg = _cfg(tmp)
    generate(cfg)
    return cfg, train_bc(cfg)


def test_dataset_records_the_heuristics_legal_choices_deterministically(bc_run, tmp_path) -> None:
    """Two tiny games: every sample has a full observation, a mask with more than one legal
    index that contains the recorded action, an outcome of -1/0/1; the manifest records the
    layout and vocabulary; the same seed gives the same dataset with two worker processes, and
    a larger dataset reuses the shards of a smaller one."""
    cfg, _ = bc_run
    ds = load_dataset(cfg.data_dir)
    m = ds.manifest
    assert m["games"] == 2 and m["samples"] == len(ds) > 0 and m["seed"] == 5
    assert {"vocab_signature", "layout_signature", "layout_version"} <= set(m)
    assert set(np.unique(ds.game)) == {0, 1}
    obs, mask = ds.batch(np.arange(len(ds)))
    assert obs.shape == (len(ds), ds.obs_size) and mask.shape == (len(ds), ds.action_size)
    assert (mask.sum(axis=1) > 1).all()
    assert mask[np.arange(len(ds)), ds.action].all()
    assert set(np.unique(ds.outcome)) <= {-1, 0, 1}
    assert (ds.remaining >= 0).all()
    # the first decision of a game is a mulligan decision: keep or mulligan
    assert ds.manifest["kinds"][int(ds.kind[0])] == "mulligan"
    # the same games from two worker processes, the second game extending a 1-game dataset
    first = generate(_cfg(tmp_path, workers=2, games=1))
    shard0 = (tmp_path / "data" / "shard_00000.npz").stat().st_mtime_ns
    again = generate(_cfg(tmp_path, workers=2))
    assert (tmp_path / "data" / "shard_00000.npz").stat().st_mtime_ns == shard0
    assert first["games"] == 1 and again["games"] == 2 and again["complete"]
    ds2 = load_dataset(tmp_path / "data")
    for name in ("indptr", "idx", "val", "legal_ptr", "legal", "action", "kind", "outcome",
                 "remaining", "game"):
        assert np.array_equal(getattr(ds, name), getattr(ds2, name)), name


def test_split_is_by_game(bc_run) -> None:
    cfg, _ = bc_run
    ds = load_dataset(cfg.data_dir)
    train_rows, val_rows = split_by_game(ds, 0.5, seed=0)
    assert len(train_rows) + len(val_rows) == len(ds)
    assert not set(ds.game[train_rows]) & set(ds.game[val_rows])


def test_bc_training_reduces_the_loss_and_logs(bc_run) -> None:
    cfg, res = bc_run
    hist = res["history"]
    assert len(hist) == 3
    assert hist[-1]["train_loss"] < hist[0]["train_loss"]
    rows = (Path(cfg.run_dir) / "bc.csv").read_text().splitlines()
    assert rows[0].startswith("epoch,") and len(rows) == 4
    assert (Path(cfg.run_dir) / "bc_kinds.csv").exists()
    meta = read_meta(res["best"])
    assert meta["behaviour_cloning"]["dataset"]["games"] == 2
    assert meta["config"]["net"] == TINY_NET


def test_bc_checkpoint_plays_a_legal_game_as_ppo_agent(bc_run) -> None:
    _, res = bc_run
    agent = make_agent(f"ppo:{res['best']}")
    decks = [load_deck("starter_green"), load_deck("starter_red")]
    game = play_game(decks, [agent, make_agent("random")], seed=3, max_turns=4)
    assert game.is_over and game.decisions_made > 0


def test_ppo_init_from_loads_the_bc_weights(bc_run, tmp_path) -> None:
    _, res = bc_run
    cfg = PPOConfig(total_timesteps=0, num_envs=1, num_workers=0, max_turns=3, net=dict(TINY_NET),
                    eval_every=0, checkpoint_every=0, run_dir=str(tmp_path / "ppo"),
                    init_from=str(res["best"]))
    model = train(cfg)
    bc_model, _ = load_checkpoint(res["best"])
    ours, theirs = model.policy.state_dict(), bc_model.policy.state_dict()
    assert ours.keys() == theirs.keys()
    assert all(torch.equal(ours[k], theirs[k]) for k in ours)


def test_ppo_init_from_refuses_other_network_sizes(bc_run, tmp_path) -> None:
    _, res = bc_run
    cfg = PPOConfig(total_timesteps=0, num_envs=1, num_workers=0, max_turns=3,
                    net={**TINY_NET, "d_row": 12}, eval_every=0, checkpoint_every=0,
                    run_dir=str(tmp_path / "ppo"), init_from=str(res["best"]))
    with pytest.raises(CheckpointError, match="network sizes"):
        train(cfg)


def test_ppo_init_from_refuses_another_layout(bc_run, tmp_path) -> None:
    """A checkpoint whose layout signature differs from this install's is refused by name."""
    _, res = bc_run
    bad = tmp_path / "other_layout.zip"
    with zipfile.ZipFile(res["best"]) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.namelist():
            data = src.read(item)
            if item == "mtg_env_meta.json":
                meta = json.loads(data)
                meta["layout_signature"] = "0000000000000000"
                data = json.dumps(meta).encode()
            dst.writestr(item, data)
    cfg = PPOConfig(total_timesteps=0, num_envs=1, num_workers=0, max_turns=3, net=dict(TINY_NET),
                    eval_every=0, checkpoint_every=0, run_dir=str(tmp_path / "ppo"),
                    init_from=str(bad))
    with pytest.raises(CheckpointError, match="layout_signature"):
        train(cfg)


def test_bc_yaml_loads_through_the_shared_config_loader() -> None:
    cfg = load_config(ROOT / "configs" / "bc.yaml", ["games=7", "eval_opponents=[random]"],
                      cls=BCConfig)
    assert isinstance(cfg, BCConfig) and cfg.games == 7 and cfg.eval_opponents == ("random",)
    with pytest.raises(ValueError, match="unknown config key"):
        load_config(None, ["gamez=3"], cls=BCConfig)
