"""Whole-declaration legality of blocks (2012 509.1b-c, which the 2007 rules keep unchanged:
RULES_2007.md section 6; 2007 CR 309): blocking restrictions ("can't be blocked except by two or
more creatures") and requirements ("All creatures able to block [this] do so": the declaration
must obey the maximum number of requirements possible without breaking a restriction).

Blocks are declared one pair at a time, so the options must stay exact: a pair is offered only if
some legal full declaration extends the pairs so far, and ``done`` only when the pairs so far
are a legal declaration. The last tests check that against a brute-force enumeration."""

from __future__ import annotations

from itertools import combinations

import pytest

from mtg_env import DecisionKind
from mtg_env.engine.combat import _BlockProblem
from mtg_env.testing import Scenario

K = DecisionKind
LIB = ["Island"] * 5


def at_blocks(attackers: list, blockers: list, defender_extra: list | None = None,
              ask: bool = True) -> Scenario:
    """Player 0 attacks with ``attackers``; player 1's declare-blockers decision is pending
    (``ask``), or there was nothing to choose."""
    atk = [a if isinstance(a, dict) else {"card": a} for a in attackers]
    for a in atk:
        if a.get("card") not in ("Lure", "High Ground"):
            a["attacking"] = True
    s = Scenario({"turn": 3, "step": "declare_attackers",
                  "players": [{"library": LIB, "in_play": atk},
                              {"library": LIB, "in_play": blockers + (defender_extra or [])}]})
    s.pass_priority(2)
    assert s.game.step == "declare_blockers"
    assert (s.game.decision.kind is K.DECLARE_BLOCKERS) == ask
    return s


def texts(s: Scenario) -> set[str]:
    return {a.text for a in s.game.decision.options}


def blockers_of(s: Scenario, name: str) -> set[str]:
    return {s.game.perms[b].card.label for b in s.perm(name).blockers}


LURED = [{"card": "Grizzly Bears", "id": "b"}, {"card": "Lure", "attached_to": "b"}]


def test_lure_every_able_creature_must_block_it() -> None:
    """Lure: "All creatures able to block enchanted creature do so." A requirement for each
    creature able to block it (2012 509.1c): ``done`` is not offered and no other block either
    until both able creatures block the lured attacker; a tapped creature is not able to block
    (2012 509.1a) and is not required to."""
    s = at_blocks([*LURED, "Hill Giant"],
                  ["Craw Wurm", "Wall of Wood", {"card": "Spined Wurm", "tapped": True}])
    assert texts(s) == {"block Grizzly Bears with Craw Wurm", "block Grizzly Bears with Wall of Wood"}
    s.do("block Grizzly Bears with Craw Wurm")
    assert texts(s) == {"block Grizzly Bears with Wall of Wood"}
    s.do("block Grizzly Bears with Wall of Wood")
    assert s.game.decision.kind is not K.DECLARE_BLOCKERS  # nothing left to choose
    assert blockers_of(s, "Grizzly Bears") == {"Craw Wurm", "Wall of Wood"}
    assert not s.perm("Hill Giant").blocked


def test_lure_does_not_require_a_creature_unable_to_block_it() -> None:
    """Lure (2017-11-17 ruling): it does not give any creature the ability to block; a
    creature without flying or reach can't block a flying lured creature (2007 CR 502.4), so
    no requirement applies to it and it may block something else or nothing."""
    s = at_blocks([{"card": "Suntail Hawk", "id": "h"}, {"card": "Lure", "attached_to": "h"},
                   "Hill Giant"], ["Craw Wurm"])
    assert texts(s) == {"block Hill Giant with Craw Wurm", "done"}
    s.do("done")
    assert not s.perm("Suntail Hawk").blocked and not s.perm("Hill Giant").blocked


def test_lure_and_an_additional_block_high_ground() -> None:
    """A creature that can block an additional creature (High Ground) obeys the Lure
    requirement and may also block another attacker: the other block is offered, ``done`` is
    not until the lured creature is blocked (2012 509.1c)."""
    s = at_blocks([*LURED, "Hill Giant"], ["Craw Wurm"], ["High Ground"])
    assert texts(s) == {"block Grizzly Bears with Craw Wurm", "block Hill Giant with Craw Wurm"}
    s.do("block Hill Giant with Craw Wurm")
    assert texts(s) == {"block Grizzly Bears with Craw Wurm"}
    s.do("block Grizzly Bears with Craw Wurm")
    assert blockers_of(s, "Grizzly Bears") == {"Craw Wurm"}
    assert blockers_of(s, "Hill Giant") == {"Craw Wurm"}


