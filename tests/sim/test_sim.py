"""Simulation: seeds, seat balance, statistics, ratings, determinism across backends, outputs."""

from __future__ import annotations

import json
import math

import pytest

from mtg_env.sim import (
    GameResult,
    bootstrap_ratings,
    bradley_terry,
    default_deck_names,
    derive_seed,
    run_matchup,
    run_matrix,
    run_tournament,
    summarize,
    wilson_interval,
)
from mtg_env.sim.decks import STARTER_DECKS, THEME_DECKS, loadable_builtin_names

DECKS = default_deck_names()


def test_default_decks_are_the_theme_decks_when_they_load() -> None:
    loadable = set(loadable_builtin_names())
    if set(THEME_DECKS) <= loadable:
        assert list(THEME_DECKS) == DECKS
    else:
        assert [d for d in STARTER_DECKS if d in loadable] == DECKS


def test_derived_seeds_are_stable() -> None:
    # Pinned: a change here changes every published result for a given --seed.
    assert derive_seed(0, "a|b", 0) == derive_seed(0, "a|b", 0)
    assert derive_seed(0, "a|b", 0) == 238961915300797812
    assert len({derive_seed(1, "x", k) for k in range(1000)}) == 1000


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_wilson_interval_matches_scipy() -> None:
    """The closed form gives scipy's ``binomtest(...).proportion_ci(method="wilson")``, at the
    edges (0 and n successes) and for other confidence levels too."""
    from scipy.stats import binomtest

    for n in (1, 2, 7, 40, 1000):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for conf in (0.8, 0.95, 0.99):
                ci = binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
                lo, hi = wilson_interval(k, n, conf)
                assert lo == pytest.approx(ci.low, abs=1e-12), (k, n, conf)
                assert hi == pytest.approx(ci.high, abs=1e-12), (k, n, conf)


def _r(i: int, winner: str | None, play: str, seats=("a", "b"), error: str | None = None) -> GameResult:
    return GameResult(i, 1, seats, winner, play, 10, 100, "life", (1, 0), error)


def test_summary_counts_draws_apart_and_leaves_out_errors() -> None:
    rs = [_r(0, "a", "a"), _r(1, "a", "b", ("b", "a")), _r(2, "b", "a"), _r(3, None, "b"),
          _r(4, None, "a", error="engine error")]
    s = summarize(rs)
    assert (s["games"], s["wins_a"], s["wins_b"], s["draws"], s["errors"]) == (4, 2, 1, 1, 1)
    assert s["win_rate_a"]["rate"] == pytest.approx(2 / 3)
    assert s["win_rate_a_on_the_play"]["rate"] == pytest.approx(1 / 2)
    assert s["win_rate_a_on_the_draw"]["rate"] == 1.0
    assert s["on_the_play_win_rate"]["rate"] == pytest.approx(1 / 3)


def test_bradley_terry_and_bootstrap() -> None:
    games = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10 + [(1, 2, 0.5)] * 6
    r = bradley_terry(3, games)
    assert r.mean() == pytest.approx(1500)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=15)
    a = bootstrap_ratings(3, games, resamples=50, seed=3)
    b = bootstrap_ratings(3, games, resamples=50, seed=3)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert (a[1] <= a[0]).all() and (a[0] <= a[2]).all()


def test_matchup_is_seat_balanced_and_identical_for_any_worker_count() -> None:
    one = run_matchup(DECKS[0], DECKS[1], games=8, agents="heuristic", seed=11, workers=1)
    two = run_matchup(DECKS[0], DECKS[1], games=8, agents="heuristic", seed=11, workers=2)
    assert one.results == two.results
    rs = one.results
    assert len(rs) == 8
    for a, b in zip(rs[::2], rs[1::2], strict=True):
        assert a.seed == b.seed and a.seats == ("a", "b") and b.seats == ("b", "a")
        assert a.on_the_play != b.on_the_play  # same coin flip, decks swapped
    assert sum(r.on_the_play == "a" for r in rs) == 4
    other = run_matchup(DECKS[0], DECKS[1], games=8, agents="heuristic", seed=12, workers=1)
    assert [r.seed for r in other.results] != [r.seed for r in rs]


def test_matchup_outputs(tmp_path) -> None:
    m = run_matchup(DECKS[0], DECKS[1], games=3, agents=("heuristic", "random"), seed=1, workers=1)
    assert len(m.results) == 4  # rounded up to whole seat-swapped pairs
    m.write_json(tmp_path / "m.json")
    m.write_csv(tmp_path / "m.csv")
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["agent_a"] == "heuristic" and data["agent_b"] == "random"
    assert len(data["game_results"]) == 4
    lines = (tmp_path / "m.csv").read_text().splitlines()
    assert lines[0].startswith("game,seed,seat_a,winner") and len(lines) == 5


def test_matrix_and_tournament_outputs(tmp_path) -> None:
    mx = run_matrix(DECKS[:3], games=2, agents="random", seed=2, workers=2)
    assert len(mx.matchups) == 3
    wr = mx.win_rates()
    assert list(wr.index) == DECKS[:3]
    for a in DECKS[:3]:
        assert math.isnan(wr.loc[a, a])
    a, b = DECKS[0], DECKS[1]
    if not math.isnan(wr.loc[a, b]):
        assert wr.loc[a, b] + wr.loc[b, a] == pytest.approx(1.0)
    mx.write_csv(tmp_path / "matrix.csv")
    mx.heatmap(tmp_path / "matrix.png")
    assert (tmp_path / "matrix.png").read_bytes()[:4] == b"\x89PNG"
    t = run_tournament(["random", "heuristic"], DECKS[:2], games=4, seed=1, workers=1, resamples=20)
    assert t.kind == "agents" and len(t.results) == 4
    # Duplicate pairs: same seed and decks, the agents swapped.
    first, second = t.results[0], t.results[1]
    assert first.seed == second.seed and first.seats == ("0", "1") and second.seats == ("1", "0")
    table = t.table()
    assert list(table.columns[:4]) == ["entrant", "rating", "ci_low", "ci_high"]
    t.chart(tmp_path / "t.png")
    d = run_tournament(["heuristic"], DECKS[:3], games=2, seed=1, workers=2, resamples=10)
    assert d.kind == "decks" and len(d.results) == 6 and set(d.entrants) == set(DECKS[:3])


def test_ray_backend_matches_local() -> None:
    ray = pytest.importorskip("ray", reason="the ray backend needs the [ray] extra")
    local = run_matchup(DECKS[0], DECKS[-1], games=6, agents="heuristic", seed=5, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_matchup(DECKS[0], DECKS[-1], games=6, agents="heuristic", seed=5, backend="ray")
    finally:
        ray.shutdown()
    assert remote.results == local.results and remote.backend == "ray"
