"""Combat-declaration cards: Lure, Viashino Runner, Rhox, Windborn Muse
(2012 508.1d-i, 509.1b-c, 510.1c; the 2007 rules keep them: RULES_2007.md section 6). Each test quotes the printed text
it checks and cites the rule."""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, position, to_blockers

K = DecisionKind
LIB = ["Island"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


def texts(s: Scenario) -> set[str]:
    return {a.text for a in s.game.decision.options}


def end_combat(s: Scenario, *prefer: str) -> None:
    """Pass to the end of combat, dividing combat damage by the first of ``prefer`` offered
    (else the first option)."""
    g = s.game
    for _ in range(100):
        d = g.decision
        if g.step == "end_of_combat" and d.kind is K.PRIORITY:
            return
        offered = [a.text for a in d.options]
        if d.kind is K.COMBAT_DAMAGE:
            g.apply(next((t for t in prefer if t in offered), offered[0]))
        else:
            g.apply("pass" if d.kind is K.PRIORITY else "done")
    raise AssertionError("end of combat not reached")


# -- Lure -------------------------------------------------------------------------------------------

def test_lure_enchants_a_creature_and_all_able_creatures_block_it() -> None:
    """Lure: "Enchant creature ... All creatures able to block enchanted creature do so."
    Played targeting a creature (2012 303.4a), then every untapped creature of the defender able to
    block it must block it (2012 509.1c): no other block and no ``done`` until they all do."""
    s = Scenario(pos("precombat_main",
                     {"in_play": ["Grizzly Bears", "Hill Giant", "Forest", "Forest", "Forest"],
                      "hand": ["Lure"]},
                     {"in_play": ["Craw Wurm", "Wall of Wood"]}))
    s.do("play Lure", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Lure").attached_to == s.perm("Grizzly Bears").id
    s.advance_to("beginning_of_combat")
    to_blockers(s, "Grizzly Bears", "Hill Giant")
    assert texts(s) == {"block Grizzly Bears with Craw Wurm", "block Grizzly Bears with Wall of Wood"}
    s.do("block Grizzly Bears with Wall of Wood", "block Grizzly Bears with Craw Wurm")
    end_combat(s)
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.assert_life(1, 17)  # Hill Giant unblocked


def test_lure_only_enchanted_creature_is_lured() -> None:
    """Lure: "enchanted creature" only: the other attacker may be blocked or not freely, and a
    defender with no creature able to block the lured one (it flies) may declare no blocks."""
    s = Scenario(pos("beginning_of_combat",
                     {"in_play": [{"card": "Suntail Hawk", "id": "h"},
                                  {"card": "Lure", "attached_to": "h"}, "Hill Giant"]},
                     {"in_play": ["Craw Wurm"]}))
    to_blockers(s, "Suntail Hawk", "Hill Giant")
    assert texts(s) == {"block Hill Giant with Craw Wurm", "done"}
    s.do("done")
    assert not s.perm("Hill Giant").blocked


# -- Viashino Runner --------------------------------------------------------------------------------

def test_viashino_runner_cant_be_blocked_by_one_creature() -> None:
    """Viashino Runner: "Viashino Runner can't be blocked except by two or more creatures."
    With one untapped creature the defender has no block of it (2012 509.1b) and takes 3."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Viashino Runner"]},
                     {"in_play": ["Craw Wurm", {"card": "Grizzly Bears", "tapped": True}]}))
    s.pass_priority(2)
    s.do("attack with Viashino Runner")
    s.advance_to("end_of_combat")
    assert not s.perm("Viashino Runner").blocked
    s.assert_life(1, 17)


def test_viashino_runner_blocked_by_two_creatures() -> None:
    """Viashino Runner: "... except by two or more creatures": one blocker alone is not a legal
    declaration (``done`` is withheld), two are; the 3/2 dies to them."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Viashino Runner"]},
                     {"in_play": ["Grizzly Bears", "Wall of Wood"]}))
    to_blockers(s, "Viashino Runner")
    s.do("block Viashino Runner with Grizzly Bears")
    assert texts(s) == {"block Viashino Runner with Wall of Wood"}
    s.do("block Viashino Runner with Wall of Wood")
    end_combat(s)
    s.assert_zone(0, "graveyard", "Viashino Runner")
    s.assert_life(1, 20)


# -- Rhox -------------------------------------------------------------------------------------------

def _rhox_blocked(blocker: str = "Grizzly Bears") -> Scenario:
    s = Scenario(pos("declare_blockers",
                     {"in_play": [{"card": "Rhox", "id": "r", "attacking": True},
                                  "Forest", "Forest", "Forest"]},
                     {"in_play": [{"card": blocker, "blocking": "r"}]}))
    s.pass_priority(2)
    assert s.game.step == "combat_damage"
    return s


