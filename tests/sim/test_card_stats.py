"""``mtg-env card-stats``: the per-game card records agree with a recount from the games'
replays, the rates are what the definitions say, the output files, reproducibility, errors."""

from __future__ import annotations

import csv
import doctest
import json
import re

import pytest
from typer.testing import CliRunner

import mtg_env.sim.card_stats as card_stats_module
import mtg_env.sim.matchup as matchup_module
from mtg_env import Deck
from mtg_env.cli import app
from mtg_env.sim.card_stats import SeatCards, card_rows, mulligan_rows, run_card_stats
from mtg_env.sim.matchup import run_matchup
from mtg_env.sim.replay import Replay

runner = CliRunner()
PLAYS = re.compile(r"^player (\d) plays (.+?)(?: targeting .*| from their graveyard)?$")


def test_docstring_examples() -> None:
    assert doctest.testmod(card_stats_module).failed == 0


def _recount(rep: Replay, seat: int) -> dict:
    """What the replay shows of seat ``seat``'s cards, counted afresh: the hands at every
    decision (a mulligan decision's hand apart), the log's "plays" lines."""
    seen: set[str] = set()
    offered: list[list[str]] = []

    def on_decision(game, n, text) -> None:
        hand = sorted(c.cdef.name for c in game.players[seat].hand)
        if game.decision.kind.value == "mulligan":
            if game.decision.player == seat:
                offered.append(hand)
        else:
            seen.update(hand)

    game = rep.run(on_decision)
    m = game.players[seat].mulligans
    opening = offered[m] if len(offered) > m else []
    seen |= set(opening) | {c.cdef.name for c in game.players[seat].hand}
    cast = {re.sub(r"#\d+$", "", mt.group(2)) for line in game.log
            if (mt := PLAYS.match(line)) and int(mt.group(1)) == seat}
    return {"opening": opening, "seen": sorted(seen), "cast": sorted(cast), "mulligans": m}


def test_counts_agree_with_a_recount_from_the_replays(tmp_path) -> None:
    res = run_card_stats(["kamahls_temper"], ["molimos_might"], games=6, seed=4, workers=2,
                         save_games=tmp_path)
    assert len(res.saved) == 6
    records = {r["index"]: r for r in res.records("kamahls_temper")}
    seats = {r.index: r.seats.index("a") for r in res.results["kamahls_temper"]}
    drawn: dict[str, int] = {}
    for path in res.saved:
        index = int(path.name[len("game"):].split("_")[0])
        again = _recount(Replay.load(path), seats[index])
        rec = records[index]
        assert {k: rec[k] for k in again} == again, path.name
        assert set(rec["opening"]) <= set(rec["seen"]) and rec["cast"]
        for name in again["seen"]:
            drawn[name] = drawn.get(name, 0) + 1
    table = {row["card"]: row for row in res.table("kamahls_temper")}
    assert {name: row["drawn"] for name, row in table.items() if row["drawn"]} == drawn
    assert all(row["games"] == 6 for row in table.values())


def test_tracking_plays_the_same_games_as_a_matchup() -> None:
    res = run_card_stats(["starter_red"], ["starter_green"], games=4, seed=9, workers=1)
    alone = run_matchup("starter_red", "starter_green", games=4, seed=9, workers=1)
    tracked = [r.to_dict() | {"seconds": 0} for r in res.results["starter_red"]]
    assert all(d.pop("cards") for d in tracked)  # the result carries both seats' cards
    assert tracked == [r.to_dict() | {"seconds": 0} for r in alone.results]


def test_reproducible_from_the_seed_for_any_number_of_workers() -> None:
    a = run_card_stats(["starter_red", "starter_white"], ["starter_green"], games=2, seed=2, workers=1)
    b = run_card_stats(["starter_red", "starter_white"], ["starter_green"], games=2, seed=2, workers=2)
    c = run_card_stats(["starter_red", "starter_white"], ["starter_green"], games=2, seed=3, workers=1)
    for deck in ("starter_red", "starter_white"):
        assert a.records(deck) == b.records(deck)
        assert a.table(deck) == b.table(deck) or _nan_equal(a.table(deck), b.table(deck))
        assert [r["seed"] for r in a.records(deck)] != [r["seed"] for r in c.records(deck)]


def _nan_equal(x: list[dict], y: list[dict]) -> bool:
    return json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)  # NaN == NaN as text


