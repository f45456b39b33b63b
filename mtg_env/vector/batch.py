"""The core of the vector envs: a batch of games written into caller-owned arrays.

:class:`GameBatch` steps ``n`` games for one learner seat each, plays the opponent's decisions
(batched when the opponent is a batch policy; drawn per episode from an :class:`OpponentMix`),
resets finished games at once and writes every learner observation and action mask into rows of
arrays it is given. The in-process vector env
owns those arrays; each worker of the multi-process one writes into its slice of shared memory.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mtg_env.encoding import CapacityError
from mtg_env.engine.actions import Action
from mtg_env.engine.errors import IllegalActionError
from mtg_env.env.aec import AGENTS, MtgEnv
from mtg_env.env.single import opponent_from_spec


@runtime_checkable
class BatchPolicy(Protocol):
    """An opponent that decides for several games at once (e.g. a frozen copy of the learner
    for self-play): ``act_batch(observations (k, D) float32, masks (k, A) bool) -> (k,) ints``."""

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> Sequence[int]: ...


Opponent = str | Callable[[np.ndarray, np.ndarray], int] | BatchPolicy | Any


def check_config(config: dict[str, Any]) -> dict[str, Any]:
    """The env config of every game of a vector env: flat observations are required, and an
    illegal action raises (``illegal_action="raise"``, the only mode a vector env takes).

    The vector envs exist to train masked policies (``MaskablePPO``, self-play pools), which
    never choose a forbidden index: one that does has a bug (a mask read from the wrong row, a
    network built for other capacities), and a training run should stop at it rather than go
    on learning from forfeited games. So every learner action is checked against its mask
    before any game moves, and an opponent's illegal choice raises too. For the PettingZoo
    convention (the mover loses), use ``SingleAgentEnv`` or the AEC env."""
    if config.get("flatten", True) is not True:
        raise ValueError("vector envs need flat observations: leave flatten=True")
    if config.get("num_players", 2) != 2:
        raise ValueError(f"vector envs play two-player games (a learner against one opponent), "
                         f"got num_players={config['num_players']!r}; use the AEC env "
                         "(mtg_env.env(num_players=...)) for multiplayer games")
    if "render_mode" in config and config["render_mode"] is not None:
        raise ValueError("vector envs don't render; use SingleAgentEnv or the AEC env to watch a game")
    if config.get("illegal_action", "raise") != "raise":
        raise ValueError(f"vector envs raise IllegalActionError for an illegal action (they train "
                         f"masked policies), so illegal_action must be 'raise', got "
                         f"{config['illegal_action']!r}; SingleAgentEnv and the AEC env take 'loss'")
    return {**config, "flatten": True, "illegal_action": "raise"}


class OpponentMix:
    """Opponents drawn per episode: ``members`` (name -> anything a :class:`GameBatch` takes as
    its opponent) and their sampling ``weights`` (name -> weight >= 0; default uniform; names
    left out are not drawn). Each game draws its opponent when it starts, from its own RNG, and
    keeps it to the end of the episode. Members must be picklable for the multi-process env."""

    def __init__(self, members: Mapping[str, Opponent],
                 weights: Mapping[str, float] | None = None) -> None:
        if not members:
            raise ValueError("an opponent mix needs at least one member")
        self.members = dict(members)
        self.weights = check_weights(weights if weights is not None
                                     else dict.fromkeys(self.members, 1.0), self.members)

    def __repr__(self) -> str:
        return f"OpponentMix({self.weights!r})"


def check_weights(weights: Mapping[str, float], members: Mapping[str, Any]) -> dict[str, float]:
    """``weights`` as floats, or ``ValueError`` for an unknown name, a negative or non-finite
    weight, or no positive weight at all."""
    out = {}
    for name, w in weights.items():
        if name not in members:
            raise ValueError(f"weight for unknown opponent {name!r}; members: {', '.join(members)}")
        w = float(w)
        if not (w >= 0.0 and np.isfinite(w)):
            raise ValueError(f"opponent {name!r}: weight must be finite and >= 0, got {w!r}")
        out[name] = w
    if not any(w > 0 for w in out.values()):
        raise ValueError("at least one opponent needs a positive weight")
    return out


RANDOM, AGENT, POLICY, BATCH = "random", "agent", "policy", "batch"


class _Member:
    """One opponent of the batch: how it decides, and how many games are playing it."""

    __slots__ = ("kind", "name", "opponent", "retired", "template", "users")

    def __init__(self, name: str, opponent: Opponent) -> None:
        self.name = name
        self.opponent = opponent
        self.retired = False
        self.users = 0
        self.template = None
        if isinstance(opponent, BatchPolicy) and not isinstance(opponent, str):
            self.kind = BATCH
        elif isinstance(opponent, str) and opponent == "random":
            self.kind = RANDOM
        else:
            self.template = _agent(opponent)
            if self.template is not None:
                self.kind = AGENT
            elif callable(opponent):
                self.kind = POLICY
            else:
                raise TypeError(f"opponent {opponent!r} is neither 'random', an agent, a policy "
                                "nor a batch policy")


def _name(opponent: Opponent) -> str:
    if isinstance(opponent, str):
        return opponent
    return str(getattr(opponent, "name", None) or type(opponent).__name__)


class _Overflow:
    """Catches a :class:`CapacityError` into ``slot.overflow`` (the game is then truncated)."""

    __slots__ = ("slot",)

    def __init__(self, slot: _Slot) -> None:
        self.slot = slot

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        if isinstance(exc, CapacityError):
            self.slot.overflow = exc
            return True
        return False


class _Slot:
    """One game of the batch and what belongs to it."""

    __slots__ = ("agents", "env", "length", "opponent", "overflow", "ret", "rng", "seat")

    def __init__(self, env: MtgEnv, rng: np.random.Generator) -> None:
        self.env = env
        self.rng = rng
        self.seat = 0
        self.opponent: str | None = None  # the member this episode is played against
        self.agents: dict[str, Any] = {}  # this game's copy of each agent member it has met
        self.ret = 0.0
        self.length = 0
        self.overflow: CapacityError | None = None  # why the game no longer fits the capacities

    @property
    def agent(self) -> Any:
        """This game's copy of the agent it is playing (None if the opponent is no agent)."""
        return self.agents.get(self.opponent) if self.opponent is not None else None


