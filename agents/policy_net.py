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

How the forward pass is computed (the cost at small batches is per tensor operation,
not arithmetic): one ``nonzero`` finds the present rows of every table, one index gathers their
columns, one lookup gives every row the card embedding's share of its table's first layer, one
``index_add``/``scatter_reduce`` pools every (sample, table, side) group, one matmul applies
every linear map of the context, and one ``index_copy`` places every row-band logit. What
stays per table is the two matmuls of its row encoder and its row head. Heads over fixed rows
(mode slots, numbers, ability slots) compute the rows' share once, not per sample, and
``tanh(u)`` is evaluated as ``2 sigmoid(2 u) - 1`` (the factor 2 folded into the weights). Without
autograd (acting) what depends only on the parameters is kept until a parameter changes. The
parameters and the function are those of the per-table formulation (kept as a reference in
``tests/agents/test_policy_net_speedup.py``), up to float rounding.

Use it with ``MaskablePPO(MtgPolicy, env, policy_kwargs={"capacities": {...}})`` (capacities as
in the env config; the defaults when omitted).
"""

from __future__ import annotations

import inspect
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


def _tanh_out(pre2: th.Tensor, w2: th.Tensor, b2: th.Tensor) -> th.Tensor:
    """``out(tanh(u)).squeeze(-1)`` from ``pre2 = 2 u`` and ``(w2, b2) = _tanh_weights(out)``,
    as ``2 w . sigmoid(2 u) + c - sum(w)`` (``tanh(u) = 2 sigmoid(2 u) - 1``; sigmoid costs half
    of tanh on CPU)."""
    return nn.functional.linear(th.sigmoid(pre2), w2, b2).squeeze(-1)


def _tanh_weights(out: nn.Linear) -> tuple[th.Tensor, th.Tensor]:
    """The weights of ``_tanh_out`` for the output layer ``out`` of a tanh head."""
    return 2 * out.weight, out.bias - out.weight.sum(1)


class _RowHead(nn.Module):
    """``w . tanh(A row + B context)``: one logit per row, shared by every row. (``MtgNet``
    evaluates its heads batched from these parameters; ``forward`` is the definition.)"""

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
        for name in TABLES:
            cols = layout.columns[name]
            n_keep = sum(1 for c in cols if c[0] != "card_id" and not c[0].startswith("target"))
            self.encoders[name] = _mlp(embed + n_keep + 1 + (d_row if name == "stack" else 0),
                                       hidden, d_row)
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
        # The logit bonus of the heuristic player's choice when the network plays (0: the network
        # alone). forward() can't apply it: the observation doesn't say which option the heuristic
        # would pick; agents.policy_value.anchored_priors and expert iteration's learner do.
        # A buffer, not a parameter: optimizers written with older checkpoints have no slot for
        # it; expert iteration's learner trains it as a parameter of its own.
        self.register_buffer("heuristic_anchor", th.zeros(()))
        self._build_indices()

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str, *args: Any,
                              **kwargs: Any) -> None:
        key = prefix + "heuristic_anchor"
        if key not in state_dict:  # a checkpoint from before the anchor: the network alone
            state_dict[key] = th.zeros(())
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)

    def _build_indices(self) -> None:
        """Index tensors that depend only on the capacities (non-persistent buffers).

        Every row of every table gets a global row number ``g`` (tables in ``TABLES`` order). The
        forward pass finds the present rows of the whole batch with one ``nonzero`` and gathers
        their columns with one index, in one layout for every table: the card id, the columns
        to ``log``-scale (padded to the most any table has), the refs read as flags (padded
        likewise), the other kept columns, then (stack) the raw per-target columns. Each
        table's first layer reads its columns through ``w1_cols_{t}`` (the padding through a
        zero column). Every row-band logit is written with one ``index_copy`` into a buffer
        laid out as the row bands, then the block bias of the own permanents, then the ability
        band.
        """
        layout, caps = self.obs_layout, self.caps
        emb = self.card_embedding.embedding_dim
        groups = []
        for name in TABLES:
            cols = layout.columns[name]
            keep = [i for i, c in enumerate(cols)
                    if c[0] != "card_id" and not c[0].startswith("target")]
            modes = _modes(tuple(cols[i] for i in keep))
            groups.append({m: [(j, keep[j]) for j in range(len(keep)) if modes[j] == m]
                           for m in (LOG, FLAG, RAW)})
        self._n_log = max(len(gr[LOG]) for gr in groups)
        self._n_flag = max(len(gr[FLAG]) for gr in groups)
        present, row_cols, table, side, pool, pos = [], [], [], [], [], []
        self._n_in: list[int] = []
        p, band = 0, 0
        for t, name in enumerate(TABLES):
            cols = layout.columns[name]
            rows, width = layout.shapes[name]
            id_col = layout.col[name]["card_id"]
            gr = groups[t]
            n_keep = sum(len(v) for v in gr.values())
            zero = emb + n_keep + 1 + (self.target_encoder.out_features if name == "stack" else 0)
            idx, w1 = [id_col], [emb + n_keep]  # column 0: the card id, read as the side
            for m, n in ((LOG, self._n_log), (FLAG, self._n_flag), (RAW, len(gr[RAW]))):
                idx += [c for _, c in gr[m]] + [id_col] * (n - len(gr[m]))
                w1 += [emb + j for j, _ in gr[m]] + [zero] * (n - len(gr[m]))
            self._n_in.append(len(idx))
            if name == "stack":  # then the raw per-target columns: kinds, refs, divided shares
                names = [c[0] for c in cols]
                for part in ("kind", "ref", "divided"):
                    idx += [names.index(f"target{k}_{part}") for k in range(caps.max_targets)]
            self.register_buffer(f"w1_cols_{t}", th.tensor(w1), persistent=False)
            for r in range(rows):
                row_start = layout.offset[name] + r * width  # its first column is ``present``
                present.append(row_start)
                row_cols.append([row_start + c for c in idx])
                table.append(t)
                s = int(name in TWO_SIDED and r >= rows // 2)
                side.append(float(s))
                pool.append(p + s)
                pos.append(band + r)
            p += 2 if name in TWO_SIDED else 1
            band += rows
        self._n_pools = p
        width = max(len(c) for c in row_cols)
        row_cols = [c + [c[0]] * (width - len(c)) for c in row_cols]  # padding: never used
        buf = {"row_present_col": present, "row_cols": row_cols, "row_table": table,
               "row_pool": pool, "row_pos": pos}
        for key, value in buf.items():
            self.register_buffer(key, th.tensor(value, dtype=th.long), persistent=False)
        self.register_buffer("row_side", th.tensor(side), persistent=False)
        P, S = caps.max_permanents, caps.max_ability_slots
        self._perm = TABLES.index("permanents")
        self._perm_g0 = sum(layout.shapes[n][0] for n in TABLES[:self._perm])
        self._block_bias_at = band  # P block-bias slots, then the P*S ability band
        self._ability_at = band + P
        self._sparse = band + P + P * S
        self.register_buffer("ability_slot", th.arange(S), persistent=False)
        self.register_buffer("zero_column", th.zeros(self.block_q.out_features, 1),
                             persistent=False)
        # the columns of ``_ctx_layers`` that feed a tanh head (the row heads, block bias,
        # ability, mode, x, assign) are doubled: see ``_tanh_out``
        n_tanh = len(ROW_BANDS) + 5
        sizes = [m.out_features for m in self._ctx_layers()]
        self.register_buffer("ctx_scale", th.tensor(
            [2.0] * sum(sizes[:n_tanh]) + [1.0] * sum(sizes[n_tanh:])), persistent=False)

    def _ctx_layers(self) -> list[nn.Linear]:
        """Every linear map of the context, in the order of the columns of the one context
        matmul of :meth:`forward`: the row heads (``ROW_BANDS`` order, then the block bias),
        ability, mode, x, assign, block q/k, the scalar heads, the card-name query and the value
        head's first layer."""
        heads = [self.row_heads[b] for b in ROW_BANDS] + [self.block_bias, self.ability_head,
                                                          self.mode_head,
                                                          self.number_heads["x"],
                                                          self.number_heads["assign"]]
        return ([h.ctx for h in heads] + [self.block_qc, self.block_kc]
                + [self.scalar_heads[b] for b in SCALAR_BANDS]
                + [self.name_query, self.value_head[0]])

    @staticmethod
    def _cat_linear(layers: list[nn.Linear]) -> tuple[th.Tensor, th.Tensor]:
        """The weights and biases of linear maps of one input, stacked: one matmul for all."""
        weight = th.cat([m.weight for m in layers])
        bias = th.cat([m.bias if m.bias is not None else m.weight.new_zeros(m.out_features)
                       for m in layers])
        return weight, bias

    def _targets(self, xs: th.Tensor) -> th.Tensor:
        """The stack rows' per-target encodings, summed: ``(n, d_row)``."""
        T = self.caps.max_targets
        k0 = self._n_in[TABLES.index("stack")]
        kind = xs[:, k0:k0 + T].round().long().clamp(0, 4)
        ref = (xs[:, k0 + T:k0 + 2 * T] > 0).to(xs.dtype).unsqueeze(-1)
        share = th.log1p(xs[:, k0 + 2 * T:k0 + 3 * T].clamp(min=0)).unsqueeze(-1)
        t = th.cat([nn.functional.one_hot(kind, 5).to(xs.dtype), ref, share], dim=-1)
        has = (kind > 0).to(xs.dtype).unsqueeze(-1)
        return (self.target_encoder(t) * has).sum(dim=1)

    def _derive(self) -> dict[str, Any]:
        """Everything the forward pass computes from the parameters alone: stacked and
        reordered weights, the card embedding projected by every table's first layer, the
        fixed rows' share of the mode/x/assign heads."""
        F = nn.functional
        emb = self.card_embedding.embedding_dim
        first = [self.encoders[name][0] for name in TABLES]
        d: dict[str, Any] = {
            "proj": F.linear(self.card_embedding.weight,
                             th.cat([m.weight[:, :emb] for m in first])),
            "w1": [th.cat([m.weight, self.zero_column], 1).index_select(
                1, getattr(self, f"w1_cols_{t}")) for t, m in enumerate(first)]}
        w, bias = self._cat_linear(self._ctx_layers())
        d["ctx"] = (w * self.ctx_scale.unsqueeze(1), bias * self.ctx_scale)
        d["perm"] = self._cat_linear([self.row_heads["permanent"].row, self.block_bias.row,
                                      self.ability_head.row, self.block_q, self.block_k])
        w_out, b_out = self._cat_linear([self.row_heads[band].out for band in ROW_BANDS]
                                        + [self.block_bias.out])
        d["out"] = (2 * w_out, b_out - w_out.sum(1))
        head = self.ability_head
        d["slots"] = F.linear(self.slot_embedding(self.slots_ability), 2 * head.row.weight)
        d["ability"] = _tanh_weights(head.out)
        for band, head, rows in (
                ("mode", self.mode_head, self.slot_embedding(self.slots_mode)),
                ("x", self.number_heads["x"], self.numbers_x),
                ("assign", self.number_heads["assign"], self.numbers_assign)):
            d[band] = (F.linear(rows, head.row.weight, head.row.bias), *_tanh_weights(head.out))
        return d

    def _weights(self) -> dict[str, Any]:
        """:meth:`_derive`, kept between calls while autograd is off (acting: they depend only
        on the parameters, so the cache is keyed by the parameters' storage and versions, which
        every in-place update such as an optimizer step or ``load_state_dict`` bumps)."""
        if th.is_grad_enabled():
            return self._derive()
        params = self.__dict__.get("_param_list")
        if params is None:
            params = self._param_list = list(self.parameters())
        key = (th.is_inference_mode_enabled(), *((p.data_ptr(), p._version) for p in params))
        cache = self.__dict__.get("_derived")
        if cache is None or cache[0] != key:
            cache = self._derived = (key, self._derive())
        return cache[1]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_derived", None)
        state.pop("_param_list", None)
        return state

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """Action logits ``(B, A)`` and state values ``(B,)``."""
        F = nn.functional
        wd = self._weights()
        obs = obs.float()
        b, d = obs.shape
        emb = self.card_embedding.embedding_dim
        hidden = self.block_q.out_features
        P, S = self.caps.max_permanents, self.caps.max_ability_slots
        game = _normalise(obs[:, :self.obs_layout.shapes["game"][0]], self.modes_game)
        # the present rows of every table, grouped by table: global row g of sample s. Only
        # present rows are encoded, so the cost follows the cards in play, not the capacities.
        present = obs.index_select(1, self.row_present_col) > 0.5
        g, s = present.t().nonzero().unbind(1)
        tab = self.row_table.index_select(0, g)
        counts = th.bincount(tab, minlength=len(TABLES)).tolist()
        at = (self.row_cols.index_select(0, g) + (s * d).unsqueeze(1))
        x = obs.reshape(-1).index_select(0, at.view(-1)).view(at.shape)
        ids = x[:, 0].round().long().clamp(min=0)
        ids = th.where(ids >= self.n_cards, th.full_like(ids, UNKNOWN_ID), ids)
        x[:, 0] = self.row_side.index_select(0, g)
        cut = 1 + self._n_log
        log = x[:, 1:cut]
        x[:, 1:cut] = th.sign(log) * th.log1p(th.abs(log))
        x[:, cut:cut + self._n_flag] = (x[:, cut:cut + self._n_flag] > 0).to(x.dtype)
        # row encoders: the card embedding's share of each table's first layer for all rows
        # at once (the embedding projected by every table's weights, looked up per row)
        h1 = wd["proj"].view(-1, hidden).index_select(0, ids * len(TABLES) + tab)
        parts = []
        for t, (name, xs) in enumerate(zip(TABLES, x.split(counts), strict=True)):
            m = self.encoders[name][0]
            h = F.linear(xs[:, :self._n_in[t]], wd["w1"][t], m.bias)
            if name == "stack":
                h = h + F.linear(self._targets(xs), m.weight[:, -self.target_encoder.out_features:])
            parts.append(h)
        h1 = th.relu(th.cat(parts) + h1)
        hp = th.relu(th.cat([self.encoders[name][2](h) for name, h
                             in zip(TABLES, h1.split(counts), strict=True)]))
        # pooling: masked mean and max per (sample, table, side); empty groups pool to 0
        groups = b * self._n_pools
        grp = s * self._n_pools + self.row_pool.index_select(0, g)
        total = hp.new_zeros(groups, hp.shape[1]).index_add_(0, grp, hp)
        n = th.bincount(grp, minlength=groups).to(hp.dtype).clamp(min=1).unsqueeze(-1)
        mx = hp.new_zeros(groups, hp.shape[1]).scatter_reduce_(
            0, grp.unsqueeze(-1).expand_as(hp), hp, "amax", include_self=True)
        pooled = th.cat([total / n, mx], dim=-1).view(b, -1)
        ctx = self.context(th.cat([self.game_encoder(game), pooled], dim=-1))
        # every linear map of the context in one matmul; the tanh heads' columns doubled
        # (exactly: a power of two), as they go through tanh(u) = 2 sigmoid(2u) - 1
        layers = self._ctx_layers()
        c_all = F.linear(ctx, *wd["ctx"])
        c = c_all.split([m.out_features for m in layers], dim=-1)
        n_rows = len(ROW_BANDS) + 1  # the row bands and the block bias
        c_ability, c_mode, c_x, c_assign, c_q, c_k = c[n_rows:n_rows + 6]
        scalars = dict(zip(SCALAR_BANDS, c[n_rows + 6:n_rows + 6 + len(SCALAR_BANDS)],
                           strict=True))
        c_name, c_value = c[-2], c[-1]
        # row heads: w . tanh(A row + B context); the permanents' rows also feed the block
        # bias, the ability head and the block's q/k, so theirs is one matmul
        heads = [self.row_heads[band] for band in ROW_BANDS]
        hps = hp.split(counts)
        rows_a = []
        for t, head in enumerate(heads):
            if t == self._perm:
                r_main, r_bias, r_ability, r_q, r_k = \
                    F.linear(hps[t], *wd["perm"]).split(hidden, dim=-1)
                rows_a.append(r_main)
            else:
                rows_a.append(head.row(hps[t]))
        p0 = sum(counts[:self._perm])
        g_p, s_p = g[p0:p0 + counts[self._perm]], s[p0:p0 + counts[self._perm]]
        r_p = g_p - self._perm_g0
        own = r_p < P
        own_i = own.nonzero().squeeze(1)
        r_own, s_own = r_p.index_select(0, own_i), s_p.index_select(0, own_i)
        # the block bias is read on the own rows only
        head_id = th.cat([tab, th.full_like(s_own, len(heads))])
        sample = th.cat([s, s_own])
        c_rows = c_all[:, :n_rows * hidden].reshape(-1, hidden)
        pre = th.add(c_rows.index_select(0, sample * n_rows + head_id),
                     th.cat([*rows_a, r_bias.index_select(0, own_i)]), alpha=2)
        w_out2, b_out2 = wd["out"]
        logit = (th.sigmoid(pre) @ w_out2.t()).gather(1, head_id.unsqueeze(1)).squeeze(1) \
            + b_out2.index_select(0, head_id)
        pos = th.cat([self.row_pos.index_select(0, g), r_own + self._block_bias_at]) \
            + sample * self._sparse
        # ability: own present permanents x ability slots; row(h + slot) = row(h) + W slot
        pre = th.add(wd["slots"].unsqueeze(0), (2 * r_ability.index_select(0, own_i)
                                                + c_ability.index_select(0, s_own)).unsqueeze(1))
        logit_a = _tanh_out(pre, *wd["ability"])
        pos_a = (s_own * self._sparse + self._ability_at + r_own * S).unsqueeze(1) \
            + self.ability_slot.unsqueeze(0)
        sparse = hp.new_zeros(b * self._sparse).index_copy_(
            0, th.cat([pos, pos_a.reshape(-1)]), th.cat([logit, logit_a.reshape(-1)])
        ).view(b, self._sparse)
        bands: dict[str, th.Tensor] = dict(scalars)
        at = 0
        for band, name in ROW_BANDS.items():
            rows = self.obs_layout.shapes[name][0]
            bands[band] = sparse[:, at:at + rows]
            at += rows
        bands["ability"] = sparse[:, self._ability_at:self._ability_at + P * S]
        # block: bilinear score of (own row, opponent row), both conditioned on the context:
        # q (own rows) and k (opponent rows) start as the context's share, present rows add
        # their own
        qk = th.stack([c_q, c_k], dim=1).unsqueeze(2).expand(b, 2, P, hidden)
        qk = qk.reshape(b * 2 * P, hidden).index_add_(
            0, s_p * 2 * P + r_p, th.where(own.unsqueeze(1), r_q, r_k))
        q, k = qk.view(b, 2, P, hidden).unbind(1)
        pair = th.bmm(q, k.transpose(1, 2)) / math.sqrt(hidden)  # (B, own P, opp P)
        bias = sparse[:, self._block_bias_at:self._block_bias_at + P]
        bands["block"] = (pair + bias.unsqueeze(2)).reshape(b, P * P)
        # heads over a fixed set of rows (mode slots, numbers): the rows' share computed once
        for band, cb in (("mode", c_mode), ("x", c_x), ("assign", c_assign)):
            rows, w2, b2 = wd[band]
            bands[band] = _tanh_out(th.add(cb.unsqueeze(1), rows, alpha=2), w2, b2)
        bands["card_name"] = c_name @ self.card_embedding.weight.t() / math.sqrt(emb)
        value = self.value_head[2](th.relu(c_value)).squeeze(-1)
        return th.cat([bands[name] for name, _ in self.act_layout.bands], dim=-1), value


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
        kwargs = dict(self.optimizer_kwargs)
        if "foreach" in inspect.signature(self.optimizer_class).parameters:
            # one multi-tensor step for the ~120 parameter tensors instead of a Python loop
            # over them (same numbers; torch picks it by default only on GPUs)
            kwargs.setdefault("foreach", True)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **kwargs)

    # sb3-contrib computes the next three from ``MaskableCategorical``, which masks, normalises
    # and samples in several passes over the 2,148 logits (its cost rivals the network's at the
    # batch sizes of acting); these compute the same from one ``log_softmax``.
    def _masked_log_probs(self, obs: th.Tensor, action_masks: Any
                          ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """``(log-probabilities, mask, values)``: the masked action distribution (illegal
        logits set to -1e8, as sb3-contrib masks them) and the critic's values."""
        features = self.extract_features(obs)
        n = self.features_extractor.net.n_actions
        logits, values = features[:, :n], features[:, n:]
        mask = th.as_tensor(action_masks, dtype=th.bool, device=logits.device).reshape(logits.shape)
        logp = th.log_softmax(th.where(mask, logits, logits.new_tensor(-1e8)), dim=-1)
        return logp, mask, values

    @staticmethod
    def _pick(logp: th.Tensor, deterministic: bool) -> th.Tensor:
        """The most likely action, or one drawn by ``torch.multinomial`` from the probabilities
        (as ``Categorical.sample`` draws it, so a torch seed gives the same actions)."""
        if deterministic:
            return logp.argmax(-1)
        return th.multinomial(logp.exp(), 1, True).squeeze(1)

    def forward(self, obs: th.Tensor, deterministic: bool = False,
                action_masks: Any = None) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """Actions, values and the actions' log-probabilities (PPO's rollout collection), as
        ``MaskableActorCriticPolicy.forward`` gives them."""
        if action_masks is None:
            return super().forward(obs, deterministic, action_masks)
        logp, _, values = self._masked_log_probs(obs, action_masks)
        actions = self._pick(logp, deterministic)
        return actions, values, logp.gather(1, actions.reshape(-1, 1)).squeeze(1)

    def _predict(self, observation: Any, deterministic: bool = False,
                 action_masks: Any = None) -> th.Tensor:
        """The actions ``predict`` returns (agents, evaluations), as sb3-contrib picks them."""
        if action_masks is None:
            return super()._predict(observation, deterministic, action_masks)
        return self._pick(self._masked_log_probs(observation, action_masks)[0], deterministic)

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor,
                         action_masks: Any = None) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """The value, the log-probability of ``actions`` and the entropy of the masked action
        distribution (PPO's update), as ``MaskableActorCriticPolicy.evaluate_actions`` computes
        them (entropy over the legal actions)."""
        if action_masks is None:
            return super().evaluate_actions(obs, actions, action_masks)
        logp, mask, values = self._masked_log_probs(obs, action_masks)
        log_prob = logp.gather(1, actions.long().reshape(-1, 1)).squeeze(1)
        # 0 on the illegal actions before exp: exp of -1e8 is slow on CPU (10x a normal exp)
        legal = th.where(mask, logp, logp.new_zeros(()))
        entropy = -(legal.exp() * legal).sum(-1)
        return values, log_prob, entropy

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
