"""Expert iteration (agents/expert_iteration.py) with a tiny network: the files of a run, the
recorded samples, --resume, the concurrent game driver against one game at a time, the process
and Ray backends against the in-process games, and one-line errors for bad config values."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="expert iteration needs the [rl] extra (torch, sb3-contrib)")

import torch

from agents.checkpoint import save_net_checkpoint
from agents.expert_iteration import (
    ExItConfig,
    ExItError,
    load_window,
    main,
    net_key,
    play_games,
    run,
    selfplay_specs,
)
from agents.imitation_data import KINDS
from agents.policy_net import MtgNet
from agents.policy_value import PolicyValueNet
from mtg_env.encoding import Capacities

TINY_NET = {"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8}
DECKS = ("starter_green", "starter_red")


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    """A tiny untrained network's checkpoint."""
    torch.manual_seed(0)
    net = MtgNet(Capacities(), **TINY_NET)
    return save_net_checkpoint(net.state_dict(), tmp_path_factory.mktemp("net") / "tiny.zip",
                               net=TINY_NET, max_turns=15)


def _cfg(tiny: Path, run_dir: Path, **kw) -> ExItConfig:
    base = {"run_dir": str(run_dir), "seed": 3, "decks": DECKS, "generations": 2,
            "games_per_generation": 2, "workers": 0, "games_at_once": 2, "max_turns": 15,
            "iterations": 2, "turns": 1, "init_from": str(tiny), "batch_size": 64,
            "holdout": 0.5, "gate_games": 2, "eval_games": 2, "verbose": False}
    return ExItConfig(**{**base, **kw})


@pytest.fixture(scope="module")
def two_generations(tiny, tmp_path_factory) -> tuple[ExItConfig, dict]:
    cfg = _cfg(tiny, tmp_path_factory.mktemp("exit") / "run")
    return cfg, run(cfg)


