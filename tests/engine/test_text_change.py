"""Text-changing effects (2007 CR 418.5 layer 3; 2012 612) and cards put into play or taken
out of play at the same time (2012 603.6a, 603.10a).

The text-changing effect (``continuous_effects.TextChange``) applies in
``mtg_env/engine/layers.py`` (layer 3); which card-data fields hold "words" is
``mtg_env/cards/text_change.py``. These tests set the effect up through Mind Bend's choice
procedure (``text_change``) and check the rules themselves: the intrinsic mana ability follows
a changed basic land type (2007 CR 212.6d, 2012 305.7), landwalk and protection follow their
words, color and land-type filters are rewritten, changes compose in timestamp order, copies
don't copy them (2012 706.2), they last indefinitely (2012 612.1) and end with the object
(2007 CR 217.1c), and they survive copying and JSON.
"""

from __future__ import annotations

import json
import pickle

import pytest

from mtg_env import DecisionKind, Game
from mtg_env.engine.continuous_effects import TextChange
from mtg_env.engine.errors import StateError
from mtg_env.engine.layers import add_effect
from mtg_env.engine.model import MANA_SYMBOLS
from mtg_env.engine.registry import ability_by_ref, text_changed
from mtg_env.engine.zones import leave_play_together, put_together
from mtg_env.testing import Scenario, watch_events

K = DecisionKind


def bend(s: Scenario, target: str, frm: str, to: str, color: bool) -> None:
    """Player 0 plays Mind Bend on ``target`` and replaces ``frm`` with ``to``."""
    play = next(o for o in s.options() if o.startswith("play Mind Bend"))
    s.do(play, f"target {target}")
    s.resolve()
    s.do("replace a color word" if color else "replace a basic land type", f"replace {frm}",
         f"with {to}")


def position(mine: list, theirs: list, hand: list | None = None, step: str = "precombat_main",
             active: int = 0) -> Scenario:
    return Scenario({"turn": 3, "step": step, "active_player": active, "players": [
        {"hand": (hand or []) + ["Mind Bend"] * 2, "in_play": ["Island"] * 4 + mine,
         "library": ["Island"] * 5},
        {"in_play": theirs, "library": ["Island"] * 5}]})


def test_basic_land_type_change_changes_its_mana_ability() -> None:
    """2012 612.2 / Mind Bend ruling: "a Forest can be changed to an Island so it produces blue
    mana"; 2007 CR 212.6d (2012 305.7): a basic land type's mana ability is intrinsic, so the
    land's type line decides it. The name doesn't change."""
    s = position(["Forest"], [])
    bend(s, "Forest", "Forest", "Island", color=False)
    f = s.perm("Forest")
    assert f.subtypes == ("Island",) and f.name == "Forest"
    assert [a.mana for a in f.activated] == [("U",)]
    assert "tap Forest for U" in s.options() and "tap Forest for G" not in s.options()
    s.do("tap Forest for U")
    assert s.game.players[0].mana_pool[MANA_SYMBOLS.index("U")] == 1


def _attack_with_bog_wraith(s: Scenario) -> None:
    """From the main phase: attack with Bog Wraith alone and pass to the blockers step."""
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    s.do("attack with Bog Wraith")
    if s.game.decision.kind is K.DECLARE_ATTACKERS:
        s.do("done")
    s.pass_priority(2)


def test_landwalk_follows_the_changed_land_type() -> None:
    """Bog Wraith's "Swampwalk" becomes "Islandwalk" (2007 CR 502.4 landwalk): now unblockable
    against a player with an Island, blockable by one with only a Swamp."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend"], "in_play": ["Island", "Bog Wraith"]},
        {"in_play": ["Swamp", "Grizzly Bears"]}]})
    bend(s, "Bog Wraith", "Swamp", "Island", color=False)
    assert s.perm("Bog Wraith").keywords == frozenset({"islandwalk"})
    _attack_with_bog_wraith(s)
    assert s.game.decision.kind is K.DECLARE_BLOCKERS
    assert s.options() != ["done"]


def test_landwalk_change_makes_it_unblockable_against_the_new_type() -> None:
    """The same Bog Wraith changed to "Islandwalk" can't be blocked by a player controlling an
    Island (2007 CR 502.4)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend"], "in_play": ["Island", "Bog Wraith"]},
        {"in_play": ["Island", "Grizzly Bears"]}]})
    bend(s, "Bog Wraith", "Swamp", "Island", color=False)
    _attack_with_bog_wraith(s)
    # no legal block: the defender is not even asked
    assert s.game.step == "declare_blockers" and s.game.decision.kind is K.PRIORITY
    assert not s.perm("Bog Wraith").blocked


