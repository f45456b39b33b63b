"""A prevention shield against simultaneous damage from several sources (2012 CR 615.7; the 2007
rules agree): "If damage that would be dealt by multiple sources is being prevented by a single
prevention effect, the player the damage would be dealt to (or the controller of the creature it
would be dealt to) chooses which damage to prevent." Combat damage is dealt all at once (2007 CR
310.4), so a Samite Healer shield ("Prevent the next 1 damage that would be dealt to target
creature or player this turn") that two attackers' damage could meet asks the defending player.

The question is a ``choose_cards`` decision (verb ``prevent damage from``): no new decision kind,
the action layout is unchanged. The chosen source's damage meets the shield first; what the
shield has left then meets the rest.
"""

from __future__ import annotations

import pytest

from agents import HeuristicAgent, MctsAgent, RandomAgent
from mtg_env import DecisionKind, Game
from mtg_env.encoding import Observer
from mtg_env.engine import replacement as repl
from mtg_env.engine.replacement_effects import add_prevention_shield
from mtg_env.engine.view import view_for
from mtg_env.testing import Scenario, attack, block, combat, kind, logged, pass_until, to_blockers
from tests.encoding.helpers import check_decision

K = DecisionKind
BEARS = {"card": "Grizzly Bears", "id": "b"}
LINK = {"card": "Spirit Link", "attached_to": "b"}


def _resolve_damage(s: Scenario) -> None:
    """Pass priority until the combat damage on the stack resolves or a question comes."""
    pass_until(s, lambda g: g.step == "combat_damage" and g.stack, what="to combat damage")
    while kind(s) is K.PRIORITY and s.game.stack:
        s.do("pass")


def _healer_on_defender(s: Scenario, attackers: tuple[str, ...]) -> None:
    """Player 0 attacks with ``attackers``; player 1 blocks nothing and, with priority in the
    declare blockers step, activates Samite Healer targeting themselves."""
    attack(s, *attackers)
    to_blockers(s)
    s.do("done")
    s.do("pass")  # player 0 (active) passes priority to player 1
    s.do("activate Samite Healer", "target player 1")
    s.resolve()


def spirit_link_and_giant(order: tuple[str, str] = ("Grizzly Bears", "Hill Giant"),
                          giant_first: bool = False) -> Scenario:
    """Player 0's Grizzly Bears enchanted with player 0's Spirit Link ("Whenever enchanted
    creature deals damage, you gain that much life") and Hill Giant (3/3) attack; player 1 has a
    Samite Healer shield on themselves; the combat damage resolves to the shield question."""
    mine = ["Hill Giant", BEARS, LINK] if giant_first else [BEARS, LINK, "Hill Giant"]
    s = combat({"in_play": mine}, {"in_play": ["Samite Healer"]})
    _healer_on_defender(s, order)
    _resolve_damage(s)
    return s


def test_defender_chooses_which_damage_the_shield_prevents() -> None:
    """2012 615.7: player 1, the player the damage would be dealt to, is asked, with one option
    per source; the context shows the shield and the damage it could meet."""
    s = spirit_link_and_giant()
    d = s.game.decision
    assert d.kind is K.CHOOSE_CARDS and d.player == 1
    assert s.options() == ["prevent damage from Grizzly Bears", "prevent damage from Hill Giant"]
    bears, giant = s.perm("Grizzly Bears").id, s.perm("Hill Giant").id
    assert d.context["verb"] == repl.SHIELD_VERB
    assert d.context["shield"] == {"amount": 1, "target": ["p", 1]}
    assert sorted(d.context["damage"]) == sorted([[bears, 2], [giant, 3]])


@pytest.mark.parametrize(("choice", "gained", "log"), [
    # The Bears deal 2 - 1 = 1: Spirit Link gains 1; the Giant deals 3: player 1 takes 1 + 3.
    ("Grizzly Bears", 1, "Grizzly Bears deals 1 damage to player 1"),
    # The Giant deals 3 - 1 = 2; the Bears deal 2: Spirit Link gains 2; player 1 takes 2 + 2.
    ("Hill Giant", 2, "Hill Giant deals 2 damage to player 1"),
])
def test_the_choice_decides_spirit_links_life(choice: str, gained: int, log: str) -> None:
    """Spirit Link's controller gains what the enchanted Bears deal: 1 if the shield prevents 1
    of the Bears' damage, 2 if it prevents 1 of the Giant's. Player 1 loses 4 either way."""
    s = spirit_link_and_giant()
    s.do(f"prevent damage from {choice}")
    s.resolve_all()
    s.assert_life(0, 20 + gained)
    s.assert_life(1, 16)
    assert logged(s, log)
    assert s.game.replacements == []  # the shield is used up


@pytest.mark.parametrize("giant_first", [False, True])
@pytest.mark.parametrize("order", [("Grizzly Bears", "Hill Giant"), ("Hill Giant", "Grizzly Bears")])
def test_declaration_order_does_not_matter(order: tuple[str, str], giant_first: bool) -> None:
    """Whichever creature is declared (or was put into play) first, the defender is asked, and
    the answer alone decides where the shield goes (once it was always the first assigned)."""
    for choice, gained in (("Grizzly Bears", 1), ("Hill Giant", 2)):
        s = spirit_link_and_giant(order, giant_first)
        assert s.game.decision.kind is K.CHOOSE_CARDS
        s.do(f"prevent damage from {choice}")
        s.resolve_all()
        s.assert_life(0, 20 + gained)
        s.assert_life(1, 16)


