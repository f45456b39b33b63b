"""Procedures in progress as typed values: one slotted class per kind of procedure.

A procedure that needs several decisions (playing a spell, resolving one, declaring attackers,
an effect asking for a card) is a *frame* on ``Game.frames``, innermost last. This module holds
the base class and the frames of playing, resolving, combat and the turn; ``frames_effects``
those effects and replacement effects ask, ``frames_choice`` the choice of cards or permanents;
``frame_kinds`` lists them all by stored kind. ``Game.run_to_decision`` runs
the top frame and ``Game._answer`` hands it the chosen option, both dispatching on the frame's
class (``game.py``).

A frame holds only plain data (ints, strings, lists and dicts of them) and other stored values
(a :class:`PutFrame`'s :class:`PendingTrigger` queues). Its ``copy``, its stored
form (``to_json``/``from_json``: ``{"k": KIND, ...}`` under the stored format's short keys,
``"pl"`` the player, ``"sid"`` the stack object, ``"st"`` the step) and the check a stored frame
passes before it is read (``loaded_state_schema.FRAME``) are derived from the declared field
types by :func:`~mtg_env.engine.frame_fields.stored`: the annotations say what each number refers
to and which lists a copy may share.

2007 CR 409.1 (:class:`CastStep`, the steps of playing a spell or ability) and 413.2
(:class:`ResolveStep`, the steps of resolving one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Annotated, Any, ClassVar, Literal

from .frame_fields import (
    COPY_ITEMS,
    NONEMPTY,
    SHARED,
    CardId,
    Count,
    ObjectId,
    PermId,
    PlayerIndex,
    Refers,
    StackId,
    Stored,
    stored,
)


class CastStep(IntEnum):
    """Where the playing of a spell or activated ability is (2007 CR 409.1); 409.1a, announcing
    it and moving it to the stack, happens as the frame is pushed."""

    MODES = 0  # 409.1b: choose the mode of a modal spell
    X = 1  # 409.1c: choose the value of X
    TARGETS = 2  # 409.1d: choose the targets, dividing a divided amount (2012 601.2d)
    COSTS = 3  # 409.1f-h: determine the total cost, play mana abilities, pay it
    PLAYED = 4  # 409.1h-i: the cost choices still to be paid are paid; it becomes played


class ResolveStep(IntEnum):
    """Where the resolution of the top stack object is (2007 CR 413.2)."""

    CHECK = 0  # 410.11 intervening "if" clause, 413.2a targets' legality
    FOLLOW = 1  # 413.2c: follow its instructions in order (Frame field ``effect_index``)
    COPY_CHOICE = 5  # a permanent spell's copy choice is asked (Clone; 2012 706.10, 614.12)
    ENTER_CHOICES = 6  # its "as it comes into play" choices are asked (2012 614.12); then 416


RetargetMode = Literal["change", "new"]  # Shunt's change, or a copy's new targets
PayMode = Literal["unless", "may"]  # "unless [a player] pays", "you may pay"


class Frame(Stored):
    """A procedure in progress. A frame about a stack object (playing it, resolving it, a
    choice it asks) names it ``item_id``."""

    __slots__ = ()
    KIND: ClassVar[str] = ""


@stored("cast", targets_done="tdone", targets_text="tt", mana_due="mana",
        sacrifice_self="sac_self")
@dataclass(slots=True)
class CastFrame(Frame):
    """Playing a spell or activated ability (2007 CR 409.1), or choosing a triggered ability's
    targets as it is put on the stack (``trigger``: started at :attr:`CastStep.TARGETS`, ends
    after them; 410.4)."""

    player: PlayerIndex
    item_id: StackId
    step: CastStep = CastStep.MODES
    trigger: bool = False
    targets_done: bool = False  # a variable number of targets is complete ("done" chosen)
    targets_text: str = ""  # " targeting ...", for the log line once played
    mana_due: tuple[int, tuple[int, ...]] | None = None  # (generic, colored) paid after the cost choices
    sacrifice_self: bool = False  # its source is sacrificed once the cost choices are paid


@stored("resolve", effect_index="i")
@dataclass(slots=True)
class ResolveFrame(Frame):
    """Resolving the top stack object (2007 CR 413.2, 416)."""

    item_id: StackId
    step: ResolveStep = ResolveStep.CHECK
    effect_index: Count = 0  # the next effect to run; past the last once a custom effect has run


@stored("yesno")
@dataclass(slots=True)
class YesNoFrame(Frame):
    """A yes/no question a resolving ability asks ("you may": 2012 608.2d); the answer is kept
    in the stack object's record, ``item.data`` (the :class:`~.stack_data.StackData` field ``key``)."""

    player: PlayerIndex
    item_id: StackId
    key: str
    prompt: str


