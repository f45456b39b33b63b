"""Testing helpers: a scenario harness in the style of XMage's test base (set up a position, take
actions by text, assert the result), the scenario builders the tests share, and the soak
invariants checked after every action by the soak tests and ``benchmarks/soak.py``
(:func:`check_invariants`, :func:`play_checked_game`).

Builders: :func:`position` (a position dict, step first; :func:`table_position` for 3 to 6
players) and :func:`scenario` (a :class:`Scenario`, players first) with the shortcuts
:func:`main`, :func:`combat`,
:func:`step_of` and :func:`upkeep_of`. Moving on: :func:`pass_until`, :func:`to_attackers`,
:func:`attack`, :func:`attack_options`, :func:`to_blockers`, :func:`block`,
:func:`block_options`, :func:`to_damage` and :func:`done_if_asked`. Looking: :func:`kind`,
:func:`labels`, :func:`card_names` and :func:`logged`.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

import yaml

from .engine.actions import Action, DecisionKind
from .engine.deck import Deck
from .engine.game import Game
from .engine.model import Card, Permanent


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


# -- scenario builders ------------------------------------------------------------------------
# A player's zones in a position: a dict of zone name -> cards ({"hand": [...], "in_play":
# [...], "library": [...], "life": 12, ...}), or a bare list, which is that player's in_play.
Zones = Mapping[str, Any] | Sequence[Any] | None


def player_zones(zones: Zones = None, library: Sequence[str] | None = None) -> dict:
    """One player's entry of a position: ``zones`` as a new dict (a list is the ``in_play``;
    ``None`` is an empty player), with ``library`` as the library unless ``zones`` names one."""
    if zones is None:
        d: dict = {}
    elif isinstance(zones, Mapping):
        d = dict(zones)
    elif isinstance(zones, str):
        raise TypeError(f"a player's zones are a dict or a list of cards, not the string {zones!r}")
    else:
        d = {"in_play": list(zones)}
    if library is not None and "library" not in d:
        d["library"] = list(library)
    return d


def position(step: str = "precombat_main", p0: Zones = None, p1: Zones = None, *, turn: int = 3,
             library: Sequence[str] | None = None, **top: Any) -> dict:
    """A position dict for :meth:`Game.from_position` (step first, returns the dict): turn
    ``turn``, player 0 active (``active_player=1`` for player 1) with priority in ``step`` (a
    permanent is not summoning sick unless it says so); ``p0``/``p1`` are the players' zones
    (see :func:`player_zones`), each given ``library`` unless it names its own; ``top`` adds or
    overrides top-level keys (``active_player``, ``seed`` ...).

    >>> position("upkeep", {"hand": ["Shock"]}, ["Forest"], library=["Island"])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'turn': 3, 'step': 'upkeep', 'players': [{'hand': ['Shock'], 'library': ['Island']},
     {'in_play': ['Forest'], 'library': ['Island']}]}
    """
    return {"turn": turn, "step": step,
            "players": [player_zones(p0, library), player_zones(p1, library)], **top}


def table_position(*players: Zones, step: str = "precombat_main", turn: int = 3,
                   library: Sequence[str] | None = None, **top: Any) -> dict:
    """A multiplayer position (3 to 6 players, by seat): like :func:`position` with one zones
    argument per player; ``top`` adds ``attack`` (``"left"``, ``"right"``), ``active_player``...

    >>> len(table_position([], [], ["Forest"], library=["Island"])["players"])
    3
    """
    return {"turn": turn, "step": step,
            "players": [player_zones(p, library) for p in players], **top}


def scenario(p0: Zones = None, p1: Zones = None, step: str = "precombat_main", *, turn: int = 3,
             library: Sequence[str] | None = None, options: Mapping[str, Any] | None = None,
             **top: Any) -> Scenario:
    """A :class:`Scenario` of :func:`position` (players first, step a keyword): player 0 active
    with priority in ``step`` (their precombat main phase) of turn ``turn``; ``options`` are
    game options (``manual_mana`` ...) passed to :meth:`Game.from_position`."""
    return Scenario(position(step, p0, p1, turn=turn, library=library, **top), **(options or {}))


def main(p0: Zones = None, p1: Zones = None, **kw: Any) -> Scenario:
    """Player 0 active with priority in their precombat main phase of turn 3: :func:`scenario`
    under the name the card tests use (``kw`` as for it, ``step=`` included)."""
    return scenario(p0, p1, **kw)


def combat(p0: Zones = None, p1: Zones = None, *, step: str = "beginning_of_combat",
           **kw: Any) -> Scenario:
    """Player 0 active with priority at the beginning of combat of turn 3 (``kw`` as for
    :func:`scenario`; ``active_player=1`` makes it player 1's combat)."""
    return scenario(p0, p1, step, **kw)


def step_of(step: str, active: int = 0, p0: Zones = None, p1: Zones = None, *, turn: int = 3,
            from_step: str = "postcombat_main", **kw: Any) -> Scenario:
    """``step`` of player ``active``'s turn ``turn``, reached by passing (see
    :meth:`Scenario.advance_to`) from ``from_step`` of the other player's turn ``turn - 1``, so
    that "at the beginning of ..." triggers of the steps passed through fire (``kw`` as for
    :func:`scenario`)."""
    s = scenario(p0, p1, from_step, turn=turn - 1, active_player=1 - active, **kw)
    s.advance_to(step, active=active)
    return s


def upkeep_of(p0: Zones = None, p1: Zones = None, *, active: int = 0, **kw: Any) -> Scenario:
    """Player ``active``'s upkeep of turn 3 with its upkeep triggers put on the stack (see
    :func:`step_of`; ``turn=`` and ``from_step=`` change where it starts)."""
    return step_of("upkeep", active, p0, p1, **kw)


# -- passing and combat -----------------------------------------------------------------------
MAX_PASSES = 50  # a pass-until helper that passes more often than this has gone astray


def pass_until(s: Scenario, until: Callable[[Game], bool], *, max_passes: int = MAX_PASSES,
               what: str = "pass_until") -> None:
    """Pass priority until ``until(game)`` holds (checked before each pass, so nothing is passed
    if it holds already). Raise :class:`ScenarioError` if a decision other than priority comes
    first, the game ends, or ``max_passes`` passes don't get there (``what`` names the caller
    in the message)."""
    g = s.game
    for n in range(max_passes + 1):
        if until(g):
            return
        if n == max_passes:
            break
        d = g.decision
        if d is None or d.kind is not DecisionKind.PRIORITY:
            raise ScenarioError(f"{what}: stopped at {'the end of the game' if d is None else d}")
        g.apply("pass")
    raise ScenarioError(f"{what}: not reached in {max_passes} passes (at {g.step})")


def kind(s: Scenario) -> DecisionKind | None:
    """The kind of the pending decision (``None`` once the game is over)."""
    d = s.game.decision
    return None if d is None else d.kind


def done_if_asked(s: Scenario, decision: DecisionKind) -> None:
    """Answer ``done`` if a ``decision`` (a declaration) is pending: the engine ends a
    declaration itself once nothing is left to declare."""
    if kind(s) is decision:
        s.do("done")


def to_attackers(s: Scenario) -> None:
    """Pass priority until the declare attackers step of this turn: the active player's
    declare-attackers decision is then pending (priority, if no creature can attack)."""
    pass_until(s, lambda g: g.step == "declare_attackers", what="to_attackers")


def attack_options(s: Scenario) -> list[str]:
    """:func:`to_attackers`, then the declare-attackers options (``[]`` if none can attack)."""
    to_attackers(s)
    return s.options() if kind(s) is DecisionKind.DECLARE_ATTACKERS else []


def attack(s: Scenario, *attackers: str) -> None:
    """:func:`to_attackers`, then attack with each of ``attackers`` (labels) and end the
    declaration (``attack(s)`` declares no attackers)."""
    to_attackers(s)
    s.do(*[f"attack with {a}" for a in attackers])
    done_if_asked(s, DecisionKind.DECLARE_ATTACKERS)


def to_blockers(s: Scenario, *attackers: str) -> None:
    """If ``attackers`` are given, :func:`attack` with them first. Then pass priority until the
    declare blockers step: the defending player's declare-blockers decision is then pending
    (priority, if no creature can block)."""
    if attackers:
        attack(s, *attackers)
    pass_until(s, lambda g: g.step == "declare_blockers", what="to_blockers")


def block_options(s: Scenario) -> list[str]:
    """:func:`to_blockers`, then the declare-blockers options (``[]`` if none can block)."""
    to_blockers(s)
    return s.options() if kind(s) is DecisionKind.DECLARE_BLOCKERS else []


def block(s: Scenario, *pairs: tuple[str, str]) -> None:
    """:func:`to_blockers`, then make each ``(attacker, blocker)`` block and end the declaration
    (``block(s)`` declares no blockers)."""
    to_blockers(s)
    s.do(*[f"block {a} with {b}" for a, b in pairs])
    done_if_asked(s, DecisionKind.DECLARE_BLOCKERS)


def to_damage(s: Scenario) -> None:
    """Pass priority until the combat damage step (its damage assignments or priority with the
    combat damage on the stack are then pending)."""
    pass_until(s, lambda g: g.step == "combat_damage", what="to_damage")


# -- looking at the game ----------------------------------------------------------------------
def labels(s: Scenario, player: int, zone: str) -> list[str]:
    """The labels (``Island#2`` for a second Island) of the cards in ``player``'s ``zone``
    (``hand``, ``library``, ``graveyard``, ``removed``), in zone order."""
    return [c.label for c in getattr(s.game.players[player], zone)]


def watch_events(monkeypatch: Any, game: Game,
                 on_event: Callable[[str, dict[str, Any]], None]) -> None:
    """Call ``on_event(name, event)`` for every game event ``game`` reports from now on (a card
    drawn, a permanent leaving play, ...), before the triggered abilities watching it are
    collected (:data:`mtg_env.engine.triggers.EVENT_WATCHERS`). ``monkeypatch`` is pytest's
    fixture: the watch ends with the test."""
    from .engine import triggers

    monkeypatch.setitem(triggers.EVENT_WATCHERS, object(), (game, on_event))


def card_names(cards: Iterable[Card]) -> list[str]:
    """The names of ``cards`` (no copy numbers), in order."""
    return [c.name for c in cards]


def logged(s: Scenario, text: str) -> bool:
    """Whether some line of the game log contains ``text``."""
    return any(text in line for line in s.game.log)


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
             and not s.data.spell_copy)
    return c


