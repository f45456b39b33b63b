"""Self-play against a pool of frozen past policies (agents/self_play.py, mtg_env.vector's
OpponentMix): per-episode opponent draws follow the weights, a game's opponent changes only at
an episode boundary, a snapshot joins the pool and plays legal games in worker processes, the
prioritised scheme's weights, a smoke run with ``opponent: pool`` and a resume that keeps the
pool."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="self-play needs the [rl] extra (torch, sb3-contrib)")

import torch

from agents.self_play import FrozenPolicy, OpponentPool
from mtg_env.vector import MtgVectorEnv, OpponentMix, SubprocMtgVectorEnv

torch.set_num_threads(1)

CFG = {"decks": ("starter_green", "starter_red"), "max_turns": 3}
TINY = {"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8}


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic opponent policy: the lowest legal index."""
    return int(np.flatnonzero(mask)[0])


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def opponents_over_resets(venv, times: int) -> list[list[str]]:
    out = []
    for _ in range(times):
        venv.reset()
        out.append(venv.opponents())
    return out


def tiny_model(env=None):
    from sb3_contrib import MaskablePPO

    from agents.policy_net import MtgPolicy
    from mtg_env.vector import Sb3VecEnv

    env = env or Sb3VecEnv(MtgVectorEnv(1, seed=0, **CFG))
    return MaskablePPO(MtgPolicy, env, n_steps=8, batch_size=8, seed=0,
                       policy_kwargs={"capacities": {}, **TINY})


def test_per_episode_draws_follow_the_weights_and_the_seed() -> None:
    """Draws follow the weights; the same seed draws the same opponents, in-process or not."""
    mix = OpponentMix({"random": "random", "first": first_legal}, {"random": 3.0, "first": 1.0})
    venv = MtgVectorEnv(2, opponent=mix, seed=11, **CFG)
    batch = venv._batch
    draws = [batch._draw(batch.slots[k % 2]) for k in range(4000)]
    share = draws.count("random") / len(draws)
    assert abs(share - 0.75) < 0.03, share  # 3 : 1; the sd of the share is about 0.007
    # each game draws its opponent from its own seeded RNG when an episode starts: the same
    # seed gives the same opponents, in one process or over workers
    seen = opponents_over_resets(venv, 6)
    assert {o for row in seen for o in row} == {"random", "first"}
    again = MtgVectorEnv(2, opponent=mix, seed=11, **CFG)
    assert opponents_over_resets(again, 6) == seen
    sub = SubprocMtgVectorEnv(2, opponent=mix, seed=11, num_workers=2, context="fork", **CFG)
    try:
        assert opponents_over_resets(sub, 6) == seen
    finally:
        sub.close()
    # a member with weight 0 is never drawn
    zero = MtgVectorEnv(2, opponent=OpponentMix({"random": "random", "first": first_legal},
                                                {"random": 0.0, "first": 1.0}), seed=3, **CFG)
    for _ in range(5):
        zero.reset()
        assert zero.opponents() == ["first", "first"]
    with pytest.raises(ValueError, match="unknown opponent"):
        OpponentMix({"random": "random"}, {"heuristic": 1.0})
    with pytest.raises(ValueError, match="positive weight"):
        OpponentMix({"random": "random"}, {"random": 0.0})


def test_a_games_opponent_changes_only_at_an_episode_boundary() -> None:
    """Opponents are drawn when an episode starts and kept to its end, also when the member
    leaves the mix mid-episode (it is then dropped once no game plays it)."""
    mix = OpponentMix({"random": "random", "first": first_legal, "heuristic": "heuristic"})
    venv = MtgVectorEnv(3, opponent=mix, seed=4, **CFG)
    venv.reset()
    rng = np.random.default_rng(0)
    ended = changed = 0
    retired_at = None
    for step in range(600):
        before = venv.opponents()
        if step == 150:  # no new episode draws "random"; running ones keep it
            venv.set_opponents({"first": 1.0, "heuristic": 1.0})
            retired_at = step
            playing_random = {i for i, o in enumerate(before) if o == "random"}
            assert playing_random  # the retirement must catch running episodes
        _, _, term, trunc, info = venv.step(random_legal(venv.action_masks(), rng))
        after = venv.opponents()
        done = term | trunc
        for i in range(3):
            if done[i]:
                ended += 1
                assert info["final_info"]["opponent"][i] == before[i]
                changed += after[i] != before[i]
                if retired_at is not None:
                    assert after[i] != "random"
                    playing_random.discard(i)
            else:
                assert after[i] == before[i], f"game {i} changed opponent mid-episode"
        if retired_at is not None:
            assert {i for i, o in enumerate(after) if o == "random"} == playing_random
    assert ended >= 10 and changed >= 3
    assert "random" not in venv._batch._members  # dropped once no game played it


