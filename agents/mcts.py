"""Search: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Each iteration samples a full game consistent with what the searching player can see
(:func:`mtg_env.engine.view.sample_game`: the opponent's hand and both libraries' order are
resampled; deck lists count as known) and walks one tree with it (Cowling, Powley and Whitehouse
2012, "Information Set Monte Carlo Tree Search", SO-ISMCTS):

- A node is a sequence of decisions' action texts from the root, the same node for every
  determinization that reaches it, so the tree collects statistics over the information set, not
  over one guessed deal. Options that exist in some determinizations only (the opponent's spells,
  cards drawn) are handled by *availability counts*: UCB divides by how often a child was
  available, not by its parent's visits.
- The opponent's decisions are nodes of the same tree, chosen by UCB on the opponent's own reward
  (1 - ours). That is the single-observer variant: the opponent is modelled as if it saw the
  determinized state. We use it because it needs one tree and the opponent's hidden cards are
  resampled per iteration anyway; multiple-observer ISMCTS would need a second tree per
  iteration for a gain that Cowling et al. find small in games with little hidden information
  per move (here: the opponent's hand).
- Decisions with one option are free: the walk steps through them without a node.
- Expansion adds one node per iteration; progressive widening limits a node to
  ``widen_base + widen_rate * sqrt(visits)`` children (candidates ordered by a cheap prior:
  lands and spells first, then attacks and blocks, bare mana abilities last), so wide
  declarations (attackers, blockers, damage division) do not starve the search.
- Rollouts are played by :class:`~agents.heuristic.HeuristicAgent` for both seats (``rollout=
  "heuristic"``, the default: each option is then judged by how a sensible continuation goes) or
  by the much cheaper :func:`rollout_choice` (``rollout="fast"``), for at most ``depth``
  decisions, then a static evaluation (:func:`evaluate`: life, board, cards in hand) in [0, 1]; a
  finished game scores 1 / 0.5 / 0. With heuristic rollouts the heuristic's own choice is also
  the first child expanded at every node (an action prior).

Budget: ``ms`` (milliseconds of CPU per decision with several options) or ``iterations``; the
default is a time budget. The most visited root option is played. The tree is rebuilt for every
decision: reusing the subtree needs the texts of every decision taken since, including the
opponent's hidden choices, which a :class:`~mtg_env.engine.view.PlayerView` does not carry.

By name: ``make_agent("mcts")``, ``make_agent("mcts:ms=200")``, ``make_agent("mcts:iters=300")``.

>>> from mtg_env import Deck, Game
>>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=2)
>>> agent = MctsAgent(iterations=8, depth=20)
>>> agent.reset(g.decision.player, seed=1)
>>> agent.act(g.view(g.decision.player)).text in ("keep", "mulligan")
True
"""

from __future__ import annotations

import math
import random
import time
from typing import ClassVar

from mtg_env.engine.actions import Action
from mtg_env.engine.game import Game
from mtg_env.engine.view import PlayerView, sample_game

from .base import BaseAgent
from .heuristic import HeuristicAgent

__all__ = ["MctsAgent", "evaluate", "rollout_choice"]

_CLOCK = time.process_time


