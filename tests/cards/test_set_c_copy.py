"""Scenario tests of the copy cards (entries in mtg_env/cards/data/
clones_control_and_text_change.yaml and counterspells_and_stack.yaml): Sculpting
Steel (a copy as it comes into play: 2007 CR 418.5 layer 1, the glossary's "Copy" and 2007 CR 503
copiable values; 2012 706), Shunt (changing the target of a spell: 2012 114.6a) and Twincast
(copying a spell: 2012 706.10). The mechanisms themselves are tested in
tests/engine/test_spell_copies.py; these test each card's printed text and restrictions, and how
the heuristic player uses them."""

from __future__ import annotations

from functools import partial

from agents import HeuristicAgent
from mtg_env import DecisionKind
from mtg_env.engine.view import view_for
from mtg_env.testing import Scenario, card_counts, scenario
from tests.agent_helpers import heuristic_choice

K = DecisionKind
LIB = ["Wall of Wood"] * 5
_pos = partial(scenario, library=LIB)  # both players' libraries are LIB unless given
STEEL = ("As Sculpting Steel comes into play, you may choose an artifact in play. If you do, "
         "Sculpting Steel comes into play as a copy of that artifact.")


def _steel(p0_play: list, p1_play: list | None = None, hand: list | None = None) -> Scenario:
    s = _pos({"hand": ["Sculpting Steel", *(hand or [])], "in_play": ["Island"] * 3 + p0_play},
             {"in_play": p1_play or []})
    s.do("play Sculpting Steel")
    s.resolve()
    return s


# -- Sculpting Steel ----------------------------------------------------------------------------

def test_sculpting_steel_copies_an_artifact_creature() -> None:
    """Printed text: "As Sculpting Steel comes into play, you may choose an artifact in play. If you do, Sculpting Steel comes into play as a copy of that artifact." Only artifacts are offered (not Grizzly Bears), whoever controls
    them; the copy has the copied card's name, types, P/T and abilities (2007 CR 418.5 layer 1):
    Bottle Gnomes' "Sacrifice Bottle Gnomes: You gain 3 life." works for it."""
    s = _steel([], ["Bottle Gnomes", "Grizzly Bears"])
    d = s.game.decision
    assert d.kind is K.CHOOSE_CARDS and d.player == 0
    assert d.prompt == "Sculpting Steel: you may choose an artifact to copy"
    assert s.options() == ["copy Bottle Gnomes", "done"]
    s.do("copy Bottle Gnomes")
    p = s.perm("Sculpting Steel")
    assert p.name == "Bottle Gnomes" and p.types == {"Artifact", "Creature"}
    assert p.subtypes == ("Gnome",) and p.controller == 0 and p.card.name == "Sculpting Steel"
    s.assert_pt("Sculpting Steel", 1, 3)
    s.do("activate Sculpting Steel")
    s.resolve()
    s.assert_life(0, 23)
    s.assert_zone(0, "graveyard", "Sculpting Steel")