def test_a_snapshot_enters_the_pool_and_plays_legal_games(tmp_path) -> None:
    """A snapshot decides like the learner it froze, plays legal games in worker processes,
    and the oldest one leaves a full pool; a ``ppo:PATH`` member is a frozen policy too."""
    model = tiny_model()
    pool = OpponentPool(tmp_path / "pool", members=("random",), size=2)
    name, dropped = pool.add_snapshot(model.policy, 0)
    assert name == "snap_0" and dropped == [] and (tmp_path / "pool" / "snap_0.pt").is_file()
    assert set(pool.weights()) == {"random", "snap_0"}
    frozen = pool.snapshots[name]
    # the frozen copy decides exactly as the learner did when it was taken
    venv = MtgVectorEnv(3, seed=2, **CFG)
    obs, _ = venv.reset()
    masks = venv.action_masks()
    greedy = FrozenPolicy(frozen.blob, deterministic=True)
    expect, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert list(greedy.act_batch(obs, masks)) == list(expect)
    sampled = frozen.act_batch(obs, masks)
    assert all(masks[i, a] for i, a in enumerate(sampled))
    # in worker processes, only against the snapshot: every opponent decision must be legal
    # (the env raises IllegalActionError otherwise)
    sub = SubprocMtgVectorEnv(2, opponent=OpponentMix({name: frozen}), seed=5, num_workers=2,
                              context="fork", **CFG)
    try:
        sub.reset()
        rng = np.random.default_rng(1)
        finished = []
        for _ in range(400):
            _, _, term, trunc, info = sub.step(random_legal(sub.action_masks(), rng))
            for i in np.flatnonzero(term | trunc):
                finished.append(info["final_info"]["opponent"][i])
            if len(finished) >= 3:
                break
        assert len(finished) >= 3 and set(finished) == {name}
    finally:
        sub.close()
    # a second and third snapshot: the oldest leaves (size 2)
    pool.add_snapshot(model.policy, 10)
    _, dropped = pool.add_snapshot(model.policy, 20)
    assert dropped == ["snap_0"] and set(pool.snapshots) == {"snap_10", "snap_20"}
    pool.delete_files(dropped)
    assert not (tmp_path / "pool" / "snap_0.pt").exists()
    # a trained checkpoint as a permanent member plays as a frozen policy too
    from agents.checkpoint import save_checkpoint

    path = save_checkpoint(model, tmp_path / "trained.zip", config={})
    spec = f"ppo:{path}:deterministic=1"
    league = OpponentPool(tmp_path / "league", members=("heuristic", spec))
    member = league.mix().members[spec]
    assert isinstance(member, FrozenPolicy)
    assert list(member.act_batch(obs, masks)) == list(expect)


def test_pfsp_weights_favour_the_opponents_the_learner_loses_to(tmp_path) -> None:
    """pfsp: weight max((1 - p_win)^2, floor), p_win = (wins + draws/2 + 1) / (games + 2)."""
    pool = OpponentPool(tmp_path, members=("random", "heuristic", "mcts"), floor=0.05,
                        memory=1000)
    assert pool.weights() == pytest.approx({"random": 1 / 3, "heuristic": 1 / 3, "mcts": 1 / 3})
    for _ in range(200):
        pool.record("random", winner=0, seat=0)  # the learner always beats random
        pool.record("heuristic", winner=1, seat=0)  # and always loses to heuristic
        pool.record("mcts", winner=-1, seat=1)  # draws count as half a win
    p = pool.p_win()
    assert p["random"] > 0.98 and p["heuristic"] < 0.02 and p["mcts"] == pytest.approx(0.5)
    raw = {"random": 0.05, "heuristic": (1 - p["heuristic"]) ** 2, "mcts": 0.25}
    total = sum(raw.values())
    assert pool.weights() == pytest.approx({k: v / total for k, v in raw.items()})
    pool.record("gone", winner=0, seat=0)  # an opponent that left the pool: ignored
    uniform = OpponentPool(tmp_path, members=("random", "heuristic"), scheme="uniform")
    uniform.record("random", 0, 0)
    assert uniform.weights() == {"random": 0.5, "heuristic": 0.5}
    with pytest.raises(ValueError, match="scheme"):
        OpponentPool(tmp_path, scheme="elo")


def test_training_with_a_pool_logs_it_and_resume_keeps_it(tmp_path) -> None:
    """A few hundred steps of ``opponent: pool`` with a tiny network over 2 workers: snapshots,
    pool.json, pool.csv; resuming the checkpoint (in-process games) restores the pool."""
    from agents.ppo import PPOConfig, load_config, train

    run = tmp_path / "run"
    cfg = PPOConfig(total_timesteps=256, n_steps=32, batch_size=64, n_epochs=1, max_turns=3,
                    decks=("starter_green", "starter_red"), net=dict(TINY), num_envs=4,
                    num_workers=2, eval_every=0, checkpoint_every=128, run_dir=str(run),
                    opponent="pool", pool_members=("random", "heuristic"),
                    pool_snapshot_every=128, pool_size=2)
    model = train(cfg)
    assert model.num_timesteps == 256
    state = json.loads((run / "pool" / "pool.json").read_text())
    names = [m["name"] for m in state["members"]]
    assert names == ["random", "heuristic", "snap_128", "snap_256"]  # snap_0 was dropped
    assert sorted(p.name for p in (run / "pool").glob("*.pt")) == ["snap_128.pt", "snap_256.pt"]
    rows = (run / "pool.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,wall_s,opponent,episodes,wins,losses,draws,win_rate")
    played = {m["name"]: m["episodes"] for m in state["members"]}
    assert sum(played.values()) > 0

    resumed = load_config(None, ["total_timesteps=384", "num_workers=0"], base=cfg.__dict__)
    model = train(resumed, resume=run / "checkpoints" / "ckpt_256.zip")
    assert model.num_timesteps == 384
    after = json.loads((run / "pool" / "pool.json").read_text())
    by_name = {m["name"]: m for m in after["members"]}
    assert list(by_name) == ["random", "heuristic", "snap_256", "snap_384"]
    for name in ("random", "heuristic", "snap_256"):  # the counts carried on
        assert by_name[name]["episodes"] >= played[name]
    assert sum(m["episodes"] for m in after["members"]) > sum(played.values())