class _Node:
    """Statistics of one action taken at one information-set node, and its children."""

    __slots__ = ("avail", "children", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0  # summed reward of the player who chose this action
        self.avail = 0
        self.children: dict[str, _Node] = {}


class MctsAgent(BaseAgent):
    """SO-ISMCTS with availability counts, progressive widening and evaluated rollouts (see the
    module docstring). ``ms`` > 0 sets a CPU-time budget per decision; otherwise ``iterations``
    iterations are run."""

    name = "mcts"
    # make_agent("mcts:ms=200:depth=30"): text key -> (constructor argument, type)
    PARAMS: ClassVar[dict[str, tuple[str, type]]] = {
        "ms": ("ms", float), "iters": ("iterations", int), "depth": ("depth", int),
        "c": ("exploration", float), "widen": ("widen_base", int), "rollout": ("rollout", str)}

    def __init__(self, seed: int = 0, iterations: int = 200, depth: int = 40,
                 exploration: float = 0.7, ms: float = 0.0, widen_base: int = 4,
                 widen_rate: float = 1.0, rollout: str = "heuristic") -> None:
        super().__init__(seed)
        if iterations < 1 or depth < 0 or ms < 0 or exploration < 0:
            raise ValueError("MctsAgent needs iterations >= 1, depth >= 0, ms >= 0, exploration >= 0")
        if rollout not in ("heuristic", "fast"):
            raise ValueError(f"rollout must be 'heuristic' or 'fast', not {rollout!r}")
        self.rollout = rollout
        self._policies = [HeuristicAgent(), HeuristicAgent()]
        self.iterations = iterations
        self.depth = depth
        self.exploration = exploration
        self.ms = ms
        self.widen_base = widen_base
        self.widen_rate = widen_rate
        self.last_iterations = 0  # iterations run for the latest decision (for benchmarks)

    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        options = d.options
        if len(options) == 1:
            return options[0]
        root = _Node()
        me = view.viewer
        for seat, policy in enumerate(self._policies):
            policy.reset(seat, self.rng.getrandbits(32))
        deadline = _CLOCK() + self.ms / 1000.0 if self.ms > 0 else None
        it = 0
        while True:
            if deadline is not None:
                if it >= len(options) and _CLOCK() >= deadline:
                    break
            elif it >= self.iterations:
                break
            self._iterate(sample_game(view, self.rng.getrandbits(63)), root, me)
            it += 1
        self.last_iterations = it
        by_text = {o.text: o for o in options}
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return by_text[best[0]]

    def _iterate(self, game: Game, root: _Node, me: int) -> None:
        """One determinization walked down the tree: select by UCB over available children,
        expand one node, roll out, back the reward up (each node scored for its chooser)."""
        node = root
        path: list[tuple[_Node, int]] = []  # (action node, player who chose it)
        k = self.exploration
        while not game.is_over:
            d = game.decision
            opts = d.options
            if len(opts) == 1:
                game.apply(opts[0])
                continue
            children = node.children
            avail: list[tuple[_Node, Action]] = []
            untried: list[Action] = []
            for o in opts:
                c = children.get(o.text)
                if c is None:
                    untried.append(o)
                else:
                    c.avail += 1
                    avail.append((c, o))
            limit = self.widen_base + int(self.widen_rate * math.sqrt(node.visits))
            expand = bool(untried) and (len(children) < limit or not avail)
            if expand:
                o = self._expand_pick(game, untried)
                c = children[o.text] = _Node()
                c.avail = 1
            else:
                c, o = max(avail, key=lambda co: co[0].value / co[0].visits
                           + k * math.sqrt(math.log(co[0].avail) / co[0].visits))
            path.append((c, d.player))
            game.apply(o)
            node = c
            if expand:
                break
        reward = self._rollout(game, me)
        root.visits += 1
        for c, pl in path:
            c.visits += 1
            c.value += reward if pl == me else 1.0 - reward

    def _expand_pick(self, game: Game, untried: list[Action]) -> Action:
        if self.rollout == "heuristic":
            d = game.decision
            choice = self._policies[d.player].act(game.view(d.player))
            for o in untried:
                if o.text == choice.text:
                    return o
        return _prior_pick(untried, self.rng)

    def _rollout(self, game: Game, me: int) -> float:
        rng = self.rng
        heuristic = self.rollout == "heuristic"
        policies = self._policies
        for _ in range(self.depth):
            if game.is_over:
                break
            d = game.decision
            if len(d.options) == 1:
                game.apply(d.options[0])
            elif heuristic:
                game.apply(policies[d.player].act(game.view(d.player)))
            else:
                game.apply(rollout_choice(d.options, rng))
        if game.is_over:
            return 0.5 if game.winner is None else float(game.winner == me)
        return evaluate(game, me)


_PRIOR = {"play": 0, "attack": 1, "block": 1, "activate": 2, "target": 2, "keep": 0}


def _prior_pick(options: list[Action], rng: random.Random) -> Action:
    """The next option to expand: the best prior class (lands and spells, then attacks and
    blocks, then the rest, bare mana abilities last), ties broken at random."""
    best = min(_PRIOR.get(o.verb, 3 if o.verb != "mana" else 9) for o in options)
    pool = [o for o in options if _PRIOR.get(o.verb, 3 if o.verb != "mana" else 9) == best]
    return pool[rng.randrange(len(pool))]


def rollout_choice(options, rng: random.Random):
    """The rollout policy: cheap and a little purposeful. Play lands and spells when possible,
    attack with most creatures, never float mana by hand; otherwise uniform."""
    plays = [o for o in options if o.verb == "play"]
    if plays:
        return plays[rng.randrange(len(plays))]
    attacks = [o for o in options if o.verb == "attack"]
    if attacks and rng.random() < 0.8:
        return attacks[rng.randrange(len(attacks))]
    useful = [o for o in options if o.verb not in ("mana", "play", "attack")]
    if not useful:
        useful = [o for o in options if o.verb != "mana"] or list(options)
    return useful[rng.randrange(len(useful))]


def evaluate(game: Game, me: int) -> float:
    """A static estimate in [0, 1] of ``me``'s chances: life, creatures' power and toughness,
    and cards in hand (public counts only)."""
    score = 0.0
    for p in game.permanents:
        sign = 1.0 if p.controller == me else -1.0
        if p.is_creature:
            score += sign * (1.5 * max(p.power, 0) + 0.5 * max(p.toughness, 0))
        elif not p.is_land:
            score += sign * 1.0
    mine, theirs = game.players[me], game.players[1 - me]
    score += 0.6 * (mine.life - theirs.life) + 0.8 * (len(mine.hand) - len(theirs.hand))
    return 1.0 / (1.0 + math.exp(-score / 8.0))