def test_protection_follows_the_changed_color_word() -> None:
    """Paladin en-Vec's "protection from red" changed to "protection from blue" (2007 CR 502.7):
    Shock can now target it."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend", "Shock"], "in_play": ["Island", "Mountain"]},
        {"in_play": ["Paladin en-Vec"]}]})
    s.do("play Shock")
    assert "target Paladin en-Vec" not in s.options()
    s.game = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend", "Shock"], "in_play": ["Island", "Mountain"]},
        {"in_play": ["Paladin en-Vec"]}]}).game
    bend(s, "Paladin en-Vec", "red", "blue", color=True)
    assert s.perm("Paladin en-Vec").keywords == frozenset(
        {"first_strike", "protection_from_black", "protection_from_blue"})
    s.do("play Shock")
    assert "target Paladin en-Vec" in s.options()


def test_color_filters_of_static_abilities_are_rewritten() -> None:
    """Ascendant Evincar: "Other black creatures get +1/+1. Nonblack creatures get -1/-1."
    changed black -> green: "Other green creatures get +1/+1. Nongreen creatures get -1/-1."
    (the 2012 612.2 example "nonblack" -> "nongreen"; the effect then applies in layer 6d)."""
    s = position(["Ascendant Evincar"], ["Grizzly Bears", "Severed Legion"])
    s.assert_pt("Grizzly Bears", 1, 1)
    s.assert_pt("Severed Legion", 3, 3)
    bend(s, "Ascendant Evincar", "black", "green", color=True)
    s.assert_pt("Grizzly Bears", 3, 3)
    s.assert_pt("Severed Legion", 1, 1)
    s.assert_pt("Ascendant Evincar", 2, 2)  # black itself: nongreen now


def test_land_type_in_a_counting_filter_is_rewritten() -> None:
    """Nightmare: "power and toughness are each equal to the number of Swamps you control"
    changed Swamp -> Island counts Islands (layer 3 before 6a)."""
    s = position(["Nightmare", "Swamp"], [])
    s.assert_pt("Nightmare", 1, 1)
    bend(s, "Nightmare", "Swamp", "Island", color=False)
    s.assert_pt("Nightmare", 4, 4)


def test_later_change_rewrites_the_words_an_earlier_one_wrote() -> None:
    """Two text-changing effects apply in timestamp order (2007 CR 418.5): Swamp -> Island,
    then Island -> Forest, leaves Bog Wraith with forestwalk."""
    s = position(["Bog Wraith"], [])
    bend(s, "Bog Wraith", "Swamp", "Island", color=False)
    bend(s, "Bog Wraith", "Island", "Forest", color=False)
    assert s.perm("Bog Wraith").keywords == frozenset({"forestwalk"})


def test_text_change_lasts_indefinitely_and_ends_with_the_object() -> None:
    """Mind Bend: "This effect doesn't end at end of turn." (2012 612.1: indefinitely); a
    permanent that leaves play and returns is a new object without it (2007 CR 217.1c)."""
    s = position(["Bog Wraith"], [], hand=["Boomerang"])
    bend(s, "Bog Wraith", "Swamp", "Mountain", color=False)
    s.advance_to("upkeep", active=1)
    assert s.perm("Bog Wraith").keywords == frozenset({"mountainwalk"})
    s.advance_to("precombat_main", active=0)
    assert s.perm("Bog Wraith").keywords == frozenset({"mountainwalk"})
    s.do("play Boomerang", "target Bog Wraith")
    s.resolve()
    assert not s.game.effects


def test_copy_does_not_copy_the_text_change() -> None:
    """2012 706.2: copiable values are the printed ones as modified by copy effects only; a
    Clone of a Bog Wraith whose text was changed has swampwalk."""
    s = position(["Bog Wraith"], [], hand=["Clone"])
    s.game.players[0].mana_pool[MANA_SYMBOLS.index("U")] = 4
    bend(s, "Bog Wraith", "Swamp", "Plains", color=False)
    s.do("play Clone")
    s.resolve()
    s.do("copy Bog Wraith")
    clone = s.perm("Clone")
    assert clone.keywords == frozenset({"swampwalk"})
    assert s.perm("Bog Wraith").keywords == frozenset({"plainswalk"})


def test_text_change_survives_copy_and_json_with_its_ability_on_the_stack() -> None:
    """A stack object holds its ability (2007 CR 410): Spirit Weaver's "{2}: Target green or
    blue creature gets +0/+1" changed green -> red, activated, then the game is copied and
    round-tripped through JSON: the ability on the stack is still the changed one."""
    s = position(["Spirit Weaver", "Island", "Island"], ["Goblin Piker"])
    bend(s, "Spirit Weaver", "green", "red", color=True)
    s.do("activate Spirit Weaver")
    assert "target Goblin Piker" in s.options()
    s.do("target Goblin Piker")
    for g in (s.game.copy(), Game.from_json(s.game.to_json())):
        item = g.stack[-1]
        assert item.ability_def.ref[0] == "Spirit Weaver|G>R"
        t = Scenario.__new__(Scenario)
        t.game = g
        t.resolve()
        t.assert_pt("Goblin Piker", 2, 2)


def test_refs_of_changed_abilities_resolve() -> None:
    """Serialised references name the changed card (``"Card|from>to"``) and resolve to it."""
    cdef = text_changed("Treetop Village", (("G", "U"),))
    ab = cdef.activated[1]
    assert ab.ref == ("Treetop Village|G>U", "activated", 1)
    assert ability_by_ref(list(ab.ref)) is ab
    assert "3/3 blue Ape" in ab.text
    assert text_changed("Grizzly Bears", (("G", "U"),)) is text_changed("Grizzly Bears", ())


def test_state_check_refuses_a_text_change_between_kinds() -> None:
    """2012 612.2: a color word is replaced by a color word, a land type by a land type, and
    by a different one (Mind Bend ruling: "It can't change a word to the same word")."""
    s = position(["Bog Wraith"], [])
    bend(s, "Bog Wraith", "Swamp", "Island", color=False)
    d = json.loads(s.game.to_json())
    for bad in ({"from": "Swamp", "to": "U"}, {"from": "Swamp", "to": "Swamp"}):
        d2 = json.loads(json.dumps(d))
        d2["effects"][0].update(bad)
        with pytest.raises(StateError):
            Game.from_json(json.dumps(d2))


# -- cards put into play / out of play together ---------------------------------------------------
def test_permanents_entering_together_see_each_other() -> None:
    """2012 603.6a: Soul Warden ("Whenever another creature comes into play, you gain 1 life")
    put into play at the same time as two other creatures triggers for both, whatever the
    order they are listed in."""
    for order in (["Soul Warden", "Grizzly Bears", "Hill Giant"],
                  ["Grizzly Bears", "Hill Giant", "Soul Warden"]):
        s = Scenario({"turn": 3, "step": "precombat_main", "players": [
            {"library": order}, {}]})
        g = s.game
        put_together(g, [(c, 0, None) for c in list(g.players[0].library)])
        assert sum(1 for t in g.pending if t.name == "Soul Warden") == 2


def test_permanents_leaving_together_are_all_gone_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """2012 603.10a: leaving together, each leaves-play event is sent while all of them are
    still in play; then all go (a token ceases to exist, 2007 CR 216)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Grizzly Bears", "Goblin Token"]}, {"in_play": ["Hill Giant"]}]})
    g = s.game
    seen = []

    def spy(name: str, ev: dict) -> None:
        if name == "leaves_play":
            seen.append(len(g.perms))

    watch_events(monkeypatch, g, spy)
    leave_play_together(g, list(g.perms.values()), "library_top")
    assert seen == [3, 3, 3] and not g.perms
    assert [c.name for c in g.players[0].library] == ["Grizzly Bears"]
    assert [c.name for c in g.players[1].library] == ["Hill Giant"]


