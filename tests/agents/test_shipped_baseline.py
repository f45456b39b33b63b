"""The shipped trained baseline: it loads on this install (a change of the card
vocabulary or the action layout must come with a retrained baseline) and plays legal games
through ``ppo:PATH``, as the tournament config uses it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="trained policies need the [rl] extra (torch, sb3-contrib)")

from agents import make_agent
from agents.checkpoint import check_compatible, read_meta
from mtg_env.sim import run_matchup

BASELINE = Path(__file__).resolve().parents[2] / "checkpoints" / "ppo_baseline.zip"


def test_the_baseline_fits_this_install_and_says_how_it_was_made() -> None:
    """It is PPO against the heuristic, started from the search-distilled DAgger policy
    (checkpoints/README.md): its metadata names the opponent, the starting weights and the
    steps, and it is the play-only export of the run's last checkpoint."""
    meta = read_meta(BASELINE)
    check_compatible(meta, BASELINE)
    cfg = meta["config"]
    assert cfg["opponent"] == "heuristic" and cfg["policy"] == "structured"
    assert cfg["init_from"].endswith("ppo_baseline.zip")
    assert meta["num_timesteps"] == cfg["total_timesteps"] == 262_144
    assert meta["exported"]["from"] == "ckpt_262144.zip"
    assert BASELINE.stat().st_size < 5_000_000


def test_the_baseline_plays_legal_games_as_an_agent() -> None:
    agent = make_agent(f"ppo:{BASELINE}")
    assert agent is not None
    res = run_matchup("kamahls_temper", "molimos_might", games=2, seed=3,
                      agents=(f"ppo:{BASELINE}", "random"), workers=1, max_turns=30)
    assert len(res.results) == 2 and all(r.error is None and r.turns > 0 for r in res.results)


def test_the_baseline_is_a_single_agent_env_opponent_by_name() -> None:
    """``SingleAgentEnv(opponent="ppo:PATH")``: a trained policy is an opponent by name, as in
    the CLI, and the learner only ever faces decisions of its own seat."""
    from mtg_env import SingleAgentEnv

    env = SingleAgentEnv(opponent=f"ppo:{BASELINE}", seed=4, flatten=True, max_turns=12)
    assert type(env._opponent).__name__ == "PPOAgent"
    _obs, info = env.reset(seed=4)
    done = False
    steps = 0
    while not done:
        assert env.game.decision.player == env.seat
        legal = info["action_mask"].nonzero()[0]
        _obs, _reward, term, trunc, info = env.step(int(legal[0]))
        done = term or trunc
        steps += 1
    assert steps > 0 and env.game.is_over


def test_the_baseline_keeps_its_own_capacities_after_the_defaults_changed() -> None:
    """The baseline was trained with ``max_stack=16`` (the default until `1be71f7`, 2026-11-24; now 32):
    it still loads, and ``agents.imitation evaluate`` plays it in envs of its own capacities
    (its config says ``capacities: {}``, the defaults of its day; the metadata has them all)."""
    from agents.checkpoint import load_checkpoint
    from agents.imitation import evaluate_checkpoint
    from mtg_env.encoding import Capacities

    meta = read_meta(BASELINE)
    assert meta["capacities"]["max_stack"] == 16 != Capacities().max_stack
    model, _ = load_checkpoint(BASELINE)
    assert model.policy.net.caps == Capacities(**meta["capacities"])
    res = evaluate_checkpoint(BASELINE, 2, ("random",), seed=3)["random"]
    assert res["wins"] + res["losses"] + res["draws"] == 2


def test_a_checkpoint_that_does_not_fit_is_a_one_line_cli_error(tmp_path) -> None:
    """``init_from`` a checkpoint of other capacities, or evaluating a file that isn't there:
    exit 2 with the reason (no traceback), before any training."""
    import re
    import subprocess
    import sys

    root = BASELINE.parents[1]
    ppo = subprocess.run(
        [sys.executable, "-m", "agents.ppo", "--config", "configs/ppo.yaml", "--set",
         f"init_from={BASELINE}", "--set", "num_workers=0", "--set", "num_envs=2",
         "--set", f"run_dir={tmp_path / 'run'}", "--set", "eval_every=0"],
        cwd=root, capture_output=True, text=True, timeout=300)
    def flat(text: str) -> str:  # the error box's text, unwrapped
        return re.sub(r"[\s│╭╮╰╯─]+", " ", text)

    assert ppo.returncode == 2 and "set the same capacities" in flat(ppo.stderr)
    assert "Traceback" not in ppo.stderr and not (tmp_path / "run" / "final.zip").exists()
    ev = subprocess.run([sys.executable, "-m", "agents.imitation", "evaluate",
                         str(tmp_path / "none.zip")], cwd=root, capture_output=True, text=True,
                        timeout=300)
    assert ev.returncode == 2 and "no checkpoint file at" in flat(ev.stderr)
