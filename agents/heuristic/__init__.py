"""A competent rules-aware baseline player.

:class:`HeuristicAgent` reads the card definitions' rules data (effect ops, targets, keywords,
costs, static abilities) from the redacted view, so it plays cards it was never told about:

- **Mulligans**: keeps seven-card hands with two to five lands, six-card hands with two to four,
  anything smaller.
- **Lands and mana**: plays a land every turn (the one whose color the hand needs most) and never
  taps for mana by hand: costs are paid by the engine's automatic payer, so no mana floats and no
  mana burns.
- **Spells**: in the main phase it chooses the set of castable spells worth the most that its mana
  can pay for; removal and burn go to the target worth the most (the opponent's face when it is
  lethal); instants are held for the opponent's turn: removal on attackers or at end of turn,
  counterspells on spells worth countering, pump spells and regeneration to win fights or save a
  creature from damage or destruction on the stack (combat damage included, 2007 rules); once
  a regeneration is on its way above the threat, not again. Creatures with flash come in on the
  opponent's turn (after their attackers are declared, or at their end of turn); a cantrip
  instant is worth casting at the opponent's end of turn, where the mana would be lost anyway.
- **Combat**: attacks with creatures that can't be blocked profitably (no blocker or pair of
  blockers kills them without losing more, or the trade is in its favour), with everything when
  that is lethal, and keeps enough blockers home not to die on the crack-back. Blocks to kill
  attackers, trade up, absorb damage for free and chump only to survive; divides combat damage
  to kill the most.
- **Abilities**: pingers and other tap abilities at the opponent's end of turn, sacrifice
  abilities when the source is dying anyway or the effect is worth more than the source, equip
  on its best creature, tap effects at the beginning of combat: the opponent's, or its own when
  that opens an attack and the opponent's creatures can't punish it.
"""

from __future__ import annotations

from collections.abc import Callable

from mtg_env.engine.actions import Action, Decision, DecisionKind
from mtg_env.engine.model import Card
from mtg_env.engine.rules import tap_mana_ability
from mtg_env.engine.view import PermanentView, PlayerView

from ..base import BaseAgent
from .choices import ChoicePlay
from .combat import CombatPlay
from .common import K, log
from .priority import PriorityPlay
from .valuation import Valuation

__all__ = ["HeuristicAgent"]


class HeuristicAgent(PriorityPlay, CombatPlay, ChoicePlay, Valuation, BaseAgent):
    """A rules-aware scripted player (see the module docstring for what it does). It is
    deterministic: the same view always gets the same answer (``seed`` is accepted for the
    common agent signature).

    ``strict=True`` lets an internal error propagate (tests); by default an error is logged once
    and the agent falls back to a safe option, so a long simulation never dies on a card the
    heuristic mis-reads.
    """

    name = "heuristic"
    multiplayer = True  # at a table of more players it plays against one focus opponent at a time

    def __init__(self, seed: int = 0, strict: bool = False) -> None:
        super().__init__(seed)
        self.strict = strict
        self.errors = 0
        self._plan_key: tuple | None = None
        self._plan: list[tuple[int, ...]] = []
        self._redirect_depth = 0  # nesting of copy/retarget valuations (spells on spells)
        self._handlers: dict[DecisionKind, Callable[[PlayerView, Decision], Action | None]] = {
            K.MULLIGAN: self._mulligan,
            K.PRIORITY: self._priority,
            K.TARGET: self._target,
            K.MODE: self._mode,
            K.X_VALUE: self._x_value,
            K.DECLARE_ATTACKERS: self._attack,
            K.DECLARE_BLOCKERS: self._block,
            K.COMBAT_DAMAGE: self._assign,
            K.CHOOSE_CARDS: self._choose,
            K.YES_NO: self._yes_no,
            K.CHOOSE_PLAYER: self._choose_player,
            K.ORDER_REPLACEMENTS: self._order_replacements,
            K.CHOOSE_COLOR: self._choose_color,
            K.DIVIDE: self._divide,
            K.CHOOSE_CARD_NAME: self._name_card,
        }

    def reset(self, player: int, seed: int) -> None:
        super().reset(player, seed)
        self._plan_key = None
        self._plan = []

    # -- entry point --------------------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        if len(d.options) == 1:
            return d.options[0]
        handler = self._handlers.get(d.kind)
        try:
            choice = handler(view, d) if handler is not None else None
        except Exception:
            if self.strict:
                raise
            self.errors += 1
            if self.errors == 1:
                log.exception("HeuristicAgent failed on %s; falling back", d)
            choice = None
        return choice if choice is not None else self._fallback(d)

    def _fallback(self, d: Decision) -> Action:
        for verb in ("pass", "done", "keep", "no"):
            for a in d.options:
                if a.verb == verb:
                    return a
        return d.options[0]

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _hand(view: PlayerView) -> dict[int, Card]:
        return {c.cid: c for c in view.me.hand or ()}

    @staticmethod
    def _mana_sources(view: PlayerView, player: int, untapped_only: bool = True) -> list[PermanentView]:
        """The permanents of ``player`` with a {T}-only mana ability they could play now (or
        once untapped, with ``untapped_only=False``)."""
        out = []
        for p in view.permanents:
            if p.controller != player or (untapped_only and p.tapped):
                continue
            if tap_mana_ability(p, once_untapped=True) is not None:
                out.append(p)
        return out

    def _available_mana(self, view: PlayerView) -> int:
        return sum(view.me.mana_pool) + len(self._mana_sources(view, view.viewer))
