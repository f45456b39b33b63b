"""An agent that needs the [rl] extra on an install without it: a one-line error and exit code 2
before any game (``agents/requirements.py``), never a traceback from a worker. The missing
extra is simulated by blocking its modules (``sys.modules[name] = None``: ``import torch``
raises ``ModuleNotFoundError`` and ``importlib.util.find_spec`` finds nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.requirements import RL_MODULES, check_agent_extras, extra_error, needs_rl
from mtg_env import MtgError
from mtg_env.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
HINT = "needs the [rl] extra: pip install 'mtg_env[rl]'"
BLOCK = f"import sys\nfor m in {RL_MODULES!r}:\n    sys.modules[m] = None\n"


@pytest.fixture
def no_rl(monkeypatch):
    for m in RL_MODULES:
        monkeypatch.setitem(sys.modules, m, None)


@pytest.fixture
def no_games(monkeypatch):
    def forbidden(*a, **k):
        raise AssertionError("a game ran before the agents were checked")

    for where in ("mtg_env.sim.parallel", "mtg_env.sim.matchup"):  # matchup.play_games runs every sim
        monkeypatch.setattr(f"{where}.run_games", forbidden)
    monkeypatch.setattr("mtg_env.sim.runner.play_game", forbidden)


def test_which_agents_need_the_rl_extra() -> None:
    assert needs_rl("ppo:some/file.zip") and needs_rl("trained") and needs_rl("trained:threads=2")
    assert needs_rl("mcts:net=trained") and needs_rl("mcts:ms=50:net=x.zip")
    assert not any(needs_rl(s) for s in ("heuristic", "random", "mcts", "mcts:ms=200", "human",
                                         "mcts:net="))


def test_the_check_passes_where_the_extra_is_installed() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    assert extra_error("trained") is None
    check_agent_extras("mcts:net=trained")


@pytest.mark.parametrize("args", [
    ["matchup", "starter_green", "starter_red", "--agent", "ppo:checkpoints/ppo_baseline.zip"],
    ["matchup", "starter_green", "starter_red", "-n", "2", "--agent", "heuristic,trained"],
    ["matrix", "--agents", "mcts:net=trained", "-n", "2"],
    ["tournament", "--agents", "random,heuristic,trained", "-n", "2"],
    ["tournament", "--config", str(ROOT / "configs" / "theme_tournament.yaml")],
    ["play", "starter_green", "starter_red", "--agent", "trained,heuristic"],
])
def test_cli_names_the_missing_extra_before_any_game(no_rl, no_games, args: list[str]) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (res.output, res.exception)
    lines = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    assert lines[0].startswith("error: agent '") and lines[0].endswith(HINT), lines[0]


def test_cli_without_a_network_agent_is_unaffected(no_rl) -> None:
    res = runner.invoke(app, ["play", "starter_green", "starter_red", "--agent", "heuristic",
                              "--max-turns", "2"])
    assert res.exit_code == 0, res.output


def test_simulation_api_checks_the_extra(no_rl, no_games) -> None:
    from mtg_env.sim import run_matchup

    with pytest.raises(MtgError, match=r"agent 'trained' needs the \[rl\] extra"):
        run_matchup("starter_green", "starter_red", 2, ("heuristic", "trained"))


def _blocked(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", BLOCK + code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_ppo_training_module_names_the_missing_extra() -> None:
    """``python -m agents.ppo`` on an install without torch: one line, exit code 2."""
    res = _blocked("import runpy\nsys.argv = ['agents.ppo', '--config', 'configs/ppo.yaml']\n"
                   "runpy.run_module('agents.ppo', run_name='__main__', alter_sys=True)\n")
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip() == f"error: python -m agents.ppo {HINT}", res.stderr


def test_the_tournament_of_the_issue_fails_in_one_line() -> None:
    """``mtg-env tournament --config configs/theme_tournament.yaml`` (its agents include
    ``trained``) on an install without torch: exit code 2, one line on stderr, no game."""
    res = _blocked("sys.argv = ['mtg-env', 'tournament', '--config', "
                   "'configs/theme_tournament.yaml', '--no-progress']\n"
                   "from mtg_env.cli import main\nmain()\n")
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip() == f"error: agent 'trained' {HINT}", res.stderr
    assert res.stdout == ""
