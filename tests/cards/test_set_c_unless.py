"""Scenario tests for the cards built on costs paid on resolution ("unless",
"you may pay") and cost modification: Hidden Horror, Llanowar Sentinel, Razormane Masticore,
Spiketail Hatchling, Aura of Silence, Avatar of Might.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR: 409.1f (total cost: printed cost plus increases minus reductions), 2012 608.2d (choices on
resolution, made by the player the effect names), 2012 601.2e/ 2007 409.1f (a generic reduction
can't reduce colored requirements).
"""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, logged, main, upkeep_of

K = DecisionKind


def count(s: Scenario, name: str, zone: str = "in_play", player: int = 0) -> int:
    """How many cards named ``name`` are in play (any controller) or in a player's zone."""
    if zone == "in_play":
        return sum(p.card.name == name for p in s.game.permanents)
    return sum(c.name == name for c in getattr(s.game.players[player], zone))


# -- Hidden Horror ------------------------------------------------------------------------------
HORROR = {"hand": ["Hidden Horror", "Grizzly Bears", "Shock"], "in_play": ["Swamp"] * 3}


def cast_horror(s: Scenario) -> None:
    s.do("play Hidden Horror")
    s.resolve()  # the creature spell; its trigger goes on the stack
    s.resolve()  # the trigger asks


def test_hidden_horror_stays_when_a_creature_card_is_discarded() -> None:
    """Hidden Horror: "When Hidden Horror comes into play, sacrifice it unless you discard a
    creature card." Player 0 discards Grizzly Bears (the only creature card: Shock can't be
    chosen) and keeps the 4/4 (2012 608.2d: the choice is made on resolution)."""
    s = main(HORROR)
    cast_horror(s)
    assert s.game.decision.kind is K.YES_NO and s.game.decision.player == 0
    s.do("yes")
    assert s.options() == ["discard Grizzly Bears"]
    s.do("discard Grizzly Bears")
    s.assert_in_play("Hidden Horror")
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.assert_zone(0, "hand", "Shock")


def test_hidden_horror_is_sacrificed_when_its_controller_declines() -> None:
    """Hidden Horror: "... sacrifice it unless you discard a creature card." Declining to
    discard sacrifices it; the hand is untouched."""
    s = main(HORROR)
    cast_horror(s)
    s.do("no")
    s.assert_in_play("Hidden Horror", False)
    s.assert_zone(0, "graveyard", "Hidden Horror")
    s.assert_zone(0, "hand", "Grizzly Bears")


def test_hidden_horror_without_a_creature_card_is_sacrificed_without_a_question() -> None:
    """Hidden Horror: "unless you discard a creature card": with only noncreature cards in hand
    the cost can't be paid (2008-04-01 ruling: "If you can't perform the other action, then you
    must sacrifice the creature"), so nobody is asked."""
    s = main({"hand": ["Hidden Horror", "Shock"], "in_play": ["Swamp"] * 3})
    s.do("play Hidden Horror")
    s.resolve()
    s.resolve()
    s.assert_in_play("Hidden Horror", False)
    s.assert_zone(0, "hand", "Shock")
    assert s.game.decision.kind is K.PRIORITY


# -- Llanowar Sentinel --------------------------------------------------------------------------
def test_llanowar_sentinel_pays_and_fetches_another_which_chains() -> None:
    """Llanowar Sentinel: "When Llanowar Sentinel comes into play, you may pay {1}{G}. If you do,
    search your library for a card named Llanowar Sentinel and put that card into play. Then
    shuffle your library." Paying {1}{G} puts a second Sentinel into play; its own trigger
    asks again (2007-07-15 ruling: Sentinels chain)."""
    s = main({"hand": ["Llanowar Sentinel"], "in_play": ["Forest"] * 5,
               "library": ["Llanowar Sentinel", "Forest", "Llanowar Sentinel"]})
    s.do("play Llanowar Sentinel")
    s.resolve()
    s.resolve()
    assert s.game.decision.kind is K.YES_NO
    s.do("yes")
    assert logged(s, "player 0 pays {1}{G}")
    s.do(s.options()[0])  # find one of the two Sentinels
    assert sum(p.card.name == "Llanowar Sentinel" for p in s.game.permanents) == 2
    assert sum(p.tapped for p in s.game.permanents) == 5  # {2}{G} + {1}{G}
    # The second one's trigger: no untapped Forest is left, so it can't pay and isn't asked.
    s.resolve_all()
    assert sum(p.card.name == "Llanowar Sentinel" for p in s.game.permanents) == 2
    assert sum(c.name == "Llanowar Sentinel" for c in s.game.players[0].library) == 1


