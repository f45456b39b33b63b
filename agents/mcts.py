"""A search baseline: determinized Monte Carlo tree search at the root (PIMC with UCB1).

For each iteration the agent samples a full game consistent with what it can see
(:func:`mtg_env.engine.view.sample_game`: the opponent's hand and both libraries' order are
resampled, deck lists count as known), picks a root option by UCB1, applies it and plays the
game on for at most ``depth`` decisions with a fast rollout policy (:func:`rollout_choice`:
lands, spells and attacks preferred, never a bare mana ability, which under the 2007 rules would
mostly burn the rollout player). A finished rollout scores 1 / 0.5 / 0 for a win / draw / loss;
a cut-off one scores by a static evaluation of life and board. The most visited option is
played.

It is a baseline for what search buys over the scripted :class:`~agents.heuristic.HeuristicAgent`
at a given budget, not a strong player: ``iterations`` and ``depth`` trade speed for strength.

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

from mtg_env.engine.actions import Action
from mtg_env.engine.game import Game
from mtg_env.engine.view import PlayerView, sample_game

from .base import BaseAgent

__all__ = ["MctsAgent"]


class MctsAgent(BaseAgent):
    """Determinized root-UCB Monte Carlo search (see the module docstring)."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 48, depth: int = 60,
                 exploration: float = 1.0) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.depth = depth
        self.exploration = exploration

    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        options = d.options
        if len(options) == 1:
            return options[0]
        n = len(options)
        visits = [0] * n
        value = [0.0] * n
        me = view.viewer
        for it in range(max(self.iterations, n)):
            if it < n:
                i = it  # every option once first
            else:
                logt = math.log(it)
                i = max(range(n), key=lambda k: value[k] / visits[k]
                        + self.exploration * math.sqrt(logt / visits[k]))
            game = sample_game(view, self.rng.getrandbits(63))
            game.apply(options[i].text)
            visits[i] += 1
            value[i] += self._rollout(game, me)
        best = max(range(n), key=lambda k: (visits[k], value[k] / visits[k]))
        return options[best]

    def _rollout(self, game: Game, me: int) -> float:
        rng = self.rng
        for _ in range(self.depth):
            if game.is_over:
                break
            game.apply(rollout_choice(game.decision.options, rng))
        if game.is_over:
            return 0.5 if game.winner is None else float(game.winner == me)
        return evaluate(game, me)


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
