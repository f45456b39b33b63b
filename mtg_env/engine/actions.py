"""Actions (the options of a decision) and decisions.

An :class:`Action` is a small immutable value with a text form, like python-chess's ``Move``:
``str(action)`` is unique within its decision and can be passed back to ``Game.apply``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class DecisionKind(str, Enum):
    """Every kind of choice a player makes."""

    MULLIGAN = "mulligan"
    PRIORITY = "priority"
    TARGET = "target"
    MODE = "mode"
    X_VALUE = "x_value"
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    COMBAT_DAMAGE = "combat_damage"
    ORDER_TRIGGERS = "order_triggers"
    CHOOSE_CARDS = "choose_cards"
    YES_NO = "yes_no"
    CHOOSE_COLOR = "choose_color"
    CHOOSE_PLAYER = "choose_player"
    PAY_MANA = "pay_mana"
    ORDER_REPLACEMENTS = "order_replacements"
    DIVIDE = "divide"
    CHOOSE_CARD_NAME = "choose_card_name"

    def __str__(self) -> str:
        return self.value


class Action:
    """One option of a decision.

    ``verb`` says what kind of option it is (``pass``, ``play``, ``activate``, ``mana``,
    ``target``, ``attack``, ``block``, ``assign``, ``choose``, ``done``, ``yes``, ``no``, ``x``,
    ``mode``, ``order``, ``keep``, ``mulligan``, ``color``, ``player``, ``name``); ``args`` holds
    the ids
    involved; ``text`` is the human/text form.

    >>> Action("pass", "pass")
    Action('pass')
    """

    __slots__ = ("args", "text", "verb")

    def __init__(self, verb: str, text: str, args: tuple[Any, ...] = ()) -> None:
        self.verb = verb
        self.text = text
        self.args = args

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text and self.verb == other.verb and self.args == other.args
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.verb, self.text))

    def to_json(self) -> list[Any]:
        return [self.verb, self.text, [list(a) if isinstance(a, tuple) else a for a in self.args]]

    @classmethod
    def from_json(cls, data: list[Any]) -> Action:
        verb, text, args = data
        return cls(verb, text, tuple(tuple(a) if isinstance(a, list) else a for a in args))


PASS = Action("pass", "pass")
DONE = Action("done", "done")
YES = Action("yes", "yes")
NO = Action("no", "no")
KEEP = Action("keep", "keep")
MULLIGAN = Action("mulligan", "mulligan")


class Decision:
    """A pending choice: who decides, what kind of choice, and every legal option.

    ``context`` carries machine-readable details for observers (the spell being played,
    the attacker being assigned, damage left to divide, ...).
    """

    __slots__ = ("_by_text", "context", "kind", "options", "player", "prompt")

    def __init__(self, player: int, kind: DecisionKind, options: list[Action], prompt: str,
                 context: dict[str, Any] | None = None) -> None:
        self.player = player
        self.kind = kind
        self.options = options
        self.prompt = prompt
        self.context = context if context is not None else {}
        self._by_text: dict[str, Action] | None = None

    def find(self, text: str) -> Action | None:
        if self._by_text is None:
            self._by_text = {a.text: a for a in self.options}
        return self._by_text.get(text)

    def __repr__(self) -> str:
        return f"<Decision P{self.player} {self.kind.value}: {[a.text for a in self.options]}>"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind.value, "prompt": self.prompt,
                "options": [a.to_json() for a in self.options], "context": self.context}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(data["player"], DecisionKind(data["kind"]),
                   [Action.from_json(a) for a in data["options"]], data["prompt"],
                   data.get("context") or {})