def test_sculpting_steel_copies_equipment() -> None:
    """Printed text: "As Sculpting Steel comes into play, you may choose an artifact in play. If you do, Sculpting Steel comes into play as a copy of that artifact." A copy of Leonin Scimitar is Equipment with its equip ability and
    its static bonus ("Equipped creature gets +1/+1.")."""
    s = _steel(["Grizzly Bears", "Island"], ["Leonin Scimitar"])
    s.do("copy Leonin Scimitar")
    p = s.perm("Sculpting Steel")
    assert p.name == "Leonin Scimitar" and p.subtypes == ("Equipment",)
    s.do("activate Sculpting Steel", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Sculpting Steel").attached_to == s.perm("Grizzly Bears").id
    s.assert_pt("Grizzly Bears", 3, 3)


def test_sculpting_steel_with_nothing_to_copy_comes_into_play_as_itself() -> None:
    """Printed text: "As Sculpting Steel comes into play, you may choose an artifact in play. If you do, Sculpting Steel comes into play as a copy of that artifact." ("you may"): with no artifact in play there is no choice, and
    declining a choice ("done") leaves it as itself too: an artifact named Sculpting Steel."""
    s = _steel([], ["Grizzly Bears"])
    assert s.game.decision.kind is K.PRIORITY
    p = s.perm("Sculpting Steel")
    assert p.name == "Sculpting Steel" and p.types == {"Artifact"}
    s = _steel([], ["Ornithopter"])
    s.do("done")
    assert s.perm("Sculpting Steel").name == "Sculpting Steel"


def test_sculpting_steel_copies_copiable_values_only() -> None:
    """Printed text: "As Sculpting Steel comes into play, you may choose an artifact in play. If you do, Sculpting Steel comes into play as a copy of that artifact." 2007 CR 503 (copiable values): a copy of an animated Chimeric
    Staff is a plain, non-creature Chimeric Staff; tapped state and counters aren't copied."""
    s = _pos({"hand": ["Sculpting Steel"], "in_play": ["Island"] * 6 + ["Chimeric Staff"]},
             {"in_play": [{"card": "Ornithopter", "tapped": True, "counters": {"+1/+1": 2}}]})
    s.do("activate Chimeric Staff", "X=2")
    s.resolve()
    assert "Creature" in s.perm("Chimeric Staff").types
    s.do("play Sculpting Steel")
    s.resolve()
    assert s.options() == ["copy Chimeric Staff", "copy Ornithopter", "done"]
    s.do("copy Chimeric Staff")
    p = s.perm("Sculpting Steel")
    assert p.name == "Chimeric Staff" and p.types == {"Artifact"}
    s = _steel([], [{"card": "Ornithopter", "tapped": True, "counters": {"+1/+1": 2}}])
    s.do("copy Ornithopter")
    p = s.perm("Sculpting Steel")
    assert not p.tapped and not p.counters
    s.assert_pt("Sculpting Steel", 0, 2)


def test_sculpting_steel_copying_a_copy_gets_what_it_copies() -> None:
    """Printed text: "As Sculpting Steel comes into play, you may choose an artifact in play. If you do, Sculpting Steel comes into play as a copy of that artifact." Ruling (2007-07-15): "If the chosen artifact is copying something
    else ..., then your Sculpting Steel enters the battlefield as whatever the chosen artifact
    copied." A Clone copying Bottle Gnomes is an artifact, so it may be chosen, and the Steel
    becomes Bottle Gnomes (not Clone); so does a Steel copying that Steel."""
    s = _pos({"hand": ["Clone", "Sculpting Steel", "Sculpting Steel"], "in_play": ["Island"] * 10},
             {"in_play": ["Bottle Gnomes"]})
    s.do("play Clone")
    s.resolve()
    s.do("copy Bottle Gnomes")
    s.do("play Sculpting Steel")
    s.resolve()
    assert "copy Clone (Bottle Gnomes)" in s.options()
    s.do("copy Clone (Bottle Gnomes)")
    assert s.perm("Sculpting Steel").name == "Bottle Gnomes"
    s.assert_pt("Sculpting Steel", 1, 3)
    s.do("play Sculpting Steel#2")
    s.resolve()
    s.do("copy Sculpting Steel (Bottle Gnomes)")
    assert s.perm("Sculpting Steel#2").name == "Bottle Gnomes"


def test_sculpting_steel_copy_has_the_copied_triggers() -> None:
    """Printed text: "As Sculpting Steel comes into play, you may choose an artifact in play. If you do, Sculpting Steel comes into play as a copy of that artifact." The copy effect applies as it comes into play (2012 706.2, the
    ruling "Any enters-the-battlefield abilities of the copied artifact will trigger"): as a copy
    of Bottle Gnomes it comes into play as a creature, so Soul Warden ("Whenever another creature
    comes into play, you gain 1 life.") triggers; as a copy of Chromatic Star it has "When
    Chromatic Star is put into a graveyard from play, draw a card." (no 2007 artifact has a
    comes-into-play trigger of its own; the legend rule can't apply: no legendary artifact)."""
    s = _steel(["Soul Warden"], ["Bottle Gnomes"])
    s.do("copy Bottle Gnomes")
    assert s.game.stack and s.game.stack[-1].kind == "triggered"
    s.resolve()
    s.assert_life(0, 21)
    s = _steel(["Island"], ["Chromatic Star"])
    s.do("copy Chromatic Star")
    hand = len(s.game.players[0].hand)
    s.do("tap Sculpting Steel for W")  # {1}, {T}, sacrifice it: a mana ability (no stack)
    s.resolve()  # the leaves-play trigger of the copy
    assert len(s.game.players[0].hand) == hand + 1


# -- Shunt --------------------------------------------------------------------------------------

def _shunt(p0_hand: list, p0_play: list, p1_play: list | None = None) -> Scenario:
    return _pos({"hand": p0_hand, "in_play": p0_play},
                {"hand": ["Shunt"], "in_play": ["Mountain"] * 3 + (p1_play or [])})


def test_shunt_changes_the_target() -> None:
    """Printed text: "Change the target of target spell with a single target." Shunt's
    controller chooses among every other legal target of Shock (2012 114.6a), on resolution;
    the Shock then deals its damage there."""
    s = _shunt(["Shock"], ["Mountain", "Grizzly Bears"], ["Goblin Piker"])
    expected = card_counts(s.game)
    s.do("play Shock", "target Goblin Piker", "pass", "play Shunt", "target Shock")
    s.resolve()
    d = s.game.decision
    assert d.kind is K.TARGET and d.player == 1
    assert sorted(s.options()) == ["target Grizzly Bears", "target player 0", "target player 1"]
    s.do("target Grizzly Bears")
    s.resolve_all()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Goblin Piker")
    assert card_counts(s.game) == expected


def test_shunt_targets_only_a_spell_with_a_single_target() -> None:
    """Printed text: "target spell with a single target": not a spell with two targets (Cone of
    Flame), nor one with none (Counsel of the Soratami); rulings: "If a spell targets multiple
    things, you can't target it with Shunt" and an Aura spell (one target) qualifies."""
    s = _shunt(["Cone of Flame"], ["Mountain"] * 5, ["Goblin Piker", "Grizzly Bears"])
    s.do("play Cone of Flame", "target Goblin Piker", "target Grizzly Bears", "target player 1",
         "pass")
    assert "play Shunt" not in s.options()
    s = _shunt(["Counsel of the Soratami"], ["Island"] * 3)
    s.do("play Counsel of the Soratami", "pass")
    assert "play Shunt" not in s.options()
    s = _shunt(["Pacifism"], ["Plains"] * 2 + ["Grizzly Bears"], ["Goblin Piker"])
    s.do("play Pacifism", "target Goblin Piker", "pass", "play Shunt", "target Pacifism")
    s.resolve()  # Grizzly Bears is the only other creature: no choice
    s.resolve()
    assert s.perm("Pacifism").attached_to == s.perm("Grizzly Bears").id


def test_shunt_heuristic_turns_burn_on_its_caster() -> None:
    """The heuristic player plays Shunt on an opponent's Shock aimed at its creature and turns it
    on the opponent's own side."""
    s = _shunt(["Shock"], ["Mountain", "Grizzly Bears"], ["Goblin Piker"])
    s.do("play Shock", "target Goblin Piker", "pass")
    assert heuristic_choice(s) == "play Shunt"
    s.do("play Shunt", "target Shock")
    s.resolve()
    assert heuristic_choice(s) in ("target Grizzly Bears", "target player 0")


# -- Twincast -----------------------------------------------------------------------------------

def test_twincast_copies_a_spell_of_its_controller() -> None:
    """Printed text: "Copy target instant or sorcery spell. You may choose new targets for the
    copy." Its controller's own Shock, copied with its target kept: 4 damage to the opponent."""
    s = _pos({"hand": ["Shock", "Twincast"], "in_play": ["Mountain", "Island", "Island"]})
    s.do("play Shock", "target player 1", "play Twincast", "target Shock")
    s.resolve()
    assert "keep target player 1" in s.options()
    s.do("keep target player 1")
    s.resolve_all()
    s.assert_life(1, 16)


def test_twincast_copy_of_an_opponents_spell_gets_new_targets() -> None:
    """Printed text: "... You may choose new targets for the copy." The copy is Twincast's
    controller's (2012 706.10): copying the opponent's Shock aimed at my Goblin Piker, I aim the
    copy at their Grizzly Bears."""
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Goblin Piker"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock")
    s.resolve()
    assert s.game.stack[-1].controller == 1
    assert sorted(s.options()) == ["keep target Goblin Piker", "target Grizzly Bears",
                                   "target player 0", "target player 1"]
    s.do("target Grizzly Bears")
    s.resolve_all()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Goblin Piker", False)


