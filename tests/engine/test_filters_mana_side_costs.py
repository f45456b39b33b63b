"""Engine tests of the mana planner's side costs (min-cost matching),
the new filter keys and references (checked at load, dynamic values bound by their callers),
mana abilities adding several mana or none, and the new prevention shields' state.

Rules: 2007 CR 409.1g-h (mana abilities are played while paying costs, in any order the player
chooses), 406 (mana abilities), 413 (targets), 419.7-8 (prevention); 2012 608.2g (last known
information).
"""

from __future__ import annotations

import itertools
import random

import pytest

from mtg_env import DecisionKind, Game
from mtg_env.engine.errors import CardDataError, MtgError
from mtg_env.engine.filters import Site, compile_filter, compile_target
from mtg_env.engine.mana import plan_payment
from mtg_env.engine.ops import compile_effect
from mtg_env.engine.references import compile_ref
from mtg_env.testing import Scenario

Z = (0, 0, 0, 0, 0, 0)
# (id, ability index, colors made, colors made only with a side cost)
PAINLAND = (1, 0, "CWU", "WU")
BIRDS = (2, 0, "WUBRG", "")  # a free source of any color (Birds of Paradise's shape)
PLAINS = (3, 0, "W", "")


def _taps(col: tuple, gen: int, sources: list) -> list[tuple[int, str]]:
    plan = plan_payment(Z, col, gen, sources)
    assert plan is not None
    return [(sources[i][0], sym) for i, sym in plan[1]]


def _side_costs(col: tuple, gen: int, sources: list) -> int:
    plan = plan_payment(Z, col, gen, sources)
    assert plan is not None
    return sum(1 for i, sym in plan[1] if sym in sources[i][3])


def test_a_free_source_pays_a_color_a_painland_would_pay_with_damage() -> None:
    """{W} with a painland and a free any-color source: the greedy matching prefers the source
    with fewer colors (the painland), which would cost 1 damage; the planner re-plans and the free
    source pays (never a side cost when a free source can pay instead)."""
    assert _taps((1, 0, 0, 0, 0), 0, [PAINLAND, BIRDS]) == [(2, "W")]
    assert _side_costs((1, 0, 0, 0, 0), 1, [PAINLAND, BIRDS]) == 0
    assert sorted(_taps((1, 0, 0, 0, 0), 1, [PAINLAND, BIRDS])) == [(1, "C"), (2, "W")]


def test_a_side_cost_is_paid_when_no_plan_avoids_it() -> None:
    """{W}{U} with a painland and a free any-color source: one of the two colors must come from
    the painland's painful ability: exactly one side cost."""
    assert _side_costs((1, 1, 0, 0, 0), 0, [PAINLAND, BIRDS]) == 1


def test_the_planner_is_minimal_on_random_costs() -> None:
    """Against brute force over every assignment of symbols to sources: the planner finds a plan
    exactly when one exists, and its plan has the fewest side costs."""
    kinds = [PAINLAND, (0, 0, "CBR", "BR"), BIRDS, PLAINS, (0, 0, "U", ""), (0, 0, "G", ""),
             (0, 0, "R", "R"), (0, 0, "CUB", "UB"), (0, 0, "WU", "")]
    rng = random.Random(7)
    for _ in range(400):
        sources = [(i, 0, *k[2:]) for i, k in enumerate(rng.sample(kinds, rng.randint(1, 6)))]
        col = [0] * 5
        for _ in range(rng.randint(0, 4)):
            col[rng.randrange(5)] += 1
        gen = rng.randint(0, 3)
        needs = ["WUBRG"[c] for c in range(5) for _ in range(col[c])] + [""] * gen
        best = None
        for perm in itertools.permutations(range(len(sources)), len(needs)):
            cost = 0
            for sym, si in zip(needs, perm):
                src = sources[si]
                if sym and sym not in src[2]:
                    break
                cost += (sym in src[3]) if sym else len(src[3]) == len(src[2])
            else:
                best = cost if best is None else min(best, cost)
        plan = plan_payment(Z, tuple(col), gen, sources)
        assert (plan is None) == (best is None), (col, gen, sources)
        if plan is None:
            continue
        taps = plan[1]
        assert len({si for si, _ in taps}) == len(taps) == len(needs)
        made = sorted(sym for _, sym in taps if sym in "WUBRG")
        for c in "WUBRG":  # every colored symbol is paid with its color
            assert made.count(c) >= needs.count(c)
        assert sum(1 for si, sym in taps if sym in sources[si][3]) == best, (col, gen, sources)


