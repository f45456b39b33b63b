"""``mtg-env tune``: candidate swaps keep the deck rules and the pool, paired seeds, reproducibility,
a tiny run end to end and the one-line input errors."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mtg_env.cli import app
from mtg_env.engine.errors import MtgError
from mtg_env.engine.registry import get_card
from mtg_env.sim.decks import load_deck
from mtg_env.sim.gauntlet import parse_field
from mtg_env.sim.tuner import (
    Schedule,
    Swap,
    apply_swap,
    candidate_swaps,
    land_colors,
    load_pool,
    min_budget,
    pair_specs,
    run_tune,
)

runner = CliRunner()
FIELD = {"decks": {"starter_green": 2, "starter_white": 1}}
TINY = Schedule(batch=3, first_pairs=2, look_pairs=3, looks=2)


def _is_land(name: str) -> bool:
    return "Land" in get_card(name).types


def test_candidate_swaps_respect_the_deck_rules_and_the_pool() -> None:
    cards = tuple(load_deck("red_burn").card_names())
    pool = load_pool("tenth_edition")
    lands = sum(map(_is_land, cards))
    colors = land_colors(cards)
    swaps = candidate_swaps(cards, pool, (lands - 2, lands + 2), 40, random.Random(3))
    assert len(swaps) == 40 and len(set(swaps)) == 40
    for s in swaps:
        new = apply_swap(cards, s)
        assert len(new) == len(cards)
        assert s.into in pool.copies
        counts = Counter(new)
        for name, c in counts.items():
            cdef = get_card(name)
            if "Basic" not in cdef.supertypes:
                assert c <= 4, (s, name)
            if "Land" not in cdef.types:
                assert set(cdef.colors) <= land_colors(new), (s, name)
        assert lands - 2 <= sum(map(_is_land, new)) <= lands + 2
        assert land_colors(new) <= colors | land_colors(new)


def test_a_pool_file_limits_the_cards_and_their_copies(tmp_path: Path) -> None:
    deck = load_deck("starter_red")
    pool_file = tmp_path / "pool.txt"
    pool_file.write_text("".join(f"{n}\n" for _, n in deck.entries) + "2 Spark Elemental  # two\n1 Blaze\n")
    pool = load_pool(str(pool_file))
    cards = tuple(deck.card_names())
    swaps = candidate_swaps(cards, pool, (0, 40), 30, random.Random(0))
    assert swaps
    for s in swaps:
        assert s.into in pool.copies
        new = Counter(apply_swap(cards, s))
        assert new["Spark Elemental"] <= 2 and new["Blaze"] <= 1
    assert {s.into for s in swaps} <= {n for _, n in deck.entries} | {"Spark Elemental", "Blaze"}


def test_paired_seeds_are_identical_for_current_and_candidate() -> None:
    fld = parse_field(FIELD)
    cards = tuple(load_deck("starter_red").card_names())
    cand = apply_swap(cards, Swap(cards[-1], "Shock", 1))
    a = pair_specs(cards, "d", fld, [5, 9, 12], 7, ("heuristic", "heuristic"), 30)
    b = pair_specs(cand, "d", fld, [5, 9, 12], 7, ("heuristic", "heuristic"), 30)
    assert [s.seed for s in a] == [s.seed for s in b]
    assert [s.labels for s in a] == [s.labels for s in b] == [("a", "b"), ("b", "a")] * 3
    for x, y in zip(a, b, strict=True):  # the same opponent in the same seat
        opp_x = x.decks[x.labels.index("b")]
        opp_y = y.decks[y.labels.index("b")]
        assert opp_x is opp_y
    # the swapped copy keeps its library position
    da, db = a[0].decks[0].card_names(), b[0].decks[0].card_names()
    assert [i for i, (p, q) in enumerate(zip(da, db, strict=True)) if p != q] == [len(da) - 1]


def _tiny(seed: int, workers: int = 1):
    return run_tune("starter_red", FIELD, "tenth_edition", 60, seed=seed, workers=workers,
                    max_turns=20, schedule=TINY)


def test_a_run_is_reproducible_from_its_seed() -> None:
    a, b = _tiny(4), _tiny(4, workers=2)
    assert a.to_dict() | {"seconds": 0, "workers": 0} == b.to_dict() | {"seconds": 0, "workers": 0}
    assert a.games <= 60 and a.history


def test_tiny_budget_end_to_end(tmp_path: Path) -> None:
    field_file = tmp_path / "field.yaml"
    field_file.write_text("decks: {starter_green: 1}\n")
    out = tmp_path / "out"
    j = tmp_path / "t.json"
    res = runner.invoke(app, ["tune", "starter_red", "--field", str(field_file), "--budget", "100",
                              "--seed", "2", "--workers", "1", "--max-turns", "20", "--out",
                              str(out), "--json", str(j), "--no-progress"])
    assert res.exit_code == 0, res.output
    data = json.loads(j.read_text())
    assert 0 < data["games_spent"] <= 100
    assert (out / "tune.png").stat().st_size > 1000
    tuned = load_deck(str(out / "starter_red_tuned.txt"))
    assert len(tuned) == 40
    assert "final deck" in res.output


@pytest.mark.parametrize(("args", "message"), [
    (["--pool", "no_such_pool.txt"], "cannot read pool file 'no_such_pool.txt'"),
    (["--budget", "10"], "the budget of 10 games is too small"),
    (["--backend", "nope"], "unknown backend 'nope'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    field_file = tmp_path / "field.yaml"
    field_file.write_text("decks: {starter_green: 1}\n")
    res = runner.invoke(app, ["tune", "starter_red", "--field", str(field_file), "--out",
                              str(tmp_path / "o"), *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and len(res.output.strip().splitlines()) == 1, res.output


def test_a_deck_not_matching_the_pool_is_refused(tmp_path: Path) -> None:
    pool_file = tmp_path / "pool.txt"
    pool_file.write_text("Shock\nGrizzly Bears\n")
    field_file = tmp_path / "field.yaml"
    field_file.write_text("decks: {starter_green: 1}\n")
    res = runner.invoke(app, ["tune", "starter_red", "--field", str(field_file), "--pool",
                              str(pool_file), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert "does not match the pool pool" in res.output and len(res.output.strip().splitlines()) == 1
    with pytest.raises(MtgError, match="unknown card"):
        (tmp_path / "bad.txt").write_text("Shockk\n")
        load_pool(str(tmp_path / "bad.txt"))


def test_min_budget_counts_one_round() -> None:
    assert min_budget(TINY) == 2 * 3 * 2 + 2 * 2 * 2 + 2 * 4 + 4 * 3  # racing, current, one look
