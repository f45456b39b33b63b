"""The replacement and prevention framework (mtg_env/engine/replacement.py; 2007 CR 419, 2012
614-616): shields in ``game.replacements``, static effects gathered from permanents, the order
decision (2012 616.1), the fast path, and the env layer for the new decision kind."""

from __future__ import annotations

from agents import HeuristicAgent, MctsAgent, RandomAgent
from mtg_env import DecisionKind
from mtg_env.encoding import Observer
from mtg_env.engine import replacement as repl
from mtg_env.engine.continuous_effects import KeywordGrant
from mtg_env.engine.damage import deal_damage, destroy
from mtg_env.engine.layers import add_effect, fresh
from mtg_env.engine.replacement_effects import add_prevention_shield, add_regeneration_shield, applicable
from mtg_env.engine.replacement_events import DamageEvent
from mtg_env.engine.view import view_for
from mtg_env.engine.zones import leave_play
from mtg_env.testing import Scenario, main
from tests.encoding.helpers import check_decision

K = DecisionKind


def src(g, label: str, colors: str = "R", pid: int | None = None) -> dict:
    return {"pid": pid, "label": label, "colors": colors, "controller": 0}


def test_fast_path_no_effects() -> None:
    """With no shield, no replacement static and no protection nothing is checked: the event is
    dealt directly (``has_damage_effects`` is the fast path of ``deal_damage``)."""
    s = main({"in_play": ["Grizzly Bears", "Mountain"]}, {"in_play": ["Hill Giant"]})
    g = s.game
    bears = s.perm("Grizzly Bears")
    assert not repl.has_damage_effects(g, ("p", 1))
    assert not repl.has_damage_effects(g, ("o", bears.id))
    assert deal_damage(g, src(g, "test"), ("p", 1), 3) == 3
    assert g.players[1].life == 17


def test_shield_with_amount_is_reduced_then_used_up() -> None:
    """2007 CR 419.7 (2012 615.7): a shield preventing the next 3 damage prevents 2 of a 2-damage
    event and 1 of the next; then it is gone."""
    s = main({"in_play": ["Mountain"]})
    g = s.game
    add_prevention_shield(g, ("p", 1), 3, "test shield")
    assert deal_damage(g, src(g, "a"), ("p", 1), 2) == 0
    assert g.replacements[0].amount == 1
    assert deal_damage(g, src(g, "b"), ("p", 1), 2) == 1
    assert g.replacements == []
    assert g.players[1].life == 19


def test_shield_limited_to_a_source() -> None:
    """A shield restricted to one source ("the next N damage X would deal") leaves damage from
    other sources alone (2012 615.1a)."""
    s = main({"in_play": ["Grizzly Bears", "Hill Giant"]})
    g = s.game
    bears, giant = s.perm("Grizzly Bears"), s.perm("Hill Giant")
    add_prevention_shield(g, ("p", 1), None, "test shield", source=bears.id)
    assert deal_damage(g, src(g, "Hill Giant", "", giant.id), ("p", 1), 3) == 3
    assert deal_damage(g, src(g, "Grizzly Bears", "G", bears.id), ("p", 1), 2) == 0
    assert g.players[1].life == 17
    assert len(g.replacements) == 1  # "prevent all" from that source lasts the turn


def test_combat_only_shield() -> None:
    """A "prevent all combat damage" shield doesn't touch noncombat damage (2007 glossary
    "Prevention effect": Holy Day)."""
    s = main({"in_play": ["Mountain"]})
    g = s.game
    add_prevention_shield(g, None, None, "Holy Day-like", combat_only=True)
    assert deal_damage(g, src(g, "a"), ("p", 1), 2) == 2
    assert deal_damage(g, src(g, "b"), ("p", 1), 2, combat=True) == 0


def test_protection_prevents_and_doubling_does_not_matter() -> None:
    """2012 702.15: protection from red prevents all damage from red sources. With Furnace of Rath
    both orders give 0 and no shield is spent, so nobody is asked."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Furnace of Rath"]},
             {"in_play": ["Hill Giant"]})
    g = s.game
    giant = s.perm("Hill Giant")
    add_effect(g, KeywordGrant(pid=giant.id, add=("protection_from_red",), until="eot"))
    fresh(g)
    ev = DamageEvent(src(g, "Shock"), ("o", giant.id), 2)
    assert [x.name for x in applicable(g, ev)] == [
        "Furnace of Rath", "protection from red (Hill Giant)"]
    assert repl.order_choice(g, ev) is None
    assert deal_damage(g, src(g, "Shock"), ("o", giant.id), 2) == 0
    assert giant.damage == 0
    # a green source is not prevented, and is doubled
    assert deal_damage(g, src(g, "Bears", "G"), ("o", giant.id), 1) == 2


def test_protection_and_a_shield_are_ordered() -> None:
    """Protection and a 1-damage shield on the same creature: prevention first by protection
    keeps the shield, the shield first spends it; the results differ, so the controller of the
    creature chooses (2012 616.1)."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Goblin Piker", "id": "k", "attacking": True}]},
        {"in_play": [{"card": "Hill Giant", "blocking": ["k"]}]}]})
    g = s.game
    giant = s.perm("Hill Giant")
    add_effect(g, KeywordGrant(pid=giant.id, add=("protection_from_red",), until="eot"))
    fresh(g)
    add_prevention_shield(g, ("o", giant.id), 1, "shield")
    s.pass_priority(4)  # to the combat damage step, then the combat damage resolves
    d = g.decision
    assert d.kind is K.ORDER_REPLACEMENTS and d.player == 1
    assert [a.text for a in d.options] == ["apply protection from red (Hill Giant) first",
                                           "apply prevention shield (shield) first"]
    s.do("apply protection from red (Hill Giant) first")
    assert giant.damage == 0 and len(g.replacements) == 1
    assert not s.in_play("Goblin Piker")  # the Giant's 3 was dealt in the same event