class GameBatch:
    """``len(seeds)`` games against ``opponent``, writing into ``obs`` (n, D) and ``mask`` (n, A).

    ``opponent``: ``"random"`` (uniform over the legal actions), an agent name of the ``agents``
    package or an agent object (one copy per game), a policy ``(observation, mask) -> index``, a
    :class:`BatchPolicy`, or an :class:`OpponentMix` of those, drawn per episode. Every game
    remembers its opponent for the episode (:meth:`opponents`, and ``"opponent"`` in the final
    info); the games waiting for the same batch policy are decided in one ``act_batch`` call.
    ``learner_seat``: 0, 1 or None (random per episode). Each game draws its randomness (seed,
    seat, opponent) from its own ``numpy.random.SeedSequence``, so a game's course depends only
    on its seed, not on how games are split over processes.

    ``capacity_overflow``: what happens to a game whose state outgrows the observation's
    capacities (a :class:`~mtg_env.encoding.CapacityError`, e.g. a stack deeper than
    ``max_stack``). ``"truncate"`` (the default) ends that episode as truncated, with
    ``"end_reason": "capacity"`` and the error's text as ``"capacity_error"`` in its final info
    and the last observation the learner saw as its final observation, and starts the next game,
    so one rare position does not stop a long training run; ``"raise"`` raises the error.
    """

    def __init__(self, seeds: Sequence[np.random.SeedSequence], opponent: Opponent,
                 learner_seat: int | None, config: dict[str, Any], obs: np.ndarray,
                 mask: np.ndarray, capacity_overflow: str = "truncate") -> None:
        if learner_seat not in (None, 0, 1):
            raise ValueError(f"learner_seat must be 0, 1 or None, got {learner_seat!r}")
        self.truncate_overflow = check_overflow(capacity_overflow) == "truncate"
        self.learner_seat = learner_seat
        self.obs = obs
        self.mask = mask
        self._members: dict[str, _Member] = {}
        if isinstance(opponent, OpponentMix):
            self._mixed = True
            for name, opp in opponent.members.items():
                self._members[name] = _Member(name, opp)
            self._set_weights(opponent.weights)
        else:
            self._mixed = False
            name = _name(opponent)
            self._members[name] = _Member(name, opponent)
            self._set_weights({name: 1.0})
        self.slots = [_Slot(MtgEnv(**config), np.random.default_rng(s)) for s in seeds]
        self._scratch_obs: np.ndarray | None = None
        self._scratch_mask: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.slots)

    # -- opponents ----------------------------------------------------------------------
    def opponents(self) -> list[str | None]:
        """The opponent (member name) of each game's current episode."""
        return [s.opponent for s in self.slots]

    def weights(self) -> dict[str, float]:
        """The sampling weights of the members new episodes are drawn from."""
        return dict(zip(self._draw_names, self._draw_weights, strict=True))

    def set_opponents(self, weights: Mapping[str, float],
                      add: Mapping[str, Opponent] | None = None) -> None:
        """From the next episode on, draw each game's opponent with ``weights`` (name ->
        weight), after adding the members ``add``. A member left out of ``weights`` is no longer
        drawn and is dropped once no game plays it; running episodes keep their opponent."""
        members = {**{n: m for n, m in self._members.items() if not m.retired}, **(add or {})}
        check_weights(weights, members)
        for name in add or {}:
            if name in self._members:  # a retired one may still be playing: names stay unique
                raise ValueError(f"opponent {name!r} is already a member")
        for name, opp in (add or {}).items():
            self._members[name] = _Member(name, opp)
        self._mixed = True
        self._set_weights(weights)
        for name, member in list(self._members.items()):
            if name not in weights:
                member.retired = True
                self._drop_if_unused(member)

    def _set_weights(self, weights: Mapping[str, float]) -> None:
        names = [n for n, w in weights.items() if w > 0]
        self._draw_names = names
        self._draw_weights = [float(weights[n]) for n in names]
        self._draw_cum = np.cumsum(self._draw_weights)

    def _drop_if_unused(self, member: _Member) -> None:
        if member.retired and member.users == 0 and self._members.get(member.name) is member:
            del self._members[member.name]
            for slot in self.slots:
                slot.agents.pop(member.name, None)

    def _draw(self, slot: _Slot) -> str:
        if not self._mixed:
            return self._draw_names[0]
        u = slot.rng.random() * self._draw_cum[-1]
        k = int(np.searchsorted(self._draw_cum, u, side="right"))
        return self._draw_names[min(k, len(self._draw_names) - 1)]

    # -- episodes -----------------------------------------------------------------------
    def reset_all(self, seeds: Sequence[np.random.SeedSequence] | None = None) -> None:
        """Start a new game in every slot (reseeding the slots first when ``seeds`` is given)."""
        if seeds is not None:
            for slot, s in zip(self.slots, seeds, strict=True):
                slot.rng = np.random.default_rng(s)
        for i in range(len(self.slots)):
            self._new_game(i)
        self._play_opponents(list(range(len(self.slots))), None)
        for i, slot in enumerate(self.slots):
            if slot.overflow is not None:
                raise slot.overflow  # a new game can't fit: the capacities are too small
            self._write(i)

    def step(self, actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
             truncated: np.ndarray) -> list[tuple[int, np.ndarray, dict[str, Any]]]:
        """Apply one learner action per game, let the opponents answer, and reset the games
        that ended. Returns ``(slot, final observation, final info)`` of each ended game; the
        rows of ``obs``/``mask`` then hold the new game's first observation."""
        self.check_actions(actions)
        rewards[:] = 0.0
        for i, slot in enumerate(self.slots):
            env = slot.env
            with self._guard(slot):
                env.step(int(actions[i]))
            rewards[i] = env.rewards[AGENTS[slot.seat]]
            slot.length += 1
        self._play_opponents(list(range(len(self.slots))), rewards)
        finals = []
        for i, slot in enumerate(self.slots):
            if slot.overflow is None:
                with self._guard(slot):
                    self._write(i)
            env = slot.env
            me = AGENTS[slot.seat]
            slot.ret += float(rewards[i])
            if slot.overflow is not None:
                terminated[i], truncated[i] = False, True
                finals.append((i, self.obs[i].copy(), {
                    "winner": -1, "end_reason": "capacity", "capacity_error": str(slot.overflow),
                    "seat": slot.seat, "decks": env.deck_names, "return": slot.ret,
                    "length": slot.length, "opponent": slot.opponent}))
                self._restart(i)
                continue
            terminated[i] = env.terminations[me]
            truncated[i] = env.truncations[me]
            if terminated[i] or truncated[i]:
                final = self.obs[i].copy()  # _write above encoded the last position
                g = env.game
                finals.append((i, final, {
                    "winner": -1 if g.winner is None else int(g.winner),
                    "end_reason": g.end_reason, "seat": slot.seat, "decks": env.deck_names,
                    "return": slot.ret, "length": slot.length, "opponent": slot.opponent}))
                self._restart(i)
        return finals

    def _guard(self, slot: _Slot) -> Any:
        """A context that records a :class:`CapacityError` in ``slot`` (truncating its game)
        instead of raising it, with ``capacity_overflow="truncate"``."""
        return _Overflow(slot) if self.truncate_overflow else contextlib.nullcontext()

    def _restart(self, i: int) -> None:
        """Start the next game of slot ``i`` and write its first observation (a new game that
        outgrows the capacities at once raises: the capacities are too small for any game)."""
        self._new_game(i)
        self._play_opponents([i], None)
        overflow = self.slots[i].overflow
        if overflow is not None:
            raise overflow
        self._write(i)

    def check_actions(self, actions: np.ndarray) -> None:
        """Raise :class:`IllegalActionError` (before any game moves) if an action is not legal
        in its game."""
        check_actions(actions, self.mask)

    # -- internals ----------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        slot = self.slots[i]
        slot.env.reset(seed=int(slot.rng.integers(0, 2**63 - 1)))
        slot.seat = (int(slot.rng.integers(2)) if self.learner_seat is None
                     else self.learner_seat)
        slot.ret = 0.0
        slot.length = 0
        slot.overflow = None
        if slot.opponent is not None:
            old = self._members[slot.opponent]
            old.users -= 1
            self._drop_if_unused(old)
        name = self._draw(slot)
        member = self._members[name]
        member.users += 1
        slot.opponent = name
        if member.kind == AGENT:
            agent = slot.agents.get(name)
            if agent is None:
                agent = slot.agents[name] = copy.deepcopy(member.template)
            if hasattr(agent, "reset"):
                agent.reset(1 - slot.seat, int(slot.rng.integers(0, 2**31 - 1)))

    def _write(self, i: int) -> None:
        slot = self.slots[i]
        slot.env.observer.observe_into(slot.env.game, slot.seat, self.obs[i], self.mask[i])

    def _waiting(self, i: int) -> bool:
        slot = self.slots[i]
        env = slot.env
        return (slot.overflow is None and not env.game.is_over
                and env.agent_selection != AGENTS[slot.seat])

    def _play_opponents(self, pending: list[int], rewards: np.ndarray | None) -> None:
        """Let the opponents decide until every game of ``pending`` waits for its learner or
        is over; the learner's rewards meanwhile are added to ``rewards``."""
        pending = [i for i in pending if self._waiting(i)]
        while pending:
            for i, a in zip(pending, self._opponent_actions(pending), strict=True):
                slot = self.slots[i]
                if a is None:  # its position no longer fits the capacities
                    continue
                with self._guard(slot):
                    if isinstance(a, Action):
                        slot.env.apply_option(a)
                    else:
                        slot.env.step(int(a))
                if rewards is not None:
                    rewards[i] += slot.env.rewards[AGENTS[slot.seat]]
            pending = [i for i in pending if self._waiting(i)]

    def _opponent_actions(self, pending: list[int]) -> list[int | Action | None]:
        """The opponents' choices in the games ``pending`` (None for a game whose position
        outgrew the capacities while it was encoded)."""
        out: list[int | Action | None] = [None] * len(pending)
        batched: dict[str, list[int]] = {}  # batch-policy member -> positions in pending
        for pos, i in enumerate(pending):
            slot = self.slots[i]
            member = self._members[slot.opponent]  # type: ignore[index]
            kind = member.kind
            if kind == BATCH:
                batched.setdefault(member.name, []).append(pos)
                continue
            env = slot.env
            if kind == RANDOM:  # uniform over the options is uniform over the legal indices
                options = env.game.decision.options
                out[pos] = options[int(slot.rng.integers(len(options)))]
                continue
            with self._guard(slot):
                o = env.observe(AGENTS[1 - slot.seat])
                if kind == AGENT:
                    from mtg_env.engine.view import view_for

                    texts = {j: a.text for j, a in env.observer.legal(env.game).items()}
                    out[pos] = slot.agents[member.name].act_masked(
                        o["observation"], o["action_mask"], texts,
                        view=view_for(env.game, 1 - slot.seat))
                else:
                    out[pos] = member.opponent(o["observation"], o["action_mask"])
        for name, positions in batched.items():
            if self._scratch_obs is None:
                self._scratch_obs = np.empty((len(self.slots), self.obs.shape[1]), np.float32)
                self._scratch_mask = np.empty((len(self.slots), self.mask.shape[1]), np.bool_)
            fit = []
            for pos in positions:
                slot = self.slots[pending[pos]]
                row = len(fit)
                with self._guard(slot):
                    slot.env.observer.observe_into(slot.env.game, 1 - slot.seat,
                                                   self._scratch_obs[row],  # type: ignore[index]
                                                   self._scratch_mask[row])  # type: ignore[index]
                    fit.append(pos)
            if not fit:
                continue
            k = len(fit)
            o, m = self._scratch_obs[:k], self._scratch_mask[:k]  # type: ignore[index]
            for pos, a in zip(fit, self._members[name].opponent.act_batch(o, m), strict=True):
                out[pos] = int(a)
        return out


