"""Damage divided among targets as the spell is played (2007 CR 409.1d; 2012 601.2d: "If the spell
or ability requires the player to divide or distribute an effect (such as damage or counters)
among one or more targets, the player announces the division. Each of these targets must receive
at least one"; 2012 608.2b: on resolution an illegal target is not affected, and the division
among the others doesn't change).

A target spec's ``divided: true`` (with ``count: up_to_X``: any number of targets) and the one
effect ``deal_damage ... divided: true``: X is chosen first (409.1c), then 1..X targets (none if
X = 0), then one DIVIDE decision per target but the last (which gets the rest), each option an
amount that leaves at least 1 for every later target. The shares are part of the spell on the
stack (``StackItem.data.divided``, the log, the view) and survive a JSON round trip.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mtg_env import DecisionKind, Game
from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
from mtg_env.engine.errors import CardDataError
from mtg_env.testing import Scenario

K = DecisionKind
FACTS = load_facts()["cards"]
NEEDLE = yaml.safe_load((DATA_DIR / "direct_damage.yaml").read_text())
LIB = ["Island"] * 5


def _attack(attackers: list, blockers: list | None = None, plains: int = 6) -> Scenario:
    """Player 0 attacks with ``attackers``; player 1 (the defender) holds Hail of Arrows and has
    priority in the declare-blockers step."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": LIB, "in_play": [{"card": c, "attacking": True} if isinstance(c, str) else c
                                     for c in attackers] + list(blockers or ())},
        {"library": LIB, "hand": ["Hail of Arrows"], "in_play": ["Plains"] * plains}]})
    s.pass_priority(1)
    assert s.game.decision.player == 1
    return s


def _load(tmp_path: Path, change) -> list:
    entry = copy.deepcopy(NEEDLE["Hail of Arrows"])
    change(entry)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"Hail of Arrows": entry}))
    return load_file(path, FACTS)


def test_x_then_one_to_x_targets_then_the_division() -> None:
    """409.1c-d: X first; then targets, at least one (each must get 1 of the X damage) and at most
    X ("done" only after the first); then the division, one decision per target but the last."""
    s = _attack(["Grizzly Bears", "Hill Giant", "Craw Wurm"])
    s.do("play Hail of Arrows", "X=2")
    assert s.game.decision.kind is K.TARGET
    assert "done" not in s.options() and len(s.options()) == 3
    s.do("target Grizzly Bears")
    assert "done" in s.options()
    s.do("target Hill Giant")
    # two targets for X = 2: each gets 1, no choice is left to make
    assert s.game.decision.kind is K.PRIORITY
    assert s.game.stack[-1].data.divided == [["o", s.perm("Grizzly Bears").id, 1],
                                                ["o", s.perm("Hill Giant").id, 1]]


def test_at_most_x_targets() -> None:
    """Each target gets at least 1: with X = 1 only one target is chosen (no third decision)."""
    s = _attack(["Grizzly Bears", "Hill Giant"])
    s.do("play Hail of Arrows", "X=1", "target Hill Giant")
    assert s.game.decision.kind is K.PRIORITY
    assert s.game.stack[-1].data.divided == [["o", s.perm("Hill Giant").id, 1]]


def test_division_options_leave_at_least_one_for_each_later_target() -> None:
    """601.2d: X = 5 among three targets: the first gets 1..3, the second 1..(rest - 1), the last
    the rest; the decision names the recipient and the damage left."""
    s = _attack(["Grizzly Bears", "Hill Giant", "Craw Wurm"])
    s.do("play Hail of Arrows", "X=5", "target Grizzly Bears", "target Hill Giant",
         "target Craw Wurm")
    d = s.game.decision
    assert d.kind is K.DIVIDE and d.player == 1
    assert s.options() == [f"assign {n} damage to Grizzly Bears" for n in (1, 2, 3)]
    assert d.context["remaining"] == 5
    assert d.context["recipient"] == ["o", s.perm("Grizzly Bears").id]
    s.do("assign 2 damage to Grizzly Bears")
    assert s.options() == ["assign 1 damage to Hill Giant", "assign 2 damage to Hill Giant"]
    assert s.game.decision.context["remaining"] == 3
    s.do("assign 1 damage to Hill Giant")
    assert s.game.decision.kind is K.PRIORITY
    assert [e[2] for e in s.game.stack[-1].data.divided] == [2, 1, 2]
    assert "targeting Grizzly Bears (2 damage), Hill Giant (1 damage), Craw Wurm (2 damage)" \
        in s.game.log[-1]
    view = s.game.view(0).stack[-1]
    assert [n for _, n in view.divided] == [2, 1, 2]
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Hill Giant", 1)
    s.assert_damage("Craw Wurm", 2)


