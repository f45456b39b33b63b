"""Clone and Sculpting Steel put into play by an effect, not cast: "As [this] comes into play, you
may choose a creature (an artifact) in play" applies however it comes into play (2012 614.1c and
614.12: an "as ... comes into play" ability is a replacement effect that applies as the permanent
comes into play, not only when it resolves as a spell; 2007 CR 503 / 2012 706.2: the copiable
values). Permanents coming into play at the same time can't be copied by each other (they are
not in play yet as the choice is made).
"""

from __future__ import annotations

from mtg_env import Game
from mtg_env.engine.actions import DecisionKind as K
from mtg_env.testing import Scenario


def piper(hand: list, theirs: list, life: int = 20) -> Scenario:
    """Player 0 has Elvish Piper ("{G}, {T}: You may put a creature card from your hand into
    play.") and ``hand``; player 1 controls ``theirs``. The ability has resolved: the put-into-play
    choice is pending."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Forest", "Elvish Piper"], "hand": hand, "life": life},
        {"in_play": theirs}]})
    s.do("activate Elvish Piper")
    s.resolve()
    return s


def test_clone_put_into_play_by_elvish_piper_copies_a_creature() -> None:
    """Clone: "As Clone comes into play, you may choose a creature in play. If you do, Clone comes
    into play as a copy of that creature." Put into play by Elvish Piper, its controller chooses
    among the creatures in play (not Clone itself), and it comes into play as a 3/3 Hill Giant."""
    s = piper(["Clone"], ["Hill Giant", "Forest"])
    s.do("put into play Clone")
    d = s.game.decision
    assert d.kind is K.CHOOSE_CARDS and d.player == 0
    assert s.options() == ["copy Elvish Piper", "copy Hill Giant", "done"]
    s.do("copy Hill Giant")
    clone = s.perm("Clone")
    assert clone.cdef.name == "Hill Giant" and clone.controller == 0
    s.assert_pt("Clone", 3, 3)
    assert any("comes into play as a copy of Hill Giant" in t for t in s.game.log)


def test_clone_put_into_play_choosing_nothing_is_a_0_0() -> None:
    """"You may choose": choosing nothing, the Clone put into play by Elvish Piper is a 0/0 and is
    put into its owner's graveyard as a state-based effect (2007 CR 420.5b)."""
    s = piper(["Clone"], ["Hill Giant"])
    s.do("put into play Clone")
    s.do("done")
    s.resolve_all()
    assert not s.in_play("Clone")
    s.assert_zone(0, "graveyard", "Clone")


def test_clone_put_into_play_has_the_copied_comes_into_play_ability() -> None:
    """The copy effect applies as Clone comes into play, so the copied creature's "When ... comes
    into play" ability triggers for it (2012 706.2, 603.6a). Venerable Monk: "When Venerable Monk
    comes into play, you gain 2 life.\""""
    s = piper(["Clone"], ["Venerable Monk"], life=10)
    s.do("put into play Clone", "copy Venerable Monk")
    assert [i.label for i in s.game.stack] == ["Clone"]
    s.resolve_all()
    s.assert_life(0, 12)


def test_clone_put_into_play_copying_voice_of_all_chooses_a_color() -> None:
    """Voice of All: "As Voice of All comes into play, choose a color." A Clone put into play as a
    copy of it makes its own choice, after the copy choice (2012 706.6: the choice is not
    copied)."""
    s = piper(["Clone"], [{"card": "Voice of All", "chosen": {"color": "R"}}])
    s.do("put into play Clone", "copy Voice of All")
    d = s.game.decision
    assert d.kind is K.CHOOSE_COLOR and d.player == 0
    s.do("choose green")
    assert s.perm("Clone").chosen == {"color": "G"}
    assert s.perm("Voice of All").chosen == {"color": "R"}


def test_the_pending_copy_choice_survives_a_json_round_trip() -> None:
    """The state while the copy choice of a Clone put into play is pending loads back (the
    frame's fields are checked on load) and goes on to the same result."""
    s = piper(["Clone"], ["Hill Giant"])
    s.do("put into play Clone")
    g2 = Game.from_json(s.game.to_json())
    assert g2.to_json() == s.game.to_json()
    g2.apply("copy Hill Giant")
    s.do("copy Hill Giant")
    assert g2.to_json() == s.game.to_json()