def test_target_filters_of_triggered_abilities_are_rewritten() -> None:
    """Nekrataal: "destroy target nonartifact, nonblack creature" changed black -> green: the
    trigger's target filter and its text read "nongreen" (the 2012 612.2 "nonblack" example);
    the mana-symbol-free type line and the other filter key are untouched."""
    cdef = text_changed("Nekrataal", (("B", "G"),))
    spec = cdef.triggered[0].targets[0]
    assert spec.filters == {"not_type": "Artifact", "not_color": "G"}
    assert spec.text == "target nonartifact, nongreen creature"
    assert cdef.colors == frozenset("B") and cdef.name == "Nekrataal"


# -- words a keyword names in its own name, and a token's color ------------------------------------
def _sea_monster_attacks(defender_lands: list[str], change: tuple[str, str] | None) -> bool:
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend"], "in_play": ["Island", "Sea Monster"]},
        {"in_play": defender_lands}]})
    if change is not None:
        bend(s, "Sea Monster", *change, color=False)
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    return "attack with Sea Monster" in s.options()


def test_sea_monster_island_follows_a_land_type_change() -> None:
    """Sea Monster: "can't attack unless defending player controls an Island." Mind Bend
    changing "Island" to "Swamp" (2012 612.2: every instance of the word) makes it attack a
    player who controls a Swamp and no Island, and not one who controls only an Island."""
    assert _sea_monster_attacks(["Island"], None)
    assert not _sea_monster_attacks(["Swamp"], None)
    assert _sea_monster_attacks(["Swamp"], ("Island", "Swamp"))
    assert not _sea_monster_attacks(["Island"], ("Island", "Swamp"))
    # two changes in timestamp order: Island -> Swamp -> Forest
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend", "Mind Bend"], "in_play": ["Island"] * 2 + ["Sea Monster"]},
        {"in_play": ["Forest"]}]})
    bend(s, "Sea Monster", "Island", "Swamp", color=False)
    bend(s, "Sea Monster", "Swamp", "Forest", color=False)
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert "attack with Sea Monster" in s.options()