def check_overflow(capacity_overflow: str) -> str:
    """Validate a vector env's ``capacity_overflow`` ("truncate" or "raise")."""
    if capacity_overflow not in ("truncate", "raise"):
        raise ValueError(f"capacity_overflow must be 'truncate' or 'raise', got "
                         f"{capacity_overflow!r}")
    return capacity_overflow


def check_actions(actions: np.ndarray, mask: np.ndarray) -> None:
    """Raise :class:`IllegalActionError` unless ``actions`` holds one legal index per row of
    ``mask`` (checked before any game moves, so a refused step changes nothing)."""
    n, size = mask.shape
    if np.shape(actions) != (n,):
        raise IllegalActionError(f"expected {n} actions (one per game), got shape "
                                 f"{np.shape(actions)}")
    for i in range(n):
        a = actions[i]
        if not (0 <= a < size) or a != int(a) or not mask[i, int(a)]:
            legal = ", ".join(str(j) for j in np.flatnonzero(mask[i]))
            raise IllegalActionError(f"game {i}: action {a!r} is not legal; legal indices: {legal}")


def reset_seeds(venv: Any, seed: int | None,
                options: dict[str, Any] | None) -> list[np.random.SeedSequence] | None:
    """The per-game seeds of a vector env's ``reset`` (None: continue each game's RNG); the
    first reset without a seed uses the constructor's."""
    if options:
        raise ValueError(f"{type(venv).__name__}.reset takes no options; set decks in the config")
    if seed is None and not venv._started:
        seed = venv._seed
    venv._started = True
    return None if seed is None else np.random.SeedSequence(seed).spawn(venv.num_envs)


def _agent(opponent: Opponent) -> Any:
    """The agent object to copy per game, or None when ``opponent`` is not an agent."""
    if isinstance(opponent, str):
        if opponent == "random":
            return None
        return opponent_from_spec(opponent)
    return opponent if hasattr(opponent, "act_masked") else None


__all__ = ["BatchPolicy", "GameBatch", "Opponent", "OpponentMix", "check_actions", "check_config",
           "check_overflow", "check_weights", "reset_seeds"]