def test_rhox_may_deal_its_damage_to_the_player_as_though_unblocked() -> None:
    """Rhox: "You may have Rhox deal its combat damage to defending player as though it weren't
    blocked." Its controller chooses as combat damage is assigned (2007 CR 310.1; 2012 510.1c):
    yes puts all 5 on the defending player and none on the blocker, which still deals its
    damage to Rhox."""
    s = _rhox_blocked()
    d = s.game.decision
    assert d.kind is K.COMBAT_DAMAGE and d.player == 0 and texts(s) == {"yes", "no"}
    s.do("yes")
    s.advance_to("end_of_combat")
    s.assert_life(1, 15)
    assert s.perm("Grizzly Bears").damage == 0
    assert s.perm("Rhox").damage == 2


def test_rhox_may_choose_to_damage_its_blocker() -> None:
    """Rhox: "You may ...": answering no assigns its damage to the blocker as usual."""
    s = _rhox_blocked()
    s.do("no")
    s.advance_to("end_of_combat")
    s.assert_life(1, 20)
    s.assert_zone(1, "graveyard", "Grizzly Bears")


def test_rhox_deals_damage_to_the_player_even_with_no_blocker_left() -> None:
    """Rhox: a blocked creature whose blockers are gone assigns no damage (2012 510.1c), but
    Rhox may still deal its damage as though it weren't blocked."""
    s = Scenario(pos("declare_blockers",
                     {"in_play": [{"card": "Rhox", "id": "r", "attacking": True}],
                      "hand": ["Shock"], "mana_pool": "R"},
                     {"in_play": [{"card": "Grizzly Bears", "blocking": "r"}]}))
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Rhox").blocked and not s.in_play("Grizzly Bears")
    s.pass_priority(2)
    assert texts(s) == {"yes", "no"}
    s.do("yes")
    s.advance_to("end_of_combat")
    s.assert_life(1, 15)


def test_rhox_unblocked_is_not_asked() -> None:
    """Rhox: the choice is only for a blocked Rhox; unblocked it simply deals 5 to the player
    (2012 510.1a)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Rhox"]}, {}))
    s.pass_priority(2)
    s.do("attack with Rhox")
    s.advance_to("end_of_combat")
    s.assert_life(1, 15)


def test_rhox_regenerates() -> None:
    """Rhox: "{2}{G}: Regenerate Rhox." The shield replaces its destruction by lethal damage:
    it is tapped, its damage removed and it is removed from combat (2012 701.12a)."""
    s = _rhox_blocked("Craw Wurm")  # a 6/4: lethal to the 5/5
    s.do("no")
    # Damage is on the stack: regenerate in response (2007 CR 310.2).
    s.do("activate Rhox")
    s.resolve()
    s.pass_priority(2)
    assert s.in_play("Rhox")
    r = s.perm("Rhox")
    assert r.damage == 0 and r.tapped and not r.attacking


# -- HeuristicAgent ---------------------------------------------------------------------------------

def _heuristic_blocks(s: Scenario) -> None:
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    h = HeuristicAgent(strict=True)
    h.reset(1, 0)
    for _ in range(10):
        if s.game.decision.kind is not K.DECLARE_BLOCKERS:
            return
        s.do(h.act(view_for(s.game, 1)).text)
    raise AssertionError("the heuristic agent did not finish its block declaration")


def test_heuristic_agent_declares_the_blocks_lure_requires() -> None:
    """Lure: "All creatures able to block enchanted creature do so." The heuristic agent, which
    would rather not block a 2/2 with its valuable creatures, still finishes a legal declaration:
    both able creatures block the lured attacker (2012 509.1c)."""
    s = Scenario(pos("beginning_of_combat",
                     {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                                  {"card": "Lure", "attached_to": "b"}]},
                     {"in_play": ["Craw Wurm", "Wall of Wood"]}))
    to_blockers(s, "Grizzly Bears")
    _heuristic_blocks(s)
    assert {s.game.perms[b].card.label for b in s.perm("Grizzly Bears").blockers} == {
        "Craw Wurm", "Wall of Wood"}


def test_heuristic_agent_never_single_blocks_viashino_runner() -> None:
    """Viashino Runner: "can't be blocked except by two or more creatures." The heuristic agent
    ends with a legal declaration: no blockers or at least two on it (2012 509.1b)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Viashino Runner"]},
                     {"life": 3, "in_play": ["Grizzly Bears", "Wall of Wood"]}))
    to_blockers(s, "Viashino Runner")
    _heuristic_blocks(s)
    assert len(s.perm("Viashino Runner").blockers) == 2  # at 3 life it must stop the 3 damage


