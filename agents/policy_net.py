"""A structured policy for sb3-contrib's ``MaskablePPO`` that reads the observation as tables.

The flat observation (``docs/env.md``) is cut back into its tables by the offsets of
:class:`~mtg_env.encoding.layout.ObservationLayout`. Each table (hand, permanents, stack,
graveyards, removed, revealed, triggers) has ONE row encoder, applied to every row: a learned
embedding of the row's card id plus the row's other features, through a small MLP. Rows are
pooled (masked mean and max over the rows whose ``present`` column is set, separately for the
viewer's and the opponent's half of two-sided tables) and joined with the encoded game scalars
into a game context. The action logits of each band are computed from the row the index names:

========== ==================================================================================
band       logit of index ``i`` computed from
========== ==================================================================================
decline,   a small head on the context (scalar bands)
accept,
player,
color
hand       hand row ``i`` (own rows, then the opponent's)
permanent  permanent row ``i``
ability    own permanent row ``i // S`` and an embedding of its ability slot ``i % S``
stack      stack row ``i``
graveyard, the row ``i`` of that table
removed,
revealed
block      the pair (own permanent row ``i // P``, opponent permanent row ``i % P``): a
           bilinear score of the two row encodings, both conditioned on the context
x, assign  the value ``i`` (as features ``log1p(i)``, ``min(i, 20) / 20``, ``i == 0``) and
           the context
mode       an embedding of the mode slot ``i`` and the context
order      trigger row ``i``
card_name  the card embedding of vocabulary index ``i`` dotted with a projection of the context
========== ==================================================================================

Every row head is ``w . tanh(A row + B context)``, shared by the rows of its band, so the
parameter count does not depend on the capacities of the tables (rows) or of the numeric bands,
and the cost per step is linear in the number of rows (the block band: in the number of pairs).
Slot embeddings (ability slots, modes) cover the first 16 slots; higher slots share the last one.

Input normalisation (inside the model, so checkpoints need no separate statistics):

- card ids (column ``card_id``) go through ``nn.Embedding`` over the card vocabulary (ids
  beyond it, from a newer vocabulary, count as ``<unknown>``);
- ref columns (``*_ref``, ``focus_stack``: row numbers, which depend on the capacities) are
  read as "has a ref" (0/1);
- every other column whose declared upper bound exceeds 1 (counts, life, costs, power, X,
  ...) is scaled by ``sign(x) * log1p(|x|)``; 0/1 flags pass as they are;
- the stack's per-target columns (``target{k}_kind``, ``target{k}_ref``, ``target{k}_divided``)
  are encoded per target by one small layer (kind one-hot, "has a ref", ``log1p`` of the damage
  divided to it) and summed, so ``max_targets`` adds no
  parameters either;
- rows of two-sided tables get one extra feature: 1 for the opponent's half.

Use it with ``MaskablePPO(MtgPolicy, env, policy_kwargs={"capacities": {...}})`` (capacities as
in the env config; the defaults when omitted).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from mtg_env.encoding.layout import ActionLayout, Capacities, ObservationLayout
from mtg_env.encoding.vocab import UNKNOWN_ID, vocabulary

__all__ = ["MtgNet", "MtgPolicy", "count_parameters"]

TABLES = ("hand", "permanents", "stack", "graveyards", "removed", "revealed", "triggers")
TWO_SIDED = {"hand", "permanents", "graveyards", "removed"}
ROW_BANDS = {"hand": "hand", "permanent": "permanents", "stack": "stack",
             "graveyard": "graveyards", "removed": "removed", "revealed": "revealed",
             "order": "triggers"}
SCALAR_BANDS = ("decline", "accept", "player", "color")
N_SLOT_EMBEDDINGS = 16
RAW, LOG, FLAG = 0, 1, 2


def _modes(cols: tuple[tuple[str, float, float, str], ...]) -> np.ndarray:
    """How each column is normalised: RAW (0/1 flags), LOG (counts) or FLAG (refs)."""
    out = []
    for name, lo, hi, _ in cols:
        if name.endswith("_ref") or name == "focus_stack":
            out.append(FLAG)
        elif hi > 1 or lo < 0:
            out.append(LOG)
        else:
            out.append(RAW)
    return np.array(out, np.int64)


def _normalise(x: th.Tensor, modes: th.Tensor) -> th.Tensor:
    log = th.sign(x) * th.log1p(th.abs(x))
    flag = (x > 0).to(x.dtype)
    return th.where(modes == LOG, log, th.where(modes == FLAG, flag, x))


def _mlp(n_in: int, hidden: int, n_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, n_out), nn.ReLU())


class _RowHead(nn.Module):
    """``w . tanh(A row + B context)``: one logit per row, shared by every row."""

    def __init__(self, d_row: int, d_ctx: int, hidden: int) -> None:
        super().__init__()
        self.row = nn.Linear(d_row, hidden)
        self.ctx = nn.Linear(d_ctx, hidden, bias=False)
        self.out = nn.Linear(hidden, 1)
        nn.init.normal_(self.out.weight, std=0.01)
        nn.init.zeros_(self.out.bias)

    def forward(self, rows: th.Tensor, ctx: th.Tensor) -> th.Tensor:
        h = th.tanh(self.row(rows) + self.ctx(ctx).unsqueeze(1))
        return self.out(h).squeeze(-1)


class MtgNet(nn.Module):
    """The network: flat observations ``(B, D)`` -> action logits ``(B, A)`` and values ``(B,)``.

    ``caps``: the capacities the observations were encoded with. ``embed``: card embedding
    size; ``d_row``: row encoding size; ``d_ctx``: game context size; ``hidden``: hidden size
    of the row encoders and heads.
    """

    def __init__(self, caps: Capacities, embed: int = 16, d_row: int = 64, d_ctx: int = 128,
                 hidden: int = 64) -> None:
        super().__init__()
        self.caps = caps
        self.obs_layout = layout = ObservationLayout(caps)
        self.act_layout = ActionLayout(caps)
        self.obs_size = layout.size
        self.n_actions = self.act_layout.size
        self.n_cards = len(vocabulary())
        self.card_embedding = nn.Embedding(self.n_cards, embed)
        self.encoders = nn.ModuleDict()
        self._slices: dict[str, tuple[int, int, int, int]] = {}
        for name in TABLES:
            cols = layout.columns[name]
            rows = layout.shapes[name][0]
            width = len(cols)
            self._slices[name] = (layout.offset[name], rows, width, layout.col[name]["card_id"])
            keep = [i for i, c in enumerate(cols)
                    if c[0] != "card_id" and not c[0].startswith("target")]
            self.register_buffer(f"keep_{name}", th.tensor(keep, dtype=th.long), persistent=False)
            self.register_buffer(f"modes_{name}", th.from_numpy(_modes(tuple(cols[i] for i in keep))),
                                 persistent=False)
            n_in = embed + len(keep) + 1 + (d_row if name == "stack" else 0)
            self.encoders[name] = _mlp(n_in, hidden, d_row)
        stack_cols = [c[0] for c in layout.columns["stack"]]
        self.register_buffer("target_kind", th.tensor(
            [stack_cols.index(f"target{k}_kind") for k in range(caps.max_targets)]), persistent=False)
        self.register_buffer("target_ref", th.tensor(
            [stack_cols.index(f"target{k}_ref") for k in range(caps.max_targets)]), persistent=False)
        self.register_buffer("target_divided", th.tensor(
            [stack_cols.index(f"target{k}_divided") for k in range(caps.max_targets)]),
            persistent=False)
        self.target_encoder = nn.Linear(7, d_row)
        game_cols = layout.columns["game"]
        self.register_buffer("modes_game", th.from_numpy(_modes(game_cols)), persistent=False)
        self.game_encoder = nn.Sequential(nn.Linear(len(game_cols), hidden), nn.ReLU())
        n_pools = sum(2 if t in TWO_SIDED else 1 for t in TABLES)
        self.context = nn.Sequential(nn.Linear(hidden + n_pools * 2 * d_row, d_ctx), nn.ReLU(),
                                     nn.Linear(d_ctx, d_ctx), nn.ReLU())
        self.value_head = nn.Sequential(nn.Linear(d_ctx, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.scalar_heads = nn.ModuleDict({b: nn.Linear(d_ctx, self.act_layout.band_size[b])
                                           for b in SCALAR_BANDS})
        for head in self.scalar_heads.values():
            nn.init.normal_(head.weight, std=0.01)
            nn.init.zeros_(head.bias)
        self.row_heads = nn.ModuleDict({b: _RowHead(d_row, d_ctx, hidden) for b in ROW_BANDS})
        self.slot_embedding = nn.Embedding(N_SLOT_EMBEDDINGS, d_row)
        self.ability_head = _RowHead(d_row, d_ctx, hidden)
        self.mode_head = _RowHead(d_row, d_ctx, hidden)
        self.number_heads = nn.ModuleDict({b: _RowHead(3, d_ctx, hidden) for b in ("x", "assign")})
        # card_name: the embedding of each vocabulary card dotted with a projection of the context
        self.name_query = nn.Linear(d_ctx, embed)
        self.block_q = nn.Linear(d_row, hidden)
        self.block_k = nn.Linear(d_row, hidden, bias=False)
        self.block_qc = nn.Linear(d_ctx, hidden, bias=False)
        self.block_kc = nn.Linear(d_ctx, hidden, bias=False)
        self.block_bias = _RowHead(d_row, d_ctx, hidden)
        for band, n in (("x", caps.max_x + 1), ("assign", caps.max_damage + 1)):
            v = th.arange(n, dtype=th.float32)
            feats = th.stack([th.log1p(v), v.clamp(max=20) / 20, (v == 0).float()], dim=-1)
            self.register_buffer(f"numbers_{band}", feats, persistent=False)
        for band, n in (("ability", caps.max_ability_slots), ("mode", caps.max_modes)):
            self.register_buffer(f"slots_{band}", th.arange(n).clamp(max=N_SLOT_EMBEDDINGS - 1),
                                 persistent=False)

    # -- encoding -------------------------------------------------------------------------
    def _table(self, obs: th.Tensor, name: str) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """Encodings ``(n, d_row)`` of the ``n`` present rows of one table, their flat indices
        ``batch * rows + row`` and the presence ``(B, R)``. Only present rows are encoded, so
        the cost follows the cards in play, not the capacities."""
        off, rows, width, id_col = self._slices[name]
        x = obs[:, off:off + rows * width].reshape(-1, rows, width)
        present = x[..., 0] > 0.5
        idx = present.reshape(-1).nonzero().squeeze(-1)
        xp = x.reshape(-1, width).index_select(0, idx)
        ids = xp[:, id_col].round().long().clamp(min=0)
        ids = th.where(ids >= self.n_cards, th.full_like(ids, UNKNOWN_ID), ids)
        feats = _normalise(xp[:, getattr(self, f"keep_{name}")], getattr(self, f"modes_{name}"))
        side = ((idx % rows) >= rows // 2).to(x.dtype) if name in TWO_SIDED \
            else th.zeros_like(idx, dtype=x.dtype)
        parts = [self.card_embedding(ids), feats, side.unsqueeze(-1)]
        if name == "stack":
            kind = xp[:, self.target_kind].round().long().clamp(0, 4)
            ref = (xp[:, self.target_ref] > 0).to(x.dtype).unsqueeze(-1)
            share = th.log1p(xp[:, self.target_divided].clamp(min=0)).unsqueeze(-1)
            t = th.cat([nn.functional.one_hot(kind, 5).to(x.dtype), ref, share], dim=-1)
            has = (kind > 0).to(x.dtype).unsqueeze(-1)
            parts.append((self.target_encoder(t) * has).sum(dim=1))
        return self.encoders[name](th.cat(parts, dim=-1)), idx, present

    @staticmethod
    def _pool(hp: th.Tensor, group: th.Tensor, groups: int) -> th.Tensor:
        """Masked mean and max of the packed rows per group (a sample, or a sample's side):
        ``(groups, 2 * d_row)``; empty groups pool to 0 (encodings are >= 0, ReLU)."""
        d = hp.shape[-1]
        total = hp.new_zeros(groups, d).index_add_(0, group, hp)
        n = hp.new_zeros(groups).index_add_(0, group, hp.new_ones(group.shape[0]))
        mx = hp.new_zeros(groups, d).scatter_reduce_(0, group.unsqueeze(-1).expand_as(hp), hp,
                                                 "amax", include_self=True)
        return th.cat([total / n.clamp(min=1).unsqueeze(-1), mx], dim=-1)

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """Action logits ``(B, A)`` and state values ``(B,)``."""
        obs = obs.float()
        b = obs.shape[0]
        game = _normalise(obs[:, :self.obs_layout.shapes["game"][0]], self.modes_game)
        pools = [self.game_encoder(game)]
        packed: dict[str, tuple[th.Tensor, th.Tensor, int]] = {}
        for name in TABLES:
            hp, idx, present = self._table(obs, name)
            rows = present.shape[1]
            packed[name] = (hp, idx, rows)
            if name in TWO_SIDED:  # group = 2 * sample + side
                group = 2 * (idx // rows) + ((idx % rows) >= rows // 2).long()
                pools.append(self._pool(hp, group, 2 * b).view(b, -1))
            else:
                pools.append(self._pool(hp, idx // rows, b))
        ctx = self.context(th.cat(pools, dim=-1))
        return self._logits(packed, ctx), self.value_head(ctx).squeeze(-1)

    def _rows_logits(self, head: _RowHead, hp: th.Tensor, idx: th.Tensor, rows: int,
                     ctx_h: th.Tensor) -> th.Tensor:
        """``(B, rows)`` logits of a row band from the packed rows (0 on absent rows, which
        the mask never allows)."""
        b = ctx_h.shape[0]
        z = th.tanh(head.row(hp) + ctx_h.index_select(0, idx // rows))
        return hp.new_zeros(b * rows).index_copy(0, idx, head.out(z).squeeze(-1)).view(b, rows)

    def _logits(self, packed: dict[str, tuple[th.Tensor, th.Tensor, int]],
                ctx: th.Tensor) -> th.Tensor:
        b = ctx.shape[0]
        P = self.caps.max_permanents
        bands: dict[str, th.Tensor] = {}
        for band in SCALAR_BANDS:
            bands[band] = self.scalar_heads[band](ctx)
        for band, table in ROW_BANDS.items():
            hp, idx, rows = packed[table]
            head = self.row_heads[band]
            bands[band] = self._rows_logits(head, hp, idx, rows, head.ctx(ctx))
        # ability: own present permanents x ability slots
        hp, idx, _ = packed["permanents"]
        own = (idx % (2 * P)) < P
        hp_own, idx_own = hp[own], idx[own]
        S = self.caps.max_ability_slots
        slots = self.slot_embedding(self.slots_ability)  # (S, d)
        pairs = (hp_own.unsqueeze(1) + slots.unsqueeze(0)).reshape(-1, hp.shape[-1])
        flat = ((idx_own // (2 * P)) * P + idx_own % (2 * P)).unsqueeze(1) * S \
            + th.arange(S, device=ctx.device).unsqueeze(0)
        head = self.ability_head
        ctx_h = head.ctx(ctx)
        z = th.tanh(head.row(pairs) + ctx_h.index_select(0, flat.reshape(-1) // (P * S)))
        bands["ability"] = ctx.new_zeros(b * P * S).index_copy(
            0, flat.reshape(-1), head.out(z).squeeze(-1)).view(b, P * S)
        modes = self.slot_embedding(self.slots_mode).expand(b, -1, -1)
        bands["mode"] = self.mode_head(modes, ctx)
        for band in ("x", "assign"):
            nums = getattr(self, f"numbers_{band}").expand(b, -1, -1)
            bands[band] = self.number_heads[band](nums, ctx)
        bands["card_name"] = self.name_query(ctx) @ self.card_embedding.weight.t() \
            / math.sqrt(self.card_embedding.embedding_dim)
        # block: bilinear score of (own row, opponent row), both conditioned on the context
        qp, kp = self.block_q(hp), self.block_k(hp)
        h = qp.shape[-1]
        q = qp.new_zeros(b * 2 * P, h).index_copy(0, idx, qp).view(b, 2 * P, h)[:, :P]
        k = kp.new_zeros(b * 2 * P, h).index_copy(0, idx, kp).view(b, 2 * P, h)[:, P:]
        q = q + self.block_qc(ctx).unsqueeze(1)
        k = k + self.block_kc(ctx).unsqueeze(1)
        pair = th.bmm(q, k.transpose(1, 2)) / math.sqrt(q.shape[-1])  # (B, own P, opp P)
        bias = self._rows_logits(self.block_bias, hp, idx, 2 * P, self.block_bias.ctx(ctx))
        bands["block"] = (pair + bias[:, :P].unsqueeze(2)).reshape(b, P * P)
        return th.cat([bands[name] for name, _ in self.act_layout.bands], dim=-1)


class _Logits(BaseFeaturesExtractor):
    """The whole network as SB3's features extractor: features = logits then the value."""

    def __init__(self, observation_space: spaces.Box, capacities: dict[str, int] | None = None,
                 **net_kwargs: Any) -> None:
        caps = Capacities(**(capacities or {}))
        net = MtgNet(caps, **net_kwargs)
        if observation_space.shape != (net.obs_size,):
            raise ValueError(f"the observation has {observation_space.shape} values but the "
                             f"capacities {caps} make {net.obs_size}: pass the env's capacities "
                             "in policy_kwargs={'capacities': {...}}")
        super().__init__(observation_space, net.n_actions + 1)
        self.net = net

    def forward(self, obs: th.Tensor) -> th.Tensor:
        logits, value = self.net(obs)
        return th.cat([logits, value.unsqueeze(-1)], dim=-1)


class _Split(nn.Module):
    """Stands in for SB3's ``mlp_extractor``: splits the features into logits and value."""

    def __init__(self, n_actions: int) -> None:
        super().__init__()
        self.n_actions = n_actions
        self.latent_dim_pi = n_actions
        self.latent_dim_vf = 1

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return features[:, :self.n_actions], features[:, self.n_actions:]

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return features[:, :self.n_actions]

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return features[:, self.n_actions:]


class MtgPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose logits and value come from :class:`MtgNet`.

    Keyword arguments: ``capacities`` (dict, the env's capacity keys) and the sizes of
    :class:`MtgNet` (``embed``, ``d_row``, ``d_ctx``, ``hidden``).
    """

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space,
                 lr_schedule: Any, capacities: dict[str, int] | None = None, embed: int = 16,
                 d_row: int = 64, d_ctx: int = 128, hidden: int = 64, **kwargs: Any) -> None:
        kwargs.pop("features_extractor_class", None)
        kwargs.pop("net_arch", None)
        self.net_kwargs = {"capacities": dict(capacities or {}), "embed": embed, "d_row": d_row,
                           "d_ctx": d_ctx, "hidden": hidden}
        kwargs["features_extractor_kwargs"] = dict(self.net_kwargs)
        kwargs["ortho_init"] = False
        kwargs["share_features_extractor"] = True
        super().__init__(observation_space, action_space, lr_schedule,
                         features_extractor_class=_Logits, **kwargs)
        if int(action_space.n) != self.features_extractor.net.n_actions:
            raise ValueError(f"the action space has {action_space.n} actions but the capacities "
                             f"make {self.features_extractor.net.n_actions}")

    def _build(self, lr_schedule: Any) -> None:
        self.mlp_extractor = _Split(int(self.action_space.n))
        self.action_net = nn.Identity()
        self.value_net = nn.Identity()
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        for key in ("features_extractor_class", "features_extractor_kwargs", "ortho_init",
                    "share_features_extractor", "net_arch"):
            data.pop(key, None)
        data.update(self.net_kwargs)
        return data

    @property
    def net(self) -> MtgNet:
        return self.features_extractor.net


def count_parameters(module: nn.Module) -> int:
    """Trainable parameters of a module."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)
