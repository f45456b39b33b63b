"""Issue 10, class C cards of animation and type-changing (2007 CR 418.5 layers 4, 5, 6a, 6b),
granted activated and mana abilities (layer 5) and a triggered mana ability (2007 CR 406.1b):
Forbidding Watchtower, Ghitu Encampment, Spawning Pool, Chimeric Staff, March of the Machines,
Joiner Adept, Overgrowth. Each test quotes the printed text it checks and cites the rule."""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.testing import Scenario

LIB = ["Wall of Wood"] * 5


def pos(step: str, p0: dict, p1: dict | None = None, **top) -> dict:
    p0 = {"library": LIB, **p0}
    p1 = {"library": LIB, **(p1 or {})}
    return {"turn": 3, "step": step, "players": [p0, p1], **top}


def attack(s: Scenario, *names: str) -> None:
    """From the beginning of combat: declare ``names`` as attackers."""
    s.pass_priority(2)
    assert s.game.step == "declare_attackers"
    s.do(*[f"attack with {n}" for n in names])
    if s.game.decision.kind is DecisionKind.DECLARE_ATTACKERS:
        s.do("done")


def block(s: Scenario, *pairs: tuple[str, str]) -> None:
    """After attackers: declare each (attacker, blocker) block."""
    s.pass_priority(2)
    assert s.game.step == "declare_blockers"
    s.do(*[f"block {a} with {b}" for a, b in pairs])
    if s.game.decision.kind is DecisionKind.DECLARE_BLOCKERS:
        s.do("done")


# -- Forbidding Watchtower / Ghitu Encampment ----------------------------------------------------

def test_forbidding_watchtower_comes_into_play_tapped_and_taps_for_white() -> None:
    """Printed text: "Forbidding Watchtower comes into play tapped. {T}: Add {W} to your mana
    pool." (2007 CR 406: a mana ability)."""
    s = Scenario(pos("precombat_main", {"hand": ["Forbidding Watchtower"]}))
    s.do("play Forbidding Watchtower")
    assert s.perm("Forbidding Watchtower").tapped
    s = Scenario(pos("precombat_main", {"in_play": ["Forbidding Watchtower"]}))
    s.do("tap Forbidding Watchtower for W")
    assert s.game.players[0].pool_text() == "W"


def test_forbidding_watchtower_becomes_a_1_5_white_soldier_still_a_land() -> None:
    """Printed text: "{1}{W}: Forbidding Watchtower becomes a 1/5 white Soldier creature until end
    of turn. It's still a land." 2007 CR 418.5: layer 4 adds Creature and Soldier, layer 5 sets
    white, layer 6b sets 1/5; the effect ends in the cleanup step (2012 514.2)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Plains", "Plains", "Forbidding Watchtower"]}))
    assert not s.perm("Forbidding Watchtower").is_creature
    s.do("activate Forbidding Watchtower")
    s.resolve()
    w = s.perm("Forbidding Watchtower")
    assert w.types == {"Land", "Creature"} and w.subtypes == ("Soldier",)
    assert w.colors == {"W"}
    s.assert_pt("Forbidding Watchtower", 1, 5)
    s.advance_to("upkeep", active=1)
    w = s.perm("Forbidding Watchtower")
    assert w.types == {"Land"} and w.colors == frozenset() and w.subtypes == ()


def test_ghitu_encampment_comes_into_play_tapped_and_taps_for_red() -> None:
    """Printed text: "Ghitu Encampment comes into play tapped. {T}: Add {R} to your mana pool."."""
    s = Scenario(pos("precombat_main", {"hand": ["Ghitu Encampment"]}))
    s.do("play Ghitu Encampment")
    assert s.perm("Ghitu Encampment").tapped
    s = Scenario(pos("precombat_main", {"in_play": ["Ghitu Encampment"]}))
    s.do("tap Ghitu Encampment for R")
    assert s.game.players[0].pool_text() == "R"


def test_ghitu_encampment_becomes_a_2_1_red_warrior_with_first_strike() -> None:
    """Printed text: "{1}{R}: Ghitu Encampment becomes a 2/1 red Warrior creature with first strike
    until end of turn. It's still a land." 2007 CR 418.5 layers 4, 5 and 6b; first strike: it
    deals its combat damage first (2007 CR 502.2) and kills a 2/2 blocker before it strikes back."""
    s = Scenario(pos("precombat_main", {"in_play": ["Mountain", "Mountain", "Ghitu Encampment"]},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("activate Ghitu Encampment")
    s.resolve()
    g = s.perm("Ghitu Encampment")
    assert g.types == {"Land", "Creature"} and g.subtypes == ("Warrior",)
    assert g.colors == {"R"} and g.has("first_strike")
    s.assert_pt("Ghitu Encampment", 2, 1)
    s.advance_to("beginning_of_combat")
    attack(s, "Ghitu Encampment")
    block(s, ("Ghitu Encampment", "Grizzly Bears"))
    s.advance_to("end_of_combat")
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s.assert_in_play("Ghitu Encampment")