def test_two_lures_one_blocker_obeys_one_requirement() -> None:
    """Two lured attackers and one creature able to block either: it can obey only one of its
    two requirements (the maximum possible, 2012 509.1c), and either choice is legal; not
    blocking at all is not."""
    s = at_blocks([*LURED, {"card": "Hill Giant", "id": "g"}, {"card": "Lure", "attached_to": "g"}],
                  ["Craw Wurm"])
    assert texts(s) == {"block Grizzly Bears with Craw Wurm", "block Hill Giant with Craw Wurm"}
    s.do("block Hill Giant with Craw Wurm")
    assert s.game.decision.kind is not K.DECLARE_BLOCKERS
    assert blockers_of(s, "Hill Giant") == {"Craw Wurm"} and not s.perm("Grizzly Bears").blocked


def test_lure_on_a_creature_only_one_can_block_stalking_tiger() -> None:
    """Lure on a creature that "can't be blocked by more than one creature": the restriction
    wins (2012 509.1c: requirements are obeyed only without breaking restrictions), so exactly
    one of the two able creatures blocks it; either may."""
    s = at_blocks([{"card": "Stalking Tiger", "id": "t"}, {"card": "Lure", "attached_to": "t"}],
                  ["Craw Wurm", "Wall of Wood"])
    assert texts(s) == {"block Stalking Tiger with Craw Wurm", "block Stalking Tiger with Wall of Wood"}
    s.do("block Stalking Tiger with Wall of Wood")
    assert s.game.decision.kind is not K.DECLARE_BLOCKERS
    assert blockers_of(s, "Stalking Tiger") == {"Wall of Wood"}


def test_two_or_more_blockers_one_creature_cannot_block() -> None:
    """"Can't be blocked except by two or more creatures" (2012 509.1b): with one possible
    blocker, no block of it is offered at all."""
    s = at_blocks(["Viashino Runner", "Hill Giant"], ["Craw Wurm"])
    assert texts(s) == {"block Hill Giant with Craw Wurm", "done"}


def test_two_or_more_blockers_done_only_with_a_second_blocker() -> None:
    """With two possible blockers, blocking it with one is offered; then ``done`` is not (one
    blocker alone breaks the restriction) and the only option is a second blocker for it: the
    other creature blocking the other attacker would leave a single blocker (2012 509.1b)."""
    s = at_blocks(["Viashino Runner", "Hill Giant"], ["Craw Wurm", "Wall of Wood"])
    assert "block Viashino Runner with Craw Wurm" in texts(s) and "done" in texts(s)
    s.do("block Viashino Runner with Craw Wurm")
    assert texts(s) == {"block Viashino Runner with Wall of Wood"}
    s.do("block Viashino Runner with Wall of Wood")
    assert blockers_of(s, "Viashino Runner") == {"Craw Wurm", "Wall of Wood"}


def test_lure_on_two_or_more_with_one_able_blocker_is_not_obeyed() -> None:
    """A lured creature that can't be blocked except by two or more, and only one creature able
    to block it: obeying the requirement would break the restriction, so the maximum number of
    requirements that can be obeyed is 0 and not blocking is legal (2012 509.1c)."""
    runner = [{"card": "Viashino Runner", "id": "r"}, {"card": "Lure", "attached_to": "r"}]
    s = at_blocks(runner, ["Craw Wurm"], ask=False)  # no block to offer: declared as none
    assert not s.perm("Viashino Runner").blocked
    s = at_blocks(runner, ["Craw Wurm", "Wall of Wood"])
    assert "done" not in texts(s)
    s.do("block Viashino Runner with Craw Wurm", "block Viashino Runner with Wall of Wood")
    assert blockers_of(s, "Viashino Runner") == {"Craw Wurm", "Wall of Wood"}


# -- exactness against brute force ----------------------------------------------------------------

def _all_legal(prob: _BlockProblem) -> list[frozenset]:
    """Every full declaration breaking no restriction and obeying the most requirements,
    by enumerating every set of allowed pairs."""
    cand = [(b.id, a) for b in prob.blockers for a in sorted(prob.allowed[b.id])]
    legal = []
    for n in range(len(cand) + 1):
        for pairs in combinations(cand, n):
            per_b: dict[int, int] = {}
            for b, _ in pairs:
                per_b[b] = per_b.get(b, 0) + 1
            if any(v > prob.cap[b] for b, v in per_b.items()) or not prob.legal(list(pairs)):
                continue
            legal.append((prob.obeyed(pairs), frozenset(pairs)))
    top = max(n for n, _ in legal)
    return [p for n, p in legal if n == top]


