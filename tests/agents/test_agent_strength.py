"""The agent evaluation protocol (benchmarks/agent_strength.py): its aggregation on made-up
results, a tiny real run, and the decks no training uses (benchmarks/decks_unseen)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from mtg_env.engine import registry
from mtg_env.engine.deck import Deck
from mtg_env.sim import GameResult

ROOT = Path(__file__).resolve().parents[2]
UNSEEN = ROOT / "benchmarks" / "decks_unseen"


def _load():
    spec = importlib.util.spec_from_file_location("agent_strength", ROOT / "benchmarks" / "agent_strength.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("agent_strength", module)
    spec.loader.exec_module(module)
    return module


agent_strength = _load()


def _game(index: int, winner: str | None, end: str = "life", error: str | None = None,
          seats: tuple[str, str] = ("a", "b"), turns: int = 10) -> GameResult:
    return GameResult(index=index, seed=7, seats=seats, winner=winner, on_the_play="a", turns=turns,
                      decisions=50, end_reason="error" if error else end, life=(20, 0), error=error)


def test_aggregate_counts_rates_and_wilson_intervals_per_deck() -> None:
    games = [
        ("red", "blue", _game(0, "a")),
        ("red", "blue", _game(1, "a", seats=("b", "a"))),
        ("red", "red", _game(2, "a")),
        ("red", "red", _game(3, "b")),
        ("red", "blue", _game(4, None, end="turn limit")),
        ("red", "blue", _game(5, None, error="engine error on turn 3: KeyError: 9", seats=("b", "a"))),
        ("blue", "red", _game(6, "b", turns=20)),
        ("blue", "blue", _game(7, "b", turns=30)),
    ]
    out = agent_strength.aggregate(games)
    red, blue = out["per_deck"]["red"], out["per_deck"]["blue"]
    assert list(out["per_deck"]) == ["red", "blue"]
    assert (red["games"], red["finished"], red["wins"], red["losses"], red["draws"], red["turn_limit"],
            red["errors"]) == (6, 5, 3, 1, 1, 1, 1)
    assert red["win_rate"] == 0.75
    assert red["ci_low"] == pytest.approx(0.300641842582402)
    assert red["ci_high"] == pytest.approx(0.9544127391902995)
    assert red["avg_turns"] == 10
    assert (blue["wins"], blue["losses"], blue["draws"], blue["errors"]) == (0, 2, 0, 0)
    assert blue["win_rate"] == 0.0
    assert (blue["ci_low"], blue["ci_high"]) == pytest.approx((0.0, 0.6576197724933468))
    assert blue["avg_turns"] == 25
    overall = out["overall"]
    assert (overall["games"], overall["wins"], overall["losses"], overall["draws"], overall["errors"]) \
        == (8, 3, 3, 1, 1)
    assert overall["win_rate"] == 0.5
    assert (overall["ci_low"], overall["ci_high"]) == pytest.approx((0.18761630648265054, 0.8123836935173494))
    opp = out["per_opponent_deck"]
    assert (opp["blue"]["wins"], opp["blue"]["losses"], opp["red"]["wins"], opp["red"]["losses"]) == (2, 1, 1, 2)
    assert out["per_pairing"]["red|red"]["win_rate"] == 0.5
    assert out["errors"] == [{"index": 5, "agent_deck": "red", "opponent_deck": "blue", "seed": 7,
                              "agent_seat": 1, "turn": 10, "error": "engine error on turn 3: KeyError: 9"}]


def test_a_deck_with_only_draws_has_no_rate() -> None:
    t = agent_strength.tally([("x", "y", _game(0, None, end="turn limit"))])
    assert (t["draws"], t["turn_limit"]) == (1, 1)
    assert math.isnan(t["win_rate"]) and math.isnan(t["ci_low"]) and math.isnan(t["ci_high"])


def test_limited_pairings_are_a_seeded_subset_in_order() -> None:
    names = ["a", "b", "c", "d"]
    every = agent_strength.choose_pairings(names, None, 0)
    assert len(every) == 16 and ("a", "a") in every
    some = agent_strength.choose_pairings(names, 5, 3)
    assert some == agent_strength.choose_pairings(names, 5, 3)
    assert len(some) == 5 and some == [p for p in every if p in some]
    assert agent_strength.choose_pairings(names, 99, 0) == every


def test_a_tiny_real_run_finishes_without_errors(tmp_path, capsys) -> None:
    out_json = tmp_path / "run.json"
    rc = agent_strength.main(["--agent", "random", "--opponent", "random", "--decks",
                              "starter_green,starter_red", "--games", "2", "--workers", "1",
                              "--max-turns", "30", "--json", str(out_json)])
    assert rc == 0
    doc = json.loads(out_json.read_text())
    assert doc["overall"]["games"] == 8 and doc["overall"]["errors"] == 0 and doc["errors"] == []
    assert doc["pairings"] == [["starter_green", "starter_green"], ["starter_green", "starter_red"],
                               ["starter_red", "starter_green"], ["starter_red", "starter_red"]]
    assert set(doc["per_deck"]) == {"starter_green", "starter_red"}
    assert sum(d["games"] for d in doc["per_deck"].values()) == 8
    assert doc["games_per_s"] > 0 and doc["args"]["games"] == 2
    assert "### Per deck" in capsys.readouterr().out


def test_every_deck_loads_from_a_deck_dir() -> None:
    decks = agent_strength.resolve_decks(None, str(UNSEEN))
    assert len(decks) == 6


@pytest.mark.parametrize("path", sorted(UNSEEN.glob("*.txt")), ids=lambda p: p.stem)
def test_unseen_deck_is_a_legal_sixty_card_two_colour_deck(path: Path) -> None:
    deck = Deck.from_file(path)
    assert len(deck) == 60
    assert all(registry.get_card(n).implemented for n in deck.card_names())
    colours = {c for n in deck.card_names() for c in registry.get_card(n).colors}
    assert len(colours) == 2, colours
    assert path.read_text(encoding="utf-8").startswith("# ")
    assert path.name in (UNSEEN / "README.md").read_text(encoding="utf-8")


def test_no_training_config_names_an_unseen_deck() -> None:
    configs = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "configs").glob("*.yaml"))
    assert not [p.stem for p in UNSEEN.glob("*.txt") if p.stem in configs]
