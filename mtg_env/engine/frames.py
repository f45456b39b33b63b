"""Procedures in progress as typed values: one slotted class per kind of procedure.

A procedure that needs several decisions (playing a spell, resolving one, declaring attackers,
an effect asking for a card) is a *frame* on ``Game.frames``, innermost last. This module holds
the base class and the frames of playing, resolving, combat and the turn; ``frames_effects``
those effects and replacement effects ask, ``frames_choice`` the choice of cards or permanents;
``frame_kinds`` lists them all by stored kind. ``Game._run`` runs
the top frame and ``Game._answer`` hands it the chosen option, both dispatching on the frame's
class (``game.py``). A frame holds only plain data (ints, strings, lists and dicts of them), so
each class's :meth:`Frame.copy` is a flat copy of its fields, the lists and dicts among them
copied one level (what the procedures mutate in place).

JSON: :meth:`Frame.to_json` stores a frame as an object whose ``"k"`` names its kind
(:attr:`Frame.KIND`) and whose short keys are the stored format's (``"pl"`` the player, ``"sid"``
the stack object, ``"st"`` the step); ``frame_kinds.frame_from_json`` reads it back. The stored form is
checked before it is read (``loaded_state_schema.FRAME``).

2007 CR 409.1 (:class:`CastStep`, the steps of playing a spell or ability) and 413.2
(:class:`ResolveStep`, the steps of resolving one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar


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


class Frame:
    """A procedure in progress. A frame about a stack object (playing it, resolving it, a
    choice it asks) names it ``item_id``."""

    __slots__ = ()
    KIND: ClassVar[str] = ""

    def copy(self) -> Frame:
        """An independent copy (lists and dicts of the frame's own copied)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The stored form: ``{"k": KIND, ...}`` with the stored format's keys."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Frame:
        """The frame of a stored form (already checked by ``loaded_state_schema.FRAME``)."""
        raise NotImplementedError


@dataclass(slots=True)
class CastFrame(Frame):
    """Playing a spell or activated ability (2007 CR 409.1), or choosing a triggered ability's
    targets as it is put on the stack (``trigger``: started at :attr:`CastStep.TARGETS`, ends
    after them; 410.4)."""

    KIND: ClassVar[str] = "cast"
    player: int
    item_id: int
    step: CastStep = CastStep.MODES
    trigger: bool = False
    targets_done: bool = False  # a variable number of targets is complete ("done" chosen)
    targets_text: str = ""  # " targeting ...", for the log line once played
    mana_due: tuple[int, tuple[int, ...]] | None = None  # (generic, colored) paid after the cost choices
    sacrifice_self: bool = False  # its source is sacrificed once the cost choices are paid

    def copy(self) -> CastFrame:
        return CastFrame(self.player, self.item_id, self.step, self.trigger, self.targets_done,
                         self.targets_text, self.mana_due, self.sacrifice_self)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"k": "cast", "pl": self.player, "sid": self.item_id,
                             "st": int(self.step)}
        if self.trigger:
            d["trigger"] = True
        if self.targets_done:
            d["tdone"] = True
        if self.step >= CastStep.PLAYED:
            d["tt"] = self.targets_text
        if self.mana_due is not None:
            d["mana"] = [self.mana_due[0], list(self.mana_due[1])]
        if self.sacrifice_self:
            d["sac_self"] = True
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CastFrame:
        mana = d.get("mana")
        return cls(d["pl"], d["sid"], CastStep(d["st"]), bool(d.get("trigger")),
                   bool(d.get("tdone")), d.get("tt") or "",
                   None if mana is None else (mana[0], tuple(mana[1])), bool(d.get("sac_self")))