def test_feasibility_does_not_depend_on_side_costs() -> None:
    """The option generators ask only whether a cost can be paid (``cheapest=False``): the same
    answer, without the re-planning."""
    for col, gen in [((1, 0, 0, 0, 0), 0), ((1, 1, 0, 0, 0), 1), ((2, 0, 0, 0, 0), 0)]:
        a = plan_payment(Z, col, gen, [PAINLAND, BIRDS])
        b = plan_payment(Z, col, gen, [PAINLAND, BIRDS], cheapest=False)
        assert (a is None) == (b is None)


# -- filter keys ------------------------------------------------------------------------------
def test_or_keys_compile_to_one_test() -> None:
    """``colors_any``/``types_any``/``subtypes_any``: one of the listed values."""
    g = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"in_play": ["Grizzly Bears", "Hill Giant", "Dragon's Claw", "Plains", "Forest"]}, {}]}
    ).game
    def names(flt: dict) -> list[str]:
        f = compile_filter(flt, "permanent")
        return sorted(p.card.label for p in g.permanents if f.test(p, 0))
    assert names({"colors_any": ["G", "W"]}) == ["Grizzly Bears"]
    assert names({"types_any": ["Artifact", "Land"]}) == ["Dragon's Claw", "Forest", "Plains"]
    assert names({"subtypes_any": ["Plains", "Island"]}) == ["Plains"]
    assert names({"cmc_le": 2}) == ["Dragon's Claw", "Forest", "Grizzly Bears", "Plains"]


@pytest.mark.parametrize(("flt", "message"), [
    ({"colors_any": []}, "non-empty list"),
    ({"colors_any": "G"}, "non-empty list"),
    ({"types_any": ["Artifact", "Planeswalker"]}, "must be one of"),
    ({"cmc_le": "X"}, "has no X"),
    ({"cmc_le": 1.5}, "integer or X"),
    ({"owner": "target_player"}, "targeted player"),
    ({"blocking_source": True}, "ability's source"),
])
def test_bad_new_filter_values_fail_at_load(flt: dict, message: str) -> None:
    """A wrong value, or a dynamic value the caller doesn't provide, is a card-data error."""
    with pytest.raises(CardDataError, match=message):
        compile_filter(flt, "permanent", Site("test"))


def test_dynamic_values_are_checked_against_the_ability() -> None:
    """``target_player`` needs a player target; ``blocking_source`` a permanent source; a
    ``controller_of`` reference a permanent target."""
    with pytest.raises(CardDataError, match="targets no player"):
        compile_ref({"type": "Artifact", "owner": "target_player"},
                    Site("t", targets=("creature",)))
    compile_ref({"type": "Artifact", "owner": "target_player"}, Site("t", targets=("player",)))
    with pytest.raises(CardDataError, match="ability's source"):
        compile_target("creature", {"blocking_source": True}, Site("t", source=False))
    with pytest.raises(CardDataError, match="not a permanent"):
        compile_ref({"controller_of": 0}, Site("t", targets=("player",)))
    with pytest.raises(CardDataError, match="must name a target"):
        compile_ref({"controller_of": 1}, Site("t", targets=("land",)))


def test_a_dynamic_filter_has_no_plain_test() -> None:
    """A filter reading the ability's X can't be tested without it: its plain ``test`` raises
    (never silently reads a default), ``bind`` gives the test."""
    f = compile_filter({"cmc_le": "X"}, "card", Site("t", x=True), allow=("x",))
    g = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"hand": ["Hill Giant"]}, {}]}).game
    card = g.players[0].hand[0]
    with pytest.raises(MtgError, match="bind"):
        f.test(card, 0)
    assert f.bind(x=4)(card, 0) and not f.bind(x=3)(card, 0)


def test_search_filter_may_use_x_other_op_filters_may_not() -> None:
    """Only ops that bind X accept it: ``search_library`` does, ``sacrifice`` doesn't."""
    compile_effect({"op": "search_library", "filter": {"cmc_le": "X"}}, Site("t", x=True))
    with pytest.raises(CardDataError, match="X"):
        compile_effect({"op": "sacrifice", "filter": {"cmc_le": "X"}}, Site("t", x=True))