def test_x_zero_takes_no_target_and_does_nothing() -> None:
    """X = 0: zero damage to divide, so no target (any number includes none)."""
    s = _attack(["Grizzly Bears"])
    s.do("play Hail of Arrows", "X=0")
    assert s.game.decision.kind is K.PRIORITY
    assert s.game.stack[-1].targets == []
    s.resolve()
    s.assert_damage("Grizzly Bears", 0)
    s.assert_zone(1, "graveyard", "Hail of Arrows")


def test_without_a_legal_target_only_x_zero() -> None:
    """X > 0 needs a target for its damage (601.2d): with no attacking creature only X = 0."""
    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [
        {"library": LIB, "in_play": ["Grizzly Bears"]},
        {"library": LIB, "hand": ["Hail of Arrows"], "in_play": ["Plains"] * 3}]})
    s.do("play Hail of Arrows")
    assert s.options() == ["X=0"]


def test_an_illegal_target_gets_nothing_and_the_rest_is_not_redistributed() -> None:
    """608.2b (the Gatherer ruling: "the division of damage among the remaining creatures
    doesn't change"): Grizzly Bears, given 2 of 5, dies to a Shock in response; Craw Wurm is
    dealt its 3, not 5."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": LIB, "in_play": [{"card": "Grizzly Bears", "attacking": True},
                                     {"card": "Craw Wurm", "attacking": True}]},
        {"library": LIB, "hand": ["Hail of Arrows", "Shock"],
         "in_play": ["Plains"] * 6 + ["Mountain"]}]})
    s.pass_priority(1)
    s.do("play Hail of Arrows", "X=5", "target Grizzly Bears", "target Craw Wurm",
         "assign 2 damage to Grizzly Bears")
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()  # Shock
    s.assert_in_play("Grizzly Bears", False)
    s.resolve()  # Hail of Arrows
    s.assert_damage("Craw Wurm", 3)
    s.assert_in_play("Craw Wurm")


def test_all_targets_illegal_counters_it() -> None:
    """2007 CR 413.2a: its only target is no longer attacking (removed from combat) on
    resolution: it is countered and deals no damage."""
    s = _attack(["Grizzly Bears"])
    s.do("play Hail of Arrows", "X=1", "target Grizzly Bears")
    s.perm("Grizzly Bears").attacking = False  # removed from combat
    s.resolve()
    s.assert_damage("Grizzly Bears", 0)
    assert any("countered" in line for line in s.game.log[-3:])


def test_division_survives_a_json_round_trip_mid_division() -> None:
    """The division is game state: a game saved between two division decisions loads (the
    state checker accepts it) and continues identically."""
    s = _attack(["Grizzly Bears", "Hill Giant", "Craw Wurm"])
    s.do("play Hail of Arrows", "X=5", "target Grizzly Bears", "target Hill Giant",
         "target Craw Wurm", "assign 2 damage to Grizzly Bears")
    g = s.game
    h = Game.from_json(g.to_json())
    assert h.to_json() == g.to_json()
    for game in (g, h):
        game.apply("assign 1 damage to Hill Giant")
    assert g.to_json() == h.to_json()
    assert [e[2] for e in h.stack[-1].data.divided] == [2, 1, 2]


def test_a_division_with_a_bad_share_fails_the_state_check() -> None:
    """engine/loaded_state_schema.py: a share is [kind, id, amount >= 1]."""
    from mtg_env.engine.errors import StateError

    s = _attack(["Grizzly Bears", "Hill Giant"])
    s.do("play Hail of Arrows", "X=2", "target Grizzly Bears", "target Hill Giant")
    text = s.game.to_json()
    assert '"divided":[["o",' in text
    text = text.replace('"divided":[["o",', '"divided":[["x",')
    with pytest.raises(StateError):
        Game.from_json(text)


def test_divided_target_needs_a_count(tmp_path: Path) -> None:
    def change(e: dict) -> None:
        del e["spell"]["targets"][0]["count"]
    with pytest.raises(CardDataError, match="needs 'count: up_to_X'"):
        _load(tmp_path, change)


def test_divided_target_needs_a_divided_effect(tmp_path: Path) -> None:
    def change(e: dict) -> None:
        del e["spell"]["effects"][0]["divided"]
    with pytest.raises(CardDataError, match="exactly one effect with 'divided: true'"):
        _load(tmp_path, change)


def test_divided_effect_needs_a_divided_target(tmp_path: Path) -> None:
    def change(e: dict) -> None:
        del e["spell"]["targets"][0]["divided"]
    with pytest.raises(CardDataError, match="needs a 'divided' target spec"):
        _load(tmp_path, change)
