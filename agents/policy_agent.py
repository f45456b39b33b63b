"""A trained policy checkpoint as an agent: ``make_agent("ppo:PATH")``, ``--agent ppo:PATH``.

:class:`PPOAgent` plays a policy saved with :func:`agents.checkpoint.save_checkpoint` (a
MaskablePPO zip with ``mtg_env`` metadata) in both of the agent entry points:

- ``act(view)``: the simulator and the CLI give it a redacted
  :class:`~mtg_env.engine.view.PlayerView`; it encodes the view with
  :meth:`mtg_env.encoding.Observer.observe_view` (exactly the env's observation and mask for
  that player), asks the policy for an index and returns the decision's option with that index's
  text;
- ``act_masked(observation, mask, ...)``: inside the env (an opponent of ``SingleAgentEnv``, an
  AEC loop) it reads the env's observation directly.

**Spec grammar.** ``ppo:PATH`` or ``ppo:path=PATH``, optionally followed by parameters
``:deterministic=0|1`` (default 1: the most likely legal action; 0 samples from the masked
policy with the agent's own per-game seed, so games stay reproducible), ``:device=cpu`` and
``:threads=N`` (torch threads per process, default 1). Everything after ``ppo:`` up to the first
trailing ``:key=value`` whose key is one of those parameters is the path, so a path may contain
``/``, ``.``, ``=`` and ``:`` (``ppo:C:\\runs\\a.zip:deterministic=0`` on Windows). A path can't
contain ``,`` on the command line (``--agent A,B`` separates two agents).

**Processes.** Building the agent only reads and checks the checkpoint's metadata (so a bad path
fails at once, in the parent process, with a :class:`~agents.checkpoint.CheckpointError`); the
model is loaded on the first decision, once per process and path (a process-wide cache), with
torch limited to ``threads`` threads. The simulator builds agents in worker processes and on Ray
from the spec string, so ``PATH`` must be readable there (an absolute path is resolved here,
before it is sent; on a cluster, put the file on shared storage).

**Two players only.** A checkpoint's network reads the two-player observation (its metadata's
layout signature is the two-player one: one opponent's block of rows and action slots); a
multiplayer table encodes one block per seat with per-seat columns the network has no weights
for. So these agents say ``multiplayer = False`` (the pod refuses them before a game) and
refuse a table of more than two players at their first decision with a ``ValueError`` naming
the reason (:func:`check_two_player`), instead of failing inside the encoder or playing from a
wrong encoding.

>>> parse_ppo_spec("results/run 1/best.zip:deterministic=0")
{'path': 'results/run 1/best.zip', 'deterministic': False}
>>> parse_ppo_spec(r"path=C:\\runs\\a.zip")
{'path': 'C:\\\\runs\\\\a.zip'}
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from mtg_env.encoding import CapacityError
from mtg_env.engine.actions import Action
from mtg_env.engine.view import PlayerView, sample_game

from .base import BaseAgent, LegalTexts, index_texts
from .checkpoint import check_compatible, load_checkpoint, read_meta
from .policy_value import PolicyValueNet, anchored_priors, heuristic_choice, shipped_path

__all__ = ["PPOAgent", "TrainedAgent", "check_two_player", "parse_ppo_spec"]


def _bool(value: str) -> bool:
    v = value.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected 0 or 1, got {value!r}")


def _threads(value: str) -> int:
    n = int(value)
    if n < 1:
        raise ValueError(f"threads must be at least 1, got {value!r}")
    return n


# key -> (constructor argument, parser); ``path`` is handled by :func:`parse_ppo_spec`.
_PARAMS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "deterministic": ("deterministic", _bool),
    "device": ("device", str),
    "threads": ("threads", _threads),
}


def parse_ppo_spec(rest: str) -> dict[str, Any]:
    """The keyword arguments of :class:`PPOAgent` from what follows ``ppo:`` in an agent spec
    (see the module docstring for the grammar). Raises ``ValueError`` for no path or a bad value.
    """
    parts = rest.split(":")
    kwargs: dict[str, Any] = {}
    while len(parts) > 1:
        key, sep, value = parts[-1].partition("=")
        if not sep or key not in _PARAMS:
            break
        attr, parse = _PARAMS[key]
        try:
            kwargs[attr] = parse(value)
        except ValueError as exc:
            raise ValueError(f"agent 'ppo': {key}: {exc}") from None
        parts.pop()
    path = ":".join(parts)
    if path.startswith("path="):
        path = path[len("path="):]
    if not path:
        raise ValueError("agent 'ppo' needs a checkpoint: ppo:PATH (parameters: "
                         + ", ".join(f"{k}=..." for k in _PARAMS) + ")")
    return {"path": path, **dict(reversed(list(kwargs.items())))}


def check_two_player(agent: object, view: PlayerView) -> None:
    """Raise ``ValueError`` unless ``view`` is of a two-player game: a network trained on the
    two-player observation can't read a multiplayer table's layout (see the module docstring).
    """
    if len(view.players) != 2:
        raise ValueError(
            f"{agent!r} plays two-player games only: its network was trained on the two-player "
            f"observation (one opponent's rows and action slots), and this is a {view.variant} "
            f"table of {len(view.players)} players; agents that play multiplayer tables: "
            "random, heuristic, mcts (without net=)")


# (absolute path, size, mtime, device) -> (model, meta): one load per process and file.
_MODELS: dict[tuple, tuple[Any, dict[str, Any]]] = {}


def _load(path: Path, device: str, threads: int) -> tuple[Any, dict[str, Any]]:
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns, device)
    hit = _MODELS.get(key)
    if hit is None:
        import torch

        torch.set_num_threads(threads)
        model, meta = load_checkpoint(path, device=device)
        model.policy.set_training_mode(False)
        hit = _MODELS[key] = (model, meta)
    return hit


class PPOAgent(BaseAgent):
    """A MaskablePPO checkpoint (:mod:`agents.checkpoint`) playing from views or observations.

    ``model`` is a checkpoint path or an already loaded model (then ``meta`` gives its
    capacities; the defaults otherwise). ``deterministic`` plays the most likely legal action;
    otherwise the action is sampled from the masked policy with the agent's per-game RNG.
    """

    name = "ppo"
    multiplayer = False  # the network reads the two-player observation: check_two_player
    PARAMS: ClassVar[dict[str, tuple[str, Callable[[str], Any]]]] = dict(_PARAMS)
    parse_spec = staticmethod(parse_ppo_spec)

    def __init__(self, model: Any = None, deterministic: bool = True, device: str = "cpu",
                 threads: int = 1, path: str | os.PathLike | None = None,
                 meta: dict[str, Any] | None = None) -> None:
        super().__init__()
        if path is None and isinstance(model, str | os.PathLike):
            path, model = model, None
        if path is None and model is None:
            raise ValueError("PPOAgent needs a checkpoint path or a model")
        self.deterministic = deterministic
        self.device = device
        self.threads = threads
        self.path: Path | None = None
        self._model = model
        if path is not None:
            self.path = Path(path).expanduser().resolve()
            meta = read_meta(self.path)  # a missing or foreign file fails here, not in a worker
            check_compatible(meta, self.path)
        self.meta: dict[str, Any] = meta or {}
        self._observer: Any = None
        self._grown: PolicyValueNet | None = None
        self._anchor: float | None = None

    # -- the policy ----------------------------------------------------------------------
    @property
    def model(self) -> Any:
        """The SB3 model (loaded on first use, shared by the agents of this process)."""
        if self._model is None:
            assert self.path is not None
            self._model, self.meta = _load(self.path, self.device, self.threads)
        return self._model

    @property
    def observer(self) -> Any:
        """The encoder of this agent's views (the checkpoint's capacities and observation form)."""
        if self._observer is None:
            from mtg_env.encoding import Capacities, Observer

            caps = self.meta.get("capacities")
            flat = not isinstance(self.meta.get("observation_shape"), dict)
            self._observer = Observer(Capacities(**caps) if caps else None, flatten=flat)
        return self._observer

    def choose(self, observation: Any, action_mask: Sequence[int]) -> int:
        """The policy's index for an observation and its mask."""
        mask = np.asarray(action_mask, dtype=bool)
        if not mask.any():
            raise ValueError("the action mask has no legal index")
        model = self.model
        if self.deterministic:
            action, _ = model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        import torch

        policy = model.policy
        obs_t, _ = policy.obs_to_tensor(observation)
        with torch.inference_mode():
            dist = policy.get_distribution(obs_t, action_masks=mask[None, :])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        legal = np.flatnonzero(probs > 0)
        if not len(legal):
            return int(np.flatnonzero(mask)[0])
        cum = np.cumsum(probs)
        i = int(np.searchsorted(cum, self.rng.random() * cum[-1], side="right"))
        return i if i < len(probs) and probs[i] > 0 else int(legal[-1])

    @property
    def grown(self) -> PolicyValueNet:
        """The policy's network for positions beyond its capacities (same weights, grown
        tables: :mod:`agents.policy_value`)."""
        if self._grown is None:
            self._grown = PolicyValueNet(self.model.policy.net, device=self.device, meta=self.meta)
        return self._grown

    # -- the two entry points --------------------------------------------------------------
    @property
    def anchor(self) -> float:
        """The heuristic choice's logit bonus the network was trained with (0: plays alone;
        :func:`agents.policy_value.anchored_priors`)."""
        if self._anchor is None:
            net = getattr(self.model.policy, "net", None)  # only the structured policy has one
            self._anchor = float(net.heuristic_anchor) if net is not None else 0.0
        return self._anchor

    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        check_two_player(self, view)
        if len(d.options) > 1 and self.anchor:
            return self._act_from_priors(view)
        try:
            observation, mask, texts = self.observer.observe_view(view)
        except CapacityError:
            return self._act_from_priors(view)
        index = self.choose(observation, mask)
        text = texts.get(index)
        action = d.find(text) if text is not None else None
        if action is None:
            raise ValueError(f"the policy chose index {index}, which is not an option of the "
                             f"{d.kind.value} decision")
        return action

    def _act_from_priors(self, view: PlayerView) -> Action:
        """A decision from the priors of :mod:`agents.policy_value` (a position larger than the
        checkpoint's capacities: the same network over grown tables; or an anchored network:
        the heuristic's choice's bonus added), the most likely option or one sampled."""
        d = view.decision
        assert d is not None
        (ev,) = self.grown.evaluate([(sample_game(view, 0), view.viewer)])
        priors = ev.priors
        if self.anchor:
            priors = anchored_priors(priors, heuristic_choice(view).text, self.anchor)
        texts = list(priors)
        if self.deterministic:
            text = max(texts, key=priors.__getitem__)
        else:
            weights = [priors[t] for t in texts]
            text = self.rng.choices(texts, weights)[0]
        return d.find(text)

    def act_masked(self, observation: Any, action_mask: Sequence[int],
                   legal_texts: LegalTexts | None = None, view: PlayerView | None = None) -> int:
        if view is not None:
            check_two_player(self, view)
        obs = observation["observation"] if isinstance(observation, dict) and \
            "observation" in observation else observation
        space = self.model.observation_space
        other_layout = len(action_mask) != int(self.model.action_space.n) or (
            isinstance(obs, np.ndarray) and space.shape is not None
            and obs.shape[-len(space.shape):] != space.shape)
        if other_layout or self.anchor:
            # An env with other capacities than the checkpoint's (a default changed since it
            # was trained), or an anchored network (it needs the heuristic's choice, which
            # only the view gives): decide from the view and map the choice back.
            if view is None or legal_texts is None:
                why = (f"was trained for another observation or action layout than the env's "
                       f"({len(action_mask)} actions; a multiplayer env's is one: these agents "
                       f"play two-player games only)" if other_layout else
                       "is anchored on the heuristic's choice, which needs the view")
                raise ValueError(
                    f"{self!r} {why}: pass view= and legal_texts=" + (
                        f", or make the env with the checkpoint's capacities "
                        f"{self.meta.get('capacities')}" if other_layout else ""))
            text = self.act(view).text
            for i, t in index_texts(action_mask, legal_texts).items():
                if t == text:
                    return i
            raise ValueError(f"{self!r} chose {text!r}, which is not among the env's legal actions")
        return self.choose(obs, action_mask)

    def __repr__(self) -> str:
        return f"PPOAgent({str(self.path) if self.path else 'model'!r})"


class TrainedAgent(PPOAgent):
    """The network shipped with the package, playing alone: ``make_agent("trained")``.

    The same as ``ppo:PATH`` on the shipped file (:data:`agents.policy_value.SHIPPED`;
    ``checkpoints/README.md`` says how it was trained and how it does); parameters
    ``deterministic``, ``device`` and ``threads`` as for ``ppo``.
    """

    name = "trained"
    PARAMS: ClassVar[dict[str, tuple[str, Callable[[str], Any]]]] = dict(_PARAMS)

    def __init__(self, deterministic: bool = True, device: str = "cpu", threads: int = 1) -> None:
        super().__init__(path=shipped_path(), deterministic=deterministic, device=device,
                         threads=threads)

    def __repr__(self) -> str:
        return "TrainedAgent()"
