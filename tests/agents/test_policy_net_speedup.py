"""The batched forward pass of ``MtgNet`` (agents/policy_net.py) computes the same function as the
per-table forward pass it replaced (main 21c8a36), with the same parameters: same logits, values
and gradients for the same weights, so checkpoints trained before keep loading and playing the
same. ``_reference`` below is that earlier forward pass, kept here as plain functions."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the policy network needs the [rl] extra")
pytest.importorskip("sb3_contrib", reason="the policy network needs the [rl] extra")

import torch
from torch import nn

from agents.policy_net import ROW_BANDS, SCALAR_BANDS, TABLES, TWO_SIDED, MtgNet, _modes, _normalise
from mtg_env.encoding.layout import Capacities, ObservationLayout
from mtg_env.encoding.vocab import UNKNOWN_ID
from mtg_env.vector import MtgVectorEnv

torch.set_num_threads(1)
BASELINE = Path(__file__).resolve().parents[2] / "checkpoints" / "ppo_baseline.zip"
TOL = 1e-4


# -- the forward pass of 21c8a36 (one row encoder call, nonzero and pooling per table) ----------
def _ref_table(net: MtgNet, obs: torch.Tensor, name: str):
    layout = net.obs_layout
    cols = layout.columns[name]
    rows, width = layout.shapes[name]
    off, id_col = layout.offset[name], layout.col[name]["card_id"]
    keep = [i for i, c in enumerate(cols)
            if c[0] != "card_id" and not c[0].startswith("target")]
    modes = torch.from_numpy(_modes(tuple(cols[i] for i in keep)))
    x = obs[:, off:off + rows * width].reshape(-1, rows, width)
    present = x[..., 0] > 0.5
    idx = present.reshape(-1).nonzero().squeeze(-1)
    xp = x.reshape(-1, width).index_select(0, idx)
    ids = xp[:, id_col].round().long().clamp(min=0)
    ids = torch.where(ids >= net.n_cards, torch.full_like(ids, UNKNOWN_ID), ids)
    feats = _normalise(xp[:, keep], modes)
    side = ((idx % rows) >= rows // 2).to(x.dtype) if name in TWO_SIDED \
        else torch.zeros_like(idx, dtype=x.dtype)
    parts = [net.card_embedding(ids), feats, side.unsqueeze(-1)]
    if name == "stack":
        names = [c[0] for c in cols]
        T = net.caps.max_targets
        kind = xp[:, [names.index(f"target{k}_kind") for k in range(T)]].round().long().clamp(0, 4)
        ref = (xp[:, [names.index(f"target{k}_ref") for k in range(T)]] > 0).to(x.dtype)
        share = torch.log1p(xp[:, [names.index(f"target{k}_divided") for k in range(T)]]
                            .clamp(min=0)).unsqueeze(-1)
        t = torch.cat([nn.functional.one_hot(kind, 5).to(x.dtype), ref.unsqueeze(-1), share], -1)
        has = (kind > 0).to(x.dtype).unsqueeze(-1)
        parts.append((net.target_encoder(t) * has).sum(dim=1))
    return net.encoders[name](torch.cat(parts, dim=-1)), idx, present


def _ref_pool(hp: torch.Tensor, group: torch.Tensor, groups: int) -> torch.Tensor:
    d = hp.shape[-1]
    total = hp.new_zeros(groups, d).index_add_(0, group, hp)
    n = hp.new_zeros(groups).index_add_(0, group, hp.new_ones(group.shape[0]))
    mx = hp.new_zeros(groups, d).scatter_reduce_(0, group.unsqueeze(-1).expand_as(hp), hp,
                                                 "amax", include_self=True)
    return torch.cat([total / n.clamp(min=1).unsqueeze(-1), mx], dim=-1)


def _ref_rows_logits(head, hp, idx, rows, ctx_h):
    b = ctx_h.shape[0]
    z = torch.tanh(head.row(hp) + ctx_h.index_select(0, idx // rows))
    return hp.new_zeros(b * rows).index_copy(0, idx, head.out(z).squeeze(-1)).view(b, rows)


def _ref_head(head, rows, ctx):
    return head.out(torch.tanh(head.row(rows) + head.ctx(ctx).unsqueeze(1))).squeeze(-1)


def _reference(net: MtgNet, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    obs = obs.float()
    b = obs.shape[0]
    game_cols = net.obs_layout.columns["game"]
    game = _normalise(obs[:, :len(game_cols)], torch.from_numpy(_modes(game_cols)))
    pools = [net.game_encoder(game)]
    packed = {}
    for name in TABLES:
        hp, idx, present = _ref_table(net, obs, name)
        rows = present.shape[1]
        packed[name] = (hp, idx, rows)
        if name in TWO_SIDED:
            group = 2 * (idx // rows) + ((idx % rows) >= rows // 2).long()
            pools.append(_ref_pool(hp, group, 2 * b).view(b, -1))
        else:
            pools.append(_ref_pool(hp, idx // rows, b))
    ctx = net.context(torch.cat(pools, dim=-1))
    P, S = net.caps.max_permanents, net.caps.max_ability_slots
    bands = {band: net.scalar_heads[band](ctx) for band in SCALAR_BANDS}
    for band, table in ROW_BANDS.items():
        hp, idx, rows = packed[table]
        head = net.row_heads[band]
        bands[band] = _ref_rows_logits(head, hp, idx, rows, head.ctx(ctx))
    hp, idx, _ = packed["permanents"]
    own = (idx % (2 * P)) < P
    hp_own, idx_own = hp[own], idx[own]
    slots = net.slot_embedding(torch.arange(S).clamp(max=15))
    pairs = (hp_own.unsqueeze(1) + slots.unsqueeze(0)).reshape(-1, hp.shape[-1])
    flat = ((idx_own // (2 * P)) * P + idx_own % (2 * P)).unsqueeze(1) * S \
        + torch.arange(S).unsqueeze(0)
    head = net.ability_head
    z = torch.tanh(head.row(pairs) + head.ctx(ctx).index_select(0, flat.reshape(-1) // (P * S)))
    bands["ability"] = ctx.new_zeros(b * P * S).index_copy(
        0, flat.reshape(-1), head.out(z).squeeze(-1)).view(b, P * S)
    modes = net.slot_embedding(torch.arange(net.caps.max_modes).clamp(max=15)).expand(b, -1, -1)
    bands["mode"] = _ref_head(net.mode_head, modes, ctx)
    for band, n in (("x", net.caps.max_x + 1), ("assign", net.caps.max_damage + 1)):
        v = torch.arange(n, dtype=torch.float32)
        nums = torch.stack([torch.log1p(v), v.clamp(max=20) / 20, (v == 0).float()], dim=-1)
        bands[band] = _ref_head(net.number_heads[band], nums.expand(b, -1, -1), ctx)
    bands["card_name"] = net.name_query(ctx) @ net.card_embedding.weight.t() \
        / math.sqrt(net.card_embedding.embedding_dim)
    qp, kp = net.block_q(hp), net.block_k(hp)
    h = qp.shape[-1]
    q = qp.new_zeros(b * 2 * P, h).index_copy(0, idx, qp).view(b, 2 * P, h)[:, :P]
    k = kp.new_zeros(b * 2 * P, h).index_copy(0, idx, kp).view(b, 2 * P, h)[:, P:]
    q = q + net.block_qc(ctx).unsqueeze(1)
    k = k + net.block_kc(ctx).unsqueeze(1)
    pair = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.shape[-1])
    bias = _ref_rows_logits(net.block_bias, hp, idx, 2 * P, net.block_bias.ctx(ctx))
    bands["block"] = (pair + bias[:, :P].unsqueeze(2)).reshape(b, P * P)
    logits = torch.cat([bands[name] for name, _ in net.act_layout.bands], dim=-1)
    return logits, net.value_head(ctx).squeeze(-1)


# -- helpers ------------------------------------------------------------------------------------
def _observations(caps: Capacities | None = None, n_steps: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Real observations of random play over the theme decks (16 games)."""
    config = {} if caps is None else {"capacities": caps}
    venv = MtgVectorEnv(16, seed=5, max_turns=30, **config)
    obs, _ = venv.reset(seed=5)
    rng = np.random.default_rng(1)
    all_obs, all_masks = [obs], [venv.action_masks()]
    for _ in range(n_steps):
        obs, *_ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()]))
        all_obs.append(obs)
        all_masks.append(venv.action_masks())
    venv.close()
    return np.concatenate(all_obs), np.concatenate(all_masks)


