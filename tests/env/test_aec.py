"""The PettingZoo AEC env: the official API and seed tests, config, errors, rewards, rendering."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import mtg_env
from mtg_env import IllegalActionError
from mtg_env.encoding import CapacityError
from mtg_env.env import STARTER_DECKS, THEME_DECKS, default_deck_names, raw_env
from mtg_env.env.config import EnvConfig

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice on Dict spaces


def _first_legal(e) -> int:
    obs, *_ = e.last()
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize("flatten", [False, True])
def test_pettingzoo_api(flatten: bool) -> None:
    api_test(mtg_env.env(seed=0, max_turns=15, flatten=flatten), num_cycles=400)


def test_pettingzoo_seed_determinism() -> None:
    seed_test(lambda: mtg_env.env(seed=0, max_turns=15), num_cycles=300)


def test_package_exports_are_lazy_and_callable() -> None:
    import subprocess
    import sys

    code = ("import sys, mtg_env; assert 'numpy' not in sys.modules; "
            "e = mtg_env.env(seed=1); e.reset(); import mtg_env.env.aec; "
            "assert mtg_env.env(seed=2) is not None and callable(mtg_env.raw_env); "
            "print(mtg_env.SingleAgentEnv.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "SingleAgentEnv"


def test_default_decks_are_the_theme_decks_once_they_load() -> None:
    names = default_deck_names()
    assert names in (THEME_DECKS, STARTER_DECKS)
    e = raw_env(seed=3)
    e.reset()
    assert set(e.deck_names) <= set(names)


def test_spaces_are_the_same_objects_and_match_observations() -> None:
    e = raw_env(seed=1)
    e.reset()
    for a in e.possible_agents:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
    obs = e.observe(e.agent_selection)
    assert e.observation_space(e.agent_selection).contains(obs)
    other = e.observe(next(a for a in e.agents if a != e.agent_selection))
    assert not other["action_mask"].any()
    assert other["observation"]["game"].any()


def test_reset_seed_replays_and_options_set_decks() -> None:
    e = raw_env()
    names = list(default_deck_names())
    e.reset(seed=11, options={"decks": [names[0], names[-1]]})
    assert e.deck_names == (names[0], names[-1])
    first = e.game.to_json()
    e.reset(seed=11, options={"decks": [names[0], names[-1]]})
    assert e.game.to_json() == first
    e.reset(seed=12, options={"decks": [names[0], names[-1]]})
    assert e.game.to_json() != first


def test_fixed_pairing_and_pool_configs() -> None:
    names = list(default_deck_names())
    e = raw_env(seed=1, decks=(names[1], names[2]))
    for _ in range(3):
        e.reset()
        assert e.deck_names == (names[1], names[2])
    pool = raw_env(seed=1, deck_pool=[names[0]])
    pool.reset()
    assert pool.deck_names == (names[0], names[0])


def test_config_errors() -> None:
    with pytest.raises(TypeError, match="did you mean 'max_turns'"):
        raw_env(max_turn=3)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="exactly two"):
        raw_env(decks=["starter_green"])
    with pytest.raises(ValueError, match="max_permanents"):
        raw_env(max_permanents=0)
    cfg = EnvConfig.from_kwargs({"max_hand": 9, "flatten": True})
    assert EnvConfig.from_kwargs(cfg.as_kwargs()) == cfg


def test_illegal_index_raises_naming_index_and_decision() -> None:
    e = mtg_env.env(seed=4, illegal_action="raise")
    e.reset()
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"action {bad} .*mulligan decision"):
        e.step(bad)
    with pytest.raises(AssertionError):
        e.step(10**6)  # outside the action space: PettingZoo's bounds wrapper


def test_illegal_index_is_a_loss_by_default() -> None:
    e = mtg_env.env(seed=4)
    e.reset()
    agent = e.agent_selection
    obs, *_ = e.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert e.terminations[agent]
    assert e._cumulative_rewards[agent] == -1


def test_action_text_and_legal_texts_in_infos() -> None:
    e = raw_env(seed=2, legal_texts=True)
    e.reset()
    agent = e.agent_selection
    texts = e.infos[agent]["legal_texts"]
    assert set(texts.values()) == {"keep", "mulligan"}
    for i, t in texts.items():
        assert e.action_text(i) == t
        assert e.action_index(t) == i
    other = next(a for a in e.agents if a != agent)
    assert e.infos[other]["legal_texts"] == {}
    assert "auto_applied" in e.infos[agent]


def test_a_full_game_ends_with_opposite_rewards_and_removes_agents() -> None:
    e = mtg_env.env(seed=7, max_turns=200)
    e.reset()
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents
    game = e.unwrapped.game
    assert game.is_over
    if game.winner is None:
        assert total == {"player_0": 0.0, "player_1": 0.0}
    else:
        assert total[f"player_{game.winner}"] == 1.0
        assert total[f"player_{1 - game.winner}"] == -1.0


def test_turn_limit_truncates_with_zero_reward() -> None:
    e = raw_env(seed=1, max_turns=2)
    e.reset()
    while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(_first_legal(e))
    _, reward, term, trunc, info = e.last()
    assert trunc and not term and reward == 0.0
    assert info["end_reason"] == "turn limit"


def test_reward_shaping_sums_to_the_plain_reward() -> None:
    plain = raw_env(seed=9, max_turns=200)
    shaped = raw_env(seed=9, max_turns=200, reward_shaping=0.5)
    totals = []
    for e in (plain, shaped):
        e.reset(seed=9)
        rng = np.random.default_rng(1)
        total = {a: 0.0 for a in e.possible_agents}
        nonzero = 0
        while e.agents:
            agent = e.agent_selection
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            nonzero += any(r != 0 for r in e.rewards.values())
        totals.append((total, nonzero))
    (t_plain, _), (t_shaped, n_shaped) = totals
    assert n_shaped > 1, "shaping should reward during the game"
    for a in t_plain:
        assert t_shaped[a] == pytest.approx(t_plain[a], abs=1e-9)


def test_render_ansi_shows_a_readable_board() -> None:
    e = raw_env(seed=5, render_mode="ansi")
    e.reset()
    text = e.render()
    assert "Turn 1" in text and "life 20" in text and "[1] keep" in text and "[0] mulligan" in text
    while e.game.turn < 4:
        e.step(_first_legal(e) if e.game.decision.kind.value != "mulligan" else 1)
    text = e.render()
    assert "lands:" in text and "hand:" in text and "decides" in text
    quiet = raw_env(seed=5)
    quiet.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert quiet.render() is None


def test_small_capacity_raises_capacity_error() -> None:
    e = raw_env(seed=1, max_hand=4)
    with pytest.raises(CapacityError, match="max_hand"):
        e.reset()
        e.observe(e.agent_selection)


def test_env_pickles() -> None:
    import pickle

    e = raw_env(seed=1, max_turns=5, flatten=True)
    f = pickle.loads(pickle.dumps(e))
    f.reset(seed=1)
    e.reset(seed=1)
    np.testing.assert_array_equal(e.observe("player_0")["observation"],
                                  f.observe("player_0")["observation"])


def test_order_enforcing_before_reset() -> None:
    e = mtg_env.env(seed=0)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(e, name)
    e.reset()
    assert e.agent_selection in e.agents and e.unwrapped.game is e.game


@pytest.mark.parametrize("action", [-1, 2148, 10**6, np.int64(-1), np.int64(2148), 1.0, "0",
                                    np.uint64(0), np.zeros(1, np.int64)])
def test_bounds_wrapper_rejects_what_discrete_rejects(action) -> None:
    """``env()``'s bounds check takes a fast path for in-range ``int``/``np.int64`` indices;
    everything else gets PettingZoo's own check, so an action outside ``Discrete(2148)`` (or of a
    type ``Discrete.contains`` refuses) fails its assertion before the game moves."""
    e = mtg_env.env(seed=4)
    e.reset()
    assert not e.action_space(e.agent_selection).contains(action)
    before = e.unwrapped.game.decisions_made
    with pytest.raises(AssertionError, match="not in action space"):
        e.step(action)
    assert e.unwrapped.game.decisions_made == before


@pytest.mark.parametrize("kind", [int, np.int64, np.int32, np.int8])
def test_bounds_wrapper_passes_legal_indices_of_any_integer_type(kind) -> None:
    e = mtg_env.env(seed=4)
    e.reset()
    obs, *_ = e.last()
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    before = e.unwrapped.game.decisions_made
    e.step(kind(legal))
    assert e.unwrapped.game.decisions_made > before