@dataclass(slots=True)
class ResolveFrame(Frame):
    """Resolving the top stack object (2007 CR 413.2, 416)."""

    KIND: ClassVar[str] = "resolve"
    item_id: int
    step: ResolveStep = ResolveStep.CHECK
    effect_index: int = 0  # the next effect to run; past the last once a custom effect has run

    def copy(self) -> ResolveFrame:
        return ResolveFrame(self.item_id, self.step, self.effect_index)

    def to_json(self) -> dict[str, Any]:
        return {"k": "resolve", "sid": self.item_id, "i": self.effect_index, "st": int(self.step)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ResolveFrame:
        return cls(d["sid"], ResolveStep(d["st"]), d["i"])


@dataclass(slots=True)
class YesNoFrame(Frame):
    """A yes/no question a resolving ability asks ("you may": 2012 608.2d); the answer is kept
    as ``item.data[key]``."""

    KIND: ClassVar[str] = "yesno"
    player: int
    item_id: int
    key: str
    prompt: str

    def copy(self) -> YesNoFrame:
        return YesNoFrame(self.player, self.item_id, self.key, self.prompt)

    def to_json(self) -> dict[str, Any]:
        return {"k": "yesno", "pl": self.player, "key": self.key, "sid": self.item_id,
                "prompt": self.prompt}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> YesNoFrame:
        return cls(d["pl"], d["sid"], d["key"], d["prompt"])


@dataclass(slots=True)
class PayFrame(Frame):
    """A cost paid on resolution ("unless [a player] pays", "you may pay": ops/payment.py),
    asked by effect ``effect_index`` of the resolving object, whose resolve frame is below."""

    KIND: ClassVar[str] = "pay"
    player: int
    item_id: int
    effect_index: int
    mode: str  # "unless" or "may"
    prompt: str

    def copy(self) -> PayFrame:
        return PayFrame(self.player, self.item_id, self.effect_index, self.mode, self.prompt)

    def to_json(self) -> dict[str, Any]:
        return {"k": "pay", "pl": self.player, "sid": self.item_id, "ei": self.effect_index,
                "mode": self.mode, "prompt": self.prompt}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PayFrame:
        return cls(d["pl"], d["sid"], d["ei"], d["mode"], d["prompt"])


@dataclass(slots=True)
class RetargetFrame(Frame):
    """Changing a spell's targets, one decision per target (stack.py; 2012 114.6, 706.10c):
    ``mode`` "change" (Shunt) or "new" (a copy's new targets); ``old`` its targets before."""

    KIND: ClassVar[str] = "retarget"
    player: int
    item_id: int
    mode: str
    old: tuple[tuple[Any, ...], ...]
    index: int  # the next target to choose
    by: str  # what changes them, for the log

    def copy(self) -> RetargetFrame:
        return RetargetFrame(self.player, self.item_id, self.mode, self.old, self.index, self.by)

    def to_json(self) -> dict[str, Any]:
        return {"k": "retarget", "pl": self.player, "sid": self.item_id, "mode": self.mode,
                "old": [list(t) for t in self.old], "i": self.index, "by": self.by}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RetargetFrame:
        return cls(d["pl"], d["sid"], d["mode"], tuple(tuple(t) for t in d["old"]), d["i"],
                   d["by"])


@dataclass(slots=True)
class ShuffleFrame(Frame):
    """A library shuffle that waits for the choices above it (a search's cards are chosen
    first, then the library is shuffled)."""

    KIND: ClassVar[str] = "shuffle"
    player: int

    def copy(self) -> ShuffleFrame:
        return ShuffleFrame(self.player)

    def to_json(self) -> dict[str, Any]:
        return {"k": "shuffle", "pl": self.player}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ShuffleFrame:
        return cls(d["pl"])


@dataclass(slots=True)
class CleanupFrame(Frame):
    """The cleanup step's turn-based action after the discard to hand size (2007 CR 314.2-3;
    2012 514.2: damage wears off and "until end of turn" effects end)."""

    KIND: ClassVar[str] = "cleanup"

    def copy(self) -> CleanupFrame:
        return CleanupFrame()

    def to_json(self) -> dict[str, Any]:
        return {"k": "cleanup"}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CleanupFrame:
        return cls()


@dataclass(slots=True)
class MulliganFrame(Frame):
    """Mulligans (2007 CR 101.4): ``player`` decides to keep or mulligan; ``second`` once the
    starting player has kept."""

    KIND: ClassVar[str] = "mulligan"
    player: int
    second: bool = False

    def copy(self) -> MulliganFrame:
        return MulliganFrame(self.player, self.second)

    def to_json(self) -> dict[str, Any]:
        return {"k": "mulligan", "pl": self.player, "second": self.second}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MulliganFrame:
        return cls(d["pl"], d["second"])


@dataclass(slots=True)
class AttackFrame(Frame):
    """Declaring attackers (2007 CR 308.2), one attacker at a time; ``forced`` once the
    creatures that attack each turn if able are declared (2012 508.1d)."""

    KIND: ClassVar[str] = "attack"
    player: int
    declared: list[int]
    forced: bool = False

    def copy(self) -> AttackFrame:
        return AttackFrame(self.player, self.declared[:], self.forced)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"k": "attack", "pl": self.player, "declared": self.declared[:]}
        if self.forced:
            d["forced"] = True
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AttackFrame:
        return cls(d["pl"], list(d["declared"]), bool(d.get("forced")))


