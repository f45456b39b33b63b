"""How often the gauntlet's 95% interval for a weighted win rate covers the true value, against
the plain delta method (Wald) and a stratified percentile bootstrap, on synthetic fields where
the truth is known: each opponent's games are independent Bernoulli trials with a known win
probability. Prints a markdown table (coverage and mean width); docs/sim.md quotes it.

With ``--pairs`` it also measures, on real heuristic games, the correlation between a deck's
results in the two games of a seat-swapped pair (same seed, seats swapped), which the interval
treats as independent games.

    python benchmarks/interval_coverage.py              # 2,000 simulated runs per field
    python benchmarks/interval_coverage.py --runs 500
    python benchmarks/interval_coverage.py --pairs --games 400   # + three real matchups
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from mtg_env.sim.gauntlet import weighted_interval

Z = 1.959963984540054
# (win probabilities, shares, decisive games per opponent)
FIELDS = [
    ([0.5, 0.5, 0.5, 0.5, 0.5], [0.2] * 5, 10),
    ([0.6, 0.45, 0.7], [0.5, 0.25, 0.25], 100),
    ([0.9, 0.95, 0.8, 0.6, 0.97], [0.4, 0.3, 0.1, 0.1, 0.1], 10),
    ([0.9, 0.95, 0.8, 0.6, 0.97], [0.4, 0.3, 0.1, 0.1, 0.1], 50),
    ([0.1, 0.05, 0.3, 0.5, 0.02], [0.5, 0.125, 0.125, 0.125, 0.125], 20),
    ([0.98, 0.99, 0.95], [0.5, 0.25, 0.25], 30),
]


def wald(wins: np.ndarray, n: int, s: np.ndarray) -> tuple[float, float]:
    p = wins / n
    c = float(s @ p)
    se = math.sqrt(float((s**2 * p * (1 - p) / n).sum()))
    return c - Z * se, c + Z * se


def bootstrap(wins: np.ndarray, n: int, s: np.ndarray, rng: np.random.Generator,
              resamples: int) -> tuple[float, float]:
    # Resampling an opponent's n games with replacement draws Binomial(n, wins/n) wins.
    boot = rng.binomial(n, wins / n, size=(resamples, len(wins))) / n @ s
    return float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))


def pair_correlation(games: int, seed: int) -> None:
    """The correlation of deck A's wins across the two games of each pair, three matchups."""
    import agents  # noqa: F401  (registers the agents by name)
    from mtg_env.sim import run_matchup

    print("\n| matchup | pairs | A's win rate | within-pair correlation |")
    print("|---|---:|---:|---:|")
    for a, b in (("kamahls_temper", "molimos_might"), ("red_burn", "white_weenie"),
                 ("arcaniss_guile", "evincars_tyranny")):
        m = run_matchup(a, b, games=games, seed=seed)
        pairs: dict[int, list] = {}
        for r in m.results:
            pairs.setdefault(r.seed, []).append(r)
        x, y = [], []
        for rs in pairs.values():
            if len(rs) == 2 and all(r.winner is not None for r in rs):
                x.append(rs[0].winner == "a")
                y.append(rs[1].winner == "a")
        rate = (sum(x) + sum(y)) / (2 * len(x))
        corr = float(np.corrcoef(np.array(x, float), np.array(y, float))[0, 1])
        print(f"| {a} vs {b} | {len(x)} | {rate:.1%} | {corr:+.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2000, help="simulated runs per field")
    ap.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pairs", action="store_true", help="also measure the within-pair correlation")
    ap.add_argument("--games", type=int, default=400, help="games per matchup with --pairs")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print("| win probabilities | shares | games each | Price-Bonett (used) | delta method (Wald) "
          "| stratified bootstrap |")
    print("|---|---|---:|---|---|---|")
    for ps, shares, n in FIELDS:
        p, s = np.array(ps), np.array(shares)
        truth = float(s @ p)
        hits = {"pb": 0, "wald": 0, "boot": 0}
        width = dict.fromkeys(hits, 0.0)
        for _ in range(args.runs):
            wins = rng.binomial(n, p)
            r = weighted_interval(list(wins), [n] * len(p), list(s))
            for key, (lo, hi) in (("pb", (r["ci_low"], r["ci_high"])), ("wald", wald(wins, n, s)),
                                  ("boot", bootstrap(wins, n, s, rng, args.resamples))):
                hits[key] += lo <= truth <= hi
                width[key] += hi - lo
        cells = [f"{hits[k] / args.runs:.1%} (width {width[k] / args.runs:.3f})" for k in hits]
        print(f"| {', '.join(f'{x:g}' for x in ps)} | {', '.join(f'{x:g}' for x in shares)} | {n} | "
              + " | ".join(cells) + " |")
    if args.pairs:
        pair_correlation(args.games, args.seed)


if __name__ == "__main__":
    main()