def test_llanowar_sentinel_declined_searches_nothing() -> None:
    """Llanowar Sentinel: "you may pay {1}{G}. If you do, ..." Declining: no mana is spent and
    nothing is searched for."""
    s = main({"hand": ["Llanowar Sentinel"], "in_play": ["Forest"] * 5,
              "library": ["Llanowar Sentinel"]})
    s.do("play Llanowar Sentinel")
    s.resolve()
    s.resolve()
    s.do("no")
    assert sum(p.tapped for p in s.game.permanents) == 3
    assert count(s, "Llanowar Sentinel", "library") == 1
    assert count(s, "Llanowar Sentinel") == 1


def test_llanowar_sentinel_needs_green_mana_to_be_asked() -> None:
    """Llanowar Sentinel: "you may pay {1}{G}": with only two Swamps untapped after casting it,
    {G} can't be paid, so the controller isn't asked and nothing happens."""
    s = main({"hand": ["Llanowar Sentinel"], "in_play": ["Forest", "Swamp", "Swamp", "Swamp",
                                                       "Swamp"],
              "library": ["Llanowar Sentinel"]})
    s.do("play Llanowar Sentinel")
    s.resolve()
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    assert count(s, "Llanowar Sentinel", "library") == 1


# -- Razormane Masticore ------------------------------------------------------------------------
# Player 0's upkeep of turn 4, from player 1's end of turn 3.
to_upkeep = partial(upkeep_of, turn=4, from_step="end_of_turn")


def test_razormane_masticore_upkeep_discard_keeps_it() -> None:
    """Razormane Masticore: "At the beginning of your upkeep, sacrifice Razormane Masticore
    unless you discard a card." Discarding any card (a land here) keeps it."""
    s = to_upkeep({"in_play": ["Razormane Masticore"], "hand": ["Forest"], "library": ["Island"]})
    s.resolve()
    s.do("yes", "discard Forest")
    s.assert_in_play("Razormane Masticore")
    s.assert_zone(0, "graveyard", "Forest")


def test_razormane_masticore_upkeep_declined_or_empty_hand_sacrifices_it() -> None:
    """Razormane Masticore: "... sacrifice Razormane Masticore unless you discard a card." With an
    empty hand it can't be paid: it is sacrificed without a question."""
    s = to_upkeep({"in_play": ["Razormane Masticore"], "library": ["Island"]})
    s.resolve()
    s.assert_in_play("Razormane Masticore", False)
    s.assert_zone(0, "graveyard", "Razormane Masticore")


def test_razormane_masticore_only_in_its_controllers_upkeep() -> None:
    """Razormane Masticore: "At the beginning of *your* upkeep": the opponent's upkeep doesn't
    trigger it."""
    s = Scenario({"turn": 3, "step": "end_of_turn", "players": [
        {"in_play": ["Razormane Masticore"], "hand": ["Forest"]}, {"library": ["Island"]}]})
    s.advance_to("upkeep", active=1)
    assert not s.game.stack
    s.assert_in_play("Razormane Masticore")


def to_draw_trigger(s: Scenario) -> None:
    """Pass from the upkeep until the draw step trigger asks for its target."""
    while s.game.decision.kind is K.PRIORITY:
        s.pass_priority()
    assert s.game.step == "draw" and s.game.decision.kind is K.TARGET