def test_a_run_writes_every_file_and_a_row_per_generation(two_generations) -> None:
    cfg, out = two_generations
    d = Path(cfg.run_dir)
    for name in ("gen_000.zip", "gen_001.zip", "gen_002.zip", "best.zip", "exit.csv",
                 "exit_curve.png", "state.json", "data/gen_001.npz", "data/gen_002.npz"):
        assert (d / name).is_file(), name
    with (d / "exit.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["generation"] for r in rows] == ["1", "2"]
    for r in rows:
        assert int(r["games"]) == 2 and int(r["positions"]) > 0
        assert float(r["selfplay_positions_per_s"]) > 0 and float(r["learner_samples_per_s"]) > 0
        assert r["accepted"] in ("True", "False") and r["eval_rate"] != ""
    state = json.loads((d / "state.json").read_text())
    assert state["generation"] == 2 and state["bests"][0] == 0 and state["best"] == out["best"]
    assert state["config"]["seed"] == 3
    best = PolicyValueNet.load(d / "best.zip", device="cpu")  # a checkpoint ppo:/mcts:net= read
    assert best.net_kwargs == TINY_NET
    assert (d / "best.zip").read_bytes() == (d / f"{net_key(state['best'])}.zip").read_bytes()


def test_samples_are_distributions_over_legal_indices(two_generations) -> None:
    cfg, _ = two_generations
    d = Path(cfg.run_dir) / "data"
    data = load_window(d, [1, 2])
    net = MtgNet(Capacities(), **TINY_NET)
    assert len(data) > 0 and data.indptr[-1] == len(data.idx)
    assert data.idx.max() < net.obs_size and set(np.unique(data.z)) <= {-1, 0, 1}
    for i in range(len(data)):
        a, b = data.legal_ptr[i], data.legal_ptr[i + 1]
        legal, target = data.legal[a:b], data.target[a:b]
        assert b - a >= 2 and len(np.unique(legal)) == b - a and legal.max() < net.n_actions
        assert (target >= 0).all() and abs(float(target.sum()) - 1.0) < 1e-5
    obs, mask, target, z = data.batch(np.arange(len(data)), net.obs_size, net.n_actions)
    assert not (target[~mask] != 0).any() and np.allclose(target.sum(1), 1, atol=1e-5)
    assert np.count_nonzero(obs) == len(data.idx) and np.array_equal(z, data.z)
    # the search's value of each position, in [0, 1], blends into the value target on request
    assert ((data.q >= 0) & (data.q <= 1)).all()
    *_, blend = data.batch(np.arange(len(data)), net.obs_size, net.n_actions, 0.25)
    assert np.allclose(blend, 0.25 * data.z + 0.75 * (2 * data.q - 1), atol=1e-6)
    with np.load(d / "gen_001.npz") as g:
        assert len(g["game_winner"]) == 2 and (g["player"] >= 0).all()
        assert (g["kind"] >= 0).all() and (g["kind"] < len(KINDS)).all()
        for k, w in zip(g["game_index"], g["game_winner"], strict=True):  # z is the game's result
            rows = g["game"] == 1_000_000 + k
            expect = np.where(w < 0, 0, np.where(g["player"][rows] == w, 1, -1))
            assert (g["z"][rows] == expect).all()


def test_resume_runs_exactly_the_missing_generations_and_matches_a_whole_run(
        two_generations, tiny, tmp_path) -> None:
    cfg, _ = two_generations
    resumed = tmp_path / "resumed"
    shutil.copytree(cfg.run_dir, resumed)
    out = run(_cfg(tiny, resumed, generations=3), resume=True)
    assert [r["generation"] for r in out["rows"]] == [3] and out["generation"] == 3
    with (resumed / "exit.csv").open() as f:
        assert [r["generation"] for r in csv.DictReader(f)] == ["1", "2", "3"]
    assert run(_cfg(tiny, resumed, generations=3), resume=True)["rows"] == []  # nothing left
    whole = tmp_path / "whole"
    run(_cfg(tiny, whole, generations=3))
    with np.load(resumed / "data/gen_003.npz") as a, np.load(whole / "data/gen_003.npz") as b:
        for k in ("indptr", "idx", "legal", "z", "kind", "game"):
            assert np.array_equal(a[k], b[k]), k
        assert np.allclose(a["target"], b["target"], atol=1e-5)
    wa = PolicyValueNet.load(resumed / "gen_003.zip", device="cpu").net.state_dict()
    wb = PolicyValueNet.load(whole / "gen_003.zip", device="cpu").net.state_dict()
    assert all(torch.allclose(wa[k], wb[k], atol=1e-5) for k in wa)


def test_the_concurrent_driver_records_what_one_game_at_a_time_records(tiny, tmp_path) -> None:
    cfg = _cfg(tiny, tmp_path, games_per_generation=3, opponents={"self": 0.5, "heuristic": 0.5})
    specs = selfplay_specs(cfg, 1, 0, [])
    assert {s.opponent for s in specs} <= {"self", "heuristic"}
    state = PolicyValueNet.load(tiny, device="cpu").net.state_dict()

    def play(at_once: int) -> list[dict]:
        nets = {net_key(0): PolicyValueNet.from_state(state, {}, TINY_NET)}
        return play_games(specs, nets, at_once, cfg.search_kwargs(1.0), cfg.max_turns)

    one, three = play(1), play(3)
    assert [r["winner"] for r in one] == [r["winner"] for r in three]
    assert sum(len(r["samples"]) for r in one) > 0
    for a, b in zip(one, three, strict=True):
        assert a["error"] is None and len(a["samples"]) == len(b["samples"])
        for sa, sb in zip(a["samples"], b["samples"], strict=True):
            for x, y in zip(sa[:3], sb[:3], strict=True):  # observation, legal indices
                assert np.array_equal(x, y)
            assert np.allclose(sa[3], sb[3], atol=1e-6) and sa[4:6] == sb[4:6]
            assert abs(sa[6] - sb[6]) < 1e-6  # the search's value (batched floats)


def test_opponents_are_drawn_per_game_and_decide_the_recorded_seats(tiny, tmp_path) -> None:
    cfg = _cfg(tiny, tmp_path, games_per_generation=40,
               opponents={"self": 0.4, "past": 0.3, "heuristic": 0.3})
    specs = selfplay_specs(cfg, 5, 4, [0, 2])
    assert specs == selfplay_specs(cfg, 5, 4, [0, 2])  # derived from (seed, generation, game)
    assert specs != selfplay_specs(cfg, 6, 4, [0, 2])
    assert {s.opponent for s in specs} == {"self", "past", "heuristic"}
    assert {s.learner for s in specs} == {0, 1} and len({s.decks for s in specs}) > 1
    for s in specs:
        me, other = s.seats[s.learner], s.seats[1 - s.learner]
        assert me == dataclasses.replace(me, kind="search", net="gen_004", record=True)
        if s.opponent == "self":
            assert other.kind == "search" and other.net == "gen_004" and other.record
        elif s.opponent == "past":
            assert other.kind == "search" and other.net in ("gen_000", "gen_002")
            assert not other.record
        else:
            assert other.kind == "heuristic" and not other.record
    # no past network yet: the past draws are self-play
    assert {s.opponent for s in selfplay_specs(cfg, 1, 0, [])} == {"self", "heuristic"}


def _first_generation_arrays(cfg: ExItConfig) -> dict[str, np.ndarray]:
    with np.load(Path(cfg.run_dir) / "data" / "gen_001.npz") as z:
        return {k: z[k] for k in z.files}


def _same_games(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    for k in ("indptr", "idx", "legal", "z", "kind", "game", "game_winner", "game_turns"):
        assert np.array_equal(a[k], b[k]), k
    assert np.allclose(a["target"], b["target"], atol=1e-5)


def test_worker_processes_play_the_same_games(two_generations, tiny, tmp_path) -> None:
    cfg, _ = two_generations
    other = _cfg(tiny, tmp_path / "procs", generations=1, workers=2, chunk_games=1,
                 gate_games=0, eval_games=0)
    run(other)
    _same_games(_first_generation_arrays(cfg), _first_generation_arrays(other))


def test_the_ray_backend_plays_the_same_games(two_generations, tiny, tmp_path) -> None:
    pytest.importorskip("ray", reason="the ray backend needs the [ray] extra")
    cfg, _ = two_generations
    other = _cfg(tiny, tmp_path / "ray", generations=1, workers=1, backend="ray",
                 gate_games=0, eval_games=0)
    run(other)
    _same_games(_first_generation_arrays(cfg), _first_generation_arrays(other))


@pytest.mark.parametrize(("sets", "message"), [
    (["colour=red"], "unknown config key 'colour'"),
    (["decks=[starter_green,not_a_deck]"], "unknown deck 'not_a_deck'"),
    (["generations=0"], "generations must be at least 1"),
    (["opponents={self: 0.5, heuristic: 0.2}"], "must sum to 1"),
    (["opponents={self: 0.5, rival: 0.5}"], "unknown opponent 'rival'"),
    (["init_from=/nonexistent/net.zip"], "init_from: no checkpoint file"),
    (["gate_agent=mcts"], "gate_agent must be one of policy, search"),
    (["backend=dask"], "backend must be one of process, ray"),
])
def test_bad_config_values_are_one_line_usage_errors(sets, message, tmp_path, capsys) -> None:
    argv = ["--set", f"run_dir={tmp_path / 'run'}"]
    for s in sets:
        argv += ["--set", s]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "run").exists()


def test_a_run_directory_is_not_overwritten_nor_resumed_with_other_settings(
        two_generations, tiny, tmp_path) -> None:
    cfg, _ = two_generations
    copy = tmp_path / "copy"
    shutil.copytree(cfg.run_dir, copy)
    with pytest.raises(ExItError, match="already holds a run"):
        run(_cfg(tiny, copy, generations=3))
    with pytest.raises(ExItError, match="differs from the run's in iterations, seed"):
        run(_cfg(tiny, copy, generations=3, seed=4, iterations=3), resume=True)
