"""A scenario harness in the style of XMage's test base: set up a position, take actions by text,
assert the result.

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

from typing import Any

import yaml

from .engine.actions import DecisionKind
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