@dataclass(slots=True)
class BlockFrame(Frame):
    """Declaring blockers (2007 CR 309.2), one (blocker, attacker) pair at a time."""

    KIND: ClassVar[str] = "block"
    player: int
    pairs: list[tuple[int, int]]

    def copy(self) -> BlockFrame:
        return BlockFrame(self.player, self.pairs[:])

    def to_json(self) -> dict[str, Any]:
        return {"k": "block", "pl": self.player, "pairs": [list(p) for p in self.pairs]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BlockFrame:
        return cls(d["pl"], [(b, a) for b, a in d["pairs"]])


@dataclass(slots=True)
class PutFrame(Frame):
    """Putting waiting triggered abilities on the stack (2007 CR 410.5): the active player's
    first, each player ordering their own (``queues[player]``: the pending trigger dicts)."""

    KIND: ClassVar[str] = "put"
    order: tuple[int, int]  # the active player, then the other
    queues: list[list[dict[str, Any]]]  # by player

    def copy(self) -> PutFrame:
        q = self.queues
        return PutFrame(self.order, [q[0][:], q[1][:]])

    def to_json(self) -> dict[str, Any]:
        return {"k": "put", "order": list(self.order),
                "q": {str(pl): self.queues[pl] for pl in self.order}}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PutFrame:
        q = d["q"]
        return cls((d["order"][0], d["order"][1]), [list(q["0"]), list(q["1"])])

    def next_player(self, default: int) -> int:
        """The player whose triggers go on the stack next (``default`` once none is left)."""
        for pl in self.order:
            if self.queues[pl]:
                return pl
        return default


@dataclass(slots=True)
class AssignCursor:
    """The creature whose combat damage is being assigned (2007 CR 310.4c): ``remaining`` damage
    to its ``recipients`` in turn, ``got`` what each earlier one received; or, with ``ask``, the
    question whether it assigns as though it weren't blocked (Rhox; 2012 510.1c)."""

    perm_id: int
    ask: bool = False
    remaining: int = 0
    recipients: list[Any] | None = None  # (kind, id) references, blockers in order
    index: int = 0  # the recipient being assigned to
    got: list[int] | None = None

    def copy(self) -> AssignCursor:
        got = self.got
        return AssignCursor(self.perm_id, self.ask, self.remaining, self.recipients, self.index,
                            None if got is None else got[:])

    def to_json(self) -> dict[str, Any]:
        if self.ask:
            return {"pid": self.perm_id, "ask": True}
        return {"pid": self.perm_id, "rem": self.remaining, "recips": self.recipients,
                "ri": self.index, "got": self.got}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AssignCursor:
        if d.get("ask"):
            return cls(d["pid"], True)
        return cls(d["pid"], False, d["rem"], d["recips"], d["ri"], list(d["got"]))


@dataclass(slots=True)
class AssignFrame(Frame):
    """Assigning combat damage (2007 CR 310.4; combat.py), one creature after another from
    ``queue`` (attackers first); ``assigned`` the assignments so far, each ``[source, kind,
    id, amount, label, colors, controller, unblocked]``, dealt at once afterwards (310.5)."""

    KIND: ClassVar[str] = "assign"
    queue: list[int]
    next_index: int = 0
    assigned: list[list[Any]] = field(default_factory=list)
    current: AssignCursor | None = None
    first_strike: bool = False  # the first-strike combat damage step (310.4b)

    def copy(self) -> AssignFrame:
        cur = self.current
        return AssignFrame(self.queue, self.next_index, self.assigned[:],
                           None if cur is None else cur.copy(), self.first_strike)

    def to_json(self) -> dict[str, Any]:
        cur = self.current
        return {"k": "assign", "queue": self.queue, "qi": self.next_index, "out": self.assigned,
                "cur": None if cur is None else cur.to_json(), "fs": self.first_strike}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AssignFrame:
        cur = d["cur"]
        return cls(list(d["queue"]), d["qi"], list(d["out"]),
                   None if cur is None else AssignCursor.from_json(cur), bool(d.get("fs")))
