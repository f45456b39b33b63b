"""The policy-value network as search and play use it: priors over a decision's options and a
value of the position, for any game state, batched.

:class:`PolicyValueNet` wraps a frozen :class:`~agents.policy_net.MtgNet` (a checkpoint's or one
being trained) and answers :meth:`~PolicyValueNet.evaluate` for a list of ``(game, player)``
positions with one forward pass per capacity tier: for each position, the network's
probabilities over the legal options of ``player``'s pending decision (by option text; empty when
``player`` does not decide) and its value of the position for ``player``, mapped to ``[0, 1]`` (a
win 1, a loss 0). A position is encoded from ``player``'s side only (the observation reads what
that player may see), so evaluating a determinized game is fair.

**Any number of objects.** The observation tables have fixed capacities (``max_permanents=32``
and so on), but the network's parameters do not depend on them: every row of a table goes
through the same row encoder and row head (see :mod:`agents.policy_net`). So a position that
needs more slots than the network was trained with is encoded with *grown* capacities (the
failing key doubled, or raised to what is needed) and evaluated by a copy of the network built for
them with the same weights: nothing is dropped, and no
:class:`~mtg_env.encoding.CapacityError` reaches the caller. The cost per position stays that of
the rows present (the forward pass encodes present rows only); only the block band grows with
the square of ``max_permanents``. Grown tiers are built on first need and kept.

**Where the weights come from.** :meth:`PolicyValueNet.load` reads a checkpoint file (the
MaskablePPO zips of :mod:`agents.checkpoint`, which ``ppo:PATH`` also plays) or the name
``trained``: the network shipped with the package (:data:`SHIPPED`). ``device="auto"`` picks
CUDA when torch sees a GPU and the CPU otherwise.

**Anchored on the heuristic.** A network trained with a ``heuristic_anchor`` (expert iteration's
``anchor``, :mod:`agents.expert_iteration`) plays ``softmax(logits + anchor * [option is the
heuristic player's choice])``: it learns where to depart from the scripted player rather than
everything the scripted player already does. :func:`anchored_priors` applies the bonus to
:attr:`Evaluation.priors`; :func:`heuristic_choice` is the choice it goes to. The anchor is 0 in
networks trained without one, which then play alone.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from mtg_env.encoding import Capacities, CapacityError, Observer
from mtg_env.engine.actions import Action
from mtg_env.engine.game import Game
from mtg_env.engine.view import PlayerView

__all__ = ["SHIPPED", "Evaluation", "PolicyValueNet", "anchored_priors", "grow", "heuristic_choice",
           "resolve_device", "shipped_path"]

SHIPPED = Path(__file__).with_name("data") / "trained.zip"
"""The shipped network (``trained``): see ``checkpoints/README.md`` for how it was made."""

_MAX_GROW = 8  # tiers tried for one position before giving up (each at least doubles a key)


class Evaluation(NamedTuple):
    """The network's answer for one position."""

    priors: dict[str, float]
    """Probability of each legal option of the player's decision, by option text ({} when the
    player does not decide)."""
    value: float
    """The position's value for the player, in [0, 1] (1: a sure win)."""


def resolve_device(device: str = "auto") -> str:
    """``"auto"`` -> ``"cuda"`` when torch sees a GPU, else ``"cpu"``; other names unchanged."""
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def shipped_path() -> Path:
    """The shipped network's file; a clear error when the package was installed without it."""
    if not SHIPPED.is_file():
        raise FileNotFoundError(f"the shipped network {SHIPPED} is missing from this install "
                                "(reinstall mtg_env, or pass a checkpoint path)")
    return SHIPPED


def grow(caps: Capacities, exc: CapacityError) -> Capacities:
    """``caps`` with the key ``exc`` names raised to at least twice its value and what is needed."""
    return dataclasses.replace(caps, **{exc.key: max(2 * exc.limit, exc.needed)})


