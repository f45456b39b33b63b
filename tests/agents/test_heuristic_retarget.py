"""The heuristic on every option shape of the target decisions, retargeting included.

Changing a spell's targets (2012 114.6a, Shunt: "Change the target of target spell with a single
target") and choosing new targets for a copy (114.6d, Twincast: "You may choose new targets for
the copy") ask ``TARGET`` decisions whose options are ``target X`` and, for a copy, ``keep target
X`` (no args: the target it has now, ``context["current"]``). The heuristic once read
``a.args[0]`` of every option of a Mind Bend or an Aura spell and fell back on "keep". These
tests fail on any fallback: the agent counts them (``errors``) and logs "falling back".
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from functools import partial

import pytest

from agents import HeuristicAgent
from mtg_env import Deck, Game
from mtg_env.engine.actions import DecisionKind as K
from mtg_env.engine.view import view_for
from mtg_env.testing import scenario
from tests.cards.test_every_card_soak import BATCHES, _deck

from .heuristic_answers import heuristic_answer

# Two decks built around retargeting: Shunt, Twincast and Mind Bend, with targeted burn,
# bounce, pump, Auras and a divided-damage spell to retarget or copy.
RETARGET_A = Deck([(4, "Shunt"), (4, "Twincast"), (3, "Mind Bend"), (4, "Shock"), (3, "Unsummon"),
                   (2, "Pacifism"), (2, "Holy Strength"), (4, "Goblin Piker"), (4, "Bog Wraith"),
                   (5, "Island"), (5, "Mountain"), (4, "Plains"), (4, "Swamp"), (2, "Blaze")],
                  name="retarget_a")
RETARGET_B = Deck([(4, "Shunt"), (4, "Twincast"), (3, "Mind Bend"), (4, "Giant Growth"),
                   (4, "Shock"), (3, "Spirit Link"), (4, "Grizzly Bears"), (4, "Paladin en-Vec"),
                   (5, "Island"), (4, "Mountain"), (4, "Forest"), (4, "Plains"), (3, "Threaten")],
                  name="retarget_b")


_pos = partial(scenario, library=["Island"] * 5)  # both players' libraries: five Islands


def test_twincast_copy_of_mind_bend_offers_keep() -> None:
    """Twincast copying Mind Bend: "You may choose new targets for the copy" (2012 114.6d):
    the options are every other legal permanent and "keep target Bog Wraith"."""
    s = _pos({"hand": ["Mind Bend"], "in_play": ["Island", "Bog Wraith"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Swamp", "Grizzly Bears"]})
    s.do("play Mind Bend", "target Bog Wraith", "pass", "play Twincast", "target Mind Bend")
    s.resolve()
    d = s.game.decision
    assert d.kind is K.TARGET and d.player == 1 and "keep target Bog Wraith" in s.options()
    assert heuristic_answer(s) in s.options()


def test_shunt_on_an_aura_spell_and_twincast_copy_of_shock() -> None:
    """Shunt on an Aura spell (Holy Strength: "Enchant creature", a single target, 2012
    114.6a): the other creatures, scored as hosts; Twincast copying Shock: the other targets
    and "keep target Goblin Piker"."""
    s = _pos({"hand": ["Holy Strength"], "in_play": ["Plains", "Grizzly Bears", "Hill Giant"]},
             {"hand": ["Shunt"], "in_play": ["Mountain"] * 3 + ["Goblin Piker"]})
    s.do("play Holy Strength", "target Grizzly Bears", "pass", "play Shunt", "target Holy Strength")
    s.resolve()
    assert s.game.decision.kind is K.TARGET and s.game.decision.player == 1
    assert sorted(s.options()) == ["target Goblin Piker", "target Hill Giant"]
    assert heuristic_answer(s) == "target Goblin Piker"  # +1/+2 on its own creature
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Goblin Piker"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock")
    s.resolve()
    assert "keep target Goblin Piker" in s.options()
    assert heuristic_answer(s) in s.options()


def _walk(decks: list[Deck], seed: int, eps: float, max_turns: int, seen: Counter) -> list:
    """A game in which the heuristic answers every decision of more than one option for the
    player deciding; with probability ``eps`` a uniformly random option is played instead (to
    reach what two heuristics never play into). Returns the two agents."""
    g = Game.new(decks, seed=seed, max_turns=max_turns)
    rng = random.Random(seed)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for pl in (0, 1):
        agents[pl].reset(pl, seed)
    while not g.is_over:
        d = g.decision
        if len(d.options) == 1:
            g.apply(d.options[0])
            continue
        seen[d.kind.value] += 1
        if d.kind is K.TARGET and "current" in d.context:
            item = next(x for x in g.stack if x.id == d.context["stack_id"])
            cdef = item.card.cdef if item.card is not None else None
            shape = ("keep" if any(o.verb == "keep" for o in d.options) else "change")
            if cdef is not None and cdef.spell_custom == "mind_bend":
                shape += " mind_bend"
            elif cdef is not None and cdef.enchant is not None:
                shape += " aura"
            seen["retarget " + shape] += 1
        a = agents[d.player].act(view_for(g, d.player))
        if rng.random() < eps:
            a = rng.choice([o for o in d.options if o.verb != "mana"] or d.options)
        g.apply(a)
    return agents


def _no_fallback(agents: list, caplog: pytest.LogCaptureFixture) -> None:
    assert [a.errors for a in agents] == [0, 0]
    assert not [r for r in caplog.records if "falling back" in r.getMessage()]


def test_heuristic_never_falls_back_on_retargeting_decks(caplog: pytest.LogCaptureFixture) -> None:
    """40 games of the two retargeting decks, each side the heuristic with 30% random moves:
    every shape of retarget decision is met (a Twincast copy of Mind Bend with "keep", a Shunt
    on an Aura spell) and the heuristic answers each one."""
    caplog.set_level(logging.ERROR)
    seen: Counter = Counter()
    for seed in range(40):
        decks = [RETARGET_A, RETARGET_B] if seed % 2 == 0 else [RETARGET_B, RETARGET_A]
        _no_fallback(_walk(decks, seed, 0.3, 40, seen), caplog)
    for shape in ("retarget keep", "retarget change", "retarget keep mind_bend",
                  "retarget change aura"):
        assert seen[shape] > 0, (shape, seen)
    assert seen["mode"] and seen["choose_color"]  # Mind Bend's text change


def test_heuristic_never_falls_back_on_the_full_set(caplog: pytest.LogCaptureFixture) -> None:
    """Every implemented card, dealt into the soak test's decks (tests/cards/
    test_every_card_soak.py): two games per deck against the next, the heuristic asked at every
    decision (half the moves random). It answers every decision kind it meets without falling
    back."""
    caplog.set_level(logging.ERROR)
    seen: Counter = Counter()
    n = len(BATCHES)
    for i in range(2 * n):
        _no_fallback(_walk([_deck(i % n), _deck((i + 1) % n)], i, 0.5, 40, seen), caplog)
    met = {k for k in seen if not k.startswith("retarget")}
    assert {"priority", "target", "x_value", "declare_attackers", "declare_blockers",
            "combat_damage", "order_triggers", "choose_cards", "choose_color", "choose_card_name",
            "yes_no", "mulligan"} <= met, seen
