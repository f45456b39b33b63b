"""``mtg-env gauntlet``: field files and their weights, the weighted win rate and its interval,
the output files, reproducibility and the one-line errors."""

from __future__ import annotations

import csv
import doctest
import json
import math
import random

import pytest
from typer.testing import CliRunner

import mtg_env.sim.gauntlet as gauntlet_module
from mtg_env.cli import app
from mtg_env.engine.deck import CONSTRUCTED_DECKS
from mtg_env.sim.gauntlet import parse_field, run_gauntlet, weighted_interval, weighted_win_rate
from mtg_env.sim.matchup import run_matchup

runner = CliRunner()
FIELD = {"decks": {"starter_green": 3, "starter_white": 1}}


def test_docstring_examples() -> None:
    assert doctest.testmod(gauntlet_module).failed == 0


def test_weights_combine_as_documented() -> None:
    """The docs' example: a group's weight is shared evenly by its ten decks, and a deck named
    itself and through a group gets both. Total 2 + 1 + 1 = 4."""
    f = parse_field({"decks": {"red_burn": 2, "white_weenie": 1, "constructed": 1}})
    by = {e.name: e for e in f.entries}
    assert set(by) == set(CONSTRUCTED_DECKS) and len(f.entries) == 10
    assert by["red_burn"].weight == pytest.approx(2.1) and by["red_burn"].share == pytest.approx(0.525)
    assert by["white_weenie"].weight == pytest.approx(1.1) and by["white_weenie"].share == pytest.approx(0.275)
    for name in set(CONSTRUCTED_DECKS) - {"red_burn", "white_weenie"}:
        assert by[name].share == pytest.approx(0.025)
    assert sum(e.share for e in f.entries) == pytest.approx(1.0)
    assert by["red_burn"].sources == ("red_burn", "constructed")
    assert [e.name for e in f.entries][:2] == ["red_burn", "white_weenie"]  # the file's order
    listed = parse_field({"decks": ["starter_red", "starter_green"], "name": "two"})
    assert [(e.name, e.share) for e in listed.entries] == [("starter_red", 0.5), ("starter_green", 0.5)]
    assert listed.name == "two"


def test_deck_files_are_relative_to_the_field_file(tmp_path) -> None:
    from mtg_env import Deck

    deck = Deck.builtin("starter_red")
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mine.txt").write_text("\n".join(f"{n} {c}" for n, c in deck.entries))
    (tmp_path / "field.yaml").write_text("decks:\n  decks/mine.txt: 2\n  Starter_Green: 1\n")
    f = gauntlet_module.load_field(tmp_path / "field.yaml")
    assert [(e.name, e.weight) for e in f.entries] == [("mine", 2.0), ("starter_green", 1.0)]


def test_weighted_interval_by_hand() -> None:
    """Shares 3:1 are 0.75 and 0.25; rates 6/10 and 1/10 give 0.75 * 0.6 + 0.25 * 0.1 = 0.475.
    The interval (k = 2 rates: add 1 win and 1 loss each): 7/12 and 2/12, centre
    0.75 * 7/12 + 0.25 * 2/12 = 0.479167, variance 0.75^2 * (7/12)(5/12)/12 +
    0.25^2 * (2/12)(10/12)/12 = 0.0121166, so 0.479167 -+ 1.959964 * 0.110075."""
    r = weighted_interval([6, 1], [10, 10], [3, 1])
    assert r["rate"] == pytest.approx(0.475)
    assert r["ci_low"] == pytest.approx(0.479167 - 1.959964 * 0.110075, abs=1e-5)
    assert r["ci_high"] == pytest.approx(0.479167 + 1.959964 * 0.110075, abs=1e-5)
    one = weighted_interval([10], [10], [1])  # one rate: the "plus four" interval, in [0, 1]
    assert one["rate"] == 1.0 and one["ci_high"] == 1.0 and 0.5 < one["ci_low"] < 0.8
    assert math.isnan(weighted_interval([1, 0], [2, 0], [1, 1])["rate"])


