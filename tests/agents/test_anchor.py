"""A network anchored on the heuristic's choice (agents.policy_value.anchored_priors, the
``heuristic_anchor`` of agents.policy_net.MtgNet, expert iteration's ``anchor``): the bonus's
arithmetic, old checkpoints loading as unanchored, a large anchor playing exactly the
heuristic's game, the samples naming the heuristic's choice, and the learner training the anchor
only when the run asks for it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the trained agents need the [rl] extra (torch, sb3-contrib)")

import torch

from agents import make_agent
from agents.checkpoint import save_net_checkpoint
from agents.expert_iteration import ExItConfig, load_window, run
from agents.heuristic import HeuristicAgent
from agents.policy_agent import PPOAgent
from agents.policy_net import MtgNet
from agents.policy_value import PolicyValueNet, anchored_priors, heuristic_choice
from mtg_env.encoding import Capacities
from mtg_env.engine.game import Game
from mtg_env.env.config import load_deck
from mtg_env.sim.runner import play_game

TINY_NET = {"embed": 4, "d_row": 8, "d_ctx": 16, "hidden": 8}
DECKS = ("starter_green", "starter_red")

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _tiny(path: Path, anchor: float) -> Path:
    torch.manual_seed(0)
    net = MtgNet(Capacities(), **TINY_NET)
    state = net.state_dict()
    state["heuristic_anchor"] = torch.tensor(anchor)
    return save_net_checkpoint(state, path, net=TINY_NET, max_turns=15)


def test_the_bonus_multiplies_the_choice_by_e_to_the_anchor_and_renormalises() -> None:
    priors = {"pass": 0.5, "play Shock": 0.3, "play Forest": 0.2}
    out = anchored_priors(priors, "play Forest", math.log(4.0))
    assert out["play Forest"] == pytest.approx(0.8 / 1.6)
    assert out["pass"] == pytest.approx(0.5 / 1.6) and out["play Shock"] == pytest.approx(0.3 / 1.6)
    assert sum(out.values()) == pytest.approx(1.0)
    assert anchored_priors(priors, "play Forest", 0.0) == priors  # not anchored
    assert anchored_priors(priors, "attack", 2.0) == priors  # not an option


def test_a_checkpoint_without_the_anchor_loads_as_a_network_playing_alone(tmp_path) -> None:
    torch.manual_seed(0)
    net = MtgNet(Capacities(), **TINY_NET)
    old = {k: v for k, v in net.state_dict().items() if k != "heuristic_anchor"}
    fresh = MtgNet(Capacities(), **TINY_NET)
    fresh.load_state_dict(old)  # strict: the missing key is filled, not an error
    assert float(fresh.heuristic_anchor) == 0.0
    path = save_net_checkpoint(old, tmp_path / "old.zip", net=TINY_NET, max_turns=15)
    assert PolicyValueNet.load(path, device="cpu").anchor == 0.0
    assert PPOAgent(path).anchor == 0.0


def test_a_large_anchor_plays_the_heuristics_game_move_for_move(tmp_path) -> None:
    """softmax(logits + 60 [heuristic's choice]) puts all the mass on the heuristic's choice, so
    the anchored network replays heuristic against heuristic exactly; with anchor 0 the same
    untrained network does not."""
    decks = [load_deck(d) for d in DECKS]

    def actions(first) -> list[str]:
        texts: list[str] = []
        play_game(decks, [first, HeuristicAgent()], seed=5, max_turns=8, record=texts)
        return texts

    ref = actions(HeuristicAgent())
    anchored = make_agent(f"ppo:{_tiny(tmp_path / 'a.zip', 60.0)}")
    assert anchored.anchor == 60.0
    assert actions(anchored) == ref
    assert actions(make_agent(f"ppo:{_tiny(tmp_path / 'b.zip', 0.0)}")) != ref


def test_an_anchored_network_in_the_env_needs_the_view(tmp_path) -> None:
    agent = PPOAgent(_tiny(tmp_path / "a.zip", 2.0))
    game = Game.new([load_deck(d) for d in DECKS], seed=1)
    obs, mask, _texts = agent.observer.observe_view(game.view(game.decision.player))
    with pytest.raises(ValueError, match="anchored on the heuristic's choice, which needs the view"):
        agent.act_masked(obs, mask)


def test_heuristic_choice_is_the_heuristic_agents_choice() -> None:
    game = Game.new([load_deck(d) for d in DECKS], seed=2)
    for _ in range(40):
        if game.is_over:
            break
        view = game.view(game.decision.player)
        expect = HeuristicAgent()
        expect.reset(view.viewer, 123)
        choice = heuristic_choice(view)
        assert choice.text == expect.act(view).text
        game.apply(game.decision.find(choice.text))


def _cfg(tiny: Path, run_dir: Path, **kw) -> ExItConfig:
    base = {"run_dir": str(run_dir), "seed": 3, "decks": DECKS, "generations": 1,
            "games_per_generation": 2, "workers": 0, "games_at_once": 2, "max_turns": 12,
            "iterations": 2, "turns": 1, "init_from": str(tiny), "batch_size": 32, "lr": 0.01,
            "holdout": 0.0, "gate_games": 0, "eval_games": 0, "verbose": False}
    return ExItConfig(**{**base, **kw})


def test_samples_name_the_heuristics_choice_and_an_anchored_run_learns_its_bonus(tmp_path) -> None:
    tiny = _tiny(tmp_path / "tiny.zip", 0.0)
    cfg = _cfg(tiny, tmp_path / "anchored", anchor=1.5)
    run(cfg)
    assert PolicyValueNet.load(Path(cfg.run_dir) / "gen_000.zip", device="cpu").anchor == 1.5
    learned = PolicyValueNet.load(Path(cfg.run_dir) / "gen_001.zip", device="cpu").anchor
    assert learned != 1.5 and learned > 0  # trained beside the weights
    data = load_window(Path(cfg.run_dir) / "data", [1])
    assert len(data) > 0 and (data.heuristic >= 0).all()
    for i in range(len(data)):  # the heuristic's choice is one of the sample's legal indices
        assert data.heuristic[i] in data.legal[data.legal_ptr[i]:data.legal_ptr[i + 1]]
    alone = _cfg(tiny, tmp_path / "alone")
    run(alone)
    assert PolicyValueNet.load(Path(alone.run_dir) / "gen_001.zip", device="cpu").anchor == 0.0


def test_old_sample_files_load_with_the_heuristics_choice_unknown(tmp_path) -> None:
    tiny = _tiny(tmp_path / "tiny.zip", 0.0)
    cfg = _cfg(tiny, tmp_path / "run")
    run(cfg)
    path = Path(cfg.run_dir) / "data" / "gen_001.npz"
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files if k != "heuristic"}
    np.savez_compressed(path, **arrays)
    data = load_window(Path(cfg.run_dir) / "data", [1])
    assert len(data) > 0 and (data.heuristic == -1).all()


def test_the_shipped_runs_config_reads_as_an_anchored_run() -> None:
    """The config reads (its ``init_from``, the previous network, exists only once phases 1 and
    2 of checkpoints/README.md have run: validation names the missing file)."""
    from agents.expert_iteration import ExItError, load
    from agents.ppo import load_config

    path = str(Path(__file__).resolve().parents[2] / "configs" / "exit_anchor.yaml")
    cfg = load_config(path, (), cls=ExItConfig)
    assert cfg.anchor == 2.0 and cfg.h_prior == 0.0 and cfg.generations == 5
    assert cfg.init_from == "results/exit_phase2/gen_005.zip"
    if not Path(cfg.init_from).is_file():
        with pytest.raises(ExItError, match="init_from: no checkpoint file at"):
            load(path)
    assert load(path, ["init_from=trained"]).init_from == "trained"


def test_the_shipped_network_is_anchored() -> None:
    """``trained`` (checkpoints/README.md) was trained anchored: it plays with its bonus."""
    assert 0.5 < PolicyValueNet.load("trained", device="cpu").anchor < 4.0