def test_twincast_targets_only_instant_or_sorcery_spells() -> None:
    """Printed text: "Copy target instant or sorcery spell.": not a creature spell (Grizzly
    Bears); a sorcery (Counsel of the Soratami, no targets: the copy just resolves) is fine."""
    s = _pos({"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island"]})
    s.do("play Grizzly Bears", "pass")
    assert "play Twincast" not in s.options()
    s = _pos({"hand": ["Counsel of the Soratami"], "in_play": ["Island"] * 3},
             {"hand": ["Twincast"], "in_play": ["Island", "Island"]})
    expected = card_counts(s.game)
    s.do("play Counsel of the Soratami", "pass", "play Twincast", "target Counsel of the Soratami")
    hand = len(s.game.players[1].hand)
    s.resolve()
    assert s.game.stack[-1].label == "copy of Counsel of the Soratami"
    s.resolve()
    assert len(s.game.players[1].hand) == hand + 2  # the copy's "you" is its controller
    assert card_counts(s.game) == expected


def test_twincast_heuristic_copies_burn_at_the_opponent() -> None:
    """The heuristic player plays Twincast on the opponent's Shock aimed at its creature and
    aims the copy at the opponent's side."""
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Goblin Piker"]})
    s.do("play Shock", "target Goblin Piker", "pass")
    assert heuristic_choice(s) == "play Twincast"
    s.do("play Twincast", "target Shock")
    s.resolve()
    assert heuristic_choice(s) in ("target Grizzly Bears", "target player 0")


