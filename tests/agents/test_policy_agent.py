"""Trained policies as first-class agents: checkpoints that record the env they
were trained for and refuse another, and ``ppo:PATH`` in ``make_agent``, the simulator (local
processes and Ray) and the CLI."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="trained policies need the [rl] extra (torch, sb3-contrib)")

from typer.testing import CliRunner

from agents import PPOAgent, make_agent
from agents.checkpoint import (
    META_NAME,
    CheckpointError,
    CheckpointMismatchError,
    export_policy,
    load_checkpoint,
    read_meta,
    save_checkpoint,
)
from agents.policy_agent import parse_ppo_spec
from mtg_env import SingleAgentEnv
from mtg_env.cli import app
from mtg_env.encoding import Observer
from mtg_env.engine.deck import THEME_DECKS
from mtg_env.engine.view import view_for
from mtg_env.env import raw_env
from mtg_env.sim import run_matchup

DECKS = ("kamahls_temper", "molimos_might")


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> Path:
    """A tiny MaskablePPO (one 8-unit layer) trained for 64 steps, saved as a checkpoint."""
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv(opponent="random", seed=0, flatten=True, max_turns=8, decks=list(DECKS))
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [8]})
    model.learn(total_timesteps=64)
    return save_checkpoint(model, tmp_path_factory.mktemp("ckpt") / "tiny", {"net_arch": [8],
                           "decks": DECKS, "steps": 64})


def _rewrite_meta(src: Path, dst: Path, **changes) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.namelist():
            data = zin.read(item)
            if item == META_NAME:
                meta = json.loads(data)
                meta.update(changes)
                data = json.dumps(meta).encode()
            zout.writestr(item, data)
    return dst


def test_checkpoint_round_trip(checkpoint: Path) -> None:
    """save_checkpoint writes an SB3 zip (``.zip`` appended) with the mtg_env metadata;
    load_checkpoint gives back a model that predicts the same actions."""
    assert checkpoint.name == "tiny.zip"
    meta = read_meta(checkpoint)
    assert meta["env_id"] == "mtg_v1" and meta["config"]["decks"] == list(DECKS)
    assert meta["observation_shape"] == [Observer().obs_layout.size]
    assert meta["action_size"] == Observer().act_layout.size
    assert meta["policy_class"].endswith("MaskableActorCriticPolicy")
    for key in ("vocab_version", "vocab_signature", "layout_version", "layout_signature",
                "mtg_env_version", "capacities", "algorithm", "num_timesteps"):
        assert key in meta
    model, meta2 = load_checkpoint(checkpoint)
    assert meta2 == meta
    env = SingleAgentEnv(opponent="random", seed=4, flatten=True, max_turns=8, decks=list(DECKS))
    obs, _ = env.reset(seed=4)
    mask = env.action_masks()
    again, _ = load_checkpoint(checkpoint)
    a, _ = model.predict(obs, action_masks=mask, deterministic=True)
    b, _ = again.predict(obs, action_masks=mask, deterministic=True)
    assert int(a) == int(b) and mask[int(a)]


def test_exported_policy_plays_the_same_without_the_optimizer_state(checkpoint: Path,
                                                                   tmp_path: Path) -> None:
    """export_policy keeps the weights, config and metadata and drops Adam's moments, so the
    file shrinks and the policy's choices are unchanged."""
    out = export_policy(checkpoint, tmp_path / "slim.zip", note="for play")
    meta = read_meta(out)
    assert meta["exported"] == {"from": "tiny.zip", "note": "for play"}
    assert meta["config"] == read_meta(checkpoint)["config"]
    assert out.stat().st_size < checkpoint.stat().st_size
    model, _ = load_checkpoint(checkpoint)
    slim, _ = load_checkpoint(out)
    assert not slim.policy.optimizer.state_dict()["state"]
    env = SingleAgentEnv(opponent="random", seed=5, flatten=True, max_turns=8, decks=list(DECKS))
    obs, _ = env.reset(seed=5)
    for _ in range(10):
        mask = env.action_masks()
        a, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert int(slim.predict(obs, action_masks=mask, deterministic=True)[0]) == int(a)
        obs, _, term, trunc, _ = env.step(int(a))
        if term or trunc:
            break


@pytest.mark.parametrize("key, value", [("vocab_signature", "0000000000000000"),
                                        ("layout_signature", "ffff"), ("vocab_version", 0),
                                        ("observation_shape", [17702]), ("action_size", 99)])
def test_checkpoint_of_another_install_is_refused(checkpoint: Path, tmp_path: Path, key: str,
                                                  value) -> None:
    """A checkpoint trained on another card vocabulary, layout or shape is refused with both
    values named."""
    bad = _rewrite_meta(checkpoint, tmp_path / "bad.zip", **{key: value})
    with pytest.raises(CheckpointMismatchError, match=key) as err:
        load_checkpoint(bad)
    assert repr(value) in str(err.value) and isinstance(err.value, ValueError)
    with pytest.raises(CheckpointMismatchError):
        make_agent(f"ppo:{bad}")