@pytest.fixture(scope="module")
def real_obs() -> tuple[torch.Tensor, np.ndarray]:
    obs, masks = _observations()
    return torch.as_tensor(obs), masks


def _perturbed(net: MtgNet, seed: int = 0) -> MtgNet:
    """Weights moved away from their initialisation (the heads start near 0), as by training:
    logits of a few units, like the shipped baseline's."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(torch.randn(p.shape, generator=gen) * 0.05)
    return net


def _assert_same(net: MtgNet, obs: torch.Tensor) -> None:
    with torch.no_grad():
        logits, value = net(obs)
        ref_logits, ref_value = _reference(net, obs)
    assert logits.shape == ref_logits.shape and value.shape == ref_value.shape
    assert (logits - ref_logits).abs().max().item() <= TOL
    assert (value - ref_value).abs().max().item() <= TOL


# -- tests --------------------------------------------------------------------------------------
@pytest.mark.parametrize("batch", [1, 64])
def test_logits_and_values_match_the_per_table_forward(real_obs, batch: int) -> None:
    """Same weights, same real observations (random play, theme decks): the same logits and
    values, at batch 1 (every single observation of a sample) and 64, within 1e-4."""
    obs, _ = real_obs
    torch.manual_seed(0)
    net = _perturbed(MtgNet(Capacities()))
    picks = range(0, len(obs), 37) if batch == 1 else range(0, len(obs) - batch + 1, batch)
    for i in picks:
        _assert_same(net, obs[i:i + batch])


def test_other_network_sizes_match(real_obs) -> None:
    """Sizes that all differ (embedding, row encoding, context, hidden) compute the same too."""
    obs, _ = real_obs
    torch.manual_seed(5)
    net = _perturbed(MtgNet(Capacities(), embed=12, d_row=24, d_ctx=40, hidden=20), seed=5)
    _assert_same(net, obs[:1])
    _assert_same(net, obs[100:164])


def test_gradients_match_the_per_table_forward(real_obs) -> None:
    """The gradients of every parameter agree too (training takes the same steps), and every
    parameter gets one (zero for tables with no rows, as before: Adam's state moves alike)."""
    obs, _ = real_obs
    torch.manual_seed(1)
    net = _perturbed(MtgNet(Capacities()), seed=1)
    x = obs[:128]
    params = list(net.parameters())
    weights = torch.randn(net.n_actions, generator=torch.Generator().manual_seed(2))

    def loss(out: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        logits, value = out
        return (logits * weights).sum() + (logits ** 2).mean() + value.sum()

    got = torch.autograd.grad(loss(net(x)), params)
    want = torch.autograd.grad(loss(_reference(net, x)), params)
    for (name, _), g, w in zip(net.named_parameters(), got, want, strict=True):
        scale = max(w.abs().max().item(), 1.0)
        assert (g - w).abs().max().item() <= 1e-4 * scale, name


def test_empty_tables_and_other_capacities_match() -> None:
    """All-zero observations (no rows anywhere) and a very different capacity set (more
    permanents than 16 ability slots, targets, modes...) give the same outputs as before."""
    caps = Capacities(max_hand=12, max_permanents=20, max_stack=6, max_targets=6,
                      max_graveyard=30, max_revealed=10, max_ability_slots=20, max_x=10,
                      max_modes=18, max_damage=12, max_triggers=5)
    for c in (Capacities(), caps):
        torch.manual_seed(3)
        net = _perturbed(MtgNet(c, embed=8, d_row=16, d_ctx=32, hidden=16), seed=3)
        _assert_same(net, torch.zeros(3, ObservationLayout(c).size))
    obs, _ = _observations(caps, n_steps=15)
    _assert_same(net, torch.as_tensor(obs))


def test_the_shipped_baseline_computes_the_same_policy() -> None:
    """``checkpoints/ppo_baseline.zip`` loads into the new network unchanged and gives the same
    logits, values and deterministic (most likely legal) actions as the per-table forward, on
    observations encoded with the capacities it was trained with."""
    from agents.checkpoint import load_checkpoint

    model, meta = load_checkpoint(BASELINE)
    net = model.policy.net
    caps = Capacities(**meta["capacities"])
    assert net.caps == caps
    obs, masks = _observations(caps)
    obs = torch.as_tensor(obs)
    _assert_same(net, obs[:1])
    _assert_same(net, obs[:64])
    with torch.no_grad():
        logits = net(obs)[0].numpy()
        ref = _reference(net, obs)[0].numpy()
    assert np.array_equal(np.where(masks, logits, -np.inf).argmax(1),
                          np.where(masks, ref, -np.inf).argmax(1))


def _policy(seed: int):
    """An ``MtgPolicy`` of the default capacities with its weights perturbed by ``seed``."""
    from sb3_contrib import MaskablePPO

    from agents.policy_net import MtgPolicy
    from mtg_env.vector import Sb3VecEnv

    env = Sb3VecEnv(MtgVectorEnv(1, seed=0))
    policy = MaskablePPO(MtgPolicy, env, n_steps=8, batch_size=8, seed=0,
                         policy_kwargs={"capacities": {}}).policy
    env.close()
    _perturbed(policy.net, seed=seed)
    return policy


def test_evaluate_actions_matches_sb3_contrib(real_obs) -> None:
    """``MtgPolicy.evaluate_actions`` (PPO's update) gives the values, log-probabilities and
    masked entropies of sb3-contrib's ``MaskableActorCriticPolicy.evaluate_actions``, and the
    same gradients of a PPO-like loss."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    obs, masks = real_obs
    policy = _policy(seed=4)
    rng = np.random.default_rng(4)
    x, m = obs[:96], masks[:96]
    actions = torch.as_tensor([rng.choice(np.flatnonzero(row)) for row in m])
    params = list(policy.parameters())
    got = policy.evaluate_actions(x, actions, action_masks=m)
    want = MaskableActorCriticPolicy.evaluate_actions(policy, x, actions, action_masks=m)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and (g - w).abs().max().item() <= 1e-4

    def loss(out) -> torch.Tensor:
        values, log_prob, entropy = out
        return -(log_prob * torch.linspace(-1, 1, len(log_prob))).mean() \
            + (values ** 2).mean() - 0.01 * entropy.mean()

    g_got = torch.autograd.grad(loss(got), params)
    g_want = torch.autograd.grad(loss(want), params)
    for g, w in zip(g_got, g_want, strict=True):
        assert (g - w).abs().max().item() <= 1e-4 * max(w.abs().max().item(), 1.0)


def test_forward_matches_sb3_contrib(real_obs) -> None:
    """``MtgPolicy.forward`` (PPO's rollout collection) gives the values of sb3-contrib's
    ``MaskableActorCriticPolicy.forward`` and, from the same torch seed, the same sampled and
    most likely actions with the same log-probabilities; ``_predict`` (``predict``: agents and
    evaluations) the same actions as sb3-contrib's."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    obs, masks = real_obs
    policy = _policy(seed=5)
    x, m = obs[:64], masks[:64]
    for deterministic in (False, True):
        for seed in range(3):
            torch.manual_seed(seed)
            with torch.no_grad():
                got = policy(x, deterministic=deterministic, action_masks=m)
            torch.manual_seed(seed)
            with torch.no_grad():
                want = MaskableActorCriticPolicy.forward(policy, x, deterministic, m)
            assert torch.equal(got[0], want[0]), "other actions"
            assert bool(m[np.arange(len(x)), got[0].numpy()].all()), "an illegal action"
            assert got[1].shape == want[1].shape and torch.equal(got[1], want[1])
            assert got[2].shape == want[2].shape and (got[2] - want[2]).abs().max() <= 1e-4
            torch.manual_seed(seed)
            with torch.no_grad():
                picked = policy._predict(x, deterministic, m)
            torch.manual_seed(seed)
            with torch.no_grad():
                wanted = MaskableActorCriticPolicy._predict(policy, x, deterministic, m)
            assert torch.equal(picked, wanted), "predict() picks other actions"


def test_weights_derived_for_acting_follow_parameter_updates(real_obs) -> None:
    """Without autograd the network keeps what it derives from its parameters between calls:
    an optimizer step, ``load_state_dict`` or a copy must still give the new parameters'
    outputs, under ``inference_mode`` and ``no_grad`` alike."""
    import copy
    import pickle

    obs, _ = real_obs
    x = obs[:32]
    torch.manual_seed(6)
    net = _perturbed(MtgNet(Capacities()), seed=6)
    with torch.inference_mode():
        first = net(x)[0].clone()
        assert torch.equal(net(x)[0], first)  # cached: the same numbers
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    logits, value = net(x)
    (logits.mean() + value.mean()).backward()
    opt.step()
    for mode in (torch.inference_mode, torch.no_grad):
        with mode():
            moved = net(x)[0]
            assert (moved - first).abs().max().item() > 1e-3
            assert (moved - _reference(net, x)[0]).abs().max().item() <= TOL
    other = _perturbed(MtgNet(Capacities()), seed=7)
    net.load_state_dict(other.state_dict())
    with torch.inference_mode():
        assert (net(x)[0] - other(x)[0]).abs().max().item() <= TOL
    for clone in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        with torch.no_grad():
            clone.card_embedding.weight.mul_(2)
        with torch.inference_mode():
            assert (clone(x)[0] - _reference(clone, x)[0]).abs().max().item() <= TOL
            assert (net(x)[0] - other(x)[0]).abs().max().item() <= TOL


def test_every_table_filled_with_synthetic_rows_matches() -> None:
    """Rows in every table (random play rarely fills ``removed`` or ``triggers``): random
    values within each column's declared bounds, random rows present, both sides."""
    caps = Capacities()
    layout = ObservationLayout(caps)
    rng = np.random.default_rng(8)
    obs = np.zeros((24, layout.size), np.float32)
    for name in TABLES:
        rows, width = layout.shapes[name]
        cols = layout.columns[name]
        lo = np.array([c[1] for c in cols], np.float64)
        hi = np.minimum([c[2] for c in cols], lo + 12)
        block = rng.integers(lo, hi + 1, size=(len(obs), rows, width)).astype(np.float32)
        block[..., layout.col[name]["card_id"]] = rng.integers(0, 400, size=(len(obs), rows))
        block[..., 0] = rng.random((len(obs), rows)) < 0.3
        obs[:, layout.offset[name]:layout.offset[name] + rows * width] = \
            block.reshape(len(obs), -1)
    game = layout.columns["game"]
    obs[:, :len(game)] = rng.integers([c[1] for c in game],
                                      np.minimum([c[2] for c in game], 20) + 1,
                                      size=(len(obs), len(game)))
    torch.manual_seed(9)
    net = _perturbed(MtgNet(caps), seed=9)
    _assert_same(net, torch.as_tensor(obs[:1]))
    _assert_same(net, torch.as_tensor(obs))
