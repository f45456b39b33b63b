"""Engine tests of copying a spell and changing its targets (mtg_env/engine/stack.py): 2012 706.10
(a copy of a spell: its controller, its copied choices, not played, not a card, 706.10a it ceases
to exist off the stack), 706.10c / 114.6d ("you may choose new targets": keep any, even an illegal
one), 114.6a ("change the target": only to another legal target, else unchanged), 114.6e (only the
final set is checked: "another target" stays distinct); 2007 CR 503 (copying, 2012 706) and
RULES_2007.md section 1 (a copy of a spell is not "played"). The waiting choice survives copy()
and JSON."""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind, Game
from mtg_env.testing import Scenario, card_counts, scenario

K = DecisionKind
LIB = ["Wall of Wood"] * 5
_pos = partial(scenario, library=LIB)  # both players' libraries are LIB unless given
P1_MANA = ["Island", "Island", "Mountain", "Mountain", "Mountain"]


def _shock_then_twincast(p0_play: list | None = None, p1_play: list | None = None,
                         p0_hand: list | None = None) -> Scenario:
    """Player 0 plays Shock at Goblin Piker; player 1 answers with Twincast on it; Twincast
    resolves (the copy's new-target decision is pending)."""
    s = _pos({"hand": ["Shock", *(p0_hand or [])],
              "in_play": ["Mountain", "Grizzly Bears", *(p0_play or [])]},
             {"hand": ["Twincast"],
              "in_play": [*P1_MANA, "Goblin Piker", *(p1_play or [])]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock")
    s.resolve()
    return s


def _same_future(g: Game, actions: list[str]) -> None:
    """``g``, its copy and its JSON round trip give the same game after ``actions``."""
    games = [g, g.copy(), Game.from_json(g.to_json())]
    for x in games:
        for a in actions:
            x.apply(a)
    assert games[0].log[-8:] == games[1].log[-8:] == games[2].log[-8:]
    states = [Game.from_json(x.to_json()).to_json() for x in games]
    assert states[0] == states[1] == states[2]


def test_copy_is_controlled_by_its_copier_and_is_no_card() -> None:
    """2012 706.10: "A copy of a spell is owned by the player under whose control it was put on
    the stack ... A copy of a spell is itself a spell, even though it has no spell card"; 706.10a:
    off the stack it ceases to exist. The card counts of every zone stay constant throughout."""
    s = _shock_then_twincast()
    expected = card_counts(s.game)
    d = s.game.decision
    assert d.kind is K.TARGET and d.player == 1
    copy = s.game.stack[-1]
    assert copy.label == "copy of Shock" and copy.controller == 1 and copy.card.owner == 1
    assert copy.targets == s.game.stack[0].targets  # 706.10: its targets are copied
    assert card_counts(s.game) == expected
    s.do("keep target Goblin Piker")
    assert card_counts(s.game) == expected
    cid = copy.card.cid
    s.resolve()  # the copy resolves first: 2 damage to Goblin Piker
    assert "copy of Shock ceases to exist" in s.game.log
    assert cid not in s.game.cards
    assert all(c.cid != cid for P in s.game.players
               for z in (P.hand, P.library, P.graveyard, P.removed) for c in z)
    assert [c.name for c in s.game.players[1].graveyard] == ["Twincast", "Goblin Piker"]
    assert card_counts(s.game) == expected
    s.resolve_all()
    assert [c.name for c in s.game.players[0].graveyard] == ["Shock"]
    assert card_counts(s.game) == expected


def test_copy_copies_x() -> None:
    """2012 706.10: the copy has the original's value of X (Blaze with X = 3): its new target,
    player 0, takes 3."""
    s = _pos({"hand": ["Blaze"], "in_play": ["Mountain"] * 4},
             {"hand": ["Twincast"], "in_play": P1_MANA})
    s.do("play Blaze", "X=3", "target player 1", "pass", "play Twincast", "target Blaze")
    s.resolve()
    assert s.game.stack[-1].x == 3
    s.do("target player 0")
    s.resolve()
    s.assert_life(0, 17)
    s.resolve_all()
    s.assert_life(1, 17)


def test_copy_is_not_played() -> None:
    """2012 706.10: "a copy of a spell isn't cast" (2007: played): Kraken's Eye ("Whenever a
    player plays a blue spell, you may gain 1 life.") triggers for Unsummon and Twincast, not for
    the copy of Unsummon."""
    s = _pos({"hand": ["Unsummon"], "in_play": ["Island", "Kraken's Eye"]},
             {"hand": ["Twincast"], "in_play": [*P1_MANA, "Grizzly Bears"]})
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()  # Kraken's Eye's trigger
    s.do("yes")
    s.do("pass", "play Twincast", "target Unsummon")
    s.resolve()
    s.do("yes")
    s.resolve()  # Twincast: the copy goes on the stack (its only target kept: no choice)
    assert s.game.stack[-1].label == "copy of Unsummon"
    assert all(x.kind == "spell" for x in s.game.stack)  # no trigger for the copy
    s.resolve_all()
    s.assert_life(0, 22)


def test_countered_copy_ceases_to_exist() -> None:
    """2012 706.10a: a copy countered (Cancel) is put nowhere; the cards are all where they were."""
    s = _shock_then_twincast(p0_play=["Island", "Island", "Island"], p0_hand=["Cancel"])
    expected = card_counts(s.game)
    s.do("keep target Goblin Piker")
    s.do("play Cancel", "target copy of Shock")
    s.resolve()
    assert not any(x.label == "copy of Shock" for x in s.game.stack)
    assert "copy of Shock ceases to exist" in s.game.log
    assert card_counts(s.game) == expected
    assert [c.name for c in s.game.players[0].graveyard] == ["Cancel"]


def test_copy_fizzling_ceases_to_exist_and_a_gone_target_may_be_kept() -> None:
    """2012 706.10c: "The player may leave any number of the targets unchanged, even if those
    targets would be illegal": Goblin Piker was returned to its owner's hand, keeping it is still
    an option; the copy is then countered on resolution (2007 CR 413.2a) and ceases to exist."""
    s = _pos({"hand": ["Shock", "Unsummon"], "in_play": ["Mountain", "Island", "Island"]},
             {"hand": ["Twincast"], "in_play": [*P1_MANA, "Goblin Piker"]})
    expected = card_counts(s.game)
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock", "pass",
         "play Unsummon", "target Goblin Piker")
    s.resolve()  # Unsummon
    s.resolve()  # Twincast
    opts = s.options()
    assert "target player 0" in opts and not any("Goblin Piker" in o and o.startswith("target")
                                                 for o in opts)
    keep = [o for o in opts if o.startswith("keep target")]
    assert len(keep) == 1
    _same_future(s.game.copy(), [keep[0]])  # the frame names a target no longer there
    s.do(keep[0])
    s.resolve()
    assert "copy of Shock is countered: no legal targets" in s.game.log
    assert "copy of Shock ceases to exist" in s.game.log
    assert card_counts(s.game) == expected


def test_new_targets_are_legal_for_the_copy_controller() -> None:
    """2012 114.6d: new targets must be legal for the copy, whose controller is Twincast's:
    player 1's Troll Ascetic ("can't be the target of spells or abilities your opponents
    control") may be targeted by player 1's copy, player 0's Troll Ascetic may not."""
    s = _shock_then_twincast(p0_play=["Troll Ascetic"], p1_play=["Troll Ascetic"])
    opts = s.options()
    assert "target Troll Ascetic#2" in opts and "target Troll Ascetic" not in opts
    assert sorted(opts) == sorted(["target player 0", "target player 1", "target Grizzly Bears",
                                   "target Troll Ascetic#2", "keep target Goblin Piker"])


def test_change_target_is_legal_for_that_spell() -> None:
    """2012 114.6a: the new target must be legal for the changed spell, from its controller's
    side: player 0's Shock may now target player 0's Troll Ascetic, not player 1's. The current
    target is not an option (it must change), and there is no "keep"."""
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain", "Troll Ascetic"]},
             {"hand": ["Shunt"], "in_play": [*P1_MANA, "Goblin Piker", "Troll Ascetic"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Shunt", "target Shock")
    s.resolve()
    d = s.game.decision
    assert d.kind is K.TARGET and d.player == 1
    assert sorted(s.options()) == ["target Troll Ascetic", "target player 0", "target player 1"]


def test_change_target_without_another_legal_target_is_unchanged() -> None:
    """2012 114.6a: "If a target can't be changed to another legal target, the original target
    is unchanged": Terror's only legal target is Grizzly Bears (the other creature is black)."""
    s = _pos({"hand": ["Terror"], "in_play": ["Swamp", "Swamp"]},
             {"hand": ["Shunt"], "in_play": [*P1_MANA, "Grizzly Bears", "Scathe Zombies"]})
    s.do("play Terror", "target Grizzly Bears", "pass", "play Shunt", "target Terror")
    s.resolve()
    assert s.game.decision.kind is K.PRIORITY
    assert any("no other legal target" in line for line in s.game.log)
    s.resolve_all()
    s.assert_in_play("Grizzly Bears", False)


def test_choose_new_targets_keeps_another_target_distinct() -> None:
    """2012 114.6e: only the final set of targets is checked, and Cone of Flame's "another
    target" must stay different: the copy's first target may become its second one, which then
    has to change (no "keep" for it, and the first target's object isn't offered)."""
    s = _pos({"hand": ["Cone of Flame"], "in_play": ["Mountain"] * 5},
             {"hand": ["Twincast"], "in_play": [*P1_MANA, "Goblin Piker", "Grizzly Bears",
                                                 "Hill Giant"]})
    s.do("play Cone of Flame", "target Goblin Piker", "target Grizzly Bears", "target Hill Giant",
         "pass", "play Twincast", "target Cone of Flame")
    s.resolve()
    assert "keep target Goblin Piker" in s.options()
    s.do("target Grizzly Bears")
    opts = s.options()
    assert "target Grizzly Bears" not in opts and "keep target Grizzly Bears" not in opts
    assert "target Goblin Piker" in opts
    s.do("target Goblin Piker")
    assert "keep target Hill Giant" in s.options()
    s.do("keep target Hill Giant")
    copy = s.game.stack[-1]
    ids = [s.perm(n).id for n in ("Grizzly Bears", "Goblin Piker", "Hill Giant")]
    assert copy.targets == [("o", i) for i in ids]
    s.resolve()
    s.assert_damage("Grizzly Bears", 1)  # the copy: 1 to its first target, 2, then 3
    s.assert_in_play("Goblin Piker", False)
    s.assert_in_play("Hill Giant", False)


def test_spell_can_be_made_to_target_the_changing_spell() -> None:
    """Shunt's ruling (2004-10-04): the new target may be the spell changing it, still on the
    stack as it resolves: Cancel aimed at Giant Growth is turned on Shunt, which then leaves the
    stack, so Cancel is countered on resolution (2007 CR 413.2a) and Giant Growth resolves."""
    s = _pos({"hand": ["Giant Growth", "Shunt"],
              "in_play": ["Forest", "Mountain", "Mountain", "Mountain", "Grizzly Bears"]},
             {"hand": ["Cancel"], "in_play": ["Island"] * 3})
    s.do("play Giant Growth", "target Grizzly Bears", "pass", "play Cancel", "target Giant Growth",
         "pass", "play Shunt", "target Cancel")
    s.resolve()
    # Cancel's only other legal target is Shunt itself: the change is forced, no decision.
    assert "Shunt: Cancel now targets Shunt instead of Giant Growth" in s.game.log
    s.resolve()
    assert "Cancel is countered: no legal targets" in s.game.log
    s.resolve_all()
    s.assert_pt("Grizzly Bears", 5, 5)


def test_retarget_decision_survives_copy_and_json() -> None:
    """The waiting choice (the ``retarget`` frame) and the copy on the stack are plain state:
    copy() and a JSON round trip continue the same way."""
    s = _shock_then_twincast()
    _same_future(s.game, ["target player 0", "pass", "pass"])
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"hand": ["Shunt"], "in_play": [*P1_MANA, "Goblin Piker", "Grizzly Bears"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Shunt", "target Shock")
    s.resolve()
    _same_future(s.game, ["target player 0", "pass", "pass"])


def test_copy_removed_by_the_turn_ending_ceases_to_exist() -> None:
    """Time Stop ends the turn, removing every object on the stack from the game (2012 713.1):
    Shock goes to its owner's removed-from-the-game zone, the copy ceases to exist (706.10a)."""
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]},
             {"hand": ["Twincast", "Time Stop"],
              "in_play": [*P1_MANA, "Island", "Island", "Island", "Island", "Goblin Piker"]})
    expected = card_counts(s.game)
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock")
    s.resolve()
    s.do("keep target Goblin Piker", "pass", "play Time Stop")
    s.resolve()
    assert not s.game.stack
    assert [c.name for c in s.game.players[0].removed] == ["Shock"]
    assert "copy of Shock ceases to exist" in s.game.log
    assert card_counts(s.game) == expected