CASES = [
    ([*LURED, "Hill Giant"], ["Craw Wurm", "Wall of Wood", "Grizzly Bears"], []),
    ([*LURED, "Viashino Runner"], ["Craw Wurm", "Wall of Wood", "Grizzly Bears"], []),
    ([{"card": "Viashino Runner", "id": "r"}, {"card": "Lure", "attached_to": "r"}, "Stalking Tiger",
      "Hill Giant"], ["Craw Wurm", "Wall of Wood", "Grizzly Bears"], ["High Ground"]),
    ([*LURED, {"card": "Suntail Hawk", "id": "h"}, {"card": "Lure", "attached_to": "h"},
      "Viashino Runner"], ["Giant Spider", "Wall of Wood", "Grizzly Bears"], ["High Ground"]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_block_options_exact_against_brute_force(case: int) -> None:
    """Exactness of the one-pair-at-a-time declaration (2012 509.1b-c): walking every path of
    options, each offered pair extends to a legal full declaration obeying the most
    requirements, every such extension's pairs are offered, ``done`` is offered exactly when
    the pairs so far are such a declaration, and every reachable final declaration is legal."""
    attackers, blockers, extra = CASES[case]
    root = at_blocks(attackers, blockers, extra)
    g0 = root.game
    atk = [p for p in g0.perms.values() if p.attacking]
    legal = _all_legal(_BlockProblem(g0, 1, atk))
    assert legal
    seen_final: set[frozenset] = set()

    def walk(g, depth: int) -> None:
        d = g.decision
        pairs = frozenset(tuple(p) for p in g.frames[-1].pairs) if d.kind is K.DECLARE_BLOCKERS else None
        if pairs is None:
            final = frozenset((b, p.id) for p in g.perms.values() if p.attacking for b in p.blockers)
            assert final in legal
            seen_final.add(final)
            return
        offered = {tuple(a.args) for a in d.options if a.verb == "block"}
        expect = {x for full in legal if pairs <= full for x in full - pairs}
        assert offered == expect
        assert ("done" in {a.text for a in d.options}) == (pairs in legal)
        for a in d.options:
            h = g.copy()
            h.apply(a.text)
            walk(h, depth + 1)

    walk(g0, 0)
    assert seen_final == set(legal)


# -- the env's action mask on these decisions -----------------------------------------------------

def test_env_mask_exact_on_requirement_blocks_rhox_and_attack_costs() -> None:
    """The observer's mask is a bijection onto the engine's options (the encoding tests'
    check) on every decision of a Lure + Viashino Runner declaration, Rhox's "as though it
    weren't blocked" yes/no (2012 510.1c) and a declaration of attackers with a cost to attack
    (2012 508.1d)."""
    from mtg_env.encoding import Observer
    from tests.encoding.helpers import check_decision

    obs = Observer()
    attackers, blockers, extra = CASES[1]
    s = at_blocks(attackers, blockers, extra)

    def walk(g) -> None:
        if g.decision.kind is not K.DECLARE_BLOCKERS:
            return
        check_decision(obs, g)
        for a in g.decision.options:
            h = g.copy()
            h.apply(a.text)
            walk(h)

    walk(s.game)
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": LIB, "in_play": [{"card": "Rhox", "id": "r", "attacking": True}]},
        {"library": LIB, "in_play": [{"card": "Grizzly Bears", "blocking": "r"}]}]})
    s.pass_priority(2)
    assert s.game.decision.kind is K.COMBAT_DAMAGE
    assert len(check_decision(obs, s.game)) == 2
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"library": LIB, "in_play": ["Grizzly Bears", "Hill Giant", "Forest", "Forest", "Forest"]},
        {"library": LIB, "in_play": ["Windborn Muse"]}]})
    s.pass_priority(2)
    assert s.game.decision.kind is K.DECLARE_ATTACKERS
    assert len(check_decision(obs, s.game)) == 3


def test_attack_cost_vigilance_attacker_may_pay() -> None:
    """A cost to attack (Windborn Muse: {2} per attacker) is locked in for the whole
    declaration and paid after the attackers tap (2012 508.1f-i): Serra Angel (vigilance, stays
    untapped) and Grizzly Bears attack with four Plains, {4} is paid by tapping all four."""
    s = Scenario({"turn": 3, "step": "beginning_of_combat", "players": [
        {"library": LIB, "in_play": ["Serra Angel", "Grizzly Bears", *["Plains"] * 4]},
        {"library": LIB, "in_play": ["Windborn Muse"]}]})
    s.pass_priority(2)
    s.do("attack with Serra Angel", "attack with Grizzly Bears")
    assert s.game.decision.kind is not K.DECLARE_ATTACKERS
    assert all(p.tapped for p in s.game.perms.values() if p.card.label.startswith("Plains"))
    assert not s.perm("Serra Angel").tapped and s.perm("Grizzly Bears").tapped
    assert s.perm("Serra Angel").attacking and s.perm("Grizzly Bears").attacking
