"""Multiplayer tournaments (:mod:`mtg_env.sim.pod_tournament`, ``mtg-env pod-tournament``): the
balance of the schedule of tables, the finishing ranks a game's result gives, openskill ratings
(their direction, determinism), the files written, one-line errors.

Rules: 2012 806 (Free-for-All), 800.4 (a player who loses leaves; the last one left wins)."""

from __future__ import annotations

import csv
import itertools
import json
from collections import Counter

import pytest

from mtg_env import MtgError
from mtg_env.sim.pod import PodGameResult
from mtg_env.sim.pod_tournament import (
    MU,
    PodTournamentResult,
    finishing_places,
    game_ranks,
    rate_games,
    run_pod_tournament,
    schedule_tables,
)

FOUR = ["starter_green", "starter_red", "starter_white", "starter_blue_black"]


@pytest.mark.parametrize(("entrants", "size", "games"), [
    (6, 4, 150), (5, 3, 40), (4, 4, 12), (7, 5, 70), (8, 4, 60), (6, 6, 30), (9, 3, 54),
])
def test_the_schedule_balances_games_pairs_and_seats(entrants: int, size: int, games: int) -> None:
    tables = schedule_tables(entrants, size, games, seed=5)
    assert len(tables) == games
    assert all(len(set(t)) == size and set(t) <= set(range(entrants)) for t in tables)
    played = Counter(e for t in tables for e in t)
    assert len(played) == entrants and max(played.values()) - min(played.values()) <= 1
    pairs = Counter(frozenset(p) for t in tables for p in itertools.combinations(t, 2))
    met = [pairs[frozenset(p)] for p in itertools.combinations(range(entrants), 2)]
    mean_met = games * size * (size - 1) / (entrants * (entrants - 1))
    assert max(met) - min(met) <= 2 and min(met) >= mean_met - 1.5, met
    seats = Counter((e, s) for t in tables for s, e in enumerate(t))
    per_seat = [seats[(e, s)] for e in range(entrants) for s in range(size)]
    assert max(per_seat) - min(per_seat) <= 2, per_seat


def test_the_schedule_follows_the_seed() -> None:
    assert schedule_tables(7, 4, 30, seed=1) == schedule_tables(7, 4, 30, seed=1)
    assert schedule_tables(7, 4, 30, seed=1) != schedule_tables(7, 4, 30, seed=2)


def _result(seats: tuple[str, ...], winner: str | None, out: tuple[str, ...],
            error: str | None = None, index: int = 0) -> PodGameResult:
    ws = None if winner is None else seats.index(winner)
    return PodGameResult(index, 0, seats, winner, ws, 30, 500, "error" if error else "life", out,
                         (20,) * len(seats), error)


def test_ranks_are_the_winner_then_the_reverse_of_the_order_of_leaving() -> None:
    r = _result(("a", "b", "c", "d"), "b", ("d", "a", "c"))
    assert game_ranks(r) == [3, 1, 2, 4]
    assert finishing_places(game_ranks(r)) == [3.0, 1.0, 2.0, 4.0]


def test_a_draw_ranks_the_table_equal_and_an_error_is_left_out() -> None:
    draw = _result(("a", "b", "c"), None, ("a", "b", "c"))
    assert game_ranks(draw) == [1, 1, 1]
    assert finishing_places([1, 1, 1]) == [2.0, 2.0, 2.0]
    assert finishing_places([1, 2, 2, 4]) == [1.0, 2.5, 2.5, 4.0]
    assert game_ranks(_result(("a", "b", "c"), None, (), error="boom")) is None


def test_ratings_move_toward_the_finishing_order() -> None:
    # Entrant 0 always wins, 3 always leaves first; shared ranks move two entrants alike.
    games = [((0, 1, 2, 3), (1, 2, 3, 4)), ((3, 2, 1, 0), (4, 3, 2, 1)), ((1, 0, 3, 2), (2, 1, 4, 3))]
    (mu0, s0), (mu1, _), (mu2, _), (mu3, s3) = rate_games(4, games)
    assert mu0 > mu1 > MU > mu2 > mu3
    assert s0 < 25 / 3 and s3 < 25 / 3
    tied = rate_games(3, [((0, 1, 2), (1, 1, 3))])
    assert tied[0] == tied[1] and tied[0][0] > MU > tied[2][0]
    assert rate_games(3, [((0, 1, 2), (1, 1, 1))])[0][0] == pytest.approx(MU)
    # The order of the games matters to openskill, hence rating in index order.
    upset = [((0, 1, 2), (1, 2, 3)), ((0, 1, 2), (3, 2, 1))]
    assert rate_games(3, upset)[0][0] != pytest.approx(rate_games(3, upset[::-1])[0][0], abs=1e-6)


