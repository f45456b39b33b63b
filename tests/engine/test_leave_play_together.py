"""Permanents that leave play at the same time leave together: each leaves-play ability sees every
one of them leave (2012 603.6c, 603.10a: leaves-play abilities "look back in time"), whatever
order the engine keeps them in.

- State-based effects are performed at the same time (2007 CR 420.3): creatures dealt lethal
  damage (420.5c), with 0 toughness (420.5b) and illegal Auras (420.5d) go together.
- "Destroy all" (Wrath of God), "return all" (Evacuation), "sacrifice all creatures you control"
  as a cost (Soulblast) and the permanents a player chose to sacrifice are one event each.

Sengir Vampire ("Whenever a creature dealt damage by Sengir Vampire this turn is put into a
graveyard, put a +1/+1 counter on Sengir Vampire") is the witness: when it leaves with a creature
it damaged, its ability still triggers. Each test checks that the Vampire's object id is the lower
one, the order in which removing them one at a time would hide the other creature from it.
"""

from __future__ import annotations

from mtg_env import DecisionKind
from mtg_env.testing import Scenario

K = DecisionKind
LIB = ["Swamp"] * 6


def triggers(s: Scenario) -> list[str]:
    return [x.label for x in s.game.stack if x.kind == "triggered"]


def graveyard(s: Scenario, pl: int) -> list[str]:
    return sorted(c.name for c in s.game.players[pl].graveyard)


def fight(s: Scenario, attacker: str, blocker: str) -> Scenario:
    """From the beginning of combat: ``attacker`` attacks and ``blocker`` blocks it; combat damage
    is dealt (it uses the stack in 2007, CR 310.2) and resolved."""
    s.pass_priority(2)
    s.do(f"attack with {attacker}")
    if s.game.decision.kind is K.DECLARE_ATTACKERS:
        s.do("done")
    while s.game.step == "declare_attackers":
        s.pass_priority()
    s.do(f"block {attacker} with {blocker}")
    if s.game.decision.kind is K.DECLARE_BLOCKERS:
        s.do("done")
    s.advance_to("combat_damage")
    s.resolve()
    return s


def vampire_attacks(p0_extra: dict, blocker: str, p1_extra: dict | None = None,
                    vampire: str | dict = "Sengir Vampire") -> Scenario:
    """Player 0's Sengir Vampire (4/4, flying) attacks and player 1 blocks it with ``blocker``."""
    p0 = {"in_play": [vampire, *p0_extra.pop("in_play", [])], "library": LIB, **p0_extra}
    p1 = {"in_play": [blocker, *(p1_extra or {}).get("in_play", [])], "library": LIB}
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [p0, p1]})
    assert s.perm("Sengir Vampire").id < s.perm(blocker).id
    return fight(s, "Sengir Vampire", blocker)


def test_creatures_dealt_lethal_damage_leave_together() -> None:
    """2007 CR 420.3, 420.5c: Craw Wurm (6/4) attacks and Sengir Vampire (4/4) blocks it; they
    destroy each other and go to the graveyard at the same time, so the Vampire's ability sees
    the Wurm go and triggers (its counter then has nowhere to go)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "beginning_of_combat",
                  "players": [{"in_play": ["Sengir Vampire"], "library": LIB},
                              {"in_play": ["Craw Wurm"], "library": LIB}]})
    assert s.perm("Sengir Vampire").id < s.perm("Craw Wurm").id
    fight(s, "Craw Wurm", "Sengir Vampire")
    assert graveyard(s, 0) == ["Sengir Vampire"] and graveyard(s, 1) == ["Craw Wurm"]
    assert len(triggers(s)) == 1
    s.resolve_all()
    assert s.game.stack == []


def test_wrath_of_god_destroys_all_creatures_at_the_same_time() -> None:
    """Wrath of God: "Destroy all creatures." is one event: Wall of Air (1/5) took 4 damage from
    Sengir Vampire in combat; when Wrath of God destroys both, the Vampire's ability triggers
    for the Wall."""
    s = vampire_attacks({"in_play": ["Plains"] * 4, "hand": ["Wrath of God"]}, "Wall of Air")
    s.assert_in_play("Wall of Air")
    assert triggers(s) == []
    s.advance_to("postcombat_main")
    s.do("play Wrath of God")
    s.resolve()
    assert graveyard(s, 0) == ["Sengir Vampire", "Wrath of God"]
    assert graveyard(s, 1) == ["Wall of Air"]
    assert len(triggers(s)) == 1


def test_regeneration_in_a_mass_destruction_spares_only_its_creature() -> None:
    """Pyroclasm: "Pyroclasm deals 2 damage to each creature." The Vampire (2 damage: 1 from
    Wall of Air, 1 before) and the Wall (4) get lethal damage together with Drudge Skeletons, whose regeneration
    shield replaces its destruction (2007 CR 419.6b); the other two leave together and the
    Vampire's ability triggers for the Wall."""
    s = vampire_attacks({"in_play": ["Mountain"] * 2, "hand": ["Pyroclasm"]}, "Wall of Air",
                        {"in_play": ["Drudge Skeletons", "Swamp"]},
                        vampire={"card": "Sengir Vampire", "damage": 1})
    s.advance_to("postcombat_main")
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Pyroclasm")
    s.resolve()
    s.assert_in_play("Drudge Skeletons")
    assert s.perm("Drudge Skeletons").damage == 0 and s.perm("Drudge Skeletons").tapped
    assert graveyard(s, 0) == ["Pyroclasm", "Sengir Vampire"]
    assert graveyard(s, 1) == ["Wall of Air"]
    assert len(triggers(s)) == 1


def test_sacrificing_all_creatures_as_a_cost_is_one_event() -> None:
    """Soulblast: "As an additional cost to play Soulblast, sacrifice all creatures you
    control." Player 0 took Wall of Air (1/5, 4 damage from Sengir Vampire in combat) with
    Threaten; both are sacrificed together, so the Vampire's ability triggers for the Wall, and
    Soulblast deals their total power (4 + 1) to player 1."""
    s = vampire_attacks({"in_play": ["Mountain"] * 10, "hand": ["Threaten", "Soulblast"]},
                        "Wall of Air")
    s.advance_to("postcombat_main")
    s.do("play Threaten", "target Wall of Air")
    s.resolve()
    s.do("play Soulblast", "target player 1")
    assert graveyard(s, 0) == ["Sengir Vampire", "Threaten"]
    assert graveyard(s, 1) == ["Wall of Air"]
    assert len(triggers(s)) == 1
    s.resolve_all()
    assert s.game.players[1].life == 15