@stored("pay", effect_index="ei")
@dataclass(slots=True)
class PayFrame(Frame):
    """A cost paid on resolution ("unless [a player] pays", "you may pay": ops/payment.py),
    asked by effect ``effect_index`` of the resolving object, whose resolve frame is below."""

    player: PlayerIndex
    item_id: StackId
    effect_index: Count
    mode: PayMode
    prompt: str


@stored("retarget", index="i")
@dataclass(slots=True)
class RetargetFrame(Frame):
    """Changing a spell's targets, one decision per target (stack.py; 2012 114.6, 706.10c):
    ``mode`` "change" (Shunt) or "new" (a copy's new targets); ``old`` its targets before."""

    player: PlayerIndex
    item_id: StackId
    mode: RetargetMode
    old: Annotated[tuple[Annotated[tuple[Any, ...], Refers("ref")], ...], NONEMPTY]
    index: Count  # the next target to choose
    by: str  # what changes them, for the log


@stored("shuffle")
@dataclass(slots=True)
class ShuffleFrame(Frame):
    """A library shuffle that waits for the choices above it (a search's cards are chosen
    first, then the library is shuffled)."""

    player: PlayerIndex


@stored("cleanup")
@dataclass(slots=True)
class CleanupFrame(Frame):
    """The cleanup step's turn-based action after the discard to hand size (2007 CR 314.2-3;
    2012 514.2: damage wears off and "until end of turn" effects end)."""


@stored("mulligan")
@dataclass(slots=True)
class MulliganFrame(Frame):
    """Mulligans (2007 CR 101.4): ``player`` decides to keep or mulligan; the players decide in
    turn order from the starting player, each taking all their mulligans before the next."""

    player: PlayerIndex


@stored("attack")
@dataclass(slots=True)
class AttackFrame(Frame):
    """Declaring attackers (2007 CR 308.2), one attacker at a time; ``forced`` once the
    creatures that attack each turn if able are declared (2012 508.1d)."""

    player: PlayerIndex
    declared: list[PermId]
    forced: bool = False
    whom: list[PlayerIndex] = field(default_factory=list)
    """Attack multiple players (2012 802.3): the player each of ``declared`` attacks."""


@stored("block")
@dataclass(slots=True)
class BlockFrame(Frame):
    """Declaring blockers (2007 CR 309.2), one (blocker, attacker) pair at a time."""

    player: PlayerIndex
    pairs: list[tuple[PermId, PermId]]


DelayedMoment = Literal["end_of_combat", "end_of_turn"]
"""When a delayed triggered ability triggers: at the beginning of the next such step."""


@stored(controller="ctrl", source="src")
@dataclass(frozen=True, slots=True)
class DelayedTrigger(Stored):
    """A delayed triggered ability waiting for its moment (2012 603.7: created by a resolving
    spell or ability, it triggers once, at the beginning of the next ``at`` step, and is then
    gone; ``turn_structure.add_delayed_trigger``). Never changed: copies share it."""

    at: DelayedMoment
    controller: PlayerIndex
    source: ObjectId | None
    """Its source (603.7d-e); it may have left play since."""
    name: str
    card: str
    text: str
    effects: Annotated[list[dict[str, Any]], Refers("effects"), SHARED]
    """What it does, as compiled effect specs."""