def test_twincast_heuristic_keeps_a_good_target() -> None:
    """The heuristic player copying its own Shock at the opponent keeps the target."""
    s = _pos({"hand": ["Shock", "Twincast"], "in_play": ["Mountain", "Island", "Island"]},
             {"life": 4})
    s.do("play Shock", "target player 1", "play Twincast", "target Shock")
    s.resolve()
    assert heuristic_choice(s) == "keep target player 1"


def test_sculpting_steel_heuristic_copies_the_best_artifact() -> None:
    """The heuristic player values Sculpting Steel by what it may copy: it plays it (in its
    second main phase, like its other non-Aura artifacts) with Juggernaut in play and copies
    Juggernaut rather than Ornithopter."""
    s = _pos({"hand": ["Sculpting Steel"], "in_play": ["Island"] * 3 + ["Ornithopter"]},
             {"in_play": ["Juggernaut"]}, step="postcombat_main")
    assert heuristic_choice(s) == "play Sculpting Steel"
    s.do("play Sculpting Steel")
    s.resolve()
    assert heuristic_choice(s) == "copy Juggernaut"
    s = _pos({"hand": ["Sculpting Steel"], "in_play": ["Island"] * 3},
             {"in_play": ["Grizzly Bears"]}, step="postcombat_main")
    assert heuristic_choice(s) == "pass"  # nothing to copy: a blank artifact, kept for later


def test_twincast_heuristic_copies_its_own_good_spell() -> None:
    """The heuristic player, its own Shock on the stack aimed at the opponent's Goblin Piker,
    copies it with Twincast (a second creature to kill) rather than passing."""
    s = _pos({"hand": ["Shock", "Twincast"], "in_play": ["Mountain", "Island", "Island"]},
             {"in_play": ["Goblin Piker", "Prodigal Pyromancer"]})
    s.do("play Shock", "target Goblin Piker")
    assert heuristic_choice(s) == "play Twincast"
    s.do("play Twincast", "target Shock")
    s.resolve()
    assert heuristic_choice(s) == "target Prodigal Pyromancer"


def test_twincast_heuristic_does_not_copy_twincasts_forever() -> None:
    """A copy of a Twincast may be aimed at a Twincast still on the stack, which would copy it
    again, and again (seen in heuristic self-play): the heuristic player gives copying a Twincast
    no value, so its copy of player 0's Twincast keeps aiming at Shock."""
    s = _pos({"hand": ["Shock", "Twincast"], "in_play": ["Mountain", "Island", "Island"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Goblin Piker"]})
    s.do("play Shock", "target player 1", "play Twincast", "target Shock", "pass",
         "play Twincast#2", "target Twincast")
    s.resolve()
    assert s.game.stack[-1].label == "copy of Twincast"
    assert "target Twincast" in s.options()
    assert heuristic_choice(s) == "keep target Shock"
    agent = HeuristicAgent(strict=True)
    view = view_for(s.game, 1)
    shock, twincast = (("s", x.id) for x in s.game.stack[:2])
    assert agent._spell_redirect_value(view, 1, "copy_spell", shock, False) > 0
    assert agent._spell_redirect_value(view, 1, "copy_spell", twincast, False) == 0.0
