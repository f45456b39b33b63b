"""The leaf-value network learned from heuristic self-play (agents/value_training.py) and the
search that scores its leaves with it (``mcts:net=trained:vnet=PATH``)."""

from __future__ import annotations

import csv

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the value network needs the [rl] extra (torch, sb3-contrib)")

from agents import MctsAgent, make_agent
from agents.policy_value import PolicyValueNet
from agents.value_training import ValueConfig, _held_out, collect, load, run
from mtg_env import Deck, Game


def _config(tmp_path, **kw) -> ValueConfig:
    base = {"run_dir": str(tmp_path / "run"), "games": 12, "sample_rate": 0.05, "workers": 0,
            "epochs": 1, "threads": 1, "device": "cpu", "decks": ["starter_green", "starter_red"],
            "max_turns": 20, "holdout": 0.25}
    base.update(kw)
    return ValueConfig(**base)


def test_positions_are_recorded_from_both_sides_with_each_sides_result(tmp_path, one_torch_thread) -> None:
    cfg = _config(tmp_path)
    caps = {k: v for k, v in PolicyValueNet.load("trained", device="cpu").caps.__dict__.items()}
    data = collect(cfg, caps, progress=False)
    n = len(data["z"])
    assert n > 0 and len(data["indptr"]) == n + 1 and data["indptr"][-1] == len(data["idx"])
    assert set(np.unique(data["player"])) <= {0, 1}
    assert set(np.unique(data["z"])) <= {-1, 0, 1}
    # every sampled decision is recorded from both sides, with opposite results unless a draw
    for g in np.unique(data["game"]):
        rows = np.flatnonzero(data["game"] == g)
        assert len(rows) % 2 == 0
        z0 = data["z"][rows][data["player"][rows] == 0]
        z1 = data["z"][rows][data["player"][rows] == 1]
        assert (z0 == -z1).all()
    assert ((data["static"] >= 0) & (data["static"] <= 1)).all()
    again = collect(cfg, caps, progress=False)
    assert all(np.array_equal(data[k], again[k]) for k in data)  # seeded


def test_the_holdout_is_by_game(tmp_path) -> None:
    cfg = _config(tmp_path, holdout=0.5)
    game = np.repeat(np.arange(200), 3)
    held = _held_out(cfg, game)
    assert 0.3 < held.mean() < 0.7
    assert (held.reshape(200, 3) == held.reshape(200, 3)[:, :1]).all()


def test_a_run_writes_a_value_network_the_search_can_use(tmp_path, one_torch_thread) -> None:
    cfg = _config(tmp_path)
    path = run(cfg, progress=False)
    assert path.is_file()
    with open(tmp_path / "run" / "value.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["epoch"]) for r in rows] == [0, 1]
    assert all(float(r["holdout_mse"]) >= 0 for r in rows)
    run(cfg, progress=False)  # the positions are reused, not collected again
    g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=4, skip_trivial=True)
    agent = make_agent(f"mcts:net=trained:vnet={path}:iters=2:turns=1")
    assert isinstance(agent, MctsAgent) and agent.value_net == str(path)
    for _ in range(30):
        p = g.decision.player
        agent.reset(p, 1)
        g.apply(agent.act(g.view(p)))
        if g.is_over:
            break


def test_bad_settings_are_clear_errors(tmp_path) -> None:
    with pytest.raises(ValueError, match="sample_rate"):
        load(None, ["sample_rate=0"])
    with pytest.raises(ValueError, match="unknown config key"):
        load(None, ["gamez=3"])
    with pytest.raises(ValueError, match="net="):
        MctsAgent(value_net="trained")
    with pytest.raises(ValueError):
        make_agent("mcts:net=trained:vnet=/no/such/file.zip")
