"""Search guided by a policy-value network: Gumbel top-k with sequential halving at the
information-set root, determinized worlds, truncated heuristic rollouts scored by the network.

The search behind ``mcts:net=trained`` (:class:`agents.mcts.MctsAgent` with ``net``). For one
decision of the searching player:

1. **Prior.** The network reads the player's view (one determinization of it, which encodes to
   exactly the view: the observation holds only what the player may see) and gives a probability
   to every legal option and a value to the position.
2. **Candidates.** Bare mana abilities are left out when passing is possible (as in the plain
   search). Of the rest, the ``width`` options with the largest ``g + log prior`` are searched
   (``g`` Gumbel noise scaled by ``noise``: 0 when playing, 1 when generating training games, so
   exploration is sampled without replacement, as in Gumbel MuZero, Danihelka et al. 2022). The
   heuristic player's own choice is always among them. The prior may give that choice a share
   ``h_prior`` of its mass (the network's probabilities scaled by ``1 - h_prior``): the search
   then improves on a blend of the two players rather than on the network alone.
3. **Sequential halving** over the budget of worlds (determinizations, ``iterations``; or CPU
   ``ms``): ``ceil(log2 k)`` rounds; in each round every remaining candidate is played in the same
   freshly sampled worlds (:func:`~mtg_env.engine.view.sample_game`: the opponent's hand and
   both libraries resampled; common random numbers, as in the plain search), rolled out by the
   heuristic player for both seats for ``turns`` turn boundaries, and the leaf scored; then the
   better half by ``g + log prior + sigma(q)`` stays. One sampled world per candidate visit is
   perfect-information Monte Carlo (PIMC) at the root.
4. **Leaves** are scored ``mix * network value + (1 - mix) * evaluate`` (the hand-written
   :func:`agents.mcts.evaluate`); a finished game scores 1 / 0.5 / 0. The leaves of one round are
   evaluated in one batch: the search is a generator (:func:`search_steps`) that *yields* the
   positions it needs and receives their :class:`~agents.policy_value.Evaluation`, so a caller
   playing several games at once (expert iteration's self-play workers) merges the requests of
   all of its games into one forward pass.
5. **Choice and target.** The candidate with the largest ``g + log prior + sigma(q)`` among the
   last round's is played. The improved policy (the training target of expert iteration) is
   ``softmax(log prior + sigma(completed q))`` over every searched-for option, where an option
   that was not visited gets the root's value as its q (the "completed Q-values" of Gumbel MuZero:
   a Q-tilted target rather than visit counts). ``sigma(q) = (c_visit + max visits) * c_scale *
   q`` with q in [0, 1].
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from mtg_env.engine.actions import Action
from mtg_env.engine.game import Game
from mtg_env.engine.view import PlayerView, sample_game

if TYPE_CHECKING:
    from .policy_value import Evaluation

__all__ = ["C_VISIT", "Request", "SearchResult", "drive", "search_steps"]

T = TypeVar("T")
C_VISIT = 50.0
_CLOCK = time.process_time

Request = list[tuple[Game, int]]
"""Positions a search asks the network about: ``(game, player)`` pairs."""


@dataclass
class SearchResult:
    """What one guided search found."""

    choice: Action
    policy: dict[str, float] = field(default_factory=dict)
    """The improved policy over the options considered, by text (sums to 1)."""
    q: dict[str, float] = field(default_factory=dict)
    """Mean leaf score of each visited candidate, in [0, 1]."""
    visits: dict[str, int] = field(default_factory=dict)
    """Worlds each visited candidate was played in."""
    root_value: float = 0.5
    """The network's value of the root position."""
    worlds: int = 0
    """Sampled worlds (determinizations) used."""
    default: str = ""
    """The heuristic player's choice (the text of the option the search started from)."""


def drive(steps: Generator[Request, list[Evaluation], T],
          evaluate: Callable[[Request], list[Evaluation]]) -> T:
    """Run a search generator to its end, answering each request with ``evaluate``; its result."""
    try:
        request = next(steps)
        while True:
            request = steps.send(evaluate(request))
    except StopIteration as stop:
        return stop.value


def _sigma(q: float, max_visits: int, c_scale: float) -> float:
    return (C_VISIT + max_visits) * c_scale * q