def test_errors_and_draws_are_counted_and_kept_out_of_the_shares() -> None:
    results = [_result(("a", "b", "c"), "a", ("c", "b"), index=0),
               _result(("b", "c", "a"), None, ("b", "c", "a"), index=1),
               _result(("c", "a", "b"), None, (), error="engine failure", index=2)]
    rated = [([0, 1, 2], game_ranks(results[0])), ([1, 2, 0], game_ranks(results[1]))]
    r = PodTournamentResult(["a", "b", "c"], ["random"] * 3, 3, "left", 0, results,
                            rate_games(3, rated))
    assert (r.draws, r.errors, len(r.played)) == (1, 1, 2)
    rows = {row["entrant"]: row for row in r.entrant_rows()}
    assert [rows[e]["games"] for e in "abc"] == [2, 2, 2]
    assert [rows[e]["wins"] for e in "abc"] == [1, 0, 0]
    assert rows["a"]["win_share"] == 0.5 and rows["a"]["mean_place"] == 1.5  # 1st, then 2nd of 3 tied
    assert rows["c"]["mean_place"] == 2.5 and rows["b"]["mean_place"] == 2.0
    assert r.table()["entrant"].iloc[0] == "a"
    seats = r.seat_rows()
    assert [s["wins"] for s in seats] == [1, 0, 0] and seats[0]["games"] == 2


def test_a_tournament_is_balanced_and_reproducible_across_workers() -> None:
    kw = {"table_size": 3, "games": 8, "agents": "random", "max_turns": 30, "seed": 4}
    a = run_pod_tournament(FOUR, workers=1, **kw)
    b = run_pod_tournament(FOUR, workers=2, **kw)
    assert a.results == b.results and a.ratings == b.ratings
    assert [g.index for g in a.results] == list(range(8))
    assert sorted(row["games"] for row in a.entrant_rows()) == [6, 6, 6, 6]
    assert a.errors == 0 and len(a.seat_rows()) == 3
    c = run_pod_tournament(FOUR, workers=1, **{**kw, "seed": 5})
    assert c.results != a.results


def test_a_deck_that_cannot_win_is_rated_below_the_winners(tmp_path) -> None:
    lands = tmp_path / "only_forests.txt"
    lands.write_text("# forty Forests: no way to deal damage\n40 Forest\n")
    r = run_pod_tournament([*FOUR[:3], str(lands)], table_size=3, games=16, agents="heuristic",
                           workers=1, max_turns=60, seed=0)
    t = r.table().set_index("entrant")
    assert t.loc["only_forests", "wins"] == 0
    assert t.loc["only_forests", "ordinal"] == t["ordinal"].min()
    assert t.loc["only_forests", "mu"] < MU < t["mu"].max()


def test_files_hold_the_table_and_every_game(tmp_path) -> None:
    r = run_pod_tournament(FOUR, table_size=3, games=5, agents="random", workers=1, max_turns=30)
    r.write_csv(tmp_path / "t.csv")
    r.write_json(tmp_path / "t.json")
    r.write_games_csv(tmp_path / "g.csv")
    r.chart(tmp_path / "t.png")
    with open(tmp_path / "t.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert [row["entrant"] for row in rows] == list(r.table()["entrant"])
    assert {"mu", "sigma", "ordinal", "games", "wins", "win_share", "ci_low", "ci_high",
            "mean_place"} <= set(rows[0])
    ordinals = [float(row["ordinal"]) for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    data = json.loads((tmp_path / "t.json").read_text())
    assert data["table_size"] == 3 and data["games"] == 5 and data["entrants"] == FOUR
    assert len(data["results"]) == 5 and len(data["by_entrant"]) == 4 and len(data["by_seat"]) == 3
    for g in data["results"]:
        assert g["ranks"] == game_ranks(next(x for x in r.results if x.index == g["index"]))
    with open(tmp_path / "g.csv") as fh:
        games = list(csv.DictReader(fh))
    assert len(games) == 5 and {"seat_2", "rank_2", "winner"} <= set(games[0])
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"entrants": FOUR, "table_size": 2}, "a table seats 3 to 6 players"),
    ({"entrants": FOUR, "table_size": 7}, "a table seats 3 to 6 players"),
    ({"entrants": FOUR, "table_size": 5}, "need at least 5 entrants"),
    ({"entrants": FOUR, "agents": "goldfish"}, "two-player games only"),
    ({"entrants": FOUR, "attack": "up"}, "unknown attack option"),
    ({"entrants": [*FOUR, "starter_green"]}, "distinct names"),
    ({"entrants": FOUR, "agents": ["random", "random"]}, "one agent for every seat"),
    ({"entrants": FOUR, "games": 0}, "games must be at least 1"),
])
def test_bad_tournaments_are_refused_before_any_game(kwargs: dict, message: str) -> None:
    with pytest.raises(MtgError, match=message):
        run_pod_tournament(**{"games": 3, "workers": 1, **kwargs})