class _Tier:
    """One set of capacities: its observer and a network with the base network's weights."""

    __slots__ = ("caps", "net", "observer")

    def __init__(self, caps: Capacities, net: Any) -> None:
        self.caps = caps
        self.net = net
        self.observer = Observer(caps, flatten=True)


class PolicyValueNet:
    """A frozen structured network answering priors and values for batches of positions.

    ``net`` is an :class:`~agents.policy_net.MtgNet`; the wrapper does not train it. After its
    weights change (a training step), call :meth:`refresh` so grown tiers copy them again.
    """

    def __init__(self, net: Any, device: str = "cpu", meta: Mapping[str, Any] | None = None) -> None:
        import torch

        self.device = resolve_device(device)
        self.torch = torch
        self.net = net.to(self.device).eval()
        self.meta: dict[str, Any] = dict(meta or {})
        self.net_kwargs = {"embed": net.card_embedding.embedding_dim, "d_row": net.block_q.in_features,
                           "d_ctx": net.context[0].out_features, "hidden": net.block_q.out_features}
        self.tiers: list[_Tier] = [_Tier(net.caps, self.net)]
        self.positions = 0  # positions evaluated
        self.batches = 0  # forward passes run

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def load(cls, source: str | os.PathLike = "trained", device: str = "auto",
             threads: int | None = None) -> PolicyValueNet:
        """The network of a checkpoint file, or of ``"trained"`` (the shipped one).

        Raises :class:`~agents.checkpoint.CheckpointError` (a ``ValueError``) for a missing or
        mismatching file."""
        from .checkpoint import load_checkpoint

        path = shipped_path() if str(source) == "trained" else Path(source).expanduser()
        if threads is not None:
            import torch

            torch.set_num_threads(threads)
        model, meta = load_checkpoint(path, device=resolve_device(device))
        return cls(model.policy.net, device=device, meta=meta)

    @classmethod
    def from_state(cls, state_dict: Mapping[str, Any], capacities: Mapping[str, int] | None = None,
                   net_kwargs: Mapping[str, int] | None = None, device: str = "cpu") -> PolicyValueNet:
        """A network of sizes ``net_kwargs`` and ``capacities`` with the weights ``state_dict``."""
        from .policy_net import MtgNet

        net = MtgNet(Capacities(**dict(capacities or {})), **dict(net_kwargs or {}))
        net.load_state_dict(dict(state_dict))
        return cls(net, device=device)

    @property
    def anchor(self) -> float:
        """The heuristic choice's logit bonus this network was trained with (0: none)."""
        return float(self.net.heuristic_anchor)

    @property
    def caps(self) -> Capacities:
        """The capacities the network was built (and trained) for."""
        return self.tiers[0].caps

    def refresh(self) -> None:
        """Forget the grown tiers (they copy the base weights when built again)."""
        del self.tiers[1:]

    def _tier(self, caps: Capacities) -> _Tier:
        for tier in self.tiers:
            if tier.caps == caps:
                return tier
        from .policy_net import MtgNet

        net = MtgNet(caps, **self.net_kwargs)
        net.load_state_dict(self.net.state_dict())
        tier = _Tier(caps, net.to(self.device).eval())
        self.tiers.append(tier)
        return tier

    # -- encoding ----------------------------------------------------------------------------
    def encode(self, game: Game, player: int) -> tuple[int, np.ndarray, dict[int, Action]]:
        """``(tier, observation, {index: legal action})`` of ``player``'s view of ``game``: the
        base tier (0) when the position fits the network's capacities, else the first grown tier
        it fits (built if needed). The legal actions are ``player``'s ({} if not deciding)."""
        caps = self.caps
        for _ in range(_MAX_GROW):
            tier_i = self._covering(caps)
            tier = self.tiers[tier_i]
            try:
                obs, _mask = tier.observer.observe(game, player)
            except CapacityError as exc:
                caps = _merge(caps, grow(tier.caps, exc))
                continue
            d = game.decision
            legal = tier.observer.legal(game) if d is not None and d.player == player else {}
            return tier_i, obs, legal
        raise RuntimeError(f"a position still overflows after {_MAX_GROW} capacity growths "
                           f"({self.tiers[-1].caps})")

    def _covering(self, caps: Capacities) -> int:
        """The first tier at least as large as ``caps`` in every key (built if there is none)."""
        for i, tier in enumerate(self.tiers):
            if self._covers(tier.caps, caps):
                return i
        self._tier(caps)
        return len(self.tiers) - 1

    @staticmethod
    def _covers(big: Capacities, small: Capacities) -> bool:
        return all(getattr(big, f.name) >= getattr(small, f.name) for f in dataclasses.fields(big))

    # -- evaluation --------------------------------------------------------------------------
    def forward(self, tier: int, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Raw logits ``(B, A)`` and values ``(B,)`` (the network's units) of a batch of one tier."""
        torch = self.torch
        with torch.inference_mode():
            x = torch.as_tensor(observations, device=self.device)
            logits, values = self.tiers[tier].net(x)
        self.batches += 1
        return logits.float().cpu().numpy(), values.float().cpu().numpy()

    def evaluate(self, positions: Sequence[tuple[Game, int]]) -> list[Evaluation]:
        """Priors and value of each ``(game, player)`` position, batched by capacity tier."""
        encoded = [self.encode(game, player) for game, player in positions]
        out: list[Evaluation | None] = [None] * len(encoded)
        for t in sorted({e[0] for e in encoded}):
            rows = [i for i, e in enumerate(encoded) if e[0] == t]
            logits, values = self.forward(t, np.stack([encoded[i][1] for i in rows]))
            for j, i in enumerate(rows):
                legal = encoded[i][2]
                out[i] = Evaluation(_softmax_over(logits[j], legal), _to_unit(float(values[j])))
        self.positions += len(encoded)
        return out  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"PolicyValueNet({self.meta.get('source', 'net')!r}, device={self.device!r})"


def heuristic_choice(view: PlayerView) -> Action:
    """The scripted player's (:class:`agents.heuristic.HeuristicAgent`, deterministic) choice of
    the view's pending decision."""
    from .heuristic import HeuristicAgent

    agent = HeuristicAgent()
    agent.reset(view.viewer, 0)
    return agent.act(view)


def anchored_priors(priors: Mapping[str, float], choice: str, anchor: float) -> Mapping[str, float]:
    """``priors`` with the option ``choice`` given ``anchor`` more logit (renormalised): the
    policy of a network trained anchored on the heuristic's choice. ``priors`` itself when
    ``anchor`` is 0 or ``choice`` is not an option."""
    p = priors.get(choice)
    if not anchor or p is None:
        return priors
    boost = math.exp(anchor)
    total = 1.0 + p * (boost - 1.0)
    return {t: (q * boost if t == choice else q) / total for t, q in priors.items()}


def _merge(a: Capacities, b: Capacities) -> Capacities:
    """The capacities covering both ``a`` and ``b`` (the larger value of every key)."""
    return Capacities(**{f.name: max(getattr(a, f.name), getattr(b, f.name))
                         for f in dataclasses.fields(a)})


def _softmax_over(logits: np.ndarray, legal: Mapping[int, Action]) -> dict[str, float]:
    """The softmax of the legal indices' logits, by option text."""
    if not legal:
        return {}
    idx = np.fromiter(legal, np.int64, len(legal))
    z = logits[idx].astype(np.float64)
    z = np.exp(z - z.max())
    z /= z.sum()
    return {a.text: float(p) for a, p in zip(legal.values(), z, strict=True)}


def _to_unit(v: float) -> float:
    """A value in the network's units (the discounted return, +1 a win, -1 a loss) -> [0, 1]."""
    if not math.isfinite(v):
        return 0.5
    return min(1.0, max(0.0, 0.5 * (v + 1.0)))