# -- mana abilities adding several mana or none -------------------------------------------------
def test_mana_ability_shapes_are_checked() -> None:
    """``add_all`` needs ``add``; an empty ``add`` (no mana of its own) needs effects."""
    from mtg_env.cards.loader import _adds

    site = Site("t")
    assert _adds({"add": ["W", "U"]}, site) == ("W", "U")
    assert _adds({"add": ["W", "U"], "add_all": True}, site) == ("WU",)
    assert _adds({"add": [], "effects": [{"op": "double_mana_pool"}]}, site) == ("",)
    with pytest.raises(CardDataError):
        _adds({"add_all": True}, site)
    with pytest.raises(CardDataError):
        _adds({"add": []}, site)


def test_several_mana_at_once_is_not_for_the_automatic_payer() -> None:
    """The automatic payer uses only {T} abilities making one mana; Composite Golem (sacrifice,
    five mana) is never chosen by it: Grizzly Bears isn't castable with only the Golem."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Grizzly Bears"], "in_play": ["Composite Golem"]}, {}]})
    assert "play Grizzly Bears" not in s.options()


# -- state of the new effects -----------------------------------------------------------------
def test_color_prevention_shield_survives_copy_and_json() -> None:
    """A Luminesce shield (``source_colors``) is plain data: copied and JSON round-tripped games
    keep preventing red damage."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Luminesce", "Shock"], "in_play": ["Plains", "Mountain"]}, {}]})
    s.do("play Luminesce")
    s.resolve()
    for g in (s.game.copy(), Game.from_json(s.game.to_json())):
        g.apply("play Shock")
        g.apply("target player 1")
        while g.stack:
            g.apply("pass")
        assert g.players[1].life == 20


def test_last_known_controller_survives_json_mid_resolution() -> None:
    """Cryoclasm's "that land's controller" reads the controller recorded as the land left play;
    the record is plain data on the stack object."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Cryoclasm"], "in_play": ["Mountain"] * 3}, {"in_play": ["Island"]}]})
    s.do("play Cryoclasm", "target Island")
    item = s.game.stack[-1]
    item.data.lki = {"999": 1}
    g = Game.from_json(s.game.to_json())
    assert g.stack[-1].data.lki == {"999": 1}
    assert g.copy().stack[-1].data.lki == {"999": 1}


# -- agents and the encoding --------------------------------------------------------------------
def test_observer_maps_mana_abilities_adding_several_mana_or_none() -> None:
    """The env layer: Composite Golem's one WUBRG option, Doubling Cube's no-mana option and the
    painland's three options each map to one action index of their permanent."""
    from mtg_env.encoding import Observer
    from tests.encoding.helpers import check_decision

    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"mana_pool": "RRR", "in_play": ["Composite Golem", "Doubling Cube", "Brushland",
                                         "Chromatic Star"]}, {}]})
    legal = check_decision(Observer(), s.game)
    texts = sorted(a.text for a in legal.values())
    assert "activate Composite Golem for WUBRG" in texts
    assert "activate Doubling Cube (mana ability)" in texts
    assert {"tap Brushland for C", "tap Brushland for G", "tap Brushland for W"} <= set(texts)


def _heuristic_act(s: Scenario, pl: int) -> str:
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    agent = HeuristicAgent(strict=True)
    agent.reset(pl, 0)
    return agent.act(view_for(s.game, pl)).text


def test_heuristic_agent_recalls_the_opponents_artifacts() -> None:
    """The heuristic agent reads "all artifacts target player owns": it targets the player
    owning the artifacts (player 1), not itself."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Hurkyl's Recall"], "in_play": ["Island", "Island", "Dragon's Claw"]},
        {"in_play": ["Bottle Gnomes", "Icy Manipulator", "Rod of Ruin"]}]})
    s.do("play Hurkyl's Recall")
    assert _heuristic_act(s, 0) == "target player 1"


def test_heuristic_agent_values_cryoclasm_damage_to_the_lands_controller() -> None:
    """The heuristic agent reads "that land's controller": between its own Island and player 1's
    Plains it destroys the Plains (the 3 damage then hurts player 1)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Cryoclasm"], "in_play": ["Mountain", "Mountain", "Mountain", "Island"]},
        {"in_play": ["Plains"]}]})
    s.do("play Cryoclasm")
    assert _heuristic_act(s, 0) == "target Plains"
    from agents import HeuristicAgent
    from mtg_env.engine.registry import get_card
    from mtg_env.engine.view import view_for

    plains = s.perm("Plains").id
    dmg = get_card("Cryoclasm").spell_effects[1]  # deal 3 to {controller_of: 0}
    assert HeuristicAgent()._refs(view_for(s.game, 0), 0, dmg, [("o", plains)], None) == [
        ("p", 1)]