def test_warp_world_sculpting_steel_cannot_copy_an_artifact_entering_with_it() -> None:
    """Warp World puts "all artifact, creature, and land cards revealed this way into play" at the
    same time: Sculpting Steel ("you may choose an artifact in play") coming into play with Bottle
    Gnomes can't copy it (it isn't in play yet as the choice is made), so no choice is asked and
    Sculpting Steel comes into play as itself."""
    s = Scenario({"turn": 5, "step": "precombat_main", "players": [
        {"mana_pool": "RRRRRRRR", "hand": ["Warp World"], "in_play": ["Sculpting Steel"]},
        {"in_play": ["Bottle Gnomes"]}]})
    s.do("play Warp World")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    steel = s.perm("Sculpting Steel")
    assert steel.cdef.name == "Sculpting Steel" and "Artifact" in steel.types
    assert s.in_play("Bottle Gnomes")


def test_warp_world_clone_copies_nothing_entering_with_it() -> None:
    """Warp World: "Each player puts all artifact, creature, and land cards revealed this way
    into play": all at once. Clone's "As Clone comes into play, you may choose a creature in
    play" is made as it comes into play (2012 614.12; 706.5: it becomes a copy as it enters),
    when none of the creatures entering with it is in play yet: the Hill Giant returned by the
    same Warp World can't be chosen, no choice is asked, and the Clone is a 0/0 put into the
    graveyard (2007 CR 420.5b). This is the rule, not a simplification."""
    s = Scenario({"turn": 5, "step": "precombat_main", "players": [
        {"mana_pool": "RRRRRRRR", "hand": ["Warp World"], "in_play": ["Clone"]},
        {"in_play": ["Hill Giant"]}]})
    s.do("play Warp World")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY  # no copy choice was offered
    assert s.in_play("Hill Giant") and not s.in_play("Clone")
    s.assert_zone(0, "graveyard", "Clone")
    assert not any("copy of" in t for t in s.game.log)


def test_beacon_of_unrest_clone_copies_a_creature_in_play() -> None:
    """Beacon of Unrest: "Put target artifact or creature card in a graveyard into play under
    your control." The Clone comes into play alone, so the creatures already in play can be
    chosen (2012 614.12): it comes into play as a copy of Hill Giant (2007 CR 503)."""
    s = Scenario({"turn": 5, "step": "precombat_main", "players": [
        {"hand": ["Beacon of Unrest"], "in_play": ["Swamp"] * 5, "graveyard": ["Clone"]},
        {"in_play": ["Hill Giant"]}]})
    s.do("play Beacon of Unrest", "target Clone")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_CARDS
    assert "copy Hill Giant" in s.options()
    s.do("copy Hill Giant")
    clone = s.perm("Clone")
    assert clone.cdef.name == "Hill Giant" and clone.controller == 0
    s.assert_pt("Clone", 3, 3)


def test_second_clone_copy_option_names_what_it_copies() -> None:
    """A Clone that copied Grizzly Bears has the copiable values of a Grizzly Bears (2007 CR
    503): a second Clone choosing it becomes a Grizzly Bears, and the option says so,
    "copy Clone (Grizzly Bears)", not "copy Clone"."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Clone", "Clone"], "in_play": ["Island"] * 8, "library": ["Island"] * 3},
        {"in_play": ["Grizzly Bears"]}]})
    s.do("play Clone")
    s.resolve()
    s.do("copy Grizzly Bears")
    s.do("play Clone#2")
    s.resolve()
    assert sorted(s.options()) == ["copy Clone (Grizzly Bears)", "copy Grizzly Bears", "done"]
    s.do("copy Clone (Grizzly Bears)")
    clones = [p for p in s.game.perms.values() if p.card.name == "Clone"]
    assert [p.cdef.name for p in clones] == ["Grizzly Bears"] * 2