def test_rates_by_hand() -> None:
    """Four games: Shock drawn in games 1 (won, in the opening hand, cast) and 2 (lost), not in
    3 (won) and 4 (a draw). GIH WR 1/2, GND WR 1/1 (the draw isn't decisive), IWD -0.5."""
    deck = Deck.from_text("2 Shock\n3 Mountain\n1 Grizzly Bears", name="t", min_size=0)

    def cards(seen, opening=(), cast=(), mulligans=0):
        return SeatCards(tuple(opening), tuple(seen), tuple(cast), mulligans)

    outcomes = [(cards(["Shock", "Mountain"], ["Shock"], ["Shock"]), True),
                (cards(["Shock", "Mountain"], mulligans=1), False),
                (cards(["Mountain"], mulligans=2), True),
                (cards(["Mountain"]), None)]
    rows = {r["card"]: r for r in card_rows(deck, outcomes)}
    s = rows["Shock"]
    assert (s["copies"], s["games"], s["drawn"], s["opening"], s["cast"]) == (2, 4, 2, 1, 1)
    assert (s["gih_wr"], s["gih_decisive"], s["gnd_wr"], s["gnd_decisive"]) == (0.5, 2, 1.0, 1)
    assert s["iwd"] == -0.5 and s["oh_wr"] == 1.0 and s["drawn_pct"] == 0.5
    assert rows["Mountain"]["gih_wr"] == pytest.approx(2 / 3)
    bears = rows["Grizzly Bears"]
    assert bears["drawn"] == 0 and bears["gih_wr"] != bears["gih_wr"]  # NaN: never drawn
    assert [r["card"] for r in card_rows(deck, outcomes)] == ["Mountain", "Shock", "Grizzly Bears"]
    # mulligans: 4 hands of 7 offered, 2 sent back; 2 hands of 6, 1 sent back; 1 hand of 5, kept
    mull = mulligan_rows(outcomes)
    assert [(r["hand_size"], r["offered"], r["mulligans"], r["kept"]) for r in mull] == [
        (7, 4, 2, 2), (6, 2, 1, 1), (5, 1, 0, 1)]
    assert mull[0]["mulligan_rate"] == 0.5 and mull[0]["kept_wr"] == 1.0  # kept 7: a win, a draw
    assert mull[1]["kept_wr"] == 0.0 and mull[2]["kept_wr"] == 1.0


def test_cli_prints_and_writes_json_csv_and_png(tmp_path) -> None:
    out = tmp_path / "out"
    res = runner.invoke(app, ["card-stats", "starter_red", "starter_white", "--vs", "starter_green",
                              "-n", "2", "--workers", "1", "--out", str(out), "--json", str(out / "c.json"),
                              "--csv", str(out / "c.csv"), "--no-progress"])
    assert res.exit_code == 0, res.output
    for text in ("opponents: starter_green", "starter_red: 2 games", "starter_white: 2 games", "GIH WR",
                 "GND WR", "IWD", "mulligans", "hand size", "Mountain"):
        assert text in res.output
    data = json.loads((out / "c.json").read_text())
    assert {"agent", "opponent_agent", "seed", "games_per_opponent", "opponents", "decks"} <= set(data)
    assert [d["deck"] for d in data["decks"]] == ["starter_red", "starter_white"]
    first = data["decks"][0]
    assert {"games", "wins", "losses", "draws", "win_rate", "cards", "mulligans", "game_records"} <= set(first)
    assert {"card", "copies", "drawn", "opening", "cast", "gih_wr", "gih_ci_low", "gih_ci_high",
            "gnd_wr", "iwd", "oh_wr"} <= set(first["cards"][0])
    assert len(first["game_records"]) == 2 and {"opening", "seen", "cast", "mulligans"} <= set(
        first["game_records"][0])
    rows = list(csv.DictReader((out / "c.csv").open()))
    assert {r["deck"] for r in rows} == {"starter_red", "starter_white"}
    assert len(rows) == len(Deck.builtin("starter_red").entries) + len(Deck.builtin("starter_white").entries)
    assert (out / "card_stats.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_help() -> None:
    res = runner.invoke(app, ["card-stats", "-h"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "--vs" in res.output and "--progress / --no-progress" in res.output


@pytest.mark.parametrize(("args", "message"), [
    (["starter_rd", "--vs", "starter_green"], "unknown deck 'starter_rd'; did you mean 'starter_red'"),
    (["starter_red", "--vs", "starter_gren"], "unknown deck 'starter_gren'; did you mean 'starter_green'"),
    (["starter_red", "--vs", "starter_green,"], "--vs: empty name"),
    (["starter_red", "starter_red", "--vs", "starter_green"], "each analysed deck may appear once"),
    (["starter_red", "--vs", "starter_green", "-n", "0"], "games must be at least 1"),
    (["starter_red", "--vs", "starter_green", "--agent", "genius"], "unknown agent 'genius'"),
    (["starter_red", "--vs", "starter_green", "--workers", "0"], "workers must be"),
])
def test_bad_input_gives_one_line_errors(tmp_path, monkeypatch, args: list[str], message: str) -> None:
    import mtg_env.cli as cli

    started = []
    monkeypatch.setattr(cli, "_before_games", lambda: started.append(1))
    monkeypatch.setattr(matchup_module, "run_games",
                        lambda *a, **k: pytest.fail("a game started"))  # the duplicate deck check
    res = runner.invoke(app, ["card-stats", *args, "--out", str(tmp_path), "--no-progress"])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_missing_vs_is_a_usage_error() -> None:
    res = runner.invoke(app, ["card-stats", "starter_red"])
    assert res.exit_code == 2 and "--vs" in res.output


def test_chart_of_rates_of_zero_and_one(tmp_path) -> None:
    """A deck that won every game: each drawn card's GIH WR is 100% and its Wilson interval's
    top may differ from 1 by a rounding error (the chart must not take it for a negative bar)."""
    res = run_card_stats(["starter_red"], ["starter_green"], games=2, agents=("heuristic", "random"),
                         workers=1)
    assert res.summary("starter_red")["wins"] == 2
    res.chart(tmp_path / "c.png")
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