def test_weighted_interval_covers_lopsided_fields() -> None:
    """Where the plain delta method (and a bootstrap) cover a lopsided field far less than 95%
    of the time, the adjusted interval keeps its coverage (docs/sim.md gives the table)."""
    rng = random.Random(5)
    ps, shares, n = [0.98, 0.99, 0.95], [0.5, 0.25, 0.25], 30
    truth = sum(s * p for s, p in zip(shares, ps, strict=True))
    reps, hit, wald_hit = 1500, 0, 0
    for _ in range(reps):
        wins = [sum(rng.random() < p for _ in range(n)) for p in ps]
        r = weighted_interval(wins, [n] * 3, shares)
        hit += r["ci_low"] <= truth <= r["ci_high"]
        se = math.sqrt(sum(s * s * (w / n) * (1 - w / n) / n for s, w in zip(shares, wins, strict=True)))
        wald_hit += abs(r["rate"] - truth) <= 1.959964 * se
    assert hit / reps >= 0.94 and wald_hit / reps < 0.85


def test_expected_rate_is_the_weighted_mean_of_the_matchups() -> None:
    res = run_gauntlet("starter_red", FIELD, games=4, seed=3, workers=1)
    rows = res.rows()
    assert [r["opponent"] for r in rows] == ["starter_green", "starter_white"]
    assert [r["share"] for r in rows] == [0.75, 0.25]
    mean = sum(r["share"] * r["win_rate"] for r in rows)
    assert res.expected["all"]["rate"] == pytest.approx(mean)
    assert res.expected["all"]["ci_low"] <= mean <= res.expected["all"]["ci_high"]
    play = sum(r["share"] * r["on_the_play"] for r in rows)
    assert res.expected["on_the_play"]["rate"] == pytest.approx(play)
    # each opponent's games are the very games `mtg-env matchup` plays with the same seed
    for m in res.matchups:
        alone = run_matchup("starter_red", m.deck_b, games=4, seed=3, workers=1)
        assert [r.to_dict() | {"seconds": 0, "index": 0} for r in m.results] == \
               [r.to_dict() | {"seconds": 0, "index": 0} for r in alone.results]
    assert weighted_win_rate([m.results for m in res.matchups], [3, 1]) == res.expected


def test_reproducible_from_the_seed() -> None:
    def strip(d):
        return {k: v for k, v in d.items() if k not in ("seconds", "total_games_per_second")} | {
            "game_results": [g | {"seconds": 0} for g in d["game_results"]]}

    a = run_gauntlet("starter_red", FIELD, games=2, seed=11, workers=1).to_dict(games=True)
    b = run_gauntlet("starter_red", FIELD, games=2, seed=11, workers=2).to_dict(games=True)
    c = run_gauntlet("starter_red", FIELD, games=2, seed=12, workers=1).to_dict(games=True)
    a, b, c = strip(a), strip(b), strip(c)
    assert a | {"workers": 0} == b | {"workers": 0}
    assert [g["seed"] for g in a["game_results"]] != [g["seed"] for g in c["game_results"]]