@stored(controller="ctrl", source="src", ability_index="ab", ability="abl",
        source_colors="src_colors", source_tapped="src_tapped", source_card="src_card")
@dataclass(slots=True)
class PendingTrigger(Stored):
    """A triggered ability that triggered and waits to be put on the stack the next time a
    player would receive priority (2007 CR 410.5; ``Game.pending``, then a :class:`PutFrame`'s
    queue), with what the stack object it becomes needs (``triggers.place_trigger``)."""

    controller: PlayerIndex
    name: str
    """The source's label (the stack object's name)."""
    text: str
    """The ability's text (the order decision's option says it)."""
    source: ObjectId | None = None
    """The permanent it came from (it may have left play since); None for a card outside
    play (``source_card``) or a rules trigger without one."""
    ability_index: int = -1
    """The ability's index on its card (-1: a delayed or rules trigger)."""
    ability: Any = None
    """The :class:`~mtg_env.engine.abilities.TriggeredAbility` (stored as its reference)."""
    card: str = ""
    """The source's card name."""
    event: Annotated[dict[str, Any], SHARED] = field(default_factory=dict)
    """The event it triggered on (replaced, never changed in place: copies share it)."""
    source_colors: str | None = None
    """The source's colours when it triggered ("" colourless; None: none recorded)."""
    source_tapped: bool | None = None
    """Whether the source was tapped when it left play (last known information)."""
    source_card: CardId | None = None
    """The card of an ability working from a graveyard (Squee, Goblin Nabob)."""
    special: Literal["", "gain_life"] = ""
    """A rules trigger with its own effect: ``gain_life`` (lifelink, 2007 CR 502.68)."""
    amount: int = 0
    """The life a ``gain_life`` trigger gains."""
    effects: Annotated[list[dict[str, Any]], Refers("effects"), SHARED] | None = None
    """A delayed triggered ability's effects (2012 603.7), compiled effect specs."""


@stored("put", queues="q")
@dataclass(slots=True)
class PutFrame(Frame):
    """Putting waiting triggered abilities on the stack (2007 CR 410.5): the active player's
    first, each player ordering their own (``queues[player]``)."""

    order: tuple[PlayerIndex, ...]  # the active player, then the others in turn order (APNAP)
    queues: Annotated[list[list[PendingTrigger]], COPY_ITEMS]

    def next_player(self, default: int) -> int:
        """The player whose triggers go on the stack next (``default`` once none is left)."""
        for pl in self.order:
            if self.queues[pl]:
                return pl
        return default


@stored(remaining="rem", recipients="recips", index="ri")
@dataclass(slots=True)
class AssignCursor(Stored):
    """The creature whose combat damage is being assigned (2007 CR 310.4c): ``remaining`` damage
    to its ``recipients`` in turn, ``got`` what each earlier one received; or, with ``ask``, the
    question whether it assigns as though it weren't blocked (Rhox; 2012 510.1c)."""

    perm_id: PermId
    ask: bool = False
    remaining: int = 0
    # (kind, id) references, blockers in order; never changed in place
    recipients: Annotated[list[Annotated[tuple[str, int], Refers("ref")]], SHARED] | None = None
    index: Count = 0  # the recipient being assigned to
    got: list[int] | None = None


@stored("assign", next_index="qi", assigned="out", current="cur", first_strike="fs")
@dataclass(slots=True)
class AssignFrame(Frame):
    """Assigning combat damage (2007 CR 310.4; combat.py), one creature after another from
    ``queue`` (attackers first); ``assigned`` the assignments so far, each ``[source, kind,
    id, amount, label, colors, controller, unblocked]``, dealt at once afterwards (310.5)."""

    queue: Annotated[list[ObjectId], SHARED]
    next_index: Count = 0
    assigned: list[list[Any]] = field(default_factory=list)
    current: AssignCursor | None = None
    first_strike: bool = False  # the first-strike combat damage step (310.4b)