def test_each_effect_applies_once_and_redirect_is_rechecked() -> None:
    """2012 616.1: after one effect applies, the event is checked again; an effect that already
    applied doesn't apply again. Pariah moves the damage to the creature, where Furnace (already
    applied) doesn't double it again."""
    s = main({"in_play": ["Mountain", "Furnace of Rath"]},
             {"in_play": [{"card": "Enormous Baloth", "id": "b"},
                          {"card": "Pariah", "attached_to": "b"}]})
    g = s.game
    ev = DamageEvent(src(g, "x"), ("p", 1), 3)
    assert repl.outcomes(g, ev) == {("damage", ("o", s.perm("Enormous Baloth").id), 6, ())}


def test_identical_regeneration_shields_need_no_decision() -> None:
    """Two regeneration shields on one creature are identical: the one destruction uses one of
    them (2007 CR 419.6b), no decision; the other stays."""
    s = main({"in_play": ["Drudge Skeletons"]})
    g = s.game
    sk = s.perm("Drudge Skeletons")
    add_regeneration_shield(g, sk, "a")
    add_regeneration_shield(g, sk, "b")
    assert sk.regen_shields == 2
    assert destroy(g, sk) is False
    assert sk.regen_shields == 1 and len(g.replacements) == 1 and sk.tapped
    assert destroy(g, sk) is False
    assert destroy(g, sk) is True


def test_cant_be_regenerated_ignores_shields() -> None:
    """"It can't be regenerated" (Terror): the shield doesn't apply to that destruction."""
    s = main({"in_play": ["Drudge Skeletons"]})
    g = s.game
    sk = s.perm("Drudge Skeletons")
    add_regeneration_shield(g, sk, "a")
    assert destroy(g, sk, no_regen=True) is True


def furnace_bandage_decision() -> Scenario:
    s = main({"hand": ["Bandage", "Shock"], "library": ["Forest"],
              "in_play": ["Plains", "Mountain", "Furnace of Rath"]})
    s.do("play Bandage", "target player 1", "pass", "pass")
    s.do("play Shock", "target player 1", "pass", "pass")
    assert s.game.decision.kind is K.ORDER_REPLACEMENTS
    return s


def test_order_decision_context_lists_outcomes() -> None:
    """The decision context gives, per option, the results it can lead to (target and damage):
    prevent first ends at 2, double first at 3."""
    d = furnace_bandage_decision().game.decision
    outs = {e["key"][0]: e["outcomes"] for e in d.context["effects"]}
    assert outs == {"s": [["p", 1, 3]], "r": [["p", 1, 2]]}


def test_heuristic_orders_to_take_the_least_damage() -> None:
    """The heuristic agent picks the order best for itself: damage to itself, so prevent after
    doubling (3) is worse than prevent first (2)."""
    s = furnace_bandage_decision()
    agent = HeuristicAgent(strict=True)
    agent.reset(1, 0)
    assert agent.act(view_for(s.game, 1)).text == "apply prevention shield (Bandage) first"


def test_observer_maps_order_options_to_the_order_band() -> None:
    """The env layer: each option maps to one index of the ``order`` band, and the triggers table
    lists the effects in that order (their source cards)."""
    s = furnace_bandage_decision()
    obs = Observer()
    o, mask = obs.observe(s.game, 1)
    lay = obs.act_layout
    legal = [i for i, m in enumerate(mask) if m]
    assert [lay.locate(i) for i in legal] == [("order", 0), ("order", 1)]
    assert o["triggers"][0][0] == 1 and o["triggers"][1][0] == 1 and o["triggers"][2][0] == 0
    decoded = obs.legal(s.game)
    assert decoded[legal[1]].text == "apply prevention shield (Bandage) first"
    check_decision(obs, s.game)  # the mask bijection checks of tests/encoding


def test_every_agent_answers_the_order_decision() -> None:
    """Random and search agents handle the new decision kind like any other (a legal option;
    the search plays on copies of a game suspended in the middle of the event)."""
    s = furnace_bandage_decision()
    texts = set(s.options())
    for agent in (RandomAgent(), MctsAgent(iterations=6, depth=20)):
        agent.reset(1, 3)
        assert agent.act(view_for(s.game, 1)).text in texts
    assert s.game.decision.kind is K.ORDER_REPLACEMENTS


def test_shield_outlives_its_source() -> None:
    """Shields are plain data, independent of their source (2007 CR 419.7): Samite Healer's
    shield still works after the Healer left play."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain", "Samite Healer"]})
    s.do("activate Samite Healer", "target player 1")
    s.resolve()
    g = s.game
    leave_play(g, s.perm("Samite Healer"), "graveyard")
    s.do("play Shock", "target player 1")
    s.resolve()
    s.assert_life(1, 19)
    assert g.replacements == []
