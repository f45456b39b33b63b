"""Search: information-set Monte Carlo tree search (ISMCTS) with heuristic rollouts.

Every iteration samples a full game consistent with what the searching player can see
(:func:`mtg_env.engine.view.sample_game`: the opponent's hand and both libraries' order are
resampled; deck lists count as known), so the statistics are gathered over the information set,
not over one guessed deal (Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree
Search"). Two tree shapes share that machinery:

- ``tree=0`` (the default): **the information-set root only** (flat Monte Carlo). One iteration
  is one determinization in which *every* candidate option is played and rolled out from the same
  sampled deal, with the rollout players' random seeds equal too (common random numbers): the
  candidates are compared on identical futures, which removes most of the variance a handful of
  samples would otherwise carry. The opponent is modelled by the rollout policy, the heuristic
  player, in the rollouts themselves. The option with the best total is played; the heuristic's
  own choice is kept unless another option scores strictly better, so search only overrides the
  script where the samples say it is wrong (a one-step policy improvement over the heuristic).
- ``tree=1``: **single-observer ISMCTS** (SO-ISMCTS). A node is a sequence of action texts from
  the root, the same node for every determinization that reaches it. Options that exist in some
  determinizations only are handled by availability counts (UCB divides by how often a child was
  available). The opponent's decisions are nodes of the same tree, chosen by UCB on the
  opponent's reward (1 - ours): the single-observer variant, which needs one tree; the
  opponent's hidden cards are resampled per iteration anyway, and multiple-observer ISMCTS would
  need a tree per player for little gain when the hidden information is one hand. Progressive
  widening limits a node to ``widen_base + widen_rate * sqrt(visits)`` children, the heuristic's
  choice expanded first.

Both: decisions with one option are free, and bare mana abilities are not searched when passing
is possible (the automatic payer taps for spells; mana floated by hand only risks mana burn,
2007 CR 300.3); at most ``width`` candidates are searched (the heuristic's choice first). A
rollout is played by :class:`~agents.heuristic.HeuristicAgent` for every seat (``rollout=
"heuristic"``) or by the cheap :func:`rollout_choice` (``rollout="fast"``), until ``turns`` turn
boundaries have passed or ``depth`` decisions were made, then scored by :func:`evaluate`
(life, board, cards in hand, in [0, 1]); a finished game scores 1 / 0.5 / 0.

**Tables of more players** (Free-for-All of 3 to 6, the team variants Two-Headed Giant and
Emperor; ``multiplayer = True``): the same two searches with one value per seat, each player
maximising their own (max^n: in the root search only the searcher's value is read; in the tree
each chooser's node keeps the chooser's value; teammates share their team's value). :func:`sample_table`
resamples the hidden cards of *every* other seat, teammates included (their hands are hidden
too), from the cards' ids in a fixed order, so a sampled world depends only on what the
searcher can see and the seed. Rollouts are played by a heuristic player at every seat. A
finished game scores 1 for its winners (a whole team in the team variants), 0 for the others, a
draw an equal share to the teams still in the game; :func:`seat_values` scores an unfinished
one: each team's strength (the same life, board and hand terms as :func:`evaluate`, a Two-Headed
Giant team's shared life counted once) turned into shares by a softmax over the teams still in
the game, ``exp(S_t / 8) / sum_u exp(S_u / 8)``. That is the two-player formula for two teams
(``sigmoid((S_me - S_opp) / 8)``), an even ``1 / N`` at an even table, and it rewards hurting
any opponent (the strongest most) and knocking one out (their share goes to the rest). The
network-guided search (``net=``) stays two-player: its network reads the two-player observation.

Budget per decision with several candidates: ``iterations`` (default; reproducible, so results
do not depend on the machine) or ``ms`` CPU milliseconds (at least one iteration). The tree is
rebuilt for every decision: reusing a subtree needs the texts of every decision taken since,
including the opponent's hidden choices, which a :class:`~mtg_env.engine.view.PlayerView` does
not carry. Measured strength and cost: ``docs/search.md``.

By name: ``make_agent("mcts")``, ``make_agent("mcts:ms=200")``, ``make_agent("mcts:iters=12")``,
``make_agent("mcts:tree=1:iters=300")``.

>>> from mtg_env import Deck, Game
>>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=2)
>>> agent = MctsAgent(iterations=2)
>>> agent.reset(g.decision.player, seed=1)
>>> agent.act(g.view(g.decision.player)).text in ("keep", "mulligan")
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from mtg_env.engine.actions import Action, DecisionKind
from mtg_env.engine.frames_choice import ChooseFrame
from mtg_env.engine.game import Game
from mtg_env.engine.knowledge import known_cards
from mtg_env.engine.seating import players_in_game, team_of, teams, winners
from mtg_env.engine.view import PlayerView, sample_game

from .base import BaseAgent
from .guided_search import Request, SearchResult, drive, search_steps
from .heuristic import HeuristicAgent
from .policy_value import PolicyValueNet

if TYPE_CHECKING:
    from .policy_value import Evaluation

__all__ = ["MctsAgent", "evaluate", "rollout_choice", "sample_table", "seat_values"]

_CLOCK = time.process_time
_PRIORITY = DecisionKind.PRIORITY
_SCORED = ("play", "activate")  # the priority verbs HeuristicAgent considers besides passing


class _Node:
    """Statistics of one action taken at one information-set node, and its children."""

    __slots__ = ("avail", "children", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0  # summed reward of the player who chose this action
        self.avail = 0
        self.children: dict[str, _Node] = {}


class MctsAgent(BaseAgent):
    """Information-set Monte Carlo search with heuristic rollouts (see the module docstring).

    ``iterations`` determinizations per decision (default 6; 8 with a network), or a CPU-time
    budget of ``ms`` milliseconds when ``ms`` > 0; ``tree`` picks the root-only search (0) or
    SO-ISMCTS (1). With ``net`` (a checkpoint path, ``"trained"`` or a
    :class:`~agents.policy_value.PolicyValueNet`) the root search is guided by the network
    (:mod:`agents.guided_search`): ``mix``, ``c_scale``, ``noise`` and ``h_prior`` (the
    heuristic's share of the prior, default 0.5 with a network) are its settings, ``device``
    the network's torch device. ``value_net`` (``vnet=PATH``) takes the leaves' network value
    from another checkpoint, such as the leaf-value network of :mod:`agents.value_training`,
    while ``net`` still gives the prior. ``strict`` lets an error of the heuristic players it
    consults and rolls out with propagate (tests; see :class:`~agents.heuristic.HeuristicAgent`).

    It plays a table of any size (``multiplayer``), except with a network: the network reads
    the two-player observation, so a search with ``net`` refuses a multiplayer table at its
    first decision (``ValueError``) and says ``multiplayer = False``.
    """

    name = "mcts"
    multiplayer = True  # max^n over one value per seat; False on an instance with a network
    # make_agent("mcts:ms=200:turns=3"): text key -> (constructor argument, type)
    PARAMS: ClassVar[dict[str, tuple[str, type]]] = {
        "ms": ("ms", float), "iters": ("iterations", int), "turns": ("turns", int),
        "depth": ("depth", int), "c": ("exploration", float), "widen": ("widen_base", int),
        "width": ("width", int), "rollout": ("rollout", str), "tree": ("tree", int),
        "net": ("net", str), "mix": ("mix", float), "cscale": ("c_scale", float),
        "noise": ("noise", float), "hprior": ("h_prior", float), "device": ("device", str),
        "vnet": ("value_net", str)}

    def __init__(self, seed: int = 0, iterations: int | None = None, depth: int = 400, turns: int = 2,
                 exploration: float = 0.7, ms: float = 0.0, widen_base: int = 4,
                 widen_rate: float = 1.0, width: int = 8, rollout: str = "heuristic",
                 tree: int = 0, net: str | PolicyValueNet = "", mix: float = 0.5,
                 c_scale: float = 1.0, noise: float = 0.0, h_prior: float | None = None,
                 device: str = "cpu", value_net: str = "", strict: bool = False) -> None:
        super().__init__(seed)
        if iterations is None:
            iterations = 8 if net else 6
        if h_prior is None:
            h_prior = 0.5 if net else 0.0
        if iterations < 1 or depth < 0 or turns < 0 or ms < 0 or exploration < 0 or width < 1:
            raise ValueError("MctsAgent needs iterations >= 1, depth >= 0, turns >= 0, ms >= 0, "
                             "exploration >= 0, width >= 1")
        if not 0.0 <= mix <= 1.0 or c_scale < 0 or noise < 0 or not 0.0 <= h_prior <= 1.0:
            raise ValueError("MctsAgent needs 0 <= mix <= 1, cscale >= 0, noise >= 0 and "
                             "0 <= hprior <= 1")
        if net and tree != 0:
            raise ValueError("the network-guided search is a root search: use tree=0 with net=")
        self.net = net
        self.multiplayer = not net
        self.strict = strict
        self.mix = mix
        self.c_scale = c_scale
        self.noise = noise
        self.h_prior = h_prior
        self.device = device
        self._evaluator: PolicyValueNet | _ValueBlend | None = (
            net if isinstance(net, PolicyValueNet) else None)
        if isinstance(net, str) and net and net != "trained":
            from .checkpoint import check_compatible, read_meta

            path = Path(net).expanduser().resolve()
            check_compatible(read_meta(path), path)  # a bad path fails here, not in a worker
            self.net = str(path)
        self.value_net = value_net
        if value_net and not net:
            raise ValueError("vnet= scores the leaves of the network-guided search: give net= too")
        if value_net and value_net != "trained":
            from .checkpoint import check_compatible, read_meta

            vpath = Path(value_net).expanduser().resolve()
            check_compatible(read_meta(vpath), vpath)
            self.value_net = str(vpath)
        self.last_search: SearchResult | None = None  # the latest guided search (net= only)
        if rollout not in ("heuristic", "fast"):
            raise ValueError(f"rollout must be 'heuristic' or 'fast', not {rollout!r}")
        if tree not in (0, 1):
            raise ValueError(f"tree must be 0 (root only) or 1 (SO-ISMCTS), not {tree!r}")
        self.rollout = rollout
        self.iterations = iterations
        self.depth = depth
        self.turns = turns
        self.exploration = exploration
        self.ms = ms
        self.widen_base = widen_base
        self.widen_rate = widen_rate
        self.width = width
        self.tree = tree
        self.last_iterations = 0  # iterations run for the latest searched decision
        self.searched = 0  # decisions searched since reset (more than one candidate)
        self.overridden = 0  # of those, decisions where search chose against the heuristic
        self.rollouts = 0  # rollouts played since reset
        self.last_scores: dict[str, float] = {}  # latest search: mean score of each candidate

    def reset(self, player: int, seed: int) -> None:
        super().reset(player, seed)
        self.searched = self.overridden = self.rollouts = 0

    @property
    def evaluator(self) -> PolicyValueNet | _ValueBlend:
        """The guiding network (loaded on first use, once per process and source)."""
        if self._evaluator is None:
            if not self.net:
                raise ValueError("this search has no network (make it with net=trained or net=PATH)")
            self._evaluator = _load_net(str(self.net), self.device)
            if self.value_net:
                self._evaluator = _ValueBlend(self._evaluator,
                                              _load_net(self.value_net, self.device))
        return self._evaluator

    def act(self, view: PlayerView) -> Action:
        if self.net:
            self._check_two_player(view)  # before the network is loaded
            return drive(self.act_steps(view), self.evaluator.evaluate)
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        if len(d.options) == 1:
            return d.options[0]
        default = self._heuristic(view.viewer).act(view)
        candidates = self._candidates(d.options, default)
        if len(candidates) == 1:
            return candidates[0]
        self.searched += 1
        search = self._search_root if self.tree == 0 else self._search_tree
        choice = search(view, candidates, default)
        self.overridden += choice.text != default.text
        return choice

    def act_steps(self, view: PlayerView) -> Generator[Request, list[Evaluation], Action]:
        """The network-guided decision as a generator (:mod:`agents.guided_search`): yields the
        positions it wants evaluated, receives their evaluations, returns the action.
        ``last_search`` holds the search's result afterwards (None when nothing was searched)."""
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        self._check_two_player(view)
        self.last_search = None
        if len(d.options) == 1:
            return d.options[0]
        default = self._heuristic(view.viewer).act(view)
        can_pass = any(o.verb == "pass" for o in d.options)
        candidates = [default, *(o for o in d.options
                                 if o is not default and not (can_pass and o.verb == "mana"))]
        if len(candidates) == 1:
            return default
        self.searched += 1
        result = yield from search_steps(
            view, candidates, default, rng=self.rng, advance=self._advance, static=evaluate,
            iterations=self.iterations, ms=self.ms, width=self.width, mix=self.mix,
            c_scale=self.c_scale, noise=self.noise, h_prior=self.h_prior,
            anchor=self.evaluator.anchor)
        self.last_search = result
        self.last_iterations = result.worlds
        self.overridden += result.choice.text != default.text
        return result.choice

    def _check_two_player(self, view: PlayerView) -> None:
        """The network-guided search refuses a multiplayer table (``ValueError``)."""
        if len(view.players) != 2:
            raise ValueError(
                f"the network-guided search (net={self.net}) plays two-player games only: its "
                f"network reads the two-player observation, and this is a {view.variant} table "
                f"of {len(view.players)} players (use mcts without net=)")

    def _heuristic(self, seat: int) -> HeuristicAgent:
        agent = HeuristicAgent(strict=self.strict)
        agent.reset(seat, self.rng.getrandbits(32))
        return agent

    def _candidates(self, options: list[Action], default: Action) -> list[Action]:
        """The options worth searching: no bare mana ability when passing is possible, at most
        ``width`` of them, the heuristic's choice first."""
        can_pass = any(o.verb == "pass" for o in options)
        pool = [o for o in options if o is not default and not (can_pass and o.verb == "mana")]
        pool.sort(key=lambda o: _PRIOR.get(o.verb, 3 if o.verb != "mana" else 9))
        return [default, *pool[:self.width - 1]]

    def _budget(self):
        """A function telling, given the iterations run so far, whether to run another."""
        if self.ms > 0:
            deadline = _CLOCK() + self.ms / 1000.0
            return lambda it: it < 1 or _CLOCK() < deadline
        n = self.iterations
        return lambda it: it < n

    # -- root only: every candidate on the same determinizations --------------------------------
    def _search_root(self, view: PlayerView, candidates: list[Action], default: Action) -> Action:
        me = view.viewer
        totals = [0.0] * len(candidates)
        more = self._budget()
        it = 0
        while more(it):
            seed = self.rng.getrandbits(63)
            base = sample_table(view, seed)
            for i, o in enumerate(candidates):
                game = base.copy()
                game.apply(game.decision.find(o.text))
                totals[i] += self._rollout(game, me, seed)
            it += 1
        self.last_iterations = it
        self.last_scores = {o.text: t / it for o, t in zip(candidates, totals, strict=True)}
        best = max(range(len(candidates)), key=totals.__getitem__)  # first of equals: default
        return candidates[best]

    # -- SO-ISMCTS --------------------------------------------------------------------------------
    def _search_tree(self, view: PlayerView, candidates: list[Action], default: Action) -> Action:
        root = _Node()
        me = view.viewer
        allowed = {o.text for o in candidates}
        more = self._budget()
        it = 0
        while more(it) or it < len(candidates):
            seed = self.rng.getrandbits(63)
            self._iterate(sample_table(view, seed), root, me, allowed, seed)
            it += 1
        self.last_iterations = it
        self.last_scores = {t: c.value / c.visits for t, c in root.children.items() if c.visits}
        by_text = {o.text: o for o in candidates}
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        return by_text[best[0]]

    def _iterate(self, game: Game, root: _Node, me: int, allowed: set[str], seed: int) -> None:
        """One determinization walked down the tree: select by UCB over available children,
        expand one node, roll out, back the reward up (each node scored for its chooser)."""
        node = root
        path: list[tuple[_Node, int]] = []  # (action node, player who chose it)
        k = self.exploration
        policies = self._policies(len(game.players), seed)
        while not game.is_over:
            d = game.decision
            opts = d.options
            if len(opts) == 1:
                game.apply(opts[0])
                continue
            if node is root:
                opts = [o for o in opts if o.text in allowed]
            else:
                can_pass = any(o.verb == "pass" for o in opts)
                opts = [o for o in opts if not (can_pass and o.verb == "mana")]
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
                o = self._expand_pick(game, untried, policies)
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
        root.visits += 1
        if len(game.players) == 2:
            reward = self._rollout(game, me, seed)
            for c, pl in path:
                c.visits += 1
                c.value += reward if pl == me else 1.0 - reward
            return
        self._advance(game, seed)
        values = seat_values(game)  # max^n: each chooser's node keeps the chooser's value
        for c, pl in path:
            c.visits += 1
            c.value += values[pl]

    def _expand_pick(self, game: Game, untried: list[Action], policies: list[HeuristicAgent]) -> Action:
        if self.rollout == "heuristic":
            d = game.decision
            choice = policies[d.player].act(game.view(d.player))
            for o in untried:
                if o.text == choice.text:
                    return o
        return _prior_pick(untried, self.rng)

    # -- rollouts ---------------------------------------------------------------------------------
    def _policies(self, seats: int, seed: int) -> list[HeuristicAgent]:
        """A heuristic player for every seat, seat ``s`` seeded ``seed + s`` (the same future
        choices for every candidate rolled out from one determinization)."""
        policies = [HeuristicAgent(strict=self.strict) for _ in range(seats)]
        for seat, policy in enumerate(policies):
            policy.reset(seat, seed + seat)
        return policies

    def _rollout(self, game: Game, me: int, seed: int) -> float:
        """Play on (:meth:`_advance`), then score ``me``: a finished game 1 / 0.5 / 0 (two
        players) or by :func:`seat_values` (more), else :func:`evaluate`."""
        self._advance(game, seed)
        if game.is_over:
            return _final(game, me) if len(game.players) == 2 else seat_values(game)[me]
        return evaluate(game, me)

    def _advance(self, game: Game, seed: int) -> None:
        """Play on until ``turns`` turn boundaries pass (or ``depth`` decisions).

        The rollout players are new for every rollout and seeded by the determinization, so two
        candidates rolled out from the same sampled deal meet the same future choices."""
        self.rollouts += 1
        end_turn = game.turn + self.turns
        if self.rollout == "heuristic":
            policies = self._policies(len(game.players), seed)
        rng = random.Random(seed)
        for _ in range(self.depth):
            if game.is_over or game.turn >= end_turn:
                break
            d = game.decision
            if len(d.options) == 1:
                game.apply(d.options[0])
            elif self.rollout == "heuristic":
                if d.kind is _PRIORITY and not any(o.verb in _SCORED for o in d.options):
                    # The heuristic passes whenever it has nothing to play or activate (it never
                    # floats mana): skip building a view it would not read.
                    game.apply(next(o for o in d.options if o.verb == "pass"))
                else:
                    game.apply(policies[d.player].act(game.view(d.player)))
            else:
                game.apply(rollout_choice(d.options, rng))


def _load_net(source: str, device: str) -> PolicyValueNet:
    """A network by source, loaded once per process and device."""
    key = (source, device)
    if key not in _NETS:
        _NETS[key] = PolicyValueNet.load(source, device=device, threads=1)
    return _NETS[key]


class _ValueBlend:
    """Priors from one network, values from another (``vnet=``). Both run on every position:
    the search's requests don't say which answers it reads."""

    def __init__(self, prior: PolicyValueNet, value: PolicyValueNet) -> None:
        self.prior = prior
        self.value = value

    @property
    def anchor(self) -> float:
        """The prior network's heuristic anchor."""
        return self.prior.anchor

    def evaluate(self, positions: Sequence[tuple[Game, int]]) -> list[Evaluation]:
        from .policy_value import Evaluation

        priors = self.prior.evaluate(positions)
        values = self.value.evaluate(positions)
        return [Evaluation(p.priors, v.value) for p, v in zip(priors, values, strict=True)]


def _final(game: Game, me: int) -> float:
    """The result of a finished game for ``me``: 1 a win, 0.5 a draw, 0 a loss."""
    return 0.5 if game.winner is None else float(game.winner == me)


# (source, device) -> the guiding network: one load per process
_NETS: dict[tuple[str, str], PolicyValueNet] = {}


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
    and cards in hand (public counts only). At a table of more than two players it is ``me``'s
    share of :func:`seat_values`."""
    if len(game.players) != 2:
        return seat_values(game)[me]
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


def _strengths(game: Game) -> list[float]:
    """Each team's strength, by team number: its creatures' power and toughness, its other
    nonland permanents, its players' life (a Two-Headed Giant team's shared life once) and
    their cards in hand, weighted as in :func:`evaluate`."""
    seats = teams(game)
    strength = [0.0] * len(seats)
    for p in game.permanents:
        t = team_of(game, p.controller)
        if p.is_creature:
            strength[t] += 1.5 * max(p.power, 0) + 0.5 * max(p.toughness, 0)
        elif not p.is_land:
            strength[t] += 1.0
    shared = game.variant == "two_headed_giant"  # each teammate's life holds the team's total
    for t, members in enumerate(seats):
        players = [game.players[q] for q in members]
        life = players[0].life if shared else sum(P.life for P in players)
        strength[t] += 0.6 * life + 0.8 * sum(len(P.hand) for P in players)
    return strength


def seat_values(game: Game) -> list[float]:
    """Every seat's value in [0, 1], by seat (the values of a search over several players).

    A finished game: 1 for its winners (the winning team in the team variants), 0 for the
    others; a draw shares 1 equally among the teams still in the game. An unfinished game: 0
    for a seat that has left it; the teams still in it share 1 by a softmax of their strengths
    (:func:`_strengths`) over 8, the scale of :func:`evaluate`, whose two-player value is this
    softmax over two teams. Teammates get their team's value.

    >>> from mtg_env import Deck, Game
    >>> g = Game.new([Deck.builtin("starter_green")] * 3, seed=1)
    >>> [round(v, 3) for v in seat_values(g)]
    [0.333, 0.333, 0.333]
    """
    seats = teams(game)
    team = [team_of(game, q) for q in range(len(game.players))]
    if game.is_over:
        won = winners(game)
        if won:
            return [1.0 if q in won else 0.0 for q in range(len(game.players))]
        alive = {team[q] for q in players_in_game(game)}
        share = 1.0 / len(alive) if alive else 1.0 / len(seats)
        return [share if not alive or team[q] in alive else 0.0 for q in range(len(game.players))]
    alive = {team[q] for q in players_in_game(game)}
    strength = _strengths(game)
    top = max(strength[t] for t in alive)
    weight = {t: math.exp((strength[t] - top) / 8.0) for t in alive}
    total = sum(weight.values())
    return [weight[team[q]] / total if team[q] in alive else 0.0 for q in range(len(game.players))]


def sample_table(view: PlayerView, seed: int) -> Game:
    """A full game consistent with what the viewer of ``view`` can see, for the search.

    Two players: :func:`~mtg_env.engine.view.sample_game` (the opponent's hand and both
    libraries' order resampled). More: every other seat's hidden cards (a teammate's hand is
    hidden as well as an opponent's) and the viewer's library order are dealt again from the
    cards' ids in ascending order, so the world depends only on the view and ``seed``; the cards
    the viewer knows (``known_hand``, ``known_library``, a hand played revealed, a hand being
    looked at) stay where they are.
    """
    game = sample_game(view, seed)
    if len(game.players) == 2:
        return game
    me = view.viewer
    rng = random.Random(seed)
    known = known_cards(game, me)
    shown = {c[1] for f in game.frames if isinstance(f, ChooseFrame)
             for c in f.candidates if c[0] == "h"}
    for P in game.players:
        if P.index == me:
            continue
        hand = P.hand
        if any(c.cid in shown for c in hand):
            known = known | {c.cid for c in hand}  # being looked at right now: it is known
        hand_free = [i for i, c in enumerate(hand) if c.cid not in known]
        lib_free = [i for i, c in enumerate(P.library) if c.cid not in known]
        pool = sorted([hand[i] for i in hand_free] + [P.library[i] for i in lib_free],
                      key=lambda c: c.cid)
        rng.shuffle(pool)
        dealt = iter(pool)
        for i in hand_free:
            hand[i] = next(dealt)
        for i in lib_free:
            P.library[i] = next(dealt)
    own = game.players[me].library
    free = [i for i, c in enumerate(own) if c.cid not in known]
    cards = sorted((own[i] for i in free), key=lambda c: c.cid)
    rng.shuffle(cards)
    for i, c in zip(free, cards, strict=True):
        own[i] = c
    return game