def test_heuristic_agent_rhox_hits_the_player_or_kills_a_big_blocker() -> None:
    """Rhox: "You may have Rhox deal its combat damage to defending player as though it weren't
    blocked." The heuristic agent takes the 5 to the player over killing a 2/2, and kills a
    6/4 Craw Wurm rather than deal 5 to a player at 20 (2012 510.1c)."""
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    for blocker, want in (("Grizzly Bears", "yes"), ("Craw Wurm", "no")):
        s = _rhox_blocked(blocker)
        h = HeuristicAgent(strict=True)
        h.reset(0, 0)
        assert h.act(view_for(s.game, 0)).text == want


# -- Windborn Muse ----------------------------------------------------------------------------------

def _muse(p0_in_play: list, p1_in_play: list | None = None) -> Scenario:
    s = Scenario(pos("beginning_of_combat", {"in_play": p0_in_play},
                     {"in_play": ["Windborn Muse", *(p1_in_play or [])]}))
    s.pass_priority(2)
    assert s.game.step == "declare_attackers"
    return s


def test_windborn_muse_attacker_costs_two_paid_as_declared() -> None:
    """Windborn Muse: "Creatures can't attack you unless their controller pays {2} for each
    creature he or she controls that's attacking you." An attacker is offered only if its controller can pay {2}
    for it and for each one declared before (2012 508.1d, 508.1g-h); the total is paid when the
    declaration is finished, by tapping mana sources (2012 508.1i)."""
    s = _muse(["Grizzly Bears", "Hill Giant", "Mountain", "Mountain", "Mountain"])
    assert texts(s) == {"attack with Grizzly Bears", "attack with Hill Giant", "done"}
    s.do("attack with Hill Giant")
    # {4} for two attackers with three lands: no other attacker to offer, the declaration ends.
    assert s.game.decision.kind is not K.DECLARE_ATTACKERS
    assert s.perm("Hill Giant").attacking and not s.perm("Grizzly Bears").attacking
    tapped = [p.card.label for p in s.game.perms.values() if p.tapped and "Land" in p.types]
    assert len(tapped) == 2
    s.advance_to("end_of_combat")
    s.assert_life(1, 17)


def test_windborn_muse_no_mana_no_attack() -> None:
    """Windborn Muse: "Creatures can't attack you unless their controller pays": with no mana
    no attacker is offered and the declaration is empty (2012 508.1d)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears", "Mountain"]},
                     {"in_play": ["Windborn Muse"]}))
    s.pass_priority(2)
    assert s.game.decision.kind is not K.DECLARE_ATTACKERS
    assert not s.perm("Grizzly Bears").attacking


def test_windborn_muse_attacking_mana_creature_cant_pay() -> None:
    """Windborn Muse: the cost is paid after the attackers tap (2012 508.1f-h), so a mana
    creature that attacks can't tap to pay for it: Llanowar Elves and one Forest pay for one
    attacker, but Llanowar Elves attacking leaves only the Forest."""
    s = _muse(["Llanowar Elves", "Grizzly Bears", "Forest"])
    assert texts(s) == {"attack with Grizzly Bears", "done"}
    s.do("attack with Grizzly Bears")  # the Elves can't join: the declaration ends
    assert not s.perm("Llanowar Elves").attacking
    assert s.perm("Llanowar Elves").tapped and s.perm("Forest").tapped


def test_windborn_muse_is_cumulative_and_only_for_attacks_on_its_controller() -> None:
    """Windborn Muse (ruling 2004-10-04: "If you have more than one of these on the
    battlefield, the cost is cumulative"): two Muses make each attacker cost {4}. Its
    controller's own attacks cost nothing ("attacking you")."""
    s = _muse(["Grizzly Bears", "Mountain", "Mountain", "Mountain"], ["Windborn Muse"])
    assert s.game.decision.kind is not K.DECLARE_ATTACKERS  # {4}: not payable with three lands
    assert not s.perm("Grizzly Bears").attacking
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Windborn Muse", "Grizzly Bears"]}, {}))
    s.pass_priority(2)
    assert texts(s) == {"attack with Grizzly Bears", "attack with Windborn Muse", "done"}


def test_windborn_muse_and_attacks_each_turn_if_able() -> None:
    """Windborn Muse: a creature that "attacks each turn if able" is not forced to attack when
    attacking has a cost: no requirement makes a player pay it (2012 508.1d)."""
    s = _muse(["Juggernaut", "Plains", "Plains"])
    assert texts(s) == {"attack with Juggernaut", "done"}
    s.do("done")
    assert not s.perm("Juggernaut").attacking