def search_steps(view: PlayerView, candidates: Sequence[Action], default: Action, *,
                 rng: random.Random, advance: Callable[[Game, int], None],
                 static: Callable[[Game, int], float], iterations: int, ms: float, width: int,
                 mix: float, c_scale: float, noise: float, h_prior: float = 0.0,
                 anchor: float = 0.0) -> Generator[Request, list[Evaluation], SearchResult]:
    """The guided search of one decision as a generator (see the module docstring).

    ``candidates``: the options worth searching (at least two; ``default``, the heuristic's
    choice, among them). ``advance(game, seed)`` plays a rollout on in place; ``static(game,
    player)`` is the hand-written leaf score. ``h_prior`` is the weight of the heuristic's choice
    in the prior: ``(1 - h_prior) * network + h_prior * [option is default]``; ``anchor`` the
    network's own bonus for it (:func:`~agents.policy_value.anchored_priors`), applied first.
    Yields lists of positions, receives their evaluations, returns a :class:`SearchResult`.
    """
    from .policy_value import anchored_priors

    me = view.viewer
    root = sample_game(view, rng.getrandbits(63))
    (root_eval,) = yield [(root, me)]
    priors = anchored_priors(root_eval.priors, default.text, anchor)
    texts = [o.text for o in candidates]
    logit = {t: math.log(max((1.0 - h_prior) * priors.get(t, 0.0)
                             + (h_prior if t == default.text else 0.0), 1e-12)) for t in texts}
    gumbel = {t: (noise * -math.log(-math.log(max(rng.random(), 1e-300))) if noise > 0 else 0.0)
              for t in texts}
    k = min(width, len(candidates))
    ranked = sorted(candidates, key=lambda o: -(gumbel[o.text] + logit[o.text]))
    chosen = ranked[:k]
    if default not in chosen:
        chosen[-1] = default
    total = [0.0] * len(candidates)
    visits = [0] * len(candidates)
    index = {o.text: i for i, o in enumerate(candidates)}

    def score(o: Action) -> float:
        i = index[o.text]
        q = total[i] / visits[i] if visits[i] else root_eval.value
        return gumbel[o.text] + logit[o.text] + _sigma(q, max(visits), c_scale)

    remaining = list(chosen)
    rounds = max(1, math.ceil(math.log2(len(remaining)))) if len(remaining) > 1 else 1
    worlds = 0
    start = _CLOCK()
    for r in range(rounds):
        if ms > 0:
            deadline = start + ms / 1000.0 * (r + 1) / rounds
            more = lambda n, deadline=deadline: n < 1 or _CLOCK() < deadline  # noqa: E731
        else:
            quota = max(1, (iterations - worlds) // (rounds - r))
            more = lambda n, quota=quota: n < quota  # noqa: E731
        leaves: list[tuple[Game, int]] = []
        pending: list[tuple[int, float]] = []  # (candidate index, static score) per leaf
        n = 0
        while more(n):
            seed = rng.getrandbits(63)
            base = sample_game(view, seed)
            for o in remaining:
                game = base.copy()
                game.apply(game.decision.find(o.text))
                advance(game, seed)
                i = index[o.text]
                visits[i] += 1
                if game.is_over:
                    total[i] += 0.5 if game.winner is None else float(game.winner == me)
                else:
                    leaves.append((game, me))
                    pending.append((i, static(game, me)))
            n += 1
        worlds += n
        if leaves:
            evals = yield leaves
            for (i, s), ev in zip(pending, evals, strict=True):
                total[i] += mix * ev.value + (1.0 - mix) * s
        if r < rounds - 1:
            remaining.sort(key=lambda o: -score(o))
            remaining = remaining[:max(1, math.ceil(len(remaining) / 2))]
    choice = max(remaining, key=score)
    max_n = max(visits)
    q = {o.text: total[i] / visits[i] for o, i in ((o, index[o.text]) for o in candidates) if visits[i]}
    tilted = {t: logit[t] + _sigma(q.get(t, root_eval.value), max_n, c_scale) for t in texts}
    top = max(tilted.values())
    z = {t: math.exp(v - top) for t, v in tilted.items()}
    s = sum(z.values())
    return SearchResult(choice, {t: v / s for t, v in z.items()}, q,
                        {o.text: visits[index[o.text]] for o in candidates if visits[index[o.text]]},
                        root_eval.value, worlds, default.text)