def test_cli_prints_and_writes_json_csv_and_png(tmp_path) -> None:
    field = tmp_path / "field.yaml"
    field.write_text("name: test field\ndecks:\n  starter_green: 3\n  starter_white: 1\n")
    out = tmp_path / "out"
    res = runner.invoke(app, ["gauntlet", "starter_red", "--field", str(field), "-n", "3", "--workers", "1",
                              "--agent", "heuristic", "--opponent-agent", "random", "--out", str(out),
                              "--json", str(out / "g.json"), "--csv", str(out / "g.csv"), "--no-progress"])
    assert res.exit_code == 0, res.output
    for text in ("starter_red vs the field 'test field'", "heuristic vs random agents",
                 "expected win rate vs the field", "on the play", "on the draw", "Price-Bonett",
                 "playing 4 games per opponent, not 3"):
        assert text in res.output
    data = json.loads((out / "g.json").read_text())
    assert {"deck", "field", "agent", "opponent_agent", "seed", "games_per_opponent",
            "expected_win_rate", "expected_on_the_play", "expected_on_the_draw", "opponents",
            "game_results"} <= set(data)
    assert data["agent"] == "heuristic" and data["opponent_agent"] == "random"
    assert set(data["expected_win_rate"]) == {"rate", "ci_low", "ci_high"}
    assert [o["opponent"] for o in data["opponents"]] == ["starter_green", "starter_white"]
    assert len(data["game_results"]) == 8 and {g["opponent"] for g in data["game_results"]} == {
        "starter_green", "starter_white"}
    rows = list(csv.DictReader((out / "g.csv").open()))
    assert [r["opponent"] for r in rows] == ["starter_green", "starter_white"]
    assert {"weight", "share", "games", "wins", "losses", "draws", "win_rate", "win_rate_ci_low",
            "win_rate_ci_high", "on_the_play", "on_the_draw"} <= set(rows[0])
    assert (out / "gauntlet.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_help() -> None:
    res = runner.invoke(app, ["gauntlet", "-h"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "--field" in res.output and "--progress / --no-progress" in res.output


@pytest.mark.parametrize(("text", "message"), [
    ("decks:\n  red_brn: 2\n", "unknown deck 'red_brn'; did you mean 'red_burn'?"),
    ("decks:\n  constructd: 1\n", "did you mean the group 'constructed'?"),
    ("decks:\n  red_burn: 0\n", "the weight of 'red_burn' must be positive, got 0"),
    ("decks:\n  red_burn: -2\n", "the weight of 'red_burn' must be positive, got -2"),
    ("decks:\n  red_burn: lots\n", "the weight of 'red_burn' must be a positive number, got 'lots'"),
    ("decks:\n  red_burn: .inf\n", "must be a finite positive number"),
    ("decks: {}\n", "the field is empty"),
    ("decks:\n", "the field is empty"),
    ("", "is empty"),
    ("deck:\n  red_burn: 1\n", "unknown key(s) deck; allowed: decks, name"),
    ("name: x\n", "has no 'decks'"),
    ("decks:\n  red_burn: 1\n  red_burn: 2\n", "'red_burn' appears twice (line 3)"),
    ("decks: [red_burn\n", "is not valid YAML"),
    ("decks:\n  missing.txt: 1\n", "cannot read deck file"),
])
def test_bad_field_files_give_one_line_errors(tmp_path, monkeypatch, text: str, message: str) -> None:
    import mtg_env.cli as cli

    monkeypatch.setattr(cli, "_before_games", lambda: pytest.fail("a game started"))
    path = tmp_path / "field.yaml"
    path.write_text(text)
    res = runner.invoke(app, ["gauntlet", "starter_red", "--field", str(path), "--out", str(tmp_path)])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: field file ") and message in lines[0], lines


@pytest.mark.parametrize(("args", "message"), [
    (["--field", "nowhere.yaml"], "cannot read field file 'nowhere.yaml'"),
    (["-n", "0"], "games must be at least 1"),
    (["--agent", "heuristic,random"], "--agent takes one agent"),
    (["--opponent-agent", "genius"], "unknown agent 'genius'"),
    (["--backend", "mpi"], "unknown backend 'mpi'"),
])
def test_bad_options_give_one_line_errors(tmp_path, monkeypatch, args: list[str], message: str) -> None:
    import mtg_env.cli as cli

    monkeypatch.setattr(cli, "_before_games", lambda: pytest.fail("a game started"))
    field = tmp_path / "field.yaml"
    field.write_text("decks: [starter_green]\n")
    base = ["gauntlet", "starter_red", "--field", str(field), "--out", str(tmp_path)]
    res = runner.invoke(app, base + args)
    assert res.exit_code == 2 and message in res.output and len(res.output.strip().splitlines()) == 1, res.output


def test_the_shipped_field_and_the_docs_agree() -> None:
    """configs/field_constructed.yaml is the file docs/sim.md shows, with the shares it quotes."""
    from pathlib import Path

    import yaml

    repo = Path(__file__).resolve().parents[2]
    config = repo / "configs" / "field_constructed.yaml"
    doc = (repo / "docs" / "sim.md").read_text()
    shown = doc.split("for example `configs/field_constructed.yaml`:\n\n```yaml\n", 1)[1].split("```", 1)[0]
    assert yaml.safe_load(shown) == yaml.safe_load(config.read_text())
    by = {e.name: e for e in gauntlet_module.load_field(config).entries}
    assert sum(e.weight for e in by.values()) == pytest.approx(12)
    assert (round(by["red_burn"].weight, 6), f"{by['red_burn'].share:.1%}") == (3.2, "26.7%")
    assert f"{by['black_removal'].share:.1%}" == "1.7%"


def test_chart_of_rates_of_zero_and_one(tmp_path) -> None:
    res = run_gauntlet("starter_red", FIELD, games=2, agents=("heuristic", "random"), workers=1)
    assert [r["win_rate"] for r in res.rows()] == [1.0, 1.0]
    res.chart(tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"


def test_error_bars_are_never_negative() -> None:
    from mtg_env.sim.gauntlet import xerr
    from mtg_env.sim.stats import wilson_interval

    lo, hi = wilson_interval(13, 13)
    assert hi - 1.0 < 0  # the rounding error the charts met
    assert xerr(1.0, lo, hi) == [[pytest.approx(1.0 - lo)], [0.0]]
    assert min(min(x) for x in xerr(0.0, *wilson_interval(0, 5))) >= 0