def test_heuristic_agent_plays_holy_day_against_a_lethal_attack() -> None:
    """Holy Day ("Prevent all combat damage that would be dealt this turn"): at 3 life facing an
    unblocked Hill Giant, the heuristic agent plays it; outside combat it holds it."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
        {"life": 3, "hand": ["Holy Day"], "in_play": ["Plains"]},
        {"in_play": [{"card": "Hill Giant", "attacking": True}]}]})
    s.do("pass")
    assert s.game.decision.player == 0
    assert _heuristic_act(s, 0) == "play Holy Day"
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Holy Day"], "in_play": ["Plains"]}, {"in_play": ["Hill Giant"]}]})
    assert _heuristic_act(s, 0) == "pass"


def test_heuristic_agent_plays_luminesce_only_against_its_colors() -> None:
    """Luminesce prevents damage from black and red sources: against an unblocked lethal Hill
    Giant (red) the agent plays it; against Craw Wurm (green) it doesn't."""
    for attacker, expected in (("Hill Giant", "play Luminesce"), ("Craw Wurm", "pass")):
        s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
            {"life": 3, "hand": ["Luminesce"], "in_play": ["Plains"]},
            {"in_play": [{"card": attacker, "attacking": True}]}]})
        s.do("pass")
        assert _heuristic_act(s, 0) == expected


# -- a painland's damage needing the order decision while a spell's costs are paid --------------
def _pariah_bandage_knight() -> Scenario:
    """Player 0 has a Bandage shield and Pariah on Grizzly Bears, and pays Youthful Knight's {W}
    with a painland (the Plains is tapped for Bandage)."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Bandage", "Youthful Knight"], "library": ["Forest"] * 3,
         "in_play": ["Plains", "Brushland", "Brushland", {"card": "Grizzly Bears", "id": "b"},
                     {"card": "Pariah", "attached_to": "b"}]}, {}]})
    s.do("play Bandage", "target player 0")
    s.resolve()
    s.do("play Youthful Knight")
    return s


@pytest.mark.parametrize(("first", "bears_damage", "shield_left"), [
    ("apply Pariah first", 1, True), ("apply prevention shield (Bandage) first", 0, False)])
def test_painland_damage_while_paying_costs_asks_the_order(first: str, bears_damage: int,
                                                           shield_left: bool) -> None:
    """Brushland's 1 damage to its controller, dealt while Youthful Knight's costs are paid
    (2007 CR 409.1g), meets two effects: Pariah's redirection and Bandage's shield. The affected
    player chooses which applies first (2012 616.1); the spell's casting finishes afterwards."""
    s = _pariah_bandage_knight()
    d = s.game.decision
    assert d.kind is DecisionKind.ORDER_REPLACEMENTS and d.player == 0
    s.do(first)
    assert s.game.decision.kind is DecisionKind.PRIORITY
    assert [x.label for x in s.game.stack] == ["Youthful Knight"]
    s.assert_life(0, 20)
    s.assert_damage("Grizzly Bears", bears_damage)
    assert any(r.KIND == "prevent" for r in s.game.replacements) == shield_left
    s.resolve()
    s.assert_in_play("Youthful Knight")


def test_cast_waiting_for_the_order_decision_survives_copy_and_json() -> None:
    """The suspended casting is frames of data: a copy and a JSON round trip answer the same."""
    s = _pariah_bandage_knight()
    for g in (s.game.copy(), Game.from_json(s.game.to_json())):
        g.apply("apply Pariah first")
        assert [x.label for x in g.stack] == ["Youthful Knight"]
        assert g.find_permanent("Grizzly Bears").damage == 1
