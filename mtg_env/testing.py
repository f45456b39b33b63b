"""Testing helpers: a scenario harness in the style of XMage's test base (set up a position, take
actions by text, assert the result) and the soak invariants checked after every action by the
soak tests and ``benchmarks/soak.py`` (:func:`check_invariants`, :func:`play_checked_game`).

>>> s = Scenario('''
... turn: 3
... step: precombat_main
... players:
...   - hand: [Giant Growth]
...     in_play: [Forest, Rushwood Dryad]
...   - in_play: [Mountain]
... ''')
>>> s.do("play Giant Growth", "target Rushwood Dryad")
>>> s.resolve()
>>> s.assert_pt("Rushwood Dryad", 5, 4)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import yaml

from .engine.actions import Action, DecisionKind
from .engine.deck import Deck
from .engine.game import Game
from .engine.model import Permanent


class ScenarioError(AssertionError):
    """A scenario step or assertion failed."""


class Scenario:
    """Wraps a :class:`Game` built from a position (dict, YAML text or path)."""

    def __init__(self, position: dict | str, **options: Any) -> None:
        if isinstance(position, str):
            if position.strip().endswith((".yaml", ".yml", ".json")) and "\n" not in position:
                self.game = Game.load_position(position, **options)
                return
            position = yaml.safe_load(position)
        self.game = Game.from_position(position, **options)

    # -- actions --------------------------------------------------------------------
    def do(self, *texts: str) -> None:
        """Apply each action text in turn (raises IllegalActionError if one isn't legal)."""
        for t in texts:
            self.game.apply(t)

    def options(self) -> list[str]:
        return [a.text for a in self.game.legal_actions()]

    def pass_priority(self, times: int = 1) -> None:
        for _ in range(times):
            self._expect_priority()
            self.game.apply("pass")

    def resolve(self) -> None:
        """Both players pass until the top object of the stack has resolved."""
        g = self.game
        if not g.stack:
            raise ScenarioError("resolve(): the stack is empty")
        top = g.stack[-1].id
        for _ in range(50):
            # Stop once the top object is gone (a trigger it caused may now be on the stack).
            if all(x.id != top for x in g.stack) or g.is_over:
                return
            if g.decision.kind is not DecisionKind.PRIORITY:
                return  # the resolving object asks a question; the test answers it
            g.apply("pass")
        raise ScenarioError("resolve(): the stack did not shrink")

    def resolve_all(self) -> None:
        while self.game.stack and not self.game.is_over:
            self.resolve()
            if self.game.decision and self.game.decision.kind is not DecisionKind.PRIORITY:
                return

    def advance_to(self, step: str, active: int | None = None, max_actions: int = 200) -> None:
        """Pass (and declare no attackers/blockers) until ``step`` of the wanted active player,
        with a priority decision pending."""
        g = self.game
        for _ in range(max_actions):
            if g.is_over:
                raise ScenarioError(f"advance_to({step!r}): the game ended")
            d = g.decision
            if (g.step == step and d.kind is DecisionKind.PRIORITY
                    and (active is None or g.active == active)):
                return
            if d.kind in (DecisionKind.PRIORITY, DecisionKind.DECLARE_ATTACKERS,
                          DecisionKind.DECLARE_BLOCKERS):
                g.apply("pass" if d.kind is DecisionKind.PRIORITY else "done")
            else:
                raise ScenarioError(f"advance_to({step!r}): stopped at a {d.kind.value} decision: "
                                    f"{[a.text for a in d.options]}")
        raise ScenarioError(f"advance_to({step!r}): not reached in {max_actions} actions")

    def _expect_priority(self) -> None:
        d = self.game.decision
        if d is None or d.kind is not DecisionKind.PRIORITY:
            raise ScenarioError(f"expected a priority decision, got {d!r}")

    # -- lookups --------------------------------------------------------------------
    def perm(self, label: str) -> Permanent:
        return self.game.find_permanent(label)

    def in_play(self, label: str) -> bool:
        return any(p.card.label == label for p in self.game.permanents)

    # -- assertions -----------------------------------------------------------------
    def assert_life(self, player: int, life: int) -> None:
        actual = self.game.players[player].life
        if actual != life:
            raise ScenarioError(f"player {player} life: expected {life}, got {actual}")

    def assert_pt(self, label: str, power: int, toughness: int) -> None:
        p = self.perm(label)
        if (p.power, p.toughness) != (power, toughness):
            raise ScenarioError(f"{label}: expected {power}/{toughness}, got {p.power}/{p.toughness}")

    def assert_damage(self, label: str, damage: int) -> None:
        p = self.perm(label)
        if p.damage != damage:
            raise ScenarioError(f"{label}: expected {damage} damage, got {p.damage}")

    def assert_in_play(self, label: str, present: bool = True) -> None:
        if self.in_play(label) != present:
            raise ScenarioError(f"{label}: expected {'in play' if present else 'not in play'}")

    def assert_zone(self, player: int, zone: str, label: str, present: bool = True) -> None:
        cards = getattr(self.game.players[player], zone)
        found = any(c.label == label for c in cards)
        if found != present:
            raise ScenarioError(f"{label}: expected {'' if present else 'not '}in player {player}'s "
                                f"{zone}; it has {[c.label for c in cards]}")

    def assert_winner(self, winner: int | None) -> None:
        g = self.game
        if not g.is_over or g.winner != winner:
            raise ScenarioError(f"expected the game over with winner {winner}, got "
                                f"is_over={g.is_over} winner={g.winner}")


# -- soak invariants --------------------------------------------------------------------------
class InvariantError(AssertionError):
    """A game broke an invariant that must hold after every action (an engine bug)."""


_OWNER = attrgetter("owner")
MAX_ACTIONS = 20000  # a game taking more actions than this is a runaway


def card_counts(g: Game) -> Counter:
    """Non-token cards per owner over every zone (hand, library, graveyard, removed, in play,
    on the stack): constant for the whole game."""
    c: Counter = Counter()
    for P in g.players:  # Counter over a C-level map: this runs after every soak action
        for zone in (P.hand, P.library, P.graveyard, P.removed):
            c.update(map(_OWNER, zone))
    c.update(p.owner for p in g.perms.values() if not p.card.is_token)
    # A copy of a spell (Twincast) is no card at all (2012 706.10).
    c.update(s.card.owner for s in g.stack if s.kind == "spell" and not s.card.is_token
             and "spell_copy" not in s.data)
    return c


def check_invariants(g: Game, expected: Counter, try_all_options: bool = False,
                     check_json: bool = True) -> None:
    """Raise :class:`InvariantError` unless: the card counts equal ``expected``; a finished game
    has no decision; an unfinished one has a decision with options whose texts are unique;
    ``from_json(to_json())`` reproduces the state (``check_json``); and every option applies on
    a copy with the card counts kept (``try_all_options``)."""
    counts = card_counts(g)
    if counts != expected:
        raise InvariantError(f"card counts {dict(counts)} != {dict(expected)}; last log: {g.log[-5:]}")
    if g.is_over:
        if g.decision is not None:
            raise InvariantError("a finished game has a pending decision")
        return
    d = g.decision
    if d is None or not d.options:
        raise InvariantError("an unfinished game must have a decision with options")
    texts = [a.text for a in d.options]
    if len(set(texts)) != len(texts):
        raise InvariantError(f"duplicate option texts: {texts}")
    if check_json:
        s = g.to_json()
        if Game.from_json(s).to_json() != s:
            raise InvariantError(f"from_json(to_json()) differs on turn {g.turn} ({g.step})")
    if try_all_options:
        for a in d.options:
            h = g.copy()
            h.apply(a.text)
            if card_counts(h) != expected:
                raise InvariantError(f"applying {a.text!r} on a copy changed the card counts")


Chooser = Callable[[Game, random.Random], Action | str]


def random_chooser(mana_rate: float = 1.0) -> Chooser:
    """A uniformly random legal option; ``mana_rate`` < 1 skips most bare mana abilities
    (floating mana at random mostly ends games by mana burn; this reaches deeper states)."""

    def choose(g: Game, rng: random.Random) -> Action:
        opts = g.decision.options
        if mana_rate < 1.0 and rng.random() > mana_rate:
            opts = [o for o in opts if o.verb != "mana"] or opts
        return rng.choice(opts)

    return choose


def play_checked_game(decks: Sequence[Deck], seed: int, choose: Chooser | None = None,
                      max_turns: int | None = 60, try_all_options: bool | float = False,
                      check_json: bool | float = True, json_every: int = 1,
                      counts: Counter | None = None) -> Game:
    """Play a seeded game with :func:`check_invariants` after every action.

    ``choose(game, rng)`` picks each action (default: uniformly random). ``check_json`` and
    ``try_all_options`` are booleans (every ``json_every``-th action / every action) or rates in
    (0, 1): the fraction of decisions, drawn at random, at which that check runs. ``counts``, if
    given, gets ``actions``, ``json`` and ``options`` added: the actions taken and how often each
    drawn check ran.
    """
    choose = choose or random_chooser()
    g = Game.new(list(decks), seed=seed, max_turns=max_turns)
    rng = random.Random(seed)
    check_rng = random.Random(seed ^ 0x5EED)
    expected = card_counts(g)

    def due(flag: bool | float, n: int, every: int = 1) -> bool:
        if isinstance(flag, bool):
            return flag and n % every == 0
        return check_rng.random() < flag

    tally = counts if counts is not None else Counter()

    def check(n: int) -> None:
        opts, js = due(try_all_options, n), due(check_json, n, json_every)
        tally["options"] += opts and not g.is_over
        tally["json"] += js and not g.is_over
        check_invariants(g, expected, opts, js)

    check(0)
    n = 0
    while not g.is_over:
        g.apply(choose(g, rng))
        n += 1
        tally["actions"] += 1
        check(n)
        if n >= MAX_ACTIONS:
            raise InvariantError(f"runaway game: {n} actions by turn {g.turn}")
    return g


def play_random_game(decks: Sequence[Deck], seed: int, max_turns: int = 60,
                     try_all_options: bool = False, check_json: bool = True, json_every: int = 1,
                     mana_rate: float = 1.0) -> Game:
    """A seeded game of uniformly random legal actions with the invariants checked after every
    action (see :func:`play_checked_game` and :func:`random_chooser`)."""
    return play_checked_game(decks, seed, random_chooser(mana_rate), max_turns, try_all_options,
                             check_json, json_every)
