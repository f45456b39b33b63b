"""A player's redacted view of a game: everything that player may see, and nothing else.

Agents decide from a :class:`PlayerView`, never from the :class:`~mtg_env.engine.game.Game`
itself. The view is a snapshot taken when :func:`view_for` is called; it does not change when the
game goes on. What it hides:

- the opponent's hand (only its size is shown), except the cards the viewer knows
  (``known_hand``: revealed to them, looked at or gone there from a public zone,
  :mod:`mtg_env.engine.knowledge`) and the
  whole hand when it is played revealed (an opponent's Telepathy);
- the order of both libraries: the opponent's library shows only its size, the viewer's own
  library its contents sorted by label (a player knows their deck list, not the order); the
  library cards the viewer knows are listed with their place (``known_library``);
- the pending decision when another player is the one deciding (only who decides and its kind).

Everything else in the game is public under the rules and is shown: life, poison, mana pools,
graveyards, removed cards, every permanent with its current characteristics, the stack (with
combat damage assignments) and the decision the viewer must make with all its options.

>>> from mtg_env import Deck, Game
>>> from mtg_env.engine.view import view_for
>>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=1)
>>> v = view_for(g, g.decision.player)
>>> v.me.hand_size, v.opponent.hand, v.opponent.hand_size, v.opponent.library_size
(7, None, 7, 33)
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .abilities import ActivatedAbility, StaticAbility, TargetSpec, TriggeredAbility
from .actions import Decision, DecisionKind
from .knowledge import hand_revealed, known_cards
from .model import Card, CardDef, PermanentTraits
from .seating import TEAM_SIZE, enter_table, opponent, opponents, teammates
from .stack import item_def

if TYPE_CHECKING:
    from .game import Game

__all__ = ["PermanentView", "PlayerInfo", "PlayerView", "StackObjectView", "sample_game", "view_for"]

_LABEL = attrgetter("label")


class PermanentView(PermanentTraits):
    """A permanent in play as any player sees it (characteristics after continuous effects)."""

    __slots__ = (
        "activated",
        "attached_to",
        "attacking",
        "blocked",
        "blockers",
        "blocking",
        "card",
        "chosen",
        "colors",
        "controller",
        "counters",
        "damage",
        "id",
        "keywords",
        "owner",
        "power",
        "regen_shields",
        "sick",
        "static",
        "subtypes",
        "supertypes",
        "tapped",
        "toughness",
        "triggered",
        "types",
        "used_this_turn",
        "_cdef",
    )

    def __init__(self, p: Any) -> None:
        self.id: int = p.id
        self.card: Card = p.card
        self.owner: int = p.owner
        self.controller: int = p.controller
        self.tapped: bool = p.tapped
        self.damage: int = p.damage
        self.power: int = p.power
        self.toughness: int = p.toughness
        self.keywords: frozenset[str] = p.keywords
        self.colors: frozenset[str] = p.colors
        self.types: frozenset[str] = p.types
        self.subtypes: tuple[str, ...] = p.subtypes
        self.supertypes: frozenset[str] = p.supertypes
        self.counters: dict[str, int] = dict(p.counters) if p.counters else {}
        self.attached_to: int | None = p.attached_to
        self.sick: bool = p.sick
        self.attacking: bool = p.attacking
        self.blocking: tuple[int, ...] = tuple(p.blocking)
        self.blocked: bool = p.blocked
        self.blockers: tuple[int, ...] = tuple(p.blockers)
        self.regen_shields: int = p.regen_shields
        self.used_this_turn: dict[int, int] = dict(p.used_this_turn) if p.used_this_turn else {}
        # "As it comes into play, choose ..." (announced, public): {"color": "R"} or None.
        self.chosen: dict[str, str] | None = p.chosen
        # Abilities are characteristics (2007 CR 418.5): the ones it has now, printed, copied or
        # granted; an action's ability index points into ``activated``.
        self.activated: tuple[ActivatedAbility, ...] = p.activated
        self.triggered: tuple[TriggeredAbility, ...] = p.triggered
        self.static: tuple[StaticAbility, ...] = p.static
        self._cdef: CardDef = p.cdef

    def __copy__(self) -> PermanentView:
        """A copy to change (an agent trying a pump on it): its counters and other dicts its own."""
        return PermanentView(self)

    @property
    def cdef(self) -> CardDef:
        """The card definition of its copiable values (a Clone's is the copied card's)."""
        return self._cdef

    @property
    def name(self) -> str:
        return self._cdef.name

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "card": self.card.label, "owner": self.owner,
                "controller": self.controller, "tapped": self.tapped, "damage": self.damage,
                "power": self.power, "toughness": self.toughness,
                "keywords": sorted(self.keywords), "colors": sorted(self.colors),
                "types": sorted(self.types), "subtypes": list(self.subtypes),
                "counters": dict(sorted(self.counters.items())), "attached_to": self.attached_to,
                "sick": self.sick, "attacking": self.attacking, "blocking": list(self.blocking),
                "blocked": self.blocked, "blockers": list(self.blockers),
                "regen_shields": self.regen_shields}

    def __repr__(self) -> str:
        pt = f" {self.power}/{self.toughness}" if self.is_creature else ""
        return f"<PermanentView {self.label}{pt} P{self.controller}{' T' if self.tapped else ''}>"


class StackObjectView:
    """A spell, ability or combat damage on the stack (all public).

    ``target_specs`` and ``effects`` are the rules data of the object (for a modal spell, of the
    chosen mode); ``assignments`` lists a combat damage object's
    ``(source permanent id, target ref, amount)`` triples; ``divided`` a spell's division of
    damage among its targets, made as it was played, ``(target ref, amount)`` pairs.
    """

    __slots__ = (
        "ability",
        "assignments",
        "card",
        "controller",
        "divided",
        "effects",
        "id",
        "kind",
        "label",
        "mode",
        "source",
        "source_name",
        "target_specs",
        "targets",
        "x",
    )

    def __init__(self, game: Game, s: Any) -> None:
        self.id: int = s.id
        self.kind: str = s.kind
        self.controller: int = s.controller
        self.card: Card | None = s.card
        self.source: int | None = s.source
        self.source_name: str = s.source_name
        self.ability: int = s.ability
        self.targets: tuple[tuple[Any, ...], ...] = tuple(tuple(t) for t in s.targets)
        self.x: int = s.x
        self.mode: int = s.mode
        self.label: str = s.label
        specs, effects = ((), ()) if s.kind == "combat_damage" else item_def(game, s)[:2]
        self.target_specs: tuple[TargetSpec, ...] = tuple(specs)
        self.effects: tuple[dict[str, Any], ...] = tuple(effects)
        self.assignments: tuple[tuple[int, tuple[Any, ...], int], ...] = tuple(
            (e[0], (e[1], e[2]), e[3]) for e in s.data.assign)
        self.divided: tuple[tuple[tuple[Any, ...], int], ...] = tuple(
            ((e[0], e[1]), e[2]) for e in s.data.divided)

    @property
    def name(self) -> str:
        if self.kind == "spell" and self.card is not None:
            return self.card.name
        if self.kind == "combat_damage":
            return "combat damage"
        return f"{self.source_name} ability"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "controller": self.controller,
                "card": self.card.label if self.card is not None else None,
                "source": self.source, "label": self.label, "ability": self.ability,
                "targets": [list(t) for t in self.targets], "x": self.x, "mode": self.mode,
                "assignments": [[a, list(t), n] for a, t, n in self.assignments],
                "divided": [[list(t), n] for t, n in self.divided]}

    def __repr__(self) -> str:
        return f"<StackObjectView {self.kind} {self.label} P{self.controller}>"


class PlayerInfo:
    """One player's state as the viewer sees it. ``hand`` is ``None`` for the opponent."""

    __slots__ = (
        "graveyard",
        "hand",
        "hand_size",
        "index",
        "known_hand",
        "known_library",
        "lands_played",
        "library_size",
        "life",
        "lost",
        "mana_pool",
        "mulligans",
        "poison",
        "removed",
    )

    def __init__(self, P: Any, visible_hand: bool, known: set[int] | frozenset[int] = frozenset()
                 ) -> None:
        self.index: int = P.index
        self.life: int = P.life
        self.lost: bool = P.lost  # lost and left the game (multiplayer: 2012 800.4)
        self.poison: int = P.poison
        self.mana_pool: tuple[int, ...] = tuple(P.mana_pool)  # W U B R G C
        self.hand: tuple[Card, ...] | None = tuple(P.hand) if visible_hand else None
        # The cards of this hand the viewer knows (all of them for the viewer's own hand).
        self.known_hand: tuple[Card, ...] = (
            self.hand if self.hand is not None
            else tuple(c for c in P.hand if c.cid in known) if known else ())
        # (place from the top, card) for each card of this library the viewer knows.
        self.known_library: tuple[tuple[int, Card], ...] = tuple(
            (i, c) for i, c in enumerate(P.library) if c.cid in known) if known else ()
        self.hand_size: int = len(P.hand)
        self.library_size: int = len(P.library)
        self.graveyard: tuple[Card, ...] = tuple(P.graveyard)  # last is the top
        self.removed: tuple[Card, ...] = tuple(P.removed)
        self.lands_played: int = P.lands_played
        self.mulligans: int = P.mulligans

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "life": self.life, "poison": self.poison,
                "mana_pool": list(self.mana_pool),
                "hand": [c.label for c in self.hand] if self.hand is not None else None,
                "hand_size": self.hand_size, "library_size": self.library_size,
                "known_hand": [c.label for c in self.known_hand],
                "known_library": [[i, c.label] for i, c in self.known_library],
                "graveyard": [c.label for c in self.graveyard],
                "removed": [c.label for c in self.removed],
                "lands_played": self.lands_played, "mulligans": self.mulligans}


