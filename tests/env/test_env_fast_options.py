"""The env's throughput options: ``copy_obs=False`` (the env's own buffers) and
``legal_indices=True`` (the legal indices as an array in ``infos``)."""

from __future__ import annotations

import numpy as np

from mtg_env.env import raw_env

CFG = {"decks": ("starter_green", "starter_red"), "max_turns": 6, "flatten": True}


def test_copy_obs_false_returns_the_same_values_without_copying() -> None:
    copied, shared = raw_env(**CFG), raw_env(copy_obs=False, **CFG)
    copied.reset(seed=1)
    shared.reset(seed=1)
    for _ in range(20):
        a, b = copied.observe(copied.agent_selection), shared.observe(shared.agent_selection)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        index = int(np.flatnonzero(a["action_mask"])[0])
        copied.step(index)
        shared.step(index)
        if not copied.agents or copied.game.is_over:
            break
    agent = shared.agent_selection
    assert shared.observe(agent)["observation"] is shared.observe(agent)["observation"]
    assert copied.observe(agent)["observation"] is not copied.observe(agent)["observation"]


def test_legal_indices_in_infos_match_the_mask() -> None:
    env = raw_env(legal_indices=True, **CFG)
    env.reset(seed=2)
    for _ in range(30):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        legal = env.infos[agent]["legal_actions"]
        assert legal.dtype == np.int64
        assert np.array_equal(legal, np.flatnonzero(mask))
        other = next(a for a in env.agents if a != agent)
        assert "legal_actions" not in env.infos[other]
        env.step(int(legal[-1]))
        if env.game.is_over:
            break


def test_copy_obs_false_mask_buffer_follows_every_decision() -> None:
    """``copy_obs=False`` hands out one mask buffer per player, rewritten in place: at every step
    of a whole game it equals the copied mask, for the deciding player (the indices of the last
    decision cleared) and for the waiting one (all zeros)."""
    cfg = {**CFG, "max_turns": 12}
    copied, shared = raw_env(**cfg), raw_env(copy_obs=False, **cfg)
    copied.reset(seed=5)
    shared.reset(seed=5)
    rng = np.random.default_rng(5)
    masks = {}
    steps = 0
    while copied.agents and not copied.game.is_over:
        for agent in copied.agents:
            want = copied.observe(agent)["action_mask"]
            got = shared.observe(agent)["action_mask"]
            assert np.array_equal(want, got), (steps, agent)
            assert masks.setdefault(agent, got) is got  # the same buffer every time
        legal = np.flatnonzero(copied.observe(copied.agent_selection)["action_mask"])
        index = int(rng.choice(legal))
        copied.step(index)
        shared.step(index)
        steps += 1
    assert steps > 50
