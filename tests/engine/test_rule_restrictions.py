"""Engine mechanisms of evasion, blocking restrictions and rule-modifying statics:
the declare-blockers options stay exact under the new restrictions (every offered option is
legal and every legal declaration is reachable, 2007 CR 309.2), the action mask matches them,
and the new state (spells played this turn, "can't block" effects, static control) survives
copy and JSON."""

from __future__ import annotations

import json
from itertools import combinations

from mtg_env import DecisionKind, Game
from mtg_env.encoding import Observer
from mtg_env.engine.continuous_effects import CantBlock
from mtg_env.engine.layers import add_effect
from mtg_env.testing import Scenario
from tests.encoding.helpers import check_decision

LIB = ["Craw Wurm"] * 5


def _combat() -> Scenario:
    """Player 0 attacks with Stalking Tiger and Grizzly Bears; player 1 has High Ground, two
    Grizzly Bears and a Wall of Wood, and a Duct Crawler-style effect stops one Bears blocking
    the Tiger."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "in_play": ["Stalking Tiger", "Grizzly Bears"]},
        {"library": LIB, "in_play": ["High Ground", "Grizzly Bears", "Grizzly Bears",
                                     "Wall of Wood"]}]})
    g = s.game
    add_effect(g, CantBlock(pid=s.perm("Grizzly Bears#3").id,
                            attacker=s.perm("Stalking Tiger").id, until="eot"))
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    s.do("attack with Stalking Tiger", "attack with Grizzly Bears")
    s.pass_priority(2)
    assert g.decision.kind is DecisionKind.DECLARE_BLOCKERS
    return s


def _declared(g: Game) -> frozenset:
    return frozenset((p.card.label, g.perms[a].card.label)
                     for p in g.perms.values() for a in p.blocking)


def test_block_options_reach_exactly_the_legal_declarations() -> None:
    """2007 CR 309.2: a declaration is legal when it breaks no restriction. Here: Stalking Tiger
    ("can't be blocked by more than one creature"), High Ground (each blocker may block two
    attackers) and "Grizzly Bears#3 can't block Stalking Tiger". Exploring every sequence of
    offered options reaches exactly the declarations that obey them all."""
    s = _combat()
    obs = Observer()
    reached: set[frozenset] = set()
    seen: set[frozenset] = set()

    def explore(g: Game, pairs: frozenset) -> None:
        if pairs in seen:
            return
        seen.add(pairs)
        check_decision(obs, g)  # the mask is a bijection on these options
        for a in g.decision.options:
            h = g.copy()
            h.apply(a)
            if h.decision is not None and h.decision.kind is DecisionKind.DECLARE_BLOCKERS:
                b, t = h.perms[a.args[0]].card.label, h.perms[a.args[1]].card.label
                explore(h, pairs | {(b, t)})
            else:
                reached.add(_declared(h))

    explore(s.game, frozenset())
    attackers = ("Stalking Tiger", "Grizzly Bears")
    blockers = ("Grizzly Bears#2", "Grizzly Bears#3", "Wall of Wood")
    cands = [(b, a) for b in blockers for a in attackers
             if (b, a) != ("Grizzly Bears#3", "Stalking Tiger")]
    legal = set()
    for n in range(len(cands) + 1):
        for combo in combinations(cands, n):
            if sum(1 for b, a in combo if a == "Stalking Tiger") > 1:
                continue
            if any(sum(1 for b2, _ in combo if b2 == b) > 2 for b in blockers):
                continue
            legal.add(frozenset(combo))
    assert reached == legal


def test_rule_state_survives_copy_and_json() -> None:
    """Spells played this turn (Rule of Law), a "can't block" effect (Duct Crawler) and a static
    control change (Persuasion) are game state: copied and stored in JSON, and a game saved
    before the spell counter existed loads with 0."""
    s = Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"library": LIB, "hand": ["Shock"], "mana_pool": "RRR",
         "in_play": ["Rule of Law", "Duct Crawler",
                     {"card": "Persuasion", "attached_to": "giant"}]},
        {"library": LIB, "in_play": ["Grizzly Bears", {"card": "Hill Giant", "id": "giant"}]}]})
    g = s.game
    s.do("activate Duct Crawler", "target Grizzly Bears")
    s.resolve()
    s.do("play Shock", "target player 1")
    s.resolve()
    assert g.players[0].spells_played_this_turn == 1
    for h in (g.copy(), Game.from_json(g.to_json())):
        assert h.players[0].spells_played_this_turn == 1
        assert any(isinstance(e, CantBlock) for e in h.effects)
        assert h.find_permanent("Hill Giant").controller == 0
        assert [a.text for a in h.legal_actions()] == [a.text for a in g.legal_actions()]
    data = json.loads(g.to_json())
    for pd in data["players"]:
        del pd["spells_played_this_turn"]
    old = Game.from_json(json.dumps(data))
    assert old.players[0].spells_played_this_turn == 0