class PlayerView:
    """What player ``viewer`` may see of a game, frozen at one moment.

    ``decision`` is the pending :class:`Decision` when the viewer is the one deciding, else
    ``None`` (``deciding`` and ``deciding_kind`` still say who decides what).
    ``library`` is the viewer's own library sorted by card label (name, then copy number), so
    it says nothing about the order.
    """

    __slots__ = (
        "_by_id",
        "active",
        "deciding",
        "deciding_kind",
        "decision",
        "defender",
        "end_reason",
        "goldfish",
        "goldfish_dead_turn",
        "is_over",
        "library",
        "permanents",
        "players",
        "priority",
        "stack",
        "starting_player",
        "step",
        "turn",
        "variant",
        "viewer",
        "winner",
        "_game",
        "_stamp",
    )

    def __init__(self, game: Game, viewer: int) -> None:
        n = len(game.players)
        if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
            raise ValueError(f"viewer must be a player 0 to {n - 1}, got {viewer!r}")
        self.viewer = viewer
        self._game = game
        self._stamp = (game.decisions_made, game.decision)
        self.turn: int = game.turn
        self.step: str = game.step
        self.active: int = game.active
        self.variant: str = game.variant  # two_player, free_for_all or two_headed_giant
        if TEAM_SIZE[0] != 1 or game.variant != "two_player":
            enter_table(game)  # "an opponent" in card filters an agent evaluates reads its teams
        # Multiplayer: the defending player of this combat (2012 506.2a), -1 when none.
        self.defender: int = game.defender
        self.priority: int | None = game.priority_player
        self.starting_player: int = game.starting_player
        self.is_over: bool = game.is_over
        self.winner: int | None = game.winner
        self.end_reason: str = game.end_reason
        # Deck testing (Game.new's goldfish): that seat doesn't lose for life or an empty library.
        self.goldfish: int | None = game.goldfish
        self.goldfish_dead_turn: int | None = game.goldfish_dead_turn
        d = game.decision
        self.deciding: int | None = d.player if d is not None else None
        self.deciding_kind: DecisionKind | None = d.kind if d is not None else None
        self.decision: Decision | None = d if d is not None and d.player == viewer else None
        known = known_cards(game, viewer)
        self.players: tuple[PlayerInfo, ...] = tuple(
            PlayerInfo(P, P.index == viewer or hand_revealed(game, P.index), known)
            for P in game.players)
        self.permanents: tuple[PermanentView, ...] = tuple(PermanentView(p) for p in game.permanents)
        self.stack: tuple[StackObjectView, ...] = tuple(StackObjectView(game, s) for s in game.stack)
        self.library: tuple[Card, ...] = tuple(sorted(game.players[viewer].library, key=_LABEL))
        self._by_id: dict[int, PermanentView] | None = None

    @property
    def me(self) -> PlayerInfo:
        """The viewer's own player state (hand visible)."""
        return self.players[self.viewer]

    @property
    def opponent(self) -> PlayerInfo:
        """The opponent's state (hand hidden: ``hand`` is ``None`` unless it is played
        revealed; ``known_hand`` lists the cards of it the viewer knows)."""
        return self.players[opponent(self, self.viewer)]

    @property
    def opponents(self) -> tuple[PlayerInfo, ...]:
        """Every opponent still in the game, in turn order after the viewer."""
        return tuple(self.players[o] for o in opponents(self, self.viewer))

    @property
    def teammates(self) -> tuple[PlayerInfo, ...]:
        """The viewer's teammates (Two-Headed Giant; none in other variants)."""
        return tuple(self.players[t] for t in teammates(self, self.viewer))

    def perm(self, pid: int) -> PermanentView | None:
        """The permanent with this id, or ``None`` if it is not in play."""
        if self._by_id is None:
            self._by_id = {p.id: p for p in self.permanents}
        return self._by_id.get(pid)

    def stack_object(self, sid: int) -> StackObjectView | None:
        """The stack object with this id, or ``None``."""
        for s in self.stack:
            if s.id == sid:
                return s
        return None

    def controlled_by(self, player: int) -> list[PermanentView]:
        """The permanents ``player`` controls."""
        return [p for p in self.permanents if p.controller == player]

    def creatures(self, player: int) -> list[PermanentView]:
        """The creatures ``player`` controls."""
        return [p for p in self.permanents if p.controller == player and "Creature" in p.types]

    def to_dict(self) -> dict[str, Any]:
        """Everything in the view as plain JSON-able data (cards by label)."""
        d = self.decision
        return {
            "viewer": self.viewer, "turn": self.turn, "step": self.step, "active": self.active,
            "variant": self.variant,
            "priority": self.priority, "starting_player": self.starting_player,
            "is_over": self.is_over, "winner": self.winner, "end_reason": self.end_reason,
            "goldfish": self.goldfish, "goldfish_dead_turn": self.goldfish_dead_turn,
            "deciding": self.deciding,
            "deciding_kind": self.deciding_kind.value if self.deciding_kind is not None else None,
            "decision": None if d is None else {
                "kind": d.kind.value, "prompt": d.prompt, "options": [a.text for a in d.options]},
            "players": [p.to_dict() for p in self.players],
            "permanents": [p.to_dict() for p in self.permanents],
            "stack": [s.to_dict() for s in self.stack],
            "library": [c.label for c in self.library],
        }

    def __repr__(self) -> str:
        return (f"<PlayerView of P{self.viewer} turn={self.turn} step={self.step} "
                f"life={self.players[0].life}/{self.players[1].life}>")


def view_for(game: Game, player: int) -> PlayerView:
    """The redacted view of ``game`` for ``player`` (0 or 1), as of now."""
    return PlayerView(game, player)


def sample_game(view: PlayerView, seed: int) -> Game:
    """A full game consistent with what the viewer knows, for search agents: the hidden cards
    (the opponent's hand, both libraries' order) are resampled (:meth:`Game.determinize`; deck
    lists count as known; the cards the viewer knows, ``known_hand`` and ``known_library``, stay
    where they are). Only valid while the game has not moved on since the view was taken.
    """
    game = view._game
    if (game.decisions_made, game.decision) != view._stamp:
        raise ValueError("the game has moved on since this view was taken; take a new view")
    return game.determinize(view.viewer, seed)