def test_razormane_masticore_draw_step_deals_3_to_target_creature() -> None:
    """Razormane Masticore: "At the beginning of your draw step, you may have Razormane
    Masticore deal 3 damage to target creature." The trigger goes on the stack after the draw
    (2007 CR 304.1-2: the draw is a turn-based action; triggers wait for priority)."""
    s = to_upkeep({"in_play": ["Razormane Masticore"], "hand": ["Forest"],
                   "library": ["Island", "Island"]}, {"in_play": ["Hill Giant"]})
    s.resolve()
    s.do("yes", "discard Forest")
    to_draw_trigger(s)
    s.assert_zone(0, "hand", "Island")  # drawn before the trigger is put on the stack
    assert s.options() == ["target Razormane Masticore", "target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    s.do("yes")
    s.assert_in_play("Hill Giant", False)


def test_razormane_masticore_draw_step_is_optional() -> None:
    """Razormane Masticore: "you may have [it] deal 3 damage": declining deals none."""
    s = to_upkeep({"in_play": ["Razormane Masticore"], "hand": ["Forest"],
                   "library": ["Island", "Island"]}, {"in_play": ["Hill Giant"]})
    s.resolve()
    s.do("yes", "discard Forest")
    to_draw_trigger(s)
    s.do("target Hill Giant")
    s.resolve()
    s.do("no")
    s.assert_damage("Hill Giant", 0)


# -- Spiketail Hatchling ------------------------------------------------------------------------
def spiketail_vs_bears(forests: int) -> Scenario:
    s = main({"hand": ["Grizzly Bears"], "in_play": ["Forest"] * forests},
             {"in_play": ["Spiketail Hatchling"]})
    s.do("play Grizzly Bears")
    s.pass_priority()
    s.do("activate Spiketail Hatchling", "target Grizzly Bears")
    s.pass_priority(2)
    return s


def test_spiketail_hatchling_spell_controller_pays_with_a_land() -> None:
    """Spiketail Hatchling: "Sacrifice Spiketail Hatchling: Counter target spell unless its
    controller pays {1}." The *spell's* controller (player 0) is asked on resolution and pays
    {1} by tapping a Forest (mana abilities may be played while paying, 2007 CR 411.2): the
    spell isn't countered."""
    s = spiketail_vs_bears(3)
    d = s.game.decision
    assert d.kind is K.YES_NO and d.player == 0
    s.do("yes")
    assert all(p.tapped for p in s.game.permanents if p.card.name == "Forest")
    s.assert_in_play("Spiketail Hatchling", False)
    s.resolve()
    s.assert_in_play("Grizzly Bears")


def test_spiketail_hatchling_counters_when_not_paid() -> None:
    """Spiketail Hatchling: "Counter target spell unless its controller pays {1}." Declining
    counters it."""
    s = spiketail_vs_bears(3)
    s.do("no")
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Grizzly Bears")


def test_spiketail_hatchling_counters_when_the_controller_cannot_pay() -> None:
    """Spiketail Hatchling: with no untapped land left (Grizzly Bears took both Forests) the
    controller can't pay {1}: the spell is countered without a question."""
    s = spiketail_vs_bears(2)
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    assert s.game.decision.kind is K.PRIORITY


def test_spiketail_hatchling_targets_only_spells() -> None:
    """Spiketail Hatchling: "target spell": with no spell on the stack it can't be activated."""
    s = main({}, {"in_play": ["Spiketail Hatchling"]})
    s.pass_priority()
    assert s.options() == ["pass"]


# -- Aura of Silence ----------------------------------------------------------------------------
def test_aura_of_silence_opponents_artifacts_cost_2_more() -> None:
    """Aura of Silence: "Artifact and enchantment spells your opponents play cost {2} more to
    play." Player 0 (opponent of its controller) has 4 lands: Bottle Gnomes ({3}) would need 5,
    so it isn't offered; Ornithopter ({0}) costs {2} and is paid with two lands."""
    s = main({"hand": ["Bottle Gnomes", "Ornithopter"], "in_play": ["Plains"] * 4},
             {"in_play": ["Aura of Silence"]})
    assert "play Bottle Gnomes" not in s.options()
    s.do("play Ornithopter")
    assert sum(p.tapped for p in s.game.permanents) == 2
    s.resolve()
    s.assert_in_play("Ornithopter")


def test_aura_of_silence_enchantments_too_but_not_creatures_or_its_controller() -> None:
    """Aura of Silence: "Artifact and *enchantment* spells *your opponents* play": Pacifism
    ({1}{W}) costs {3}{W}; Grizzly Bears (a creature) costs {1}{G}; its controller's own
    artifact spells cost the normal amount."""
    s = main({"hand": ["Pacifism", "Grizzly Bears"], "in_play": ["Plains", "Plains", "Forest"]},
             {"in_play": ["Aura of Silence", "Hill Giant"]})
    opts = s.options()
    assert "play Pacifism" not in opts and "play Grizzly Bears" in opts
    s2 = main({"hand": ["Bottle Gnomes"], "in_play": ["Plains", "Plains", "Plains",
                                                      "Aura of Silence"]})
    assert "play Bottle Gnomes" in s2.options()
    s2.do("play Bottle Gnomes")
    assert sum(p.tapped for p in s2.game.permanents) == 3


def test_two_auras_of_silence_add_up() -> None:
    """Two Auras of Silence: each adds {2} (2007 CR 409.1f: all increases are added), so
    Ornithopter costs {4}: four lands pay it, three don't."""
    s = main({"hand": ["Ornithopter"], "in_play": ["Plains"] * 3},
             {"in_play": ["Aura of Silence", "Aura of Silence"]})
    assert "play Ornithopter" not in s.options()
    s = main({"hand": ["Ornithopter"], "in_play": ["Plains"] * 4},
             {"in_play": ["Aura of Silence", "Aura of Silence"]})
    s.do("play Ornithopter")
    assert sum(p.tapped for p in s.game.permanents) == 4


def test_aura_of_silence_sacrifice_destroys_artifact_or_enchantment() -> None:
    """Aura of Silence: "Sacrifice Aura of Silence: Destroy target artifact or enchantment." It
    can't target a creature that is neither (Hill Giant)."""
    s = main({"in_play": ["Aura of Silence"]}, {"in_play": ["Spellbook", "Hill Giant"]})
    s.do("activate Aura of Silence")
    opts = s.options()
    assert "target Spellbook" in opts and "target Hill Giant" not in opts
    s.do("target Spellbook")
    s.assert_in_play("Aura of Silence", False)
    s.resolve()
    s.assert_in_play("Spellbook", False)


# -- Avatar of Might ----------------------------------------------------------------------------
def test_avatar_of_might_costs_6_less_against_four_more_creatures() -> None:
    """Avatar of Might: "If an opponent controls at least four more creatures than you, Avatar of
    Might costs {6} less to play." Player 1 has four creatures, player 0 none: it costs {G}{G}."""
    s = main({"hand": ["Avatar of Might"], "in_play": ["Forest", "Forest"]},
             {"in_play": ["Grizzly Bears"] * 4})
    s.do("play Avatar of Might")
    s.resolve()
    s.assert_in_play("Avatar of Might")
    assert logged(s, "player 0 pays {G}{G}")


def test_avatar_of_might_full_cost_with_only_three_more() -> None:
    """Avatar of Might: "at least four *more* creatures than you": four against player 0's one
    is only three more, so it costs the full {6}{G}{G} and two Forests can't play it."""
    s = main({"hand": ["Avatar of Might"], "in_play": ["Forest", "Forest", "Llanowar Elves"]},
             {"in_play": ["Grizzly Bears"] * 4})
    assert "play Avatar of Might" not in s.options()


def test_avatar_of_might_reduction_leaves_the_green_mana() -> None:
    """Avatar of Might: "costs {6} less": the reduction reduces only generic mana (2007 CR
    409.1f), so {G}{G} is still needed: two Swamps can't play it."""
    s = main({"hand": ["Avatar of Might"], "in_play": ["Swamp", "Swamp"]},
             {"in_play": ["Grizzly Bears"] * 4})
    assert "play Avatar of Might" not in s.options()


def test_avatar_of_might_has_trample() -> None:
    """Avatar of Might: "Trample"."""
    s = main({"in_play": ["Avatar of Might"]})
    assert "trample" in s.perm("Avatar of Might").keywords
