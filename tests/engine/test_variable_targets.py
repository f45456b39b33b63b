"""A variable number of targets for one target word (2007 CR 409.1d: the targets are chosen on
announcement; 2012 601.2c: "up to N" / "any number", each object chosen once for one word
"target"; 2007 CR 413.2a: an illegal target is not affected, and a spell is countered only if it
has targets and all are illegal).

``TargetSpec.count``: ``X`` (exactly X), ``up_to_X`` or ``up_to_event_amount``. The spec is the
ability's last; one TARGET decision per target, with ``done`` offered once the minimum is met; a
reference to the spec's index (``target: 0``) means every one of its targets.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
from mtg_env.engine.abilities import TargetSpec
from mtg_env.engine.errors import CardDataError
from mtg_env.engine.model import StackItem
from mtg_env.engine.stack_data import StackData
from mtg_env.engine.targets import spec_for, target_count
from mtg_env.testing import Scenario

FACTS = load_facts()["cards"]
ZONES = {**yaml.safe_load((DATA_DIR / "tokens.yaml").read_text()),  # Midnight Ritual
         **yaml.safe_load((DATA_DIR / "combat_and_damage_triggers.yaml").read_text())}  # Cephalid Constable


def _load(tmp_path: Path, name: str, change) -> list:
    entry = copy.deepcopy(ZONES[name])
    change(entry)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({name: entry}))
    return load_file(path, FACTS)


def test_target_count_bounds() -> None:
    """X: exactly X; up_to_X: 0..X; up_to_event_amount: 0..the event's amount."""
    item = StackItem(1, "spell", 0, x=3, data=StackData(event={"amount": 2}))
    assert target_count(item, TargetSpec("creature", count="X")) == (3, 3)
    assert target_count(item, TargetSpec("creature", count="up_to_X")) == (0, 3)
    assert target_count(item, TargetSpec("creature", count="up_to_event_amount")) == (0, 2)
    a, b = TargetSpec("player"), TargetSpec("creature", count="X")
    assert [spec_for((a, b), i) for i in range(4)] == [a, b, b, b]


def test_a_counted_target_must_be_last(tmp_path: Path) -> None:
    def change(e: dict) -> None:
        e["spell"]["targets"] = [*e["spell"]["targets"], "player"]
    with pytest.raises(CardDataError, match="must be the ability's last target"):
        _load(tmp_path, "Midnight Ritual", change)


def test_an_event_amount_count_needs_a_trigger(tmp_path: Path) -> None:
    def change(e: dict) -> None:
        e["spell"]["targets"][0]["count"] = "up_to_event_amount"
    with pytest.raises(CardDataError, match="only meaningful in a triggered ability"):
        _load(tmp_path, "Midnight Ritual", change)


def test_x_count_needs_an_x_cost(tmp_path: Path) -> None:
    def change(e: dict) -> None:
        e["triggered"][0]["targets"][0]["count"] = "X"
    with pytest.raises(CardDataError, match="needs an X in the cost"):
        _load(tmp_path, "Cephalid Constable", change)


def test_x_is_offered_only_up_to_the_legal_targets() -> None:
    """2012 601.2c: "X target cards" with too few legal targets can't be announced: X is offered
    from 0 to the number of legal targets (and the mana)."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"hand": ["Midnight Ritual"], "in_play": ["Swamp"] * 4,
                               "graveyard": ["Grizzly Bears"] * 3}, {}]})
    s.do("play Midnight Ritual")
    assert s.options() == ["X=0", "X=1"]  # mana: X <= 1


def test_each_target_chosen_once_and_done_only_at_the_minimum() -> None:
    """Exactly X: no "done" before X targets; a chosen target isn't offered again."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"hand": ["Midnight Ritual"], "in_play": ["Swamp"] * 6,
                               "graveyard": ["Grizzly Bears", "Hill Giant", "Craw Wurm"]}, {}]})
    s.do("play Midnight Ritual", "X=2")
    assert "done" not in s.options() and len(s.options()) == 3
    s.do("target Hill Giant")
    assert sorted(s.options()) == ["target Craw Wurm", "target Grizzly Bears"]
    s.do("target Craw Wurm")
    g = s.game
    assert g.decision.kind.value == "priority" and len(g.stack[-1].targets) == 2


def test_all_counted_targets_illegal_counters_the_spell() -> None:
    """2007 CR 413.2a: every target illegal on resolution: the spell is countered (no token)."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"hand": ["Midnight Ritual"], "in_play": ["Swamp"] * 4,
                               "graveyard": ["Grizzly Bears"]}, {}]})
    s.do("play Midnight Ritual", "X=1", "target Grizzly Bears")
    g = s.game
    bears = g.players[0].graveyard[0]
    g.players[0].graveyard.remove(bears)
    g.players[0].removed.append(bears)
    s.resolve()
    assert not any(p.card.name == "Zombie Token" for p in g.permanents)
    assert any("countered" in line for line in g.log[-3:])
