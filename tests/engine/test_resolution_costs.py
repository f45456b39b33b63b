"""Engine tests for costs paid while something resolves (the ``unless_pays`` / ``may_pay`` ops
and their ``pay`` frame), the total cost of a spell with increases and reductions (2007 CR
409.1f), and the ``draw_step`` trigger event.

Rules: 2012 608.2d (a choice on resolution is made by the player the effect names), 2007 CR 411.2
(mana abilities may be played while paying a cost), 2007 CR 409.1f (total cost = mana cost plus
increases minus reductions; generic reductions don't reduce colored requirements), 2007 CR 304.1
(the draw is a turn-based action; "at the beginning of your draw step" triggers wait for priority).
"""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.engine.casting import spell_cost
from mtg_env.engine.ids import new_object_id
from mtg_env.engine.serialize import game_from_json, game_to_json
from mtg_env.engine.zones import leave_play
from mtg_env.testing import Scenario

K = DecisionKind


def test_payer_is_the_spells_controller_and_mana_abilities_pay_even_with_manual_mana() -> None:
    """2007 CR 411.2: the payer may play mana abilities while paying. With manual mana and an
    empty pool, player 0 (the spell's controller, not the ability's) is still asked and the
    payment taps their untapped Forest."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Forest"] * 3, "hand": ["Grizzly Bears"]},
        {"in_play": ["Spiketail Hatchling"]}]}, manual_mana=True)
    s.do("tap Forest for G", "tap Forest#2 for G", "play Grizzly Bears")
    s.pass_priority()
    s.do("activate Spiketail Hatchling", "target Grizzly Bears")
    s.pass_priority(2)
    assert s.game.decision.kind is K.YES_NO and s.game.decision.player == 0
    s.do("yes")
    assert s.perm("Forest#3").tapped
    s.resolve()
    s.assert_in_play("Grizzly Bears")


def test_floating_mana_is_spent_before_tapping() -> None:
    """The automatic payer spends floating mana first (2007 CR 409.1h, as for any cost): with
    {G} floating, paying {1} taps no land."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Forest"] * 4, "hand": ["Grizzly Bears"]},
        {"in_play": ["Spiketail Hatchling"]}]}, manual_mana=True)
    s.do("tap Forest for G", "tap Forest#2 for G", "tap Forest#3 for G", "play Grizzly Bears")
    s.pass_priority()
    s.do("activate Spiketail Hatchling", "target Grizzly Bears")
    s.pass_priority(2)
    s.do("yes")
    assert not s.perm("Forest#4").tapped
    assert sum(s.game.players[0].mana_pool) == 0


def test_pay_decision_survives_a_json_round_trip() -> None:
    """The game state stays JSON-serialisable while a payment question is pending: the restored
    game asks the same question and the answer has the same effect."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Hidden Horror", "Grizzly Bears"], "in_play": ["Swamp"] * 3}, {}]})
    s.do("play Hidden Horror")
    s.resolve()
    s.resolve()
    g = game_from_json(game_to_json(s.game))
    assert g.decision.kind is K.YES_NO
    g.apply("no")
    assert not any(p.card.name == "Hidden Horror" for p in g.permanents)


def test_payment_still_offered_after_the_source_left_play() -> None:
    """Hidden Horror ruling (2008-04-01): "If the creature is no longer on the battlefield when
    the ability resolves, you may still perform the action if you want." The trigger asks even
    after Hidden Horror left play; the sacrifice then does nothing."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Hidden Horror", "Grizzly Bears"], "in_play": ["Swamp"] * 3,
         "library": ["Swamp"]}, {}]})
    s.do("play Hidden Horror")
    s.resolve()
    horror = s.perm("Hidden Horror")
    leave_play(s.game, horror, "hand")
    s.resolve()
    assert s.game.decision.kind is K.YES_NO
    s.do("yes", "discard Grizzly Bears")
    s.assert_zone(0, "hand", "Hidden Horror")


def test_total_cost_adds_increases_and_subtracts_reductions() -> None:
    """2007 CR 409.1f: the total cost is the mana cost plus increases minus reductions; a
    reduction of generic mana never reduces colored symbols or goes below {0}."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Bottle Gnomes", "Avatar of Might", "Grizzly Bears"]},
        {"in_play": ["Aura of Silence"] + ["Grizzly Bears"] * 4}]})
    g = s.game
    hand = {c.name: c for c in g.players[0].hand}
    assert (spell_cost(g, 0, hand["Bottle Gnomes"]).generic, spell_cost(g, 0, hand["Bottle Gnomes"]).colored) == (5, (0,) * 5)
    avatar = spell_cost(g, 0, hand["Avatar of Might"])
    assert (avatar.generic, avatar.colored) == (0, (0, 0, 0, 0, 2))
    assert spell_cost(g, 0, hand["Grizzly Bears"]) is hand["Grizzly Bears"].cdef.cost
    # Player 1 (Aura of Silence's controller) pays the printed cost for its own spells.
    assert spell_cost(g, 1, hand["Bottle Gnomes"]).generic == 3


def test_draw_step_event_is_not_a_card_draw() -> None:
    """"At the beginning of your draw step" (``draw_step``) is the step, not drawing a card:
    drawing with a spell in the main phase doesn't trigger it (Razormane Masticore)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Razormane Masticore", "Island", "Island", "Island"],
         "hand": ["Counsel of the Soratami"], "library": ["Island"] * 3},
        {"in_play": ["Hill Giant"]}]})
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert not s.game.stack and len(s.game.players[0].hand) == 2


def test_a_payment_in_effects_carried_as_plain_data_is_answered() -> None:
    """A trigger that carries its effects as plain data (a rules or delayed trigger, as after a
    JSON load) can ask for a payment on resolution: the answer compiles the effect's parameters
    from the data (before, it read ``.args`` that only card-data effects have). Player 0 doesn't
    pay {1}, so the effect happens (2012 608.2d)."""
    from mtg_env.engine.model import StackItem
    from mtg_env.engine.stack_data import StackData

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Forest"], "life": 10}, {}]})
    g = s.game
    g.stack.append(StackItem(new_object_id(g), "triggered", 0, label="test trigger", data=StackData(effects=[
        {"op": "unless_pays", "mana": "{1}", "effects": [{"op": "gain_life", "amount": 3}]}])))
    s.pass_priority(2)
    assert g.decision.kind is K.YES_NO and g.decision.player == 0
    s.do("no")
    s.assert_life(0, 13)
    assert not s.perm("Forest").tapped