def test_missing_corrupt_and_foreign_files_are_refused(checkpoint: Path, tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no checkpoint file"):
        load_checkpoint(tmp_path / "nope.zip")
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        load_checkpoint(junk)
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(checkpoint) as zin, zipfile.ZipFile(plain, "w") as zout:
        for item in zin.namelist():
            if item != META_NAME:
                zout.writestr(item, zin.read(item))
    with pytest.raises(CheckpointError, match="without mtg_env metadata"):
        load_checkpoint(plain)


def test_save_refuses_a_model_of_another_shape(tmp_path: Path) -> None:
    """A model whose observation space isn't this env's can't be saved as an mtg_env policy."""
    from sb3_contrib import MaskablePPO

    from mtg_env.encoding import Capacities

    env = SingleAgentEnv(opponent="random", seed=0, flatten=True, max_turns=5, max_hand=10)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [4]})
    with pytest.raises(CheckpointMismatchError, match="observation_shape"):
        save_checkpoint(model, tmp_path / "m.zip", {})
    path = save_checkpoint(model, tmp_path / "m.zip", {"env": {"max_hand": 10}})
    assert read_meta(path)["capacities"]["max_hand"] == 10
    agent = make_agent(f"ppo:{path}")
    assert agent.observer.caps == Capacities(max_hand=10)


def test_spec_grammar() -> None:
    """Everything up to the trailing known parameters is the path (it may hold ':' and '=')."""
    assert parse_ppo_spec("a/b.zip") == {"path": "a/b.zip"}
    assert parse_ppo_spec("path=a/b.zip:deterministic=0:threads=2") == {
        "path": "a/b.zip", "deterministic": False, "threads": 2}
    assert parse_ppo_spec(r"C:\runs\x=1.zip:device=cpu") == {"path": r"C:\runs\x=1.zip",
                                                              "device": "cpu"}
    with pytest.raises(ValueError, match="needs a checkpoint"):
        parse_ppo_spec("")
    with pytest.raises(ValueError, match="deterministic"):
        parse_ppo_spec("a.zip:deterministic=maybe")
    with pytest.raises(CheckpointError, match="no checkpoint file"):
        make_agent("ppo:/no/such/file.zip")


def test_act_on_views_agrees_with_act_masked(checkpoint: Path) -> None:
    """``act(view)`` picks the option whose index the policy gives for the env's observation of
    that player (the view encoder is the env's), through a whole game."""
    agent = make_agent(f"ppo:{checkpoint}")
    assert isinstance(agent, PPOAgent)
    env = raw_env(decks=list(DECKS), flatten=True, max_turns=6)
    env.reset(seed=2)
    agent.reset(0, 1)
    n = 0
    while not env.game.is_over and n < 300:
        game, agent_name = env.game, env.agent_selection
        o = env.observe(agent_name)
        i = agent.act_masked(o, o["action_mask"])
        action = agent.act(view_for(game, game.decision.player))
        assert action.text == env.action_text(i)
        env.step(i)
        n += 1
    assert n > 5


def test_sampling_is_seeded_per_game(checkpoint: Path) -> None:
    """``deterministic=0`` samples legal actions with the agent's per-game seed: the same seed
    gives the same game."""
    from mtg_env import Deck
    from mtg_env.sim.runner import play_game

    decks = [Deck.builtin(DECKS[0]), Deck.builtin(DECKS[1])]
    spec = f"ppo:{checkpoint}:deterministic=0"
    a = play_game(decks, [make_agent(spec), make_agent("random")], seed=3, max_turns=6)
    b = play_game(decks, [make_agent(spec), make_agent("random")], seed=3, max_turns=6)
    assert a.log == b.log


def test_ppo_in_a_matchup_on_two_processes(checkpoint: Path) -> None:
    """``ppo:PATH`` plays a 4-game seat-balanced matchup on two worker processes (the model is
    loaded in each worker), with the same results as in this process."""
    spec = f"ppo:{checkpoint}"
    two = run_matchup(DECKS[0], DECKS[1], games=4, agents=(spec, "random"), seed=1, workers=2,
                      max_turns=8)
    one = run_matchup(DECKS[0], DECKS[1], games=4, agents=(spec, "random"), seed=1, workers=1,
                      max_turns=8)
    assert len(two.results) == 4 and not any(r.error for r in two.results)
    assert two.results == one.results


def test_ppo_on_ray_matches_local(checkpoint: Path) -> None:
    ray = pytest.importorskip("ray", reason="the ray backend needs the [ray] extra")
    spec = f"ppo:{checkpoint}"
    local = run_matchup(DECKS[0], DECKS[1], games=2, agents=(spec, "random"), seed=5, workers=1,
                        max_turns=6)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_matchup(DECKS[0], DECKS[1], games=2, agents=(spec, "random"), seed=5,
                             backend="ray", max_turns=6)
    finally:
        ray.shutdown()
    assert remote.results == local.results


def test_cli_matchup_with_a_trained_policy(checkpoint: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["matchup", DECKS[0], DECKS[1], "--agent", f"ppo:{checkpoint},random",
                              "--games", "4", "--workers", "1", "--max-turns", "6",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "ppo:" in res.output
    bad = runner.invoke(app, ["matchup", DECKS[0], DECKS[1], "--agent", "ppo:/no/such.zip",
                              "--games", "2"])
    assert bad.exit_code == 2
    assert "no checkpoint file" in bad.output and "Traceback" not in bad.output


def test_cli_tournament_with_a_trained_policy(checkpoint: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "--agents", f"random,ppo:{checkpoint}", "--decks",
                              ",".join(THEME_DECKS[:2]), "--games", "2", "--workers", "1",
                              "--max-turns", "5", "--out", str(tmp_path), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert np.any(["ppo:" in line for line in res.output.splitlines()])