def test_one_source_is_not_asked() -> None:
    """Only the Bears attack: the shield can meet one source's damage, nothing to choose."""
    s = combat({"in_play": [BEARS, LINK, "Hill Giant"]}, {"in_play": ["Samite Healer"]})
    _healer_on_defender(s, ("Grizzly Bears",))
    _resolve_damage(s)
    assert kind(s) is not K.CHOOSE_CARDS
    s.resolve_all()
    s.assert_life(0, 21)
    s.assert_life(1, 19)


def test_shield_that_prevents_it_all_is_not_asked() -> None:
    """A shield of 5 meets 2 + 3 damage: it prevents all of it whatever the order (615.7 only
    matters when it can't)."""
    s = combat({"in_play": [BEARS, LINK, "Hill Giant"]})
    attack(s, "Grizzly Bears", "Hill Giant")
    add_prevention_shield(s.game, ("p", 1), 5, "test shield")
    _resolve_damage(s)
    assert kind(s) is not K.CHOOSE_CARDS
    s.resolve_all()
    s.assert_life(0, 20)
    s.assert_life(1, 20)


def test_shield_left_over_meets_the_other_damage() -> None:
    """A shield of 3 against the Bears (2) and the Giant (3): chosen for the Bears it prevents
    their 2 and 1 of the Giant's (player 1 takes 2, no life gained); chosen for the Giant it
    prevents 3 of the Giant's (player 1 takes the Bears' 2, Spirit Link gains 2)."""
    for choice, gained, life in (("Grizzly Bears", 0, 18), ("Hill Giant", 2, 18)):
        s = combat({"in_play": [BEARS, LINK, "Hill Giant"]})
        attack(s, "Grizzly Bears", "Hill Giant")
        add_prevention_shield(s.game, ("p", 1), 3, "test shield")
        _resolve_damage(s)
        assert s.game.decision.player == 1
        s.do(f"prevent damage from {choice}")
        s.resolve_all()
        s.assert_life(0, 20 + gained)
        s.assert_life(1, life)


def two_blockers_on_the_giant() -> Scenario:
    """Player 0's Hill Giant (3/3) is blocked by player 1's Grizzly Bears, enchanted with
    player 1's Spirit Link, and Llanowar Elves (1/1); player 0's Samite Healer shields the Giant.
    The Giant assigns 2 to the Bears and 1 to the Elves; the damage resolves to the question."""
    s = combat({"in_play": ["Hill Giant", "Samite Healer"]},
               {"in_play": [BEARS, LINK, "Llanowar Elves"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"), ("Hill Giant", "Llanowar Elves"))
    s.do("activate Samite Healer", "target Hill Giant")
    s.resolve()
    pass_until(s, lambda g: g.step == "combat_damage", what="to combat damage")
    while kind(s) is K.COMBAT_DAMAGE:
        elves = s.game.decision.context["recipient"] == ["o", s.perm("Llanowar Elves").id]
        s.do("assign 1 damage to Llanowar Elves" if elves else "assign 2 damage to Grizzly Bears")
    _resolve_damage(s)
    return s


def test_shield_on_a_creature_blocked_by_two() -> None:
    """Damage to a creature from two blockers: the creature's controller chooses (615.7).
    Prevent the Bears' damage: they deal 1 (player 1 gains 1) and the Elves 1; prevent the
    Elves': the Bears deal 2 (player 1 gains 2). The Giant has 2 damage and lives either way."""
    for choice, gained in (("Grizzly Bears", 1), ("Llanowar Elves", 2)):
        s = two_blockers_on_the_giant()
        d = s.game.decision
        assert d.kind is K.CHOOSE_CARDS and d.player == 0
        assert sorted(s.options()) == ["prevent damage from Grizzly Bears",
                                       "prevent damage from Llanowar Elves"]
        s.do(f"prevent damage from {choice}")
        s.resolve_all()
        s.assert_damage("Hill Giant", 2)
        s.assert_life(1, 20 + gained)


def test_heuristic_denies_spirit_links_life() -> None:
    """The heuristic prevents the damage whose prevention does more: the Spirit Linked source's
    (the opponent's life gain), as defender and as the blocked creature's controller."""
    for s, pl in ((spirit_link_and_giant(), 1), (spirit_link_and_giant(giant_first=True), 1),
                  (two_blockers_on_the_giant(), 0)):
        agent = HeuristicAgent(strict=True)
        agent.reset(pl, 0)
        assert agent.act(view_for(s.game, pl)).text == "prevent damage from Grizzly Bears"


def test_every_agent_answers_and_the_env_maps_it() -> None:
    """The question maps to the permanent rows of the unchanged action layout; random and search
    agents answer it (the search on copies of the suspended resolution)."""
    s = spirit_link_and_giant()
    obs = Observer()
    _, mask = obs.observe(s.game, 1)
    lay = obs.act_layout
    assert [lay.locate(i)[0] for i, m in enumerate(mask) if m] == ["permanent", "permanent"]
    check_decision(obs, s.game)
    texts = set(s.options())
    for agent in (RandomAgent(), MctsAgent(iterations=6, depth=20)):
        agent.reset(1, 3)
        assert agent.act(view_for(s.game, 1)).text in texts
    assert s.game.decision.kind is K.CHOOSE_CARDS


def test_json_round_trip_and_determinism_while_asked() -> None:
    """The suspended resolution is plain data: a game restored from JSON while the question is
    pending goes on exactly like the original."""
    s = spirit_link_and_giant()
    g2 = Game.from_json(s.game.to_json())
    assert g2.decision.options == s.game.decision.options
    for g in (s.game, g2):
        g.apply("prevent damage from Hill Giant")
    assert g2.to_json() == s.game.to_json()
