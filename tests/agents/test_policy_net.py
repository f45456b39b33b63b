"""The structured policy network (agents/policy_net.py): shapes, capacity independence, logits
read from the row each action index names, and use inside MaskablePPO."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="the policy network needs the [rl] extra")
pytest.importorskip("sb3_contrib", reason="the policy network needs the [rl] extra")

import torch

from agents.policy_net import MtgNet, MtgPolicy, count_parameters
from mtg_env.encoding.layout import ActionLayout, Capacities, ObservationLayout
from mtg_env.vector import MtgVectorEnv, Sb3VecEnv

torch.set_num_threads(1)
SMALL = {"embed": 8, "d_row": 16, "d_ctx": 32, "hidden": 16}


def _observations(n_steps: int = 30, **config) -> tuple[np.ndarray, np.ndarray]:
    venv = MtgVectorEnv(4, seed=1, max_turns=20, **config)
    obs, _ = venv.reset(seed=1)
    rng = np.random.default_rng(0)
    all_obs, all_masks = [obs], [venv.action_masks()]
    for _ in range(n_steps):
        acts = [rng.choice(np.flatnonzero(m)) for m in venv.action_masks()]
        obs, *_ = venv.step(np.array(acts))
        all_obs.append(obs)
        all_masks.append(venv.action_masks())
    venv.close()
    return np.concatenate(all_obs), np.concatenate(all_masks)


def test_parameter_count_does_not_grow_with_the_capacities() -> None:
    """Two very different capacity sets: same parameters, outputs sized by each layout."""
    small = Capacities()
    big = Capacities(max_hand=30, max_permanents=48, max_stack=24, max_targets=6,
                     max_graveyard=90, max_revealed=80, max_ability_slots=12, max_x=60,
                     max_modes=10, max_damage=60, max_triggers=20)
    nets = [MtgNet(c, **SMALL) for c in (small, big)]
    assert count_parameters(nets[0]) == count_parameters(nets[1])
    assert ObservationLayout(big).size > ObservationLayout(small).size
    for caps, net in zip((small, big), nets, strict=True):
        obs = torch.zeros(3, ObservationLayout(caps).size)
        logits, value = net(obs)
        assert logits.shape == (3, ActionLayout(caps).size) and value.shape == (3,)


def test_inputs_are_normalised_and_outputs_finite_on_real_states() -> None:
    obs, _ = _observations()
    logits, value = MtgNet(Capacities(), **SMALL)(torch.as_tensor(obs))
    assert torch.isfinite(logits).all() and torch.isfinite(value).all()
    big = obs.copy()
    net = MtgNet(Capacities(), **SMALL)
    life = ObservationLayout(Capacities()).col["game"]["me_life"]
    big[:, life] = 1e6  # a huge count is log-scaled, not fed raw
    assert torch.isfinite(net(torch.as_tensor(big))[0]).all()


def _swap_rows(obs: np.ndarray, table: str, i: int, j: int) -> np.ndarray:
    layout = ObservationLayout(Capacities())
    rows, width = layout.shapes[table]
    out = obs.copy()
    view = out[:, layout.offset[table]:layout.offset[table] + rows * width].reshape(-1, rows, width)
    view[:, [i, j]] = view[:, [j, i]]
    return out


def test_row_band_logits_follow_their_rows() -> None:
    """Swapping two of the viewer's hand rows swaps exactly their hand-band logits (the logit of
    hand index i is computed from hand row i; pooling is order-free); absent rows score 0."""
    obs, _ = _observations()
    layout = ObservationLayout(Capacities())
    acts = ActionLayout(Capacities())
    H = Capacities().max_hand
    hand = obs[:, layout.offset["hand"]:layout.offset["hand"] + 2 * H * layout.shapes["hand"][1]]
    present = hand.reshape(len(obs), 2 * H, -1)[:, :, 0] > 0.5
    k = int(np.flatnonzero(present[:, 0] & present[:, 1] & ~present[:, H - 1])[0])
    net = MtgNet(Capacities(), **SMALL)
    with torch.no_grad():
        before = net(torch.as_tensor(obs[k:k + 1]))[0][0].numpy()
        after = net(torch.as_tensor(_swap_rows(obs[k:k + 1], "hand", 0, 1)))[0][0].numpy()
    h0 = acts.offset["hand"]
    assert before[h0] != pytest.approx(before[h0 + 1])
    assert after[h0] == pytest.approx(before[h0 + 1], abs=1e-5)
    assert after[h0 + 1] == pytest.approx(before[h0], abs=1e-5)
    assert np.allclose(np.delete(after, [h0, h0 + 1]), np.delete(before, [h0, h0 + 1]), atol=1e-5)
    assert before[h0 + H - 1] == 0.0


def test_block_logits_read_the_pair_of_permanent_rows() -> None:
    """Block index b * P + a scores own row b against opponent row a: swapping two opponent
    permanent rows swaps those columns of the block band."""
    obs, _ = _observations(60)
    caps = Capacities()
    P = caps.max_permanents
    layout = ObservationLayout(caps)
    perms = obs[:, layout.offset["permanents"]:layout.offset["stack"]]
    present = perms.reshape(len(obs), 2 * P, -1)[:, :, 0] > 0.5
    k = int(np.flatnonzero(present[:, 0] & present[:, P] & present[:, P + 1])[0])
    net = MtgNet(caps, **SMALL)
    with torch.no_grad():
        before = net(torch.as_tensor(obs[k:k + 1]))[0][0].numpy()
        after = net(torch.as_tensor(_swap_rows(obs[k:k + 1], "permanents", P, P + 1)))[0][0].numpy()
    off = ActionLayout(caps).offset["block"]
    blk_b, blk_a = before[off:off + P * P].reshape(P, P), after[off:off + P * P].reshape(P, P)
    assert np.allclose(blk_a[:, 0], blk_b[:, 1], atol=1e-5)
    assert np.allclose(blk_a[:, 1], blk_b[:, 0], atol=1e-5)
    assert not np.allclose(blk_b[0, 0], blk_b[0, 1])


def test_maskable_ppo_with_the_policy_picks_legal_actions_and_round_trips(tmp_path) -> None:
    from sb3_contrib import MaskablePPO

    venv = Sb3VecEnv(MtgVectorEnv(2, seed=0, max_turns=10))
    model = MaskablePPO(MtgPolicy, venv, n_steps=16, batch_size=16, n_epochs=1,
                        policy_kwargs=dict(SMALL), seed=0)
    assert count_parameters(model.policy) == count_parameters(model.policy.net)
    obs, masks = _observations(10)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
    assert all(masks[i, a] for i, a in enumerate(actions))
    model.learn(32)
    model.save(tmp_path / "m.zip")
    again = MaskablePPO.load(tmp_path / "m.zip")
    assert again.policy.net_kwargs == model.policy.net_kwargs
    x = torch.as_tensor(obs)
    with torch.no_grad():
        assert torch.allclose(model.policy.net(x)[0], again.policy.net(x)[0])
    venv.close()


def test_policy_refuses_observations_of_other_capacities() -> None:
    from sb3_contrib import MaskablePPO

    venv = Sb3VecEnv(MtgVectorEnv(1, seed=0, max_turns=5, max_hand=12))
    with pytest.raises(ValueError, match="capacities"):
        MaskablePPO(MtgPolicy, venv, n_steps=8, batch_size=8, policy_kwargs=dict(SMALL))
    model = MaskablePPO(MtgPolicy, venv, n_steps=8, batch_size=8,
                        policy_kwargs={"capacities": {"max_hand": 12}, **SMALL})
    assert model.policy.net.caps.max_hand == 12
    venv.close()