def _still_in_game(g: Game, expected: Counter) -> Counter:
    """``expected`` less the cards of players who left the game (multiplayer: they leave it
    with everything they own, 2012 800.4a)."""
    if not any(P.lost for P in g.players):
        return expected
    return Counter({o: n for o, n in expected.items() if not g.players[o].lost})


def check_invariants(g: Game, expected: Counter, try_all_options: bool = False,
                     check_json: bool = True) -> None:
    """Raise :class:`InvariantError` unless: the card counts equal ``expected``; a finished game
    has no decision; an unfinished one has a decision with options whose texts are unique;
    ``from_json(to_json())`` reproduces the state (``check_json``); and every option applies on
    a copy with the card counts kept (``try_all_options``)."""
    counts = card_counts(g)
    if counts != _still_in_game(g, expected):
        raise InvariantError(f"card counts {dict(counts)} != {dict(_still_in_game(g, expected))}; "
                             f"last log: {g.log[-5:]}")
    if g.variant == "two_headed_giant" and any(
            g.players[i].life != g.players[i ^ 1].life for i in (0, 2)):
        raise InvariantError(f"a Two-Headed Giant team's players have different life totals: "
                             f"{[P.life for P in g.players]}")
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
            if card_counts(h) != _still_in_game(h, expected):
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
                      counts: Counter | None = None,
                      options: Mapping[str, Any] | None = None,
                      variant: str | None = None) -> Game:
    """Play a seeded game with :func:`check_invariants` after every action.

    ``choose(game, rng)`` picks each action (default: uniformly random). ``check_json`` and
    ``try_all_options`` are booleans (every ``json_every``-th action / every action) or rates in
    (0, 1): the fraction of decisions, drawn at random, at which that check runs. ``counts``, if
    given, gets ``actions``, ``json`` and ``options`` added: the actions taken and how often each
    drawn check ran. ``options`` and ``variant``: :meth:`Game.new`'s (a multiplayer game's
    attack option, ``two_headed_giant``).
    """
    choose = choose or random_chooser()
    g = Game.new(list(decks), seed=seed, max_turns=max_turns, variant=variant,
                 options=dict(options) if options is not None else None)
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