def test_karplusan_strider_color_words_follow_a_color_change() -> None:
    """Karplusan Strider: "can't be the target of blue or black spells." With "blue" changed
    to "red" (2012 612.2) a red spell can't target it and a blue one can. Mind Bend, a blue
    spell, can't target it, so the text-changing effect is set up directly (as a saved game
    may hold it) during the upkeep."""
    def position(change: bool) -> Scenario:
        s = Scenario({"turn": 3, "step": "upkeep", "players": [
            {"hand": ["Shock", "Unsummon"], "in_play": ["Island", "Mountain"],
             "library": ["Island"] * 3},
            {"in_play": ["Karplusan Strider"], "library": ["Island"] * 3}]})
        if change:
            add_effect(s.game, TextChange(pid=s.perm("Karplusan Strider").id, from_word="U",
                                          to_word="R"))
        s.advance_to("precombat_main")
        return s

    s = position(False)
    assert "play Unsummon" not in s.options()  # its only creature can't be targeted
    s.do("play Shock")
    assert "target Karplusan Strider" in s.options()
    s = position(True)
    s.do("play Shock")
    assert "target Karplusan Strider" not in s.options()
    s = position(True)
    s.do("play Unsummon")
    assert "target Karplusan Strider" in s.options()


def test_mobilization_white_changed_to_black_makes_black_soldiers() -> None:
    """Mobilization: "{2}{W}: Put a 1/1 white Soldier creature token into play." The token's
    color is a word of the ability that makes it (2012 111.4: the effect that creates a token
    defines it); Mind Bend changing "white" to "black" (2012 612.2) makes black Soldiers. The
    {W} of the cost is a mana symbol, not a word: it stays. The token stays black after a copy
    of the game, a JSON round trip, and as a Clone's original (2012 706.2)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend", "Clone"],
         "in_play": ["Island"] * 5 + ["Plains"] * 3 + ["Mobilization"]},
        {}]})
    bend(s, "Mobilization", "white", "black", color=True)
    s.do("activate Mobilization")
    s.resolve()
    token = next(p for p in s.game.perms.values() if p.card.is_token)
    assert token.colors == frozenset("B") and "Soldier" in token.subtypes
    assert "vigilance" in token.keywords  # still a Soldier: "Soldier creatures have vigilance"
    for g in (s.game.copy(), Game.from_json(s.game.to_json())):
        t = next(p for p in g.perms.values() if p.card.is_token)
        assert t.colors == frozenset("B")
    assert pickle.loads(pickle.dumps(token.card.cdef)) is token.card.cdef
    s.do("play Clone")
    s.resolve()
    s.do(next(o for o in s.options() if o.startswith("copy Soldier")))
    clone = s.perm("Clone")
    assert clone.colors == frozenset("B") and clone.name == "Soldier Token"
    assert Game.from_json(s.game.to_json()).perms[clone.id].colors == frozenset("B")


def test_token_color_of_a_triggered_ability_follows_a_text_change() -> None:
    """Verdant Force: "At the beginning of each upkeep, put a 1/1 green Saproling creature
    token into play." With "green" changed to "white" (2012 612.2) the trigger makes a white
    Saproling (2012 111.4); an unchanged Verdant Force keeps making green ones."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Mind Bend"], "in_play": ["Island"] * 2 + ["Verdant Force"]},
        {"in_play": ["Verdant Force"]}]})
    bend(s, "Verdant Force", "green", "white", color=True)
    s.advance_to("upkeep", active=1)
    s.resolve_all()
    tokens = [p for p in s.game.perms.values() if p.card.is_token]
    assert sorted(p.controller for p in tokens) == [0, 1]
    by = {p.controller: p.colors for p in tokens}
    assert by[0] == frozenset("W") and by[1] == frozenset("G")
