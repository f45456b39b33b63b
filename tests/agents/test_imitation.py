"""Behaviour cloning of the heuristic (agents/imitation.py): the dataset, a training step, the
checkpoint as a ``ppo:PATH`` agent, PPO starting from it (``init_from``), and DAgger (the
learner's own games labelled with the heuristic's choices)."""

from __future__ import annotations

import dataclasses
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="behaviour cloning needs the [rl] extra (torch, sb3-contrib)")

import torch

from agents import make_agent
from agents.checkpoint import CheckpointError, load_checkpoint, read_meta
from agents.heuristic import HeuristicAgent
from agents.imitation import (
    BCConfig,
    dagger,
    generate,
    load_dataset,
    load_datasets,
    play_recorded,
    split_by_game,
    train_bc,
)
from agents.ppo import PPOConfig, load_config, train
from mtg_env.encoding import Capacities, Observer
from mtg_env.engine.game import Game
from mtg_env.engine.view import view_for
from mtg_env.env.config import load_deck
from mtg_env.sim.runner import MAX_DECISIONS, derive_seed, play_game

TINY_NET = {"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8}
ROOT = Path(__file__).resolve().parents[2]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


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
    # The PPO checkpoint says where its weights came from and how that checkpoint was made, and
    # a resumed run keeps saying it.
    final = tmp_path / "ppo" / "final.zip"
    started = read_meta(final)["started_from"]
    assert started["path"] == str(res["best"])
    assert started["behaviour_cloning"] == read_meta(res["best"])["behaviour_cloning"]
    train(cfg, resume=final)
    assert read_meta(final)["started_from"] == started


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


def _last_legal(obs: np.ndarray, mask: np.ndarray) -> int:
    """A learner that is not the heuristic: always the highest legal index."""
    return int(np.flatnonzero(mask)[-1])


@pytest.mark.parametrize(("expert", "decks", "seed"), [
    ("heuristic", ("kamahls_temper", "molimos_might"), 11),
    ("mcts:iters=1", ("evincars_tyranny", "kamahls_temper"), 12),  # overrides the heuristic here
])
def test_dagger_labels_are_the_experts_choices_in_the_learners_game(
        expert: str, decks: tuple[str, str], seed: int) -> None:
    """The learner's moves are the ones played, only its seat's decisions are samples, and each
    label is what the expert agent in that seat (asked at each of the seat's decisions, as it
    would be if it played, seeded as a player would be) chooses from the same view: checked
    against a game replayed here. The opponent is the heuristic either way."""
    rec = play_recorded(decks, seed, 8, learner=_last_legal, learner_seat=1, expert=expert)
    n = len(rec["action"])
    assert n > 5 and (rec["player"] == 1).all()
    # the replay: seat 1 plays the highest legal index, a heuristic labels each of its decisions
    game = Game.new([load_deck(d) for d in decks], seed=seed, skip_trivial=True, max_turns=8,
                    max_decisions=MAX_DECISIONS)
    observer = Observer(Capacities(), flatten=True)
    agents = [HeuristicAgent(), make_agent(expert)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, derive_seed(seed, "agent", seat))
    labels, played = [], []
    while not game.is_over:
        p = game.decision.player
        choice = agents[p].act(view_for(game, p))
        options = observer.legal(game)
        if p == 1 and len(options) > 1:
            labels.append(next(i for i, a in options.items() if a.text == choice.text))
            choice = options[max(options)]
            played.append(max(options))
        game.apply(choice)
    assert rec["action"].tolist() == labels
    assert int(rec["winner"]) == (-1 if game.winner is None else game.winner)
    # the learner disagrees with the heuristic somewhere, and the tally says where
    agree = sum(a for a, _ in rec["agree"].values())
    assert sum(t for _, t in rec["agree"].values()) == n
    assert agree == sum(a == b for a, b in zip(labels, played, strict=True)) < n
    assert sum(rec["confusion"].values()) == n - agree
    if expert != "heuristic":  # the labels are the expert's, not the heuristic's
        heuristic = play_recorded(decks, seed, 8, learner=_last_legal, learner_seat=1)
        assert (heuristic["action"] != rec["action"]).any()


def test_dagger_round_adds_the_learners_games_and_retrains(bc_run, tmp_path) -> None:
    """One DAgger round from the tiny clone: a dataset of its games labelled by the heuristic
    (the policy recorded, its results over the games), and a retrained policy that saw the
    heuristic-vs-heuristic samples and the new ones."""
    cfg, res = bc_run
    dcfg = _cfg(tmp_path, data_dir=cfg.data_dir, dagger_dir=str(tmp_path / "dagger"),
                dagger_rounds=1, dagger_games=2, dagger_init=str(res["best"]), epochs=1)
    out = dagger(dcfg)
    rdata = tmp_path / "dagger" / "round_1" / "data"
    m = json.loads((rdata / "manifest.json").read_text())
    assert m["kind"] == "dagger" and m["policy"] == str(Path(res["best"]).resolve())
    assert m["games"] == 2 and m["samples"] > 0
    assert sum(m["learner_results"].values()) == 2
    assert sum(a["samples"] for a in m["agreement"].values()) == m["samples"]
    both = load_datasets([cfg.data_dir, rdata])
    base = load_dataset(cfg.data_dir)
    assert len(both) == len(base) + m["samples"]
    assert len(np.unique(both.game)) == len(np.unique(base.game)) + 2  # games kept apart
    [row] = out["rounds"]
    assert row["round"] == 1 and row["samples"] == m["samples"]
    assert row["train_samples"] > len(split_by_game(base, 0.5, 5)[0])
    meta = read_meta(out["best"])
    assert meta["behaviour_cloning"]["init_from"] == str(res["best"])
    assert meta["behaviour_cloning"]["extra_data"] == [str(rdata)]
    assert (tmp_path / "dagger" / "dagger.csv").read_text().count("\n") == 2


def test_dagger_rounds_without_the_base_data_and_with_evaluations(bc_run, tmp_path) -> None:
    """``dagger_base_data=False``: a round retrains on the rounds' data alone (the first round's
    set as data_dir); ``dagger_eval_games``: each round's policy then plays the heuristic and
    dagger.csv records the result; a second run with more rounds reuses the collected games."""
    cfg, res = bc_run
    dcfg = _cfg(tmp_path, data_dir=cfg.data_dir, dagger_dir=str(tmp_path / "dagger"),
                dagger_rounds=1, dagger_games=2, dagger_init=str(res["best"]), epochs=1,
                dagger_base_data=False, dagger_eval_games=2)
    out = dagger(dcfg)
    rdata = tmp_path / "dagger" / "round_1" / "data"
    meta = read_meta(out["best"])["behaviour_cloning"]
    assert meta["extra_data"] == []  # trained on round 1's data only
    [row] = out["rounds"]
    assert row["train_samples"] <= len(load_dataset(rdata))
    assert row["eval_wins"] + row["eval_losses"] + row["eval_draws"] == 2
    assert (tmp_path / "dagger" / "dagger.csv").read_text().splitlines()[0].count("eval_win_rate")
    assert (tmp_path / "dagger" / "dagger_curve.png").stat().st_size > 0
    seconds = json.loads((rdata / "manifest.json").read_text())["shards"][0]["seconds"]
    out2 = dagger(dataclasses.replace(dcfg, dagger_rounds=2))
    assert json.loads((rdata / "manifest.json").read_text())["shards"][0]["seconds"] == seconds
    meta2 = read_meta(out2["best"])["behaviour_cloning"]
    assert meta2["extra_data"] == [str(tmp_path / "dagger" / "round_2" / "data")]


def test_kind_weights_must_name_decision_kinds(bc_run, tmp_path) -> None:
    cfg, _ = bc_run
    with pytest.raises(ValueError, match="unknown decision kind"):
        train_bc(_cfg(tmp_path, data_dir=cfg.data_dir, kind_weights={"atack": 2.0}, epochs=1))

